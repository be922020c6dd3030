"""Seats and the waitlist: the only writer of Reservation rows.

Every write takes the session's lock first and ends with its transaction: reserving, cancelling,
changing the number of seats, forcing a person in, checking in and admitting a walk-in. Under
the lock, counting the confirmed seats and inserting the next row cannot interleave with
another request's, so a session is never overbooked, and the rows' primary keys follow the
order in which requests were accepted: the waitlist is served in that order, and each row's
time is read once the lock is held. A freed seat goes to the first on the waitlist in the same
transaction that frees it.

Reserving takes the person's lock in the event before the session's: where the event allows one
seat at a time, two overlapping sessions reserved at the same moment (each under its own
session's lock) would otherwise each find the other not yet written.

PostgreSQL locks the session's row (`SELECT ... FOR UPDATE`) and the person's advisory lock:
requests for other sessions and other people run side by side. SQLite has one write lock for
the database, taken at the transaction's start (IMMEDIATE, settings.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext
from django_tasks import task

from confsched.agenda import seat_changes
from confsched.agenda import seat_statements as statements
from confsched.agenda.models import Reservation, ReservationStatus, new_code
from confsched.core import clock
from confsched.core.errors import ConfschedError
from confsched.core.prepared import Prepared
from confsched.programme.models import Event, Session
from confsched.push import news as push_news
from confsched.push import tasks as push_tasks
from confsched.push.messages import Notice, Urgency
from confsched.push.models import PushSubscription

CONFIRMED, WAITLISTED = ReservationStatus.CONFIRMED, ReservationStatus.WAITLISTED


class ReservationError(ConfschedError):
    """A reservation that cannot be made or changed; the message says why, to the person."""


@dataclass(frozen=True)
class Seats:
    """A session's seats as counted now: `confirmed` includes forced and walk-ins."""

    seats: int | None
    confirmed: int = 0
    waitlisted: int = 0
    checked_in: int = 0

    @property
    def free(self) -> int:
        return max((self.seats or 0) - self.confirmed, 0)

    @property
    def is_full(self) -> bool:
        return self.seats is not None and self.confirmed >= self.seats


@dataclass(frozen=True)
class Outcome:
    """What reserving did: the person's row, their place on the waitlist (0 when confirmed),
    whether the row is new, and their other reservations at the same time."""

    reservation: Reservation
    position: int
    is_new: bool
    overlaps: list[Session] = field(default_factory=list)
    # The session as reserving read it (its seats, times and title, for the answer).
    session: Session | None = None


def lock_session(session_pk: int) -> Session:
    """The session's row with its event, locked until the transaction ends (see the module's
    text)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("a reservation write needs a transaction to hold the lock")
    # SQLite: the transaction took the database's one write lock at BEGIN (IMMEDIATE, settings).
    rows = (
        Session.objects.all()
        if connection.vendor == "sqlite"
        else Session.objects.select_for_update(of=("self",))
    )
    # No ordering: the model's (by room position) would join the room into a locking query.
    locked = next(
        iter(
            rows.filter(pk=session_pk)
            .select_related("event")
            .defer("abstract", "review_note")
            .order_by()
        ),
        None,
    )
    if locked is None:
        raise Session.DoesNotExist(f"no session {session_pk}")
    return locked


def seats(session: Session) -> Seats:
    """The session's seats as counted now (no lock: for showing, not for deciding)."""
    return seat_counts([session]).get(session.pk, Seats(session.seats))


def seat_counts(sessions: Iterable[Session]) -> dict[int, Seats]:
    """Seats of every session in `sessions` that takes reservations, in one query."""
    wanted = {session.pk: session.seats for session in sessions if session.seats is not None}
    counted: dict[int, tuple[int, int, int]] = {
        session_id: (confirmed, waitlisted, checked_in)
        for session_id, confirmed, waitlisted, checked_in in Reservation.objects.filter(
            session_id__in=wanted
        )
        .values("session_id")
        .annotate(
            confirmed=Count("pk", filter=Q(status=CONFIRMED)),
            waitlisted=Count("pk", filter=Q(status=WAITLISTED)),
            checked_in=Count("pk", filter=Q(checked_in_at__isnull=False)),
        )
        .values_list("session_id", "confirmed", "waitlisted", "checked_in")
    }
    return {
        pk: Seats(
            number,
            confirmed=counted.get(pk, (0, 0, 0))[0],
            waitlisted=counted.get(pk, (0, 0, 0))[1],
            checked_in=counted.get(pk, (0, 0, 0))[2],
        )
        for pk, number in wanted.items()
    }


