"""What a database error says of the database: away (503, come back later), busy (503, send it
again), or nothing (our own fault: 500), told from the real errors of SQLite and psycopg."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest
from django.db import InterfaceError, OperationalError
from django.test import RequestFactory

from confsched.core.database import Trouble, trouble
from confsched.web.site.views import server_error
from tests.served_demo import free_port


def _as_django(error: Exception) -> OperationalError:
    """`error` as Django raises it: its own class, the driver's error as the cause."""
    try:
        raise OperationalError(*error.args) from error
    except OperationalError as wrapped:
        return wrapped


def _sqlite_error(run) -> sqlite3.Error:  # noqa: ANN001 - a callable that fails
    with pytest.raises(sqlite3.Error) as failed:
        run()
    return failed.value


def _locked(path: Path) -> sqlite3.Error:
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        return _sqlite_error(lambda: other.execute("BEGIN IMMEDIATE"))
    finally:
        holder.execute("ROLLBACK")


def test_sqlite_s_write_lock_not_had_in_time_is_busy(tmp_path: Path) -> None:
    error = _locked(tmp_path / "db.sqlite3")
    assert str(error) == "database is locked"
    assert trouble(_as_django(error)) is Trouble.BUSY


def test_a_sqlite_file_that_cannot_be_opened_is_away(tmp_path: Path) -> None:
    error = _sqlite_error(lambda: sqlite3.connect(tmp_path / "no" / "db.sqlite3"))
    assert trouble(_as_django(error)) is Trouble.AWAY


def test_a_query_sqlite_refuses_says_nothing_of_the_database() -> None:
    pattern = "%" * 60_000
    error = _sqlite_error(
        lambda: sqlite3.connect(":memory:").execute("SELECT 'a' LIKE ?", [pattern])
    )
    assert str(error) == "LIKE or GLOB pattern too complex"
    assert trouble(_as_django(error)) is None


def test_postgresql_that_cannot_be_reached_is_away() -> None:
    with pytest.raises(psycopg.OperationalError) as failed:
        psycopg.connect(f"postgresql://nobody@127.0.0.1:{free_port()}/x", connect_timeout=2)
    assert trouble(_as_django(failed.value)) is Trouble.AWAY
    assert trouble(InterfaceError("connection already closed")) is Trouble.AWAY


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (psycopg.errors.LockNotAvailable("could not obtain lock"), Trouble.BUSY),
        (psycopg.errors.DeadlockDetected("deadlock detected"), Trouble.BUSY),
        (psycopg.errors.QueryCanceled("canceling statement due to lock timeout"), Trouble.BUSY),
        (psycopg.errors.AdminShutdown("terminating connection"), Trouble.AWAY),
        (psycopg.errors.CannotConnectNow("the database system is starting up"), Trouble.AWAY),
        (psycopg.errors.ProgramLimitExceeded("index row size exceeds maximum"), None),
    ],
)
def test_postgresql_s_answers_are_told_by_their_sqlstate(
    error: psycopg.Error, expected: Trouble | None
) -> None:
    assert trouble(_as_django(error)) is expected


def test_a_busy_database_is_a_503_that_says_to_send_again_not_that_it_is_down(
    db: None, tmp_path: Path
) -> None:
    request = RequestFactory().post("/pytorch-conference-europe-2026/profile/")
    try:
        raise _as_django(_locked(tmp_path / "db.sqlite3"))
    except OperationalError:
        response = server_error(request)
    page = response.content.decode()
    assert (response.status_code, response["Retry-After"]) == (503, "2")
    assert "<h1>Too busy to save this</h1>" in page
    assert "cannot be reached" not in page


def test_a_query_the_database_refused_is_a_500_not_a_503(db: None) -> None:
    request = RequestFactory().get("/pytorch-conference-europe-2026/people/")
    pattern = "%" * 60_000
    error = _sqlite_error(
        lambda: sqlite3.connect(":memory:").execute("SELECT 'a' LIKE ?", [pattern])
    )
    try:
        raise _as_django(error)
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in response.content.decode()
