"""Check-in at the door (the event's team, Right.CHECKIN): today's and upcoming sessions with
seats, and one session's door page where a code is typed or scanned and walk-ins are counted.
Both show whether rooms are full, with the buttons that mark one full or open again (the
index: every room; the door page: the session's room; web/venue/rooms.py takes the POST).

A plain form does everything (the whole page comes back with the answer); htmx only swaps
the answer and the counts, and checkin.js adds the camera where the browser can read QR
codes. Nothing here is kept by a cache: every answer is private and no-store.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods, require_safe

from confsched.agenda import checkin
from confsched.agenda.checkin import CheckInResult, Result
from confsched.agenda.reservations import Seats, seat_counts
from confsched.core import clock
from confsched.live.queries import RoomState, room_states
from confsched.programme.models import Event, Session
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_page


def _private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, private=True, no_store=True)
    return response


def door_sessions(event: Event, *, now: datetime) -> tuple[list[Session], list[Session]]:
    """Sessions with seats that have not ended before today (in the event's zone), and
    today's open-entry sessions (a head count only), both in time order; one query."""
    today = now.astimezone(event.zone).date()
    start = datetime.combine(today, time(0), tzinfo=event.zone)
    end = start + timedelta(days=1)
    rows = list(
        Session.objects.published()
        .filter(event=event, is_cancelled=False)
        .filter(
            Q(seats__isnull=False, ends_at__gte=start)
            | Q(seats__isnull=False, ends_at__isnull=True, starts_at__gte=start)
            | Q(seats__isnull=True, starts_at__gte=start, starts_at__lt=end)
        )
        .select_related("room")
        .order_by("starts_at", "room__name", "title")
    )
    return [s for s in rows if s.seats is not None], [s for s in rows if s.seats is None]


@require_safe
def checkin_index(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.CHECKIN)
    if isinstance(found, HttpResponse):
        return found
    now = clock.now()
    booked, open_entry = door_sessions(found, now=now)
    counted = seat_counts(booked)
    rows = [(session, counted[session.pk]) for session in booked]
    return _private(
        event_page(
            request,
            "confsched/checkin_index.html",
            event=found,
            rows=rows,
            open_entry=open_entry,
            rooms=room_states(found, now=now),
        )
    )


def _door_session(event: Event, key: str) -> Session:
    session = Session.objects.filter(event=event, key=key).select_related("room", "event").first()
    if session is None:
        raise Http404(f"No session {key!r}")
    return session


_ANSWER_KEY = "door_answer"


@require_http_methods(["GET", "HEAD", "POST"])
def checkin_session(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """GET: the door page. POST `code`: check it in; POST `walk_in`: admit a walk-in."""
    found = event_for(request, event, need=Right.CHECKIN)
    if isinstance(found, HttpResponse):
        return found
    session = _door_session(found, key)
    result: CheckInResult | None = None
    if request.method == "POST":
        if "walk_in" in request.POST:
            result = checkin.admit_walk_in(session)
        else:
            result = checkin.check_in(session, request.POST.get("code", ""))
        if not request.htmx:
            # The plain form: the answer is kept for the page the browser is sent to (once), so
            # that reloading that page asks for the page again, not for a second admission.
            request.session[_ANSWER_KEY] = {
                "session": session.pk, "result": result.result.value,
                "headline": result.headline, "detail": result.detail,
            }  # fmt: skip
            return redirect(request.path)
    elif (kept := request.session.pop(_ANSWER_KEY, None)) and kept.get("session") == session.pk:
        result = CheckInResult(
            Result(kept["result"]), headline=kept["headline"], detail=kept["detail"],
            seats=checkin.counts(session),
        )  # fmt: skip
    seats = result.seats if result is not None else checkin.counts(session)
    context: dict[str, Any] = {
        "session": session,
        "result": result,
        "seats": seats,
        "room": _room(session),
        **_door(session, seats),
    }
    if request.htmx:
        response = render(request, "confsched/checkin_result.html", {**context, "oob": True})
        response["Vary"] = "Cookie, HX-Request"
        return _private(response)
    return _private(event_page(request, "confsched/checkin.html", event=found, **context))


def _room(session: Session) -> RoomState | None:
    """The session's room, full or open now (after this request's check-in, if any)."""
    if session.room is None:
        return None
    states = room_states(session.event, now=clock.now())
    return next((state for state in states if state.slug == session.room.slug), None)


def _door(session: Session, seats: Seats) -> dict[str, Any]:
    """Whether the Walk-in button shows: a seat is free, or the session is open entry."""
    is_open_entry = seats.seats is None  # as counted under the lock, after a POST
    return {
        "is_open_entry": is_open_entry,
        "can_walk_in": not session.is_cancelled and (is_open_entry or seats.free > 0),
    }
