"""The draft page for organizers: whether the event has a draft, what releasing it would change
(the change log it would write), and the buttons to start, discard and release it.

Plain forms (no JavaScript needed), answered by a redirect (so a reload sends nothing twice);
a refused action answers 400 with the page and what was wrong.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from confsched.core.errors import DraftError
from confsched.core.numbers import INTEGER_MAX, parse_count
from confsched.programme.changes import source_label
from confsched.programme.history import summary_in_language
from confsched.programme.models import Event
from confsched.programme.services import (
    discard_draft,
    draft_for,
    release_draft,
    release_preview,
    start_draft,
)
from confsched.programme.services.drafts import (
    changed_since_draft,
    draft_sessions_waiting,
    last_version_number,
)
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_page

DONE = {
    "started": gettext_lazy(
        "The draft is started: a copy of what attendees see, for you to change."
    ),
    "discarded": gettext_lazy("The draft is discarded; attendees' programme is as it was."),
}


def _editor_event(request: HttpRequest, slug: str) -> Event | HttpResponse:
    """Who may prepare and release the programme: the one door of these views."""
    return event_for(request, slug, need=Right.PROGRAMME)


def _act(request: HttpRequest, event: Event) -> str:
    """Do what the form asks; the query string of the page to come back to."""
    action = request.POST.get("action", "")
    if action == "start":
        start_draft(event)
        return "?done=started"
    if action == "discard":
        discard_draft(event)
        return "?done=discarded"
    if action == "release":
        editor = request.user.get_username()
        version = release_draft(
            event, name=request.POST.get("name", ""), editor=editor,
            seen=parse_count(request.POST.get("seen", ""), most=INTEGER_MAX),
        )  # fmt: skip
        return f"?released={version.number}"
    raise DraftError(f"no action {action!r}: start, discard or release")


@require_http_methods(["GET", "HEAD", "POST"])
def draft(request: HttpRequest, event: str) -> HttpResponse:
    found = _editor_event(request, event)
    if isinstance(found, HttpResponse):
        return found
    problem, status = "", 200
    if request.method == "POST":
        try:
            return redirect(
                reverse("web:draft", kwargs={"event": found.slug}) + _act(request, found)
            )
        except DraftError as exc:
            problem, status = str(exc), 400
    twin = draft_for(found)
    preview = release_preview(found) if twin else []
    since = changed_since_draft(found, preview) if twin else None
    response = event_page(
        request, "confsched/draft.html", event=found, status=status, problem=problem,
        draft=twin, preview=preview, since=since, seen=last_version_number(found),
        since_versions=[
            {
                "version": version,
                "source": source_label(version.source, for_team=True),
                "summary": summary_in_language(version.summary),
            }
            for version in (since.versions if since else [])
        ],
        waiting=draft_sessions_waiting(twin) if twin else 0,
        done=DONE.get(request.GET.get("done", ""), ""),
        released=parse_count(request.GET.get("released", ""), most=INTEGER_MAX),
        name=request.POST.get("name", "") if problem else "",
    )  # fmt: skip
    patch_cache_control(response, private=True, no_store=True)
    return response
