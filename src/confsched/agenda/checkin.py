"""Check-in at the door: a reservation's code typed or scanned, and walk-ins counted.

Both writes take the session's lock first (agenda/reservations.py's `lock_session`) and end
with their transaction: two phones at the same door cannot both welcome one code, and two
walk-ins cannot take the last seat twice. The rows are still Reservation rows; this module
only marks them checked in or adds a walk-in's, under the same lock reservations.py takes.

Codes are 10 characters of the alphabet 0-9 A-Z without I, L, O and U (agenda/models.py's
`new_code`). What a person types is read kindly (`normalise_code`): case, spaces and dashes
do not matter, and the letters a code never holds are read as the characters they look like:
O as 0, I and L as 1 (Crockford's base32 does the same), and U as V (a code has V, never U;
handwriting and small print confuse the two).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Q
from django.utils.formats import date_format
from django.utils.translation import gettext

from confsched.agenda.models import Reservation, ReservationStatus
from confsched.agenda.reservations import Seats, lock_session, position, seat_counts
from confsched.core import clock
from confsched.live.services import note_check_in
from confsched.programme.models import Session

CODE_LENGTH = 10
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# The characters a code never holds, read as the ones they look like.
LOOK_ALIKES = str.maketrans({"O": "0", "I": "1", "L": "1", "U": "V"})
# Spaces, dashes of every kind (a phone's keyboard may turn "-" into "–"), dots, underscores.
SEPARATORS = re.compile(r"[\s\-\u2010-\u2015_.]+")
CODE_SHAPE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")


class Result(enum.StrEnum):
    """What the door says; the value doubles as the page's CSS class."""

    WELCOME = "welcome"
    ALREADY = "already"
    NOT_ON_LIST = "not-on-list"
    WALK_IN = "walk-in"
    NO_SEAT = "no-seat"


@dataclass(frozen=True)
class CheckInResult:
    """The answer for the person at the door: a headline, a sentence, and the seats after."""

    result: Result
    headline: str
    detail: str
    seats: Seats
    code: str = ""
    name: str = ""
    checked_in_at: datetime | None = None

    @property
    def is_admitted(self) -> bool:
        return self.result in (Result.WELCOME, Result.WALK_IN)


def normalise_code(text: str) -> str:
    """The code as stored, from what was typed or scanned (see the module's text)."""
    return SEPARATORS.sub("", text).upper().translate(LOOK_ALIKES)


def display_name(reservation: Reservation) -> str:
    """The name to greet: the first name, else the username; "walk-in" without an account."""
    user = reservation.user
    if user is None:
        return gettext("walk-in")
    return user.first_name.strip() or user.username


def counts(session: Session) -> Seats:
    """The session's counts now, in one query; open-entry sessions too (their walk-ins are a
    head count, which `seat_counts` leaves out)."""
    if session.seats is not None:
        return seat_counts([session])[session.pk]
    found = Reservation.objects.filter(session_id=session.pk).aggregate(
        confirmed=Count("pk", filter=Q(status=ReservationStatus.CONFIRMED)),
        waitlisted=Count("pk", filter=Q(status=ReservationStatus.WAITLISTED)),
        checked_in=Count("pk", filter=Q(checked_in_at__isnull=False)),
    )
    return Seats(None, **found)


def _local_time(moment: datetime, *, session: Session, now: datetime) -> str:
    """ "10:42", with the day when it was not today (in the event's zone)."""
    zone = session.event.zone
    local = moment.astimezone(zone)
    if local.date() == now.astimezone(zone).date():
        return f"{local:%H:%M}"
    return gettext("%(time)s on %(day)s") % {
        "time": f"{local:%H:%M}", "day": date_format(local, gettext("D d M")),
    }  # fmt: skip


