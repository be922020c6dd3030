"""Feedback for organizers: each session's count, average and distribution (a chart and a
table), every comment, and each speaker's private feedback link. The event's team reads it
(Right.READ); a new speaker link needs Right.PROGRAMME.

Bounded: one query for the sessions, one for the ratings counted, one for the comments, one
for the speakers with their sessions and one for their links, whatever the programme's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from confsched.agenda import feedback as feedback_service
from confsched.agenda.feedback_chart import distribution_svg
from confsched.programme.models import Speaker
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_page
from confsched.web.site.private import keep_private


@dataclass(frozen=True)
class SpeakerRow:
    """A speaker with published sessions, and their private link's address ("" for none)."""

    speaker: Speaker
    session_count: int
    feedback_url: str


@require_safe
def feedback_staff(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.READ)
    if isinstance(found, HttpResponse):
        return found
    sessions = feedback_service.event_feedback(found)
    for item in sessions:
        if item.summary.count:
            item.chart = distribution_svg(
                item.summary,
                title=gettext("Ratings of %(title)s, 5 stars to 1") % {"title": item.session.title},
            )
    rated = [item for item in sessions if item.summary.count]
    tokens = feedback_service.speaker_links(found)
    speakers = [
        SpeakerRow(
            speaker=speaker,
            session_count=speaker.session_count,
            feedback_url=request.build_absolute_uri(
                reverse(
                    "web:feedback_speaker",
                    kwargs={"event": found.slug, "token": tokens[speaker.pk]},
                )
            )
            if speaker.pk in tokens
            else "",
        )
        for speaker in Speaker.objects.filter(event=found)
        .annotate(
            session_count=Count(
                "sessions",
                filter=Q(sessions__needs_review=False, sessions__starts_at__isnull=False),
            )
        )
        .filter(session_count__gt=0)
        .order_by("name", "pk")
    ]
    response = event_page(
        request, "confsched/feedback_staff.html", event=found, sessions=sessions, rated=rated,
        speakers=speakers, total=sum(item.summary.count for item in sessions),
        unrated_count=len(sessions) - len(rated),
        comment_total=sum(len(item.comments) for item in sessions),
    )  # fmt: skip
    # It lists the speakers' private links: no cache keeps it.
    return keep_private(response)


@require_POST
def feedback_speaker_link(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """Make the speaker's private link, or a new one in place of the old (which stops working)."""
    found = event_for(request, event, need=Right.PROGRAMME)
    if isinstance(found, HttpResponse):
        return found
    speaker = Speaker.objects.filter(event=found, key=key).first()
    if speaker is None:
        raise Http404(f"No speaker {key!r}")
    feedback_service.reset_speaker_link(speaker)
    target = reverse("web:feedback_staff", kwargs={"event": found.slug})
    return redirect(f"{target}#speaker-{speaker.pk}")
