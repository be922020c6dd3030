"""Printable timetables: a day of the schedule and a day of one's agenda, as HTML and as PDF.

The zone of a printed day is the address's (?tz=, else the event's), never a cookie's: the
same address prints the same paper for everyone, so the public timetable is built once per
schedule version, day and zone (PDFs take WeasyPrint a while) and caches can keep it.
"""

from __future__ import annotations

import re
import zoneinfo
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_safe

from confsched.agenda import queries as agenda_queries
from confsched.agenda.planning import gaps, overlapping
from confsched.core.timezones import describe_zone
from confsched.programme import queries
from confsched.programme.models import Event, Session
from confsched.web.agenda import stars
from confsched.web.site.calendars import conditional_response, event_etag
from confsched.web.site.compression import Rendition
from confsched.web.site.languages import page_language
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.stencils import kept
from confsched.web.site.zones import ViewerZone, viewer_zone
from confsched.web.venue.printing import Pdf, render_pdf, room_name, timetable_for_day

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# One person's printed day lists at most this many sessions (the first, in time order), and
# says so: WeasyPrint spends tens of milliseconds of CPU on an entry, so a visitor who starred
# 1,000 sessions of one day cost a minute per PDF (bench/printing.py). Nobody attends more.
MAX_AGENDA_SESSIONS = 50
# An entry names this many of the sessions it overlaps, then says how many more.
MAX_CLASHES_NAMED = 3


class MissingDayError(Exception):
    """The address names no day of the event's sessions; the 404 page says why."""


@dataclass(frozen=True)
class EventDay:
    day: date
    count: int


def _parse_day(text: str) -> date:
    shown = text if len(text) <= 40 else text[:40] + "…"
    if _DAY.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    raise MissingDayError(f"“{shown}” is not a day: write it as YYYY-MM-DD, such as 2026-04-07")


def _event_days(event: Event, zone: zoneinfo.ZoneInfo) -> list[EventDay]:
    """The local days in `zone` with published sessions, and how many start on each."""
    starts = Session.objects.filter(event=event).published().values_list("starts_at", flat=True)
    counts = Counter(moment.astimezone(zone).date() for moment in starts if moment)
    return [EventDay(day=day, count=counts[day]) for day in sorted(counts)]


def _check_day(event: Event, day: date, zone: zoneinfo.ZoneInfo) -> None:
    """MissingDayError naming the problem unless sessions start on `day` in `zone`."""
    days = [d.day for d in _event_days(event, zone)]
    if day in days:
        return
    if not days:
        raise MissingDayError(f"{event.name} has no scheduled sessions yet")
    first = min(days[0], event.start_date or days[0])
    last = max(days[-1], event.end_date or days[-1])
    if first <= day <= last:
        raise MissingDayError(f"No sessions on {_long(day)} in {zone.key}")
    raise MissingDayError(
        f"{_long(day)} is outside the event, which runs "
        + (f"on {_long(first)}" if first == last else f"from {_long(first)} to {_long(last)}")
        + f" in {zone.key}"
    )


