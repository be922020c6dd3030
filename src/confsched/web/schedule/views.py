"""The schedule as a list and as a grid, the zones page, the event (or a filtered view) as .ics."""

from __future__ import annotations

import hashlib
from datetime import date
from functools import partial
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from confsched.agenda.demand import likely_full_session_keys
from confsched.core.timezones import describe_zone, zone_names
from confsched.programme import queries
from confsched.programme.filtering import apply_filters, facet_rows, parse_filters
from confsched.programme.layout import Cell, days_and_slots, grid_days
from confsched.programme.models import Event
from confsched.web.agenda.seats import attach_seat_html
from confsched.web.schedule.frames import (
    CARD_END,
    CARD_START,
    event_fields,
    framed_stencil,
    outline_of,
    unframed,
)
from confsched.web.schedule.pages import (
    SCHEDULE_PARAMETERS,
    is_results_fragment,
    marked,
    personal_page,
    star_html,
    star_parts,
)
from confsched.web.site.calendars import calendar_response, event_etag
from confsched.web.site.fragments import attach_cards, attach_star_urls
from confsched.web.site.pages import event_moment, event_or_404, event_page
from confsched.web.site.stencils import Markers, Stencil
from confsched.web.site.zones import ViewerZone, viewer_zone


def _schedule(request: HttpRequest, slug: str, *, layout: str) -> HttpResponse:
    """The list or the grid."""
    event = event_or_404(slug)
    viewer = viewer_zone(request, event)
    is_fragment = is_results_fragment(request)
    # Stars change without a new schedule version: the likely-full sessions (a set kept a
    # minute) name the kept page, as on session pages, so a card shows "Likely full" as it is.
    full = likely_full_session_keys(event) if event.show_likely_full else frozenset()
    name = layout
    if full:
        name += ":full-" + hashlib.sha256(",".join(sorted(full)).encode()).hexdigest()[:16]

    def render(markers: Markers | None, starred: set[int], outline: list | None = None) -> Any:
        return _schedule_page(
            request, event, viewer, layout=layout, is_fragment=is_fragment, starred=starred,
            markers=markers, likely_full=full, outline=outline,
        )  # fmt: skip

    def build(place: str, page: str) -> Stencil:
        if parse_filters(dict(request.GET.lists())).q:  # a search reads whole sessions
            markers = Markers()
            page, sessions = render(markers, set())
            parts = unframed(markers.cut(page.content))
            return Stencil(parts, stars=star_parts(sessions), status=page.status_code)
        return framed_stencil(
            place, event=event_fields(event, describe_zone(viewer.zone, event_moment(event))),
            page=page, outline=outline_of(event), likely_full=full,
            render=lambda markers, outline: render(markers, set(), outline),
            star_parts=star_parts, card_context={
                "event": event, "zone": viewer.zone, "heading": _heading(layout)
            },
        )  # fmt: skip

    return personal_page(
        request, event, viewer, name=name, parameters=SCHEDULE_PARAMETERS, render=render,
        build=build,
    )  # fmt: skip


def _heading(layout: str) -> int:
    """The level of the cards' headings: under the slot's on the list, the day's on the grid."""
    return 4 if layout == "list" else 3


def _schedule_page(
    request: HttpRequest, event: Event, viewer: ViewerZone, *, layout: str, is_fragment: bool,
    starred: set[int], markers: Markers | None, likely_full: frozenset[str] = frozenset(),
    outline: list | None = None,
) -> tuple[HttpResponse, list]:  # fmt: skip
    filters = parse_filters(dict(request.GET.lists()))
    # Free text searches abstracts and speakers; otherwise the page reads an outline (or is
    # given the one its frame read), and whole rows only for the sessions whose cards are not
    # kept (attach_cards).
    sessions = (
        queries.published_sessions(event, with_texts=True)
        if filters.q
        else outline
        if outline is not None
        else queries.published_outline(event)
    )
    options = _facet_options(sessions, viewer, chosen_dates=filters.date)
    known = {facet: {slug for slug, _ in values} for facet, values in options.items()}
    del known["date"]  # any day may be asked for; one without sessions shows none
    result = apply_filters(sessions, filters, zone=viewer.zone, known=known)
    for session in result.sessions:
        session.is_likely_full = session.key in likely_full
    attach_cards(result.sessions, event=event, zone=viewer.zone, heading=_heading(layout))
    attach_star_urls(result.sessions, event=event)
    for session in result.sessions:
        session.star_html = star_html(request, session, markers=markers, starred=starred)
    attach_seat_html(request, event, result.sessions, markers=markers)
    days = days_and_slots(result.sessions, viewer.zone) if layout == "list" else None
    grid = grid_days(result.sessions, viewer.zone, to_scale=True) if layout == "grid" else None
    # Each slot's cards (each grid row's cells) joined here, not by template loops over every
    # session and cell: the page around the cards is what a change costs.
    for slot in (slot for day in days or () for slot in day.slots):
        slot.cards_html = _wraps(slot.sessions, "li", markers)
    for row in (row for day in grid or () for row in day.rows):
        row.cells_html = _cells(row.cells, markers)
    template = "confsched/_results.html" if is_fragment else "confsched/schedule.html"
    page = event_page(
        request, template, event=event, viewer=viewer, layout=layout, filters=filters,
        result=result, facets=_facets(options, result, filters), days=days, grid=grid,
        total=len(sessions), share_url=request.build_absolute_uri(),
        calendar_query=_calendar_query(request, viewer), nav=layout, **marked(markers),
    )  # fmt: skip
    return page, result.sessions


