"""Seats for organizers: per session the confirmed, the waitlist and the free seats; a
session's list (as a page and as CSV); forcing a person in, taking one off, changing the number
of seats. The event's team reads them (Right.READ); changes need Right.SEATS. Every change goes
through agenda/reservations.py, under the session's lock."""

from __future__ import annotations

import csv
import io

from django.contrib.auth.models import User
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from confsched.agenda import reservations
from confsched.agenda.models import Reservation
from confsched.agenda.reservations import ReservationError
from confsched.core.numbers import BIG_INTEGER_MAX, INTEGER_MAX, parse_count
from confsched.core.text import shortened
from confsched.interchange.csv.write import guard_cell
from confsched.programme.models import Event, Session
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_page
from confsched.web.site.private import keep_private


@require_safe
def seats_overview(request: HttpRequest, event: str) -> HttpResponse:
    """Every session that takes reservations, with its seats as counted now."""
    found = event_for(request, event, need=Right.READ)
    if isinstance(found, HttpResponse):
        return found
    sessions = list(
        Session.objects.published()
        .filter(event=found, seats__isnull=False)
        .select_related("room")
        .order_by("starts_at", "room__position", "title")
    )
    counts = reservations.seat_counts(sessions)
    rows = [(session, counts[session.pk]) for session in sessions]
    response = event_page(
        request, "confsched/seats_staff.html", event=found, rows=rows,
        totals=(sum(c.confirmed for _, c in rows), sum(c.waitlisted for _, c in rows)),
    )  # fmt: skip
    return keep_private(response)


def _staff_session(
    request: HttpRequest, event: str, key: str, *, need: Right
) -> tuple[Event, Session] | HttpResponse:
    found = event_for(request, event, need=need)
    if isinstance(found, HttpResponse):
        return found
    session = Session.objects.filter(event=found, key=key).select_related("room").first()
    if session is None:
        raise Http404(f"No session {key!r}")
    session.event = found
    return found, session


# The longest a username (150) or an email address (254) can be: anything longer names no one,
# and is never sent to the database (a 100 KB LIKE pattern is an error on SQLite).
LONGEST_PERSON = 254


def _person(text: str) -> User | None:
    """The account a username or an email address names (case-insensitive), if exactly one."""
    text = text.strip()
    if len(text) > LONGEST_PERSON:
        return None
    matches = list(User.objects.filter(Q(username__iexact=text) | Q(email__iexact=text))[:2])
    return matches[0] if len(matches) == 1 else None


def _listed(session: Session) -> tuple[list[Reservation], list[Reservation]]:
    rows = list(Reservation.objects.filter(session=session).select_related("user").order_by("pk"))
    return (
        [row for row in rows if row.is_confirmed],
        [row for row in rows if not row.is_confirmed],
    )