def position(reservation: Reservation) -> int:
    """Place on the waitlist, from 1; 0 when the seat is confirmed."""
    if reservation.status == CONFIRMED:
        return 0
    return Reservation.objects.filter(
        session_id=reservation.session_id, status=WAITLISTED, pk__lte=reservation.pk
    ).count()


def _check_open(session: Session, now: datetime) -> None:
    if session.seats is None:
        raise ReservationError(
            gettext("“%(title)s” is open entry: no reservation is needed, just come.")
            % {"title": session.title}
        )
    if session.is_cancelled:
        raise ReservationError(
            gettext("“%(title)s” is cancelled: it takes no reservations.")
            % {"title": session.title}
        )
    if not session.is_published:
        raise ReservationError(
            gettext("“%(title)s” is not in the programme yet.") % {"title": session.title}
        )
    closes = session.reservations_close
    if closes is not None and now >= closes:
        local = closes.astimezone(session.event.zone)
        day_format = gettext("D d M")
        raise ReservationError(
            gettext("Reservations for “%(title)s” closed at %(time)s on %(day)s.")
            % {
                "title": session.title,
                "time": f"{local:%H:%M}",
                "day": date_format(local, day_format),
            }  # fmt: skip
        )


def _confirmed_count(session: Session) -> int:
    return Reservation.objects.filter(session=session, status=CONFIRMED).count()


def reserve(user: User, session: Session) -> Outcome:
    """A seat for `user` if one is free, else a place at the end of the waitlist.

    Reserving again changes nothing (a double click, a replayed form). When the event forbids
    double booking, a session that overlaps one the person already reserved is refused.
    """
    fresh = (
        Session.objects.select_related("event").defer("abstract", "review_note").get(pk=session.pk)
    )
    return _reserve(user, fresh)


# What reserving and its answer read of a session and its event (the rest is left unread).
_RESERVING = (
    "key", "title", "kind", "seats", "starts_at", "ends_at", "reservations_close_at",
    "is_cancelled", "needs_review", "event__slug", "event__name", "event__timezone",
    "event__allow_double_booking",
)  # fmt: skip


# The one lookup of a rush's every request: compiled once (core/prepared.py).
_SESSION_TO_RESERVE = Prepared(
    Session,
    lambda slug, key: (
        Session.objects.filter(event__slug=slug, key=key)
        .select_related("event")
        .only(*_RESERVING)
        .order_by()
    ),
    slug=str,
    key=str,
)


def reserve_key(user: User, slug: str, key: str) -> Outcome | None:
    """`reserve` for the session `key` of the event `slug` (the request's path); None when
    there is no such published session."""
    found = next(iter(_SESSION_TO_RESERVE.instances(slug=slug, key=key)), None)
    if found is None or not found.is_published:  # unpublished: as if there were none
        return None
    return _reserve(user, found)


def _reserve(user: User, session: Session) -> Outcome:
    """Decide what can be decided without the locks (a second press, the rules, overlaps), then
    write the row in one statement under them: nothing of ours runs while they are held."""
    now = clock.now()
    theirs = statements.theirs(user.pk, session)
    again = next((pk for pk, session_id, _ in theirs if session_id == session.pk), None)
    if again is not None:
        existing = Reservation.objects.get(pk=again)
        return Outcome(existing, position(existing), is_new=False, session=session)
    _check_open(session, now)
    overlaps = _overlapping(theirs)
    is_double_allowed = session.event.allow_double_booking
    if overlaps and not is_double_allowed:
        raise _overlap_error(session, overlaps)
    code = new_code()
    written = statements.insert_reservation(
        user_pk=user.pk, session=session, code=code, now=now,
        is_double_allowed=is_double_allowed,
    )  # fmt: skip
    if written is None:
        # The session changed since it was read (seats, cancelled, closed), the person pressed
        # twice at once, or reserved an overlapping session meanwhile: decide again under the
        # locks, with the rows as they are now. The person's lock first, as the one statement.
        with transaction.atomic():
            statements.lock_person(user_pk=user.pk, event_pk=session.event_id)
            return _reserve_locked(user, lock_session(session.pk))
    pk, status, place, taken = written
    row = Reservation(
        pk=pk, session=session, user=user, status=status, code=code, created_at=taken,
        confirmed_at=taken if status == CONFIRMED else None,
    )  # fmt: skip
    return Outcome(row, place, is_new=True, overlaps=overlaps, session=session)