def _wraps(sessions: list, tag: str, markers: Markers | None) -> SafeString:
    """The sessions' cards, each with its star and seat controls, in a "card-wrap" `tag`; with
    `markers`, each card between the marks that let a frame replace it (frames.py)."""
    start, end = (
        (partial(markers.mark, CARD_START), partial(markers.mark, CARD_END))
        if markers
        else (_nothing, _nothing)
    )
    return mark_safe(  # noqa: S308 - our own escaped parts; pk is an integer
        "".join(
            f'<{tag} class="card-wrap" id="s-{session.pk}">{start(session.pk)}{session.card}'
            f"{end(session.pk)}{session.star_html}{session.seat_html}</{tag}>"
            for session in sessions
        )
    )


def _nothing(pk: int) -> str:  # noqa: ARG001 - in place of a marker
    return ""


def _cells(cells: list[Cell | None], markers: Markers | None) -> SafeString:
    """A grid row's cells: free, or holding the sessions that start there (none for a cell
    covered by one from a row above). A cell takes the focus from a tap outside its links (no
    tab stop of its own), which shows a short cell's whole card on a phone."""
    return mark_safe(  # noqa: S308 - the cards are escaped parts; the rest are integers
        "".join(
            '<td class="grid-free"></td>'
            if cell is None
            else f'<td class="grid-busy" rowspan="{cell.row_span}"><div class="grid-cell '
            f'steps-{cell.steps}" tabindex="-1">{_wraps(cell.sessions, "div", markers)}</div></td>'
            if cell.row_span
            else ""
            for cell in cells
        )
    )


def _calendar_query(request: HttpRequest, viewer: ViewerZone) -> str:
    """The view's parameters for its .ics link, naming the zone its days were read in.

    A calendar app fetching the link has no cookie, so a zone taken from one is written out.
    """
    query = request.GET.copy()
    if viewer.is_event_zone:
        query.pop("tz", None)
    else:
        query["tz"] = viewer.zone.key
    return query.urlencode()


def _facet_options(
    sessions: list, viewer: ViewerZone, *, chosen_dates: tuple[str, ...]
) -> dict[str, list[tuple[str, str]]]:
    """Per facet, (value, label) for every value the published sessions have, in order.

    Days are the viewer's local days, plus any chosen day without sessions, so that its box
    can be unticked.
    """
    days = {day: date.fromisoformat(day) for day in chosen_dates}
    for session in sessions:
        local = session.starts_at.astimezone(viewer.zone).date()
        days.setdefault(local.isoformat(), local)

    def named(attribute: str) -> list[tuple[str, str]]:
        return [(row.slug, row.name) for row in facet_rows(sessions, attribute)]

    return {
        "date": [(key, date_format(day, gettext("D j M"))) for key, day in sorted(days.items())],
        "room": named("room"),
        "track": named("track"),
        "level": named("level"),
    }


FACET_LABELS = {
    "date": gettext_lazy("Date"), "room": gettext_lazy("Venue"), "track": gettext_lazy("Type"),
    "level": gettext_lazy("Audience level"),
}  # fmt: skip


def _facets(options: dict, result, filters) -> list[dict[str, Any]]:  # noqa: ANN001
    facets = []
    for facet, values in options.items():
        chosen = getattr(filters, facet)
        facets.append(
            {
                "name": facet,
                "label": FACET_LABELS[facet],
                "options": [
                    {
                        "value": value,
                        "label": label,
                        "count": result.counts[facet][value],
                        "checked": value in chosen,
                    }
                    for value, label in values
                ],
            }
        )
    return facets


@require_safe
def schedule(request: HttpRequest, event: str) -> HttpResponse:
    return _schedule(request, event, layout="list")


@require_safe
def grid(request: HttpRequest, event: str) -> HttpResponse:
    return _schedule(request, event, layout="grid")


@require_safe
def zones(request: HttpRequest, event: str) -> HttpResponse:
    """Every zone, by area, each a link back to the page the viewer came from in that zone."""
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)
    back = request.GET.get("next", "")
    schedule_url = reverse("web:schedule", kwargs={"event": event_row.slug})
    if not back.startswith(f"/{event_row.slug}/") or not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}
    ):
        back = schedule_url
    path, _, query = back.partition("?")
    params = QueryDict(query, mutable=True)
    params.pop("tz", None)
    areas: dict[str, list[tuple[str, str]]] = {}
    for name in zone_names():
        params["tz"] = name
        area = name.split("/", 1)[0] if "/" in name else gettext("Other")
        areas.setdefault(area, []).append((name, f"{path}?{params.urlencode()}"))
    return event_page(
        request, "confsched/zones.html", event=event_row, viewer=viewer, back=back,
        areas=sorted(areas.items()), shared=True,
    )  # fmt: skip


@require_safe
def event_calendar(request: HttpRequest, event: str) -> HttpResponse:
    """The whole event as .ics, or the sessions of a filtered view (same GET parameters)."""
    event_row = event_or_404(event)
    filters = parse_filters(dict(request.GET.lists()))
    keys = None
    name = event_row.name
    # Read even when unused, so that a bad ?tz= is refused here as on every page.
    zone = viewer_zone(request, event_row, use_saved=False).zone
    if filters.is_active:
        sessions = queries.published_sessions(event_row)
        result = apply_filters(sessions, filters, zone=zone)
        keys = {session.key for session in result.sessions}
        name = f"{event_row.name} (filtered)"
    return calendar_response(
        request, event=event_row, keys=keys, name=name, filename=f"{event_row.slug}.ics",
        etag=event_etag(event_row, request.GET.urlencode()),
    )  # fmt: skip