@require_http_methods(["GET", "HEAD", "POST"])
def session_reservations(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """One session's list: who holds a seat, who waits, in order; and the organizer's changes."""
    # Reading the list is Right.READ; changing it (a POST) is Right.SEATS.
    need = Right.SEATS if request.method == "POST" else Right.READ
    found = _staff_session(request, event, key, need=need)
    if isinstance(found, HttpResponse):
        return found
    event_row, session = found
    message, status = "", 200
    if request.method == "POST":
        try:
            message = _change(request, session)
        except ReservationError as exc:
            message, status = str(exc), 400
        if status == 200:
            url = reverse("web:session_reservations", kwargs={"event": event, "key": key})
            request.session["seats_message"] = message
            return redirect(url)
    else:
        message = request.session.pop("seats_message", "")
    confirmed, waiting = _listed(session)
    response = event_page(
        request, "confsched/session_reservations.html", event=event_row, status=status,
        session=session, confirmed=confirmed, waiting=waiting, counts=reservations.seats(session),
        message=message, is_error=status != 200, typed=request.POST.get("person", ""),
    )  # fmt: skip
    return keep_private(response)


def _change(request: HttpRequest, session: Session) -> str:
    """Carry out the organizer's form; the sentence that says what happened."""
    action = request.POST.get("action", "")
    if action == "seats":
        text = request.POST.get("seats", "").strip()
        by = request.user.get_username()
        if text == "":
            reservations.set_seats(session, None, by=by)
            return gettext("Open entry: no reservation needed. The list is kept.")
        number = parse_count(text, most=INTEGER_MAX)
        if number is None:
            raise ReservationError(
                gettext("Seats must be a whole number, or empty for open entry; got '%s'.")
                % shortened(text)
            )
        promoted = reservations.set_seats(session, number, by=by)
        said = ngettext("%(seats)s seat.", "%(seats)s seats.", number) % {"seats": number}
        return said + _over(session, number) + _moved(promoted)
    if action == "capacity":
        if session.room is None or session.room.capacity is None:
            raise ReservationError(
                gettext("The session's room has no capacity set: type the number of seats.")
            )
        capacity = session.room.capacity
        promoted = reservations.set_seats(session, capacity, by=request.user.get_username())
        said = gettext("%(seats)s seats, the room's capacity.") % {"seats": capacity}
        return said + _over(session, capacity) + _moved(promoted)
    if action == "force":
        typed = request.POST.get("person", "")
        person = _person(typed)
        if person is None:
            raise ReservationError(
                gettext("No single account has the username or email '%s'.")
                % shortened(typed.strip())
            )
        reservations.force(person, session)
        return gettext("%(name)s has a seat (over the limit if the session was full).") % {
            "name": person.get_username()
        }
    if action == "remove":
        number = parse_count(request.POST.get("reservation", ""), most=BIG_INTEGER_MAX)
        row = Reservation.objects.filter(session=session, pk=number).first() if number else None
        if row is None:
            raise ReservationError(gettext("That reservation is no longer on the list."))
        promoted = reservations.remove(row.pk)
        if row.user:
            said = gettext("%(name)s is off the list.") % {"name": row.user.get_username()}
        else:
            said = gettext("A walk-in is off the list.")
        if promoted and promoted[0].user:
            said += " " + gettext("%(name)s moved up from the waitlist.") % {
                "name": promoted[0].user.get_username()
            }
        return said
    raise ReservationError(gettext("Unknown change '%s'.") % action)


def _moved(promoted: list) -> str:
    """ " 2 moved up from the waitlist.", or nothing."""
    if not promoted:
        return ""
    return " " + ngettext(
        "%(count)s moved up from the waitlist.", "%(count)s moved up from the waitlist.",
        len(promoted),
    ) % {"count": len(promoted)}  # fmt: skip


def _over(session: Session, seats: int) -> str:
    """ " 3 people hold seats beyond that number: they keep them.", or nothing."""
    over = reservations.seats(session).confirmed - seats
    if over <= 0:
        return ""
    return " " + ngettext(
        "%(count)s person holds a seat beyond that number and keeps it; the waitlist moves once "
        "enough give theirs up.",
        "%(count)s people hold seats beyond that number and keep them; the waitlist moves once "
        "enough give theirs up.",
        over,
    ) % {"count": over}  # fmt: skip


@require_safe
def session_reservations_csv(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """The list as CSV, in order: for printing at the door or a spreadsheet."""
    found = _staff_session(request, event, key, need=Right.READ)
    if isinstance(found, HttpResponse):
        return found
    _, session = found
    confirmed, waiting = _listed(session)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["status", "position", "username", "name", "email", "code", "forced",
                     "walk_in", "reserved_at", "checked_in_at"])  # fmt: skip
    for place, row in [(0, row) for row in confirmed] + list(enumerate(waiting, start=1)):
        user = row.user
        writer.writerow([guard_cell(str(cell)) for cell in [
            row.status, place or "", user.get_username() if user else "",
            user.get_full_name() if user else "", user.email if user else "", row.code,
            "yes" if row.is_forced else "", "yes" if row.is_walk_in else "",
            row.created_at.isoformat(), row.checked_in_at.isoformat() if row.checked_in_at else "",
        ]])  # fmt: skip
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event}-{key}-reservations.csv"'
    return keep_private(response)