@transaction.atomic
def check_in(session: Session, code: str) -> CheckInResult:
    """Mark the reservation with this code checked in, if it is a confirmed seat of `session`."""
    wanted = normalise_code(code)
    locked = lock_session(session.pk)
    now = clock.now()  # once the lock is held: the moment the door said yes
    if not wanted:
        return _not_on_list(locked, "", gettext("No code was given: type the code or scan it."))
    if not CODE_SHAPE.fullmatch(wanted):
        return _not_on_list(
            locked,
            wanted,
            gettext("“%(code)s” is not a check-in code: codes are %(length)s letters and digits.")
            % {"code": code.strip()[:40], "length": CODE_LENGTH},
        )
    row = (
        Reservation.objects.select_related("user", "session__room")
        .filter(code=wanted, session__event_id=locked.event_id)
        .first()
    )
    if row is None:
        return _not_on_list(
            locked, wanted, gettext("No reservation has the code %(code)s.") % {"code": wanted}
        )
    if row.session_id != locked.pk:
        return _not_on_list(
            locked,
            wanted,
            gettext("The code %(code)s is for another session: %(session)s.")
            % {"code": wanted, "session": _describe(row.session, locked)},
        )
    if row.status != ReservationStatus.CONFIRMED:
        return _not_on_list(
            locked,
            wanted,
            gettext("%(name)s is on the waitlist, position %(position)s, not confirmed.")
            % {"name": display_name(row), "position": position(row)},
            name=display_name(row),
        )
    if row.checked_in_at is not None:
        return CheckInResult(
            Result.ALREADY,
            headline=gettext("Already checked in"),
            detail=gettext("%(name)s checked in at %(time)s.")
            % {
                "name": display_name(row),
                "time": _local_time(row.checked_in_at, session=locked, now=now),
            },
            seats=counts(locked),
            code=wanted,
            name=display_name(row),
            checked_in_at=row.checked_in_at,
        )
    row.checked_in_at = now
    row.save(update_fields=["checked_in_at"])
    seats = counts(locked)
    note_check_in(locked, checked_in=seats.checked_in, now=now)  # the room may be full now
    return CheckInResult(
        Result.WELCOME,
        headline=gettext("Welcome, %(name)s") % {"name": display_name(row)},
        detail=gettext("Checked in at %(time)s.")
        % {"time": _local_time(now, session=locked, now=now)},
        seats=seats,
        code=wanted,
        name=display_name(row),
        checked_in_at=now,
    )


def _describe(other: Session, here: Session) -> str:
    """“Title” (Tue 07 Apr 11:00, Room), in the event's zone."""
    when = other.starts_at.astimezone(here.event.zone) if other.starts_at else None
    where = [date_format(when, gettext("D d M H:i"))] if when else []
    where += [other.room.name] if other.room else []
    return f"“{other.title}”" + (f" ({', '.join(where)})" if where else "")


def _not_on_list(session: Session, code: str, detail: str, *, name: str = "") -> CheckInResult:
    return CheckInResult(
        Result.NOT_ON_LIST,
        headline=gettext("Not on the list"),
        detail=detail,
        seats=counts(session),
        code=code,
        name=name,
    )


@transaction.atomic
def admit_walk_in(session: Session) -> CheckInResult:
    """Count a person without a reservation in, if a seat is free (open entry: always)."""
    locked = lock_session(session.pk)
    now = clock.now()
    if locked.is_cancelled:
        return CheckInResult(
            Result.NO_SEAT,
            headline=gettext("No walk-ins"),
            detail=gettext("“%(title)s” is cancelled.") % {"title": locked.title},
            seats=counts(locked),
        )
    if locked.seats is not None:
        taken = Reservation.objects.filter(
            session_id=locked.pk, status=ReservationStatus.CONFIRMED
        ).count()
        if taken >= locked.seats:
            return CheckInResult(
                Result.NO_SEAT,
                headline=gettext("No seat free"),
                detail=gettext("No seat free: %(taken)s of %(seats)s taken.")
                % {"taken": taken, "seats": locked.seats},
                seats=counts(locked),
            )
    row = Reservation.objects.create(
        session=locked, user=None, is_walk_in=True, status=ReservationStatus.CONFIRMED,
        confirmed_at=now, checked_in_at=now,
    )  # fmt: skip
    seats = counts(locked)
    note_check_in(locked, checked_in=seats.checked_in, now=now)  # the room may be full now
    if locked.seats is None:
        detail = gettext("Counted in: %(count)s at the door so far (open entry).") % {
            "count": seats.checked_in
        }
    else:
        detail = gettext("Seat given: %(taken)s of %(seats)s taken, %(free)s free.") % {
            "taken": seats.confirmed, "seats": locked.seats, "free": seats.free,
        }  # fmt: skip
    return CheckInResult(
        Result.WALK_IN,
        headline=gettext("Walk-in admitted"),
        detail=detail,
        seats=seats,
        code=row.code,
        name=display_name(row),
        checked_in_at=now,
    )
