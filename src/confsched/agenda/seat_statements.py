"""The two statements of a rush on a workshop's seats, in plain SQL: what the person holds
already, and the reservation written at once under the session's lock.

agenda/reservations.py decides with them; they are apart because they speak to each database
in its own way (what takes a lock, what a statement sees) and are the whole of what a request
asks of the database while a thousand others wait for the same lock.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import DatabaseError, connection

from confsched.agenda.models import Reservation, ReservationStatus
from confsched.programme.models import Session

CONFIRMED, WAITLISTED = ReservationStatus.CONFIRMED, ReservationStatus.WAITLISTED
# How long a request waits for the SQLite write lock before it is refused.
SQLITE_WAIT_MS = 20_000


def _with_tables(statement: str) -> str:
    """`statement` with the two tables' names, quoted for this database."""
    quote = connection.ops.quote_name
    return statement.format(
        reservation=quote(Reservation._meta.db_table), session=quote(Session._meta.db_table)
    )


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
# still takes reservations and the person holds none (ON CONFLICT: a second press). Its
# RETURNING counts the waitlist (PostgreSQL: before the row; SQLite: with it).
_INSERT = """
INSERT INTO {reservation} (session_id, user_id, status, is_forced, is_walk_in, code,
                           created_at, confirmed_at)
SELECT s.id, %(user)s,
       CASE WHEN taken.n < s.seats THEN %(confirmed)s ELSE %(waitlisted)s END,
       %(no)s, %(no)s, %(code)s, %(now)s,
       CASE WHEN taken.n < s.seats THEN %(now)s END
FROM {session} s,
     (SELECT COUNT(*) AS n FROM {reservation}
      WHERE session_id = %(session)s AND status = %(confirmed)s) taken
WHERE s.id = %(session)s AND s.seats IS NOT NULL AND s.starts_at IS NOT NULL
  AND s.needs_review = %(no)s AND s.is_cancelled = %(no)s
  AND COALESCE(s.reservations_close_at, s.starts_at) > %(now)s
ON CONFLICT DO NOTHING
RETURNING id, status,
          (SELECT COUNT(*) FROM {reservation}
           WHERE session_id = %(session)s AND status = %(waitlisted)s)
"""


def insert_reservation(
    *, user_pk: int, session_pk: int, code: str, now: datetime
) -> tuple[int, str, int] | None:
    """Reserve in one round trip to the database, under the session's lock: (the row's id, its
    status, its place on the waitlist: 0 when confirmed), or None when nothing was written
    (no such session taking reservations now, or the person already holds a row).

    The lock is held for the statements alone, never while Python waits for its turn: in a
    rush, the next request's turn comes as soon as the database is done with this one.
    PostgreSQL: the session's row is locked first, and the insertion, a statement of its
    own, reads the counts as they are once the lock is held; both go in one message with the
    transaction around them. SQLite: one statement is a write transaction of its own, taken
    with the database's write lock before it reads.
    """
    sql = _with_tables(_INSERT)
    params: dict[str, Any] = {
        "user": user_pk, "session": session_pk, "confirmed": CONFIRMED.value,
        "waitlisted": WAITLISTED.value, "no": False, "code": code,
        "now": connection.ops.adapt_datetimefield_value(now),
    }  # fmt: skip
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_WAIT_MS}")
            cursor.execute(sql, params)
            found = cursor.fetchone()
            waiting_before = -1  # the count includes the new row
        else:
            found = _postgres_locked_insert(cursor, sql, params)
            waiting_before = 0
    if found is None:
        return None
    pk, status, waiting = found
    return pk, status, 0 if status == CONFIRMED else waiting + waiting_before + 1


def _postgres_locked_insert(
    cursor: Any, sql: str, params: dict[str, Any]
) -> tuple[int, str, int] | None:
    """Lock, insert and commit in one message (client-side binding allows several statements);
    inside a transaction already open (a caller's atomic block) the lock lasts until its end."""
    table = connection.ops.quote_name(Session._meta.db_table)
    lock = f"SELECT 1 FROM {table} WHERE id = %(session)s FOR UPDATE"  # noqa: S608 - our own table name
    own = not connection.in_atomic_block
    script = f"BEGIN; {lock}; {sql}; COMMIT" if own else f"{lock}; {sql}"
    raw = cursor.cursor  # psycopg's own: the results of each statement in turn
    try:
        cursor.execute(script, params)
    except DatabaseError:
        if own:
            raw.execute("ROLLBACK")
        raise
    found = None
    while True:
        if raw.description is not None and len(raw.description) == 3:
            found = raw.fetchone()
        if not raw.nextset():
            break
    return found
