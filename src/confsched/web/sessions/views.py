"""Session and speaker pages, the speakers list, a session as .ics."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_safe

from confsched.agenda.demand import likely_full_session_keys
from confsched.programme import queries
from confsched.search.similar import similar_ids
from confsched.speakers.showing import preview_for, slide_previews
from confsched.web.agenda.seats import attach_seat_html
from confsched.web.schedule.frames import outline_of
from confsched.web.schedule.pages import (
    SPEAKERS_PARAMETERS,
    built_stencil,
    marked,
    personal_page,
    star_html,
)
from confsched.web.sessions.frames import Shown, framed_session_page
from confsched.web.sessions.structured_data import session_json_ld
from confsched.web.site.calendars import calendar_response, event_etag
from confsched.web.site.fragments import attach_cards, attach_star_urls
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.stencils import Markers, Stencil
from confsched.web.site.zones import viewer_zone

# A link without a title is named by its kind (programme.models.LinkKind); session.html
# translates that name with these.
LINK_KIND_WORDS = (gettext_noop("Slides"), gettext_noop("Video"), gettext_noop("Link"))


@require_safe
def session_detail(request: HttpRequest, event: str, key: str) -> HttpResponse:
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)
    # Stars change without a new schedule version, so "likely full" is not baked into the one
    # kept page: it picks one of two, from a per-event set kept a minute (only when shown).
    is_likely_full = event_row.show_likely_full and key in likely_full_session_keys(event_row)

    shown: list[Shown] = []  # what the page built shows (frames.py)

    def render(markers: Markers | None, starred: set[int]) -> tuple[HttpResponse, list]:
        # Looked up only when the page is built: a kept page needs no session row.
        session = queries.session_for_key(event_row, key)
        if session is None:
            raise Http404(f"No session {key!r}")
        url = request.build_absolute_uri(session.get_absolute_url())
        attach_star_urls([session], event=event_row)
        attach_seat_html(request, event_row, [session], markers=markers)
        # The cards beside it come from the outline the process holds (as the list's do),
        # and are rendered only when no page rendered them before.
        outline = outline_of(event_row)
        nearby, track_total = queries.track_neighbours(outline, session, limit=SAME_TRACK_SHOWN)
        # Built with the page, once per schedule version and version of the vectors.
        nearest, by_meaning = similar_ids(session, limit=SIMILAR_SHOWN)
        nearby = [row.copy() for row in nearby]  # the outline is shared: cards go on copies
        similar = [row.copy() for row in queries.outlines_in_order(outline, nearest)]
        attach_cards(
            [*nearby, *similar], event=event_row, zone=viewer.zone, heading=3, show_day=True
        )
        previews = slide_previews(session)
        slides = [(link, preview_for(link.url, previews)) for link in session.slide_links]
        page = event_page(
            request, "confsched/session.html", event=event_row, viewer=viewer,
            moment=session.starts_at, session=session,
            star_html=star_html(request, session, markers=markers, starred=starred),
            same_track=nearby, same_track_total=track_total, is_likely_full=is_likely_full,
            similar=similar, slide_previews=slides,
            json_ld=session_json_ld(session, event=event_row, url=url), **marked(markers),
        )  # fmt: skip
        shown.append(
            Shown(
                session=session.pk, title=session.title, track=session.track_id,
                same_track=tuple(row.pk for row in nearby),
                track_total=track_total, similar=tuple(nearest), by_meaning=by_meaning,
                limit=SIMILAR_SHOWN,
            )
        )  # fmt: skip
        return page, [session]

    def build(place: str, _page: str) -> Stencil:
        return framed_session_page(
            place, event=event_row, build=lambda: (built_stencil(render), shown[-1])
        )

    name = f"session:{key}:likely-full" if is_likely_full else f"session:{key}"
    return personal_page(
        request, event_row, viewer, name=name, render=render, shows_vectors=True, build=build
    )


# A session page lists the track's next sessions and links to the whole track, and shows the
# sessions most similar to it.
SAME_TRACK_SHOWN = 6
SIMILAR_SHOWN = 5


@require_safe
def speakers(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)

    def render(markers: Markers | None, starred: set[int]) -> tuple[HttpResponse, list]:
        # ?q= searches names and companies; each address is its own kept page.
        q = " ".join(request.GET.get("q", "").split())[:200]
        people = queries.speakers_listed(event_row, q=q)
        letters: dict[str, list] = {}
        for person in people:
            letters.setdefault(person.name[:1].upper(), []).append(person)
        page = event_page(
            request, "confsched/speakers.html", event=event_row, viewer=viewer,
            letters=sorted(letters.items()), nav="speakers", speaker_count=len(people), q=q,
            **marked(markers),
        )  # fmt: skip
        return page, []

    return personal_page(
        request, event_row, viewer, name="speakers", render=render, parameters=SPEAKERS_PARAMETERS
    )


@require_safe
def speaker_detail(request: HttpRequest, event: str, key: str) -> HttpResponse:
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)

    def render(markers: Markers | None, starred: set[int]) -> tuple[HttpResponse, list]:
        person = queries.speaker_for_key(event_row, key)  # only when the page is built
        if person is None:
            raise Http404(f"No speaker {key!r}")
        page = event_page(
            request, "confsched/speaker.html", event=event_row, viewer=viewer, speaker=person,
            nav="speakers", sessions=queries.sessions_of_speaker(person),
            schedule_url=reverse("web:schedule", kwargs={"event": event_row.slug}),
            **marked(markers),
        )  # fmt: skip
        return page, []

    return personal_page(request, event_row, viewer, name=f"speaker:{key}", render=render)


@require_safe
def session_calendar(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """One session as .ics: "add to calendar"."""
    event_row = event_or_404(event)
    session = queries.session_for_key(event_row, key)
    if session is None:
        raise Http404(f"No session {key!r}")
    return calendar_response(
        request, event=event_row, keys={key}, name=session.full_title,
        filename=f"{key[:60]}.ics", etag=event_etag(event_row, "session", key),
    )  # fmt: skip
