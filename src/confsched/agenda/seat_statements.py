"""The statements of a rush on a workshop's seats, in plain SQL: what the person holds already,
the reservation written at once under the person's and the session's locks, and the person's
lock for the careful path.

agenda/reservations.py decides with them; they are apart because they speak to each database
in its own way (what takes a lock, what a statement sees) and are the whole of what a request
asks of the database while a thousand others wait for the same lock.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from django.db import DatabaseError, connection
from django.utils.dateparse import parse_datetime

from confsched.agenda.models import Reservation, ReservationStatus
from confsched.core import clock
from confsched.programme.models import Session

CONFIRMED, WAITLISTED = ReservationStatus.CONFIRMED, ReservationStatus.WAITLISTED


def _with_tables(statement: str) -> str:
    """`statement` with the two tables' names, quoted for this database, and its clock."""
    quote = connection.ops.quote_name
    return statement.format(
        reservation=quote(Reservation._meta.db_table), session=quote(Session._meta.db_table),
        now=_DATABASE_NOW.get(connection.vendor, "CURRENT_TIMESTAMP"),
    )  # fmt: skip


# The person's reservations in the event, in one plain statement (the path of a rush): this
# session's (a second press) and the others, each with whether it overlaps the session.
_THEIRS = """
SELECT r.id, r.session_id,
       CASE WHEN s.is_cancelled = %(no)s AND s.starts_at < %(ends)s AND s.ends_at > %(starts)s
            THEN 1 ELSE 0 END
FROM {reservation} r JOIN {session} s ON s.id = r.session_id
WHERE r.user_id = %(user)s AND s.event_id = %(event)s
"""


def theirs(user_pk: int, session: Session) -> list[tuple[int, int, bool]]:
    """(reservation id, session id, whether it overlaps `session`) of each of the person's
    reservations in the session's event."""
    sql = _with_tables(_THEIRS)
    timed = session.starts_at is not None and session.ends_at is not None
    adapt = connection.ops.adapt_datetimefield_value
    params = {
        "user": user_pk, "event": session.event_id, "no": False,
        # An untimed session overlaps nothing: an empty window.
        "starts": adapt(session.starts_at) if timed else None,
        "ends": adapt(session.ends_at) if timed else None,
    }  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [(pk, session_id, bool(overlaps)) for pk, session_id, overlaps in cursor.fetchall()]


# The whole decision in one statement: count the confirmed seats and add the row, if the session
# still takes reservations, the person holds none (ON CONFLICT: a second press) and, where the
# event allows one seat at a time, none that overlaps. Its RETURNING counts the waitlist
# (PostgreSQL: before the row; SQLite: with it) and gives the time the place was taken: read by
# the database once the statement holds the lock ({now}), unless a test set the clock.
_INSERT = """
INSERT INTO {reservation} (session_id, user_id, status, is_forced, is_walk_in, code,
                           created_at, confirmed_at)
SELECT s.id, %(user)s,
       CASE WHEN taken.n < s.seats THEN %(confirmed)s ELSE %(waitlisted)s END,
       %(no)s, %(no)s, %(code)s, clock.at,
       CASE WHEN taken.n < s.seats THEN clock.at END
FROM {session} s,
     (SELECT COUNT(*) AS n FROM {reservation}
      WHERE session_id = %(session)s AND status = %(confirmed)s) taken,
     (SELECT COALESCE(%(at)s, {now}) AS at) clock
WHERE s.id = %(session)s AND s.seats IS NOT NULL AND s.starts_at IS NOT NULL
  AND s.needs_review = %(no)s AND s.is_cancelled = %(no)s
  AND COALESCE(s.reservations_close_at, s.starts_at) > %(now)s
  AND (%(double)s OR NOT EXISTS (
      SELECT 1 FROM {reservation} mine JOIN {session} other ON other.id = mine.session_id
      WHERE mine.user_id = %(user)s AND other.event_id = s.event_id AND other.id <> s.id
        AND other.is_cancelled = %(no)s
        AND other.starts_at < s.ends_at AND other.ends_at > s.starts_at))
ON CONFLICT DO NOTHING
RETURNING id, status,
          (SELECT COUNT(*) FROM {reservation}
           WHERE session_id = %(session)s AND status = %(waitlisted)s),
          created_at
"""