def _long(day: date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def _sessions_on(event: Event, day: date, zone: zoneinfo.ZoneInfo) -> list[Session]:
    """The day's sessions in `zone`, read by their start: not the event's other days, and no
    abstracts (paper shows none)."""
    start = datetime.combine(day, time(0), tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone)
    return queries.published_sessions(event, with_texts=False, starting=(start, end))


def _zone_query(event: Event, zone: zoneinfo.ZoneInfo) -> str:
    """ "?tz=..." for links that must keep a zone other than the event's; else nothing."""
    return "" if zone.key == event.timezone else "?" + urlencode({"tz": zone.key})


def _links(event: Event, day: date, zone: zoneinfo.ZoneInfo) -> dict[str, str]:
    query = _zone_query(event, zone)
    kwargs = {"event": event.slug, "day": day.isoformat()}
    return {
        "html_url": reverse("web:print_day", kwargs=kwargs) + query,
        "pdf_url": reverse("web:print_day_pdf", kwargs=kwargs) + query,
        "agenda_url": reverse("web:agenda_print_day", kwargs=kwargs) + query,
        "agenda_pdf_url": reverse("web:agenda_print_day_pdf", kwargs=kwargs) + query,
        "index_url": reverse("web:print_index", kwargs={"event": event.slug}) + query,
        "grid_url": reverse("web:grid", kwargs={"event": event.slug}) + query,
        "my_agenda_url": reverse("web:agenda", kwargs={"event": event.slug}) + query,
    }


def _document(
    template: str, *, event: Event, day: date, zone: zoneinfo.ZoneInfo, **context: Any
) -> str:
    """A printable document of `day` with the times in `zone`, the zone written on it."""
    context.update(
        event=event,
        day=day,
        zone_label=describe_zone(zone, datetime.combine(day, time(12), tzinfo=zone)),
        is_event_zone=zone.key == event.timezone,
        **_links(event, day, zone),
    )
    with timezone.override(zone):
        return render_to_string(template, context)


def _day_sessions(event: Event, day: date, zone: zoneinfo.ZoneInfo) -> list[Session]:
    """The day's sessions, or MissingDayError when the event has no such day."""
    _check_day(event, day, zone)
    return _sessions_on(event, day, zone)


def _timetable_html(
    event: Event, day: date, zone: zoneinfo.ZoneInfo, sessions: list[Session] | None = None
) -> str:
    """The day's timetable (of `sessions` when the caller has read them already)."""
    if sessions is None:
        sessions = _day_sessions(event, day, zone)
    timetable = timetable_for_day(sessions, zone=zone)
    return _document(
        "confsched/print/timetable.html", event=event, day=day, zone=zone, timetable=timetable
    )


# From this many sessions a day, its PDF lists them by time instead of drawing the timetable:
# WeasyPrint lays out a 1,000-session timetable in ~10 s of CPU, a list of plain lines in ~1.5.
PDF_TIMETABLE_MOST = 250


def _listed_html(
    event: Event, day: date, zone: zoneinfo.ZoneInfo, sessions: list[Session], *, site: str
) -> str:
    """The document a big day's PDF is made from: per start time, one plain line per session
    (room · title — speakers), so that its first PDF costs seconds, not minutes."""
    slots: dict[datetime, list[str]] = {}
    for session in sessions:
        if session.starts_at is None:  # published sessions have a start; the type says maybe
            continue
        speakers = "; ".join(link.speaker.name for link in session.speaker_links.all())
        line = f"{room_name(session)} · {session.full_title}"
        if session.is_cancelled:
            line += " (cancelled)"
        slots.setdefault(session.starts_at, []).append(f"{line} — {speakers}" if speakers else line)
    return _document(
        "confsched/print/listed.html", event=event, day=day, zone=zone, count=len(sessions),
        site=site.rstrip("/"),
        slots=[{"starts_at": start, "lines": "\n".join(lines)} for start, lines in slots.items()],
    )  # fmt: skip


def _pdf_response(pdf: Pdf, *, filename: str) -> HttpResponse:
    response = HttpResponse(pdf.body, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _missing_day(
    request: HttpRequest, event: Event, zone: zoneinfo.ZoneInfo, problem: MissingDayError
) -> HttpResponse:
    """404 saying what is wrong with the day asked for, and linking to the days there are."""
    return event_page(
        request, "confsched/print/missing.html", event=event,
        viewer=ViewerZone(zone=zone, event_zone=event.zone), status=404, problem=str(problem),
        days=[(d, _links(event, d.day, zone)) for d in _event_days(event, zone)],
    )  # fmt: skip


def _printed(request: HttpRequest, slug: str, text: str, *, is_pdf: bool) -> HttpResponse:
    event = event_or_404(slug)
    zone = viewer_zone(request, event, use_saved=False).zone
    try:
        day = _parse_day(text)
        site = request.build_absolute_uri(reverse("web:home"))
        language = page_language()
        etag = event_etag(event, "print", day, zone.key, language, site if is_pdf else "html")

        def html(sessions: list[Session] | None = None) -> Rendition:
            key = f"print:{event_etag(event, 'print', day, zone.key, language, 'html')}"
            return kept(
                key, lambda: Rendition(_timetable_html(event, day, zone, sessions).encode())
            )

        def pdf_document() -> str:
            sessions = _day_sessions(event, day, zone)
            if len(sessions) >= PDF_TIMETABLE_MOST:
                return _listed_html(event, day, zone, sessions, site=site)
            return html(sessions).body.decode()

        def render() -> HttpResponse:
            if not is_pdf:
                return html().response(request, "text/html; charset=utf-8")
            # WeasyPrint takes a second for a big day: once per schedule version, day and zone.
            pdf = kept(f"print-pdf:{etag}", lambda: render_pdf(pdf_document(), base_url=site))
            return _pdf_response(pdf, filename=f"{event.slug}-{day.isoformat()}.pdf")

        response = conditional_response(request, etag=etag, render=render)
    except MissingDayError as problem:
        return _missing_day(request, event, zone, problem)
    patch_cache_control(response, public=True, max_age=300)
    return response


@require_safe
def print_day(request: HttpRequest, event: str, day: str) -> HttpResponse:
    """A day's rooms × time timetable, laid out for paper."""
    return _printed(request, event, day, is_pdf=False)


@require_safe
def print_day_pdf(request: HttpRequest, event: str, day: str) -> HttpResponse:
    return _printed(request, event, day, is_pdf=True)


def _agenda_html(
    event: Event, day: date, zone: zoneinfo.ZoneInfo, *, ids: set[int], owner: str
) -> str:
    _check_day(event, day, zone)
    starred = [s for s in agenda_queries.agenda_sessions(event, ids) if s.local_day(zone) == day]
    picked = starred[:MAX_AGENDA_SESSIONS]
    # A cancelled pick clashes with nothing and fills no time.
    running = [session for session in picked if not session.is_cancelled]
    clashes = overlapping(running)
    # ("session", session, what it overlaps (the first few), how many more) and ("gap", free
    # time, [], 0), in time order.
    rows: list[tuple[str, Any, list[Session], int]] = []
    for session in picked:
        overlapped = clashes.get(session, [])
        more = max(0, len(overlapped) - MAX_CLASHES_NAMED)
        rows.append(("session", session, overlapped[:MAX_CLASHES_NAMED], more))
    rows += [("gap", gap, [], 0) for gap in gaps(running, zone=zone)]
    rows.sort(key=lambda row: row[1].starts_at)
    return _document(
        "confsched/print/agenda.html", event=event, day=day, zone=zone, rows=rows,
        session_count=len(starred), printed_count=len(picked),
        left_out_count=len(starred) - len(picked), owner=owner,
    )  # fmt: skip


def _printed_agenda(request: HttpRequest, slug: str, text: str, *, is_pdf: bool) -> HttpResponse:
    event = event_or_404(slug)
    zone = viewer_zone(request, event, use_saved=False).zone
    ids = stars.starred_ids(request, event)
    owner = request.user.get_username() if request.user.is_authenticated else ""
    try:
        day = _parse_day(text)
        site = request.build_absolute_uri(reverse("web:home"))
        etag = event_etag(
            event, "agenda-print", day, zone.key, page_language(), owner, sorted(ids), is_pdf, site
        )

        def render() -> HttpResponse:
            if not is_pdf:
                html = _agenda_html(event, day, zone, ids=ids, owner=owner)
                return HttpResponse(html, content_type="text/html; charset=utf-8")
            # Kept per content (schedule version, day, zone, name, stars, site: all in the
            # ETag), so asking again, or another browser with the same stars, costs nothing.
            pdf = kept(
                f"agenda-print-pdf:{etag}",
                lambda: render_pdf(
                    _agenda_html(event, day, zone, ids=ids, owner=owner), base_url=site
                ),
            )
            name = f"{event.slug}-{day.isoformat()}-agenda.pdf"
            return _pdf_response(pdf, filename=name)

        response = conditional_response(request, etag=etag, render=render)
    except MissingDayError as problem:
        return _missing_day(request, event, zone, problem)
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie",))
    response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
def agenda_print_day(request: HttpRequest, event: str, day: str) -> HttpResponse:
    """One's starred sessions of a day (account or this browser's), with overlaps and gaps."""
    return _printed_agenda(request, event, day, is_pdf=False)


@require_safe
def agenda_print_day_pdf(request: HttpRequest, event: str, day: str) -> HttpResponse:
    return _printed_agenda(request, event, day, is_pdf=True)


@require_safe
def print_index(request: HttpRequest, event: str) -> HttpResponse:
    """The event's days, each with its timetable and one's agenda, as HTML and as PDF."""
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)
    days = [(d, _links(event_row, d.day, viewer.zone)) for d in _event_days(event_row, viewer.zone)]
    return event_page(
        request, "confsched/print/index.html", event=event_row, viewer=viewer, days=days,
        shared=True,
    )  # fmt: skip