def _overlapping(theirs: list[tuple[int, int, bool]]) -> list[Session]:
    """The sessions of the person's reservations that overlap the one they reserve."""
    pks = [session_id for _, session_id, overlaps in theirs if overlaps]
    if not pks:
        return []
    return list(Session.objects.filter(pk__in=pks).order_by("starts_at", "title"))


def _overlap_error(session: Session, overlaps: list[Session]) -> ReservationError:
    titles = ", ".join(f"“{other.title}”" for other in overlaps)
    return ReservationError(
        gettext(
            "“%(title)s” overlaps %(titles)s, which you reserved; this event allows one seat "
            "at a time: cancel that one first."
        )
        % {"title": session.title, "titles": titles}
    )


def _reserve_locked(user: User, locked: Session) -> Outcome:
    """The careful path, under the person's and the session's locks: what `_reserve` could not
    write at once. The time is read now, once the locks are held: the waitlist's order."""
    now = clock.now()
    existing = Reservation.objects.filter(user=user, session=locked).first()
    if existing is not None:
        return Outcome(existing, position(existing), is_new=False, session=locked)
    _check_open(locked, now)
    assert locked.seats is not None  # noqa: S101 - _check_open refused open entry
    overlaps = _overlapping(statements.theirs(user.pk, locked))
    if overlaps and not locked.event.allow_double_booking:
        raise _overlap_error(locked, overlaps)
    confirmed, waitlisted = _counts(locked.pk)
    is_free = confirmed < locked.seats
    row = Reservation.objects.create(
        session=locked, user=user, status=CONFIRMED if is_free else WAITLISTED,
        confirmed_at=now if is_free else None,
    )  # fmt: skip
    # Under the lock, the new row is the last: its place is the waitlist's length.
    place = 0 if is_free else waitlisted + 1
    return Outcome(row, place, is_new=True, overlaps=overlaps, session=locked)


def _counts(session_pk: int) -> tuple[int, int]:
    """Confirmed and waitlisted reservations of the session, in one plain statement."""
    table = connection.ops.quote_name(Reservation._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT status, COUNT(*) FROM {table} WHERE session_id = %s GROUP BY status",  # noqa: S608 - our own table name
            [session_pk],
        )
        found = dict(cursor.fetchall())
    return found.get(CONFIRMED, 0), found.get(WAITLISTED, 0)


def cancel(user: User, session: Session) -> list[Reservation]:
    """Give up the person's seat or place; the seat goes to the first on the waitlist.
    Returns the reservations promoted (none, or one)."""
    with transaction.atomic():
        locked = lock_session(session.pk)
        return _remove(locked, Reservation.objects.filter(user=user, session_id=session.pk))


def remove(reservation_pk: int) -> list[Reservation]:
    """The organizer takes a reservation off the list; the seat goes to the waitlist."""
    # Which session to lock, read before the transaction (see reserve_key on SQLite).
    session_pk = (
        Reservation.objects.filter(pk=reservation_pk).values_list("session_id", flat=True).first()
    )
    if session_pk is None:
        return []
    with transaction.atomic():
        locked = lock_session(session_pk)
        return _remove(locked, Reservation.objects.filter(pk=reservation_pk))


def _remove(locked: Session, rows: QuerySet[Reservation]) -> list[Reservation]:
    """Delete the row (as it is now, under the session's lock) and fill its seat."""
    row = rows.first()
    if row is None:
        return []
    row.delete()
    return _promote(locked)


def _promote(session: Session) -> list[Reservation]:
    """Fill free seats from the waitlist, first come first served; the promoted are mailed
    once the transaction has committed."""
    if session.seats is None:
        return []
    free = session.seats - _confirmed_count(session)
    if free <= 0:
        return []
    promoted = list(
        Reservation.objects.filter(session=session, status=WAITLISTED).order_by("pk")[:free]
    )
    if promoted:
        now = clock.now()
        Reservation.objects.filter(pk__in=[row.pk for row in promoted]).update(
            status=CONFIRMED, confirmed_at=now
        )
        for row in promoted:
            row.status, row.confirmed_at, row.session = CONFIRMED, now, session
        from confsched.agenda.reservation_mail import send_promotions  # mail, after commit

        transaction.on_commit(lambda: send_promotions(promoted))
        transaction.on_commit(lambda: queue_seat_pushes(promoted))
    return promoted