# The database's clock, read when the statement runs (PostgreSQL's now() would be the
# transaction's start, before the lock was waited for); SQLite's in Django's own text form.
_DATABASE_NOW = {
    "postgresql": "clock_timestamp()",
    "sqlite": "strftime('%%Y-%%m-%%d %%H:%%M:%%f', 'now')",
}


def person_lock_key(*, user_pk: int, event_pk: int) -> int:
    """The PostgreSQL advisory lock that makes one person's reservations in one event wait for
    each other: a signed 64-bit key of its own (programme/services/loading.py's import locks
    are keyed the same way, by other words)."""
    digest = hashlib.sha256(f"confsched seats {event_pk} {user_pk}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def lock_person(*, user_pk: int, event_pk: int) -> None:
    """Hold the person's reservations in the event until the transaction ends: two reservations
    of overlapping sessions, each under its own session's lock, would each find the other not
    yet written. On SQLite the transaction holds the database's one write lock already."""
    if not connection.in_atomic_block:
        raise RuntimeError("lock_person needs a transaction to hold the lock")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)",
                [person_lock_key(user_pk=user_pk, event_pk=event_pk)],
            )


def insert_reservation(
    *, user_pk: int, session: Session, code: str, now: datetime, is_double_allowed: bool
) -> tuple[int, str, int, datetime] | None:
    """Reserve in one round trip to the database, under the person's and the session's locks:
    (the row's id, its status, its place on the waitlist: 0 when confirmed, when it was taken),
    or None when nothing was written (no such session taking reservations now, the person
    already holds a row, or one that overlaps while the event allows one at a time).

    The locks are held for the statements alone, never while Python waits for its turn: in a
    rush, the next request's turn comes as soon as the database is done with this one.
    PostgreSQL: the person's advisory lock, then the session's row, are locked first, and the
    insertion, a statement of its own, reads the counts and the person's other rows as they
    are once the locks are held; all go in one message with the transaction around them.
    SQLite: one statement is a write transaction of its own, taken with the database's write
    lock before it reads.
    """
    sql = _with_tables(_INSERT)
    adapt = connection.ops.adapt_datetimefield_value
    params: dict[str, Any] = {
        "user": user_pk, "session": session.pk, "confirmed": CONFIRMED.value,
        "waitlisted": WAITLISTED.value, "no": False, "code": code, "now": adapt(now),
        "at": None if clock.is_machine_time() else adapt(now),
        "double": is_double_allowed,
        "person": person_lock_key(user_pk=user_pk, event_pk=session.event_id),
    }  # fmt: skip
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(sql, params)
            found = cursor.fetchone()
            waiting_before = -1  # the count includes the new row
        else:
            found = _postgres_locked_insert(cursor, sql, params, person=not is_double_allowed)
            waiting_before = 0
    if found is None:
        return None
    pk, status, waiting, taken = found
    place = 0 if status == CONFIRMED else waiting + waiting_before + 1
    return pk, status, place, _aware(taken)


def _aware(value: datetime | str) -> datetime:
    """The time RETURNING gave: PostgreSQL's is aware; SQLite's is Django's UTC text."""
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    parsed = parse_datetime(value)
    if parsed is None:
        raise ValueError(f"not a time: {value!r}")
    return parsed.replace(tzinfo=UTC)


def _postgres_locked_insert(
    cursor: Any, sql: str, params: dict[str, Any], *, person: bool
) -> tuple[int, str, int, datetime] | None:
    """Lock, insert and commit in one message (client-side binding allows several statements);
    inside a transaction already open (a caller's atomic block) the locks last until its end.
    The person's lock comes before the session's, as in reservations._reserve_locked."""
    table = connection.ops.quote_name(Session._meta.db_table)
    locks = [f"SELECT 1 FROM {table} WHERE id = %(session)s FOR UPDATE"]  # noqa: S608 - our own table name
    if person:
        locks.insert(0, "SELECT pg_advisory_xact_lock(%(person)s)")
    own = not connection.in_atomic_block
    body = "; ".join([*locks, sql])
    script = f"BEGIN; {body}; COMMIT" if own else body
    raw = cursor.cursor  # psycopg's own: the results of each statement in turn
    try:
        cursor.execute(script, params)
    except DatabaseError:
        if own:
            raw.execute("ROLLBACK")
        raise
    found = None
    while True:
        if raw.description is not None and len(raw.description) == 4:
            found = raw.fetchone()
        if not raw.nextset():
            break
    return found
