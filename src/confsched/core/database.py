"""What the two databases need told apart: how long SQLite's one write lock is waited for, and
whether a database error means the database is away, busy, or neither.

SQLite (settings.py) begins every transaction IMMEDIATE: it takes the write lock at BEGIN and
waits up to CONFSCHED_SQLITE_WAIT_SECONDS for it. `sqlite_wait` lets an import wait longer for
another import of the same event. On PostgreSQL both are nothing to do: row and advisory locks
are waited for as long as they are held.
"""

from __future__ import annotations

import enum
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction


@contextmanager
def sqlite_wait(seconds: float) -> Iterator[None]:
    """Transactions begun inside wait up to `seconds` for SQLite's write lock (set on the
    connection before BEGIN, which is where IMMEDIATE waits); nothing on PostgreSQL, nor
    inside a transaction, which holds the lock already."""
    if connection.vendor != "sqlite" or transaction.get_connection().in_atomic_block:
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
    try:
        yield
    finally:
        if connection.connection is not None:  # still open (a failure may have closed it)
            with connection.cursor() as cursor:
                wait_ms = int(settings.CONFSCHED_SQLITE_WAIT_SECONDS * 1000)
                cursor.execute(f"PRAGMA busy_timeout = {wait_ms}")


class Trouble(enum.Enum):
    """What a database error says of the database."""

    # Cannot be reached: down, restarting, or its file cannot be opened. Try again later.
    AWAY = "away"
    # Reached, but a lock was not had in time (SQLite's write lock past its wait, a deadlock
    # or a lock timeout on PostgreSQL): nothing was written; try again at once.
    BUSY = "busy"


# SQLite's primary result codes (the low byte of the error's sqlite_errorcode; Django's error
# keeps sqlite3's as its cause): a lock not had, and a file that cannot be used.
_SQLITE_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
_SQLITE_AWAY = (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_NOTADB)
# PostgreSQL: class 08 (connection exception), 57P01-57P03 (shut down, crashed, starting).
_POSTGRES_AWAY_PREFIXES = ("08", "57P01", "57P02", "57P03")
# 40001 serialization failure, 40P01 deadlock, 55P03 lock not available, 57014 a statement
# cancelled (lock_timeout or statement_timeout).
_POSTGRES_BUSY = ("40001", "40P01", "55P03", "57014")


def trouble(error: BaseException) -> Trouble | None:
    """AWAY or BUSY for an error that says so; None for one that says nothing of the database's
    state (a query it refused: a pattern too long, a constraint), which is ours to answer."""
    if isinstance(error, InterfaceError):
        return Trouble.AWAY
    if not isinstance(error, OperationalError):
        return None
    cause = error.__cause__
    if isinstance(cause, sqlite3.Error):
        code = getattr(cause, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        if primary in _SQLITE_BUSY:
            return Trouble.BUSY
        return Trouble.AWAY if primary in _SQLITE_AWAY else None
    state = getattr(cause, "sqlstate", None)
    if state is None:
        # psycopg without a server's answer: the connection failed or was lost.
        return Trouble.AWAY
    if state in _POSTGRES_BUSY:
        return Trouble.BUSY
    return Trouble.AWAY if state.startswith(_POSTGRES_AWAY_PREFIXES) else None