@transaction.atomic
def set_seats(
    session: Session, number: int | None, *, by: str = "", source: str = "seats page"
) -> list[Reservation]:
    """The organizer changes the number of seats (None: open entry again, every reservation
    kept). More seats promote from the waitlist in order; fewer never drop a confirmed person.
    A change is a line of the team's log (seat_changes). Returns the reservations promoted."""
    if number is not None and number < 0:
        raise ReservationError(
            gettext("A session cannot have %(number)s seats.") % {"number": number}
        )
    locked = lock_session(session.pk)
    was = locked.seats
    Session.objects.filter(pk=locked.pk).update(seats=number)
    if was != number:
        # Kept pages hold a seat control only for sessions that took reservations when they
        # were built, and exports carry the number: a change retires them.
        Event.objects.filter(pk=locked.event_id).update(updated_at=timezone.now())
        seat_changes.record(
            locked.pk, before=was, after=number, confirmed=_confirmed_count(locked), by=by,
            source=source,
        )  # fmt: skip
    locked.seats = number
    session.seats = number
    return _promote(locked)


@transaction.atomic
def force(user: User, session: Session) -> Reservation:
    """The organizer gives `user` a seat over the limit (or moves them off the waitlist)."""
    locked = lock_session(session.pk)
    if locked.seats is None:
        raise ReservationError(
            gettext("“%(title)s” is open entry: give it a number of seats to take reservations.")
            % {"title": locked.title}
        )
    now = clock.now()
    row, is_new = Reservation.objects.get_or_create(
        user=user, session=locked,
        defaults={"status": CONFIRMED, "is_forced": True, "confirmed_at": now},
    )  # fmt: skip
    if not is_new and row.status != CONFIRMED:
        row.status, row.is_forced, row.confirmed_at = CONFIRMED, True, now
        row.save(update_fields=["status", "is_forced", "confirmed_at"])
    return row


@transaction.atomic
def cancel_all(user: User) -> int:
    """Every reservation of `user` given up, each seat passed on (before an account goes)."""
    count = 0
    for session_pk in list(
        Reservation.objects.filter(user=user).values_list("session_id", flat=True)
    ):
        _remove(
            lock_session(session_pk), Reservation.objects.filter(user=user, session_id=session_pk)
        )
        count += 1
    return count


def promote_after_import(sender: object, *, session_pks: list[int], **_: object) -> None:
    """After an import changed these sessions' seats: fill what is free from the waitlists,
    each session in its own transaction under its lock."""
    for pk in session_pks:
        with transaction.atomic():
            _promote(lock_session(pk))


# ---- a seat given, on the person's devices (Web Push) ---------------------------------------


def queue_seat_pushes(promoted: list[Reservation]) -> None:
    """After the commit: a task tells the promoted people's devices (if they have any on)."""
    people = {row.user_id for row in promoted if row.user_id is not None}
    if people and PushSubscription.objects.filter(user_id__in=people).exists():
        push_seats.enqueue([row.pk for row in promoted])


@task(priority=push_tasks.PUSH_PRIORITY, queue_name=push_tasks.QUEUE)
def push_seats(reservation_ids: list[int]) -> dict[str, int]:
    """Tell each promoted person whose seat is still theirs, on their devices at the event."""
    rows = Reservation.objects.filter(pk__in=reservation_ids, status=CONFIRMED, user__isnull=False)
    items = []
    for row in rows.select_related("session__event", "session__room").order_by("pk"):
        for device in push_news.devices(row.session.event_id, [row.user_id or 0]):
            with translation.override(push_news.language(device, row.session.event)):
                items.append((push_news.target(device), _seat_notice(row)))
    return push_tasks.deliver(items)


def _seat_notice(row: Reservation) -> Notice:
    session, event = row.session, row.session.event
    when = gettext("time to be announced")
    if session.starts_at is not None:
        when = date_format(session.starts_at.astimezone(event.zone), gettext("D j M, H:i"))
    words = {"title": session.full_title, "code": row.code, "when": when,
             "room": session.room.name if session.room else ""}  # fmt: skip
    if session.room:
        body = gettext(
            "A seat became free and it is yours: %(when)s in %(room)s. Check-in code: %(code)s."
        )
    else:
        body = gettext("A seat became free and it is yours: %(when)s. Check-in code: %(code)s.")
    return Notice(
        title=gettext("You have a seat for “%(title)s”") % words, body=body % words,
        url=reverse("web:seat", kwargs={"event": event.slug, "key": session.key}),
        tag=f"seat-{event.slug}-{session.key}", ttl=push_news.DAY, urgency=Urgency.HIGH,
    )  # fmt: skip
