"""A kept PostgreSQL connection is checked without a round trip (core/postgresql/), one the
server closed is still found and replaced before a request's first query uses it, and one left
inside a transaction Django did not begin is closed, its locks freed."""

from __future__ import annotations

import select
from collections.abc import Iterator

import pytest
from django.db import connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper
from psycopg.pq import TransactionStatus

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"
    ),
]


@pytest.fixture
def kept() -> Iterator[PostgresWrapper]:
    """A second connection to the test database, as a worker keeps one between requests."""
    wrapper = connections.create_connection("default")
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each time Django's own check (`SELECT 1`) is asked."""
    asked: list[str] = []
    original = PostgresWrapper.is_usable

    def counted(self: PostgresWrapper) -> bool:
        asked.append("SELECT 1")
        return original(self)

    monkeypatch.setattr(PostgresWrapper, "is_usable", counted)
    return asked


def _wait_until_the_server_spoke(wrapper: PostgresWrapper) -> None:
    readable, _, _ = select.select([wrapper.connection.fileno()], [], [], 10)
    assert readable, "the server said nothing within 10 s"


def test_an_idle_connection_is_usable_without_asking_the_server(kept, round_trips) -> None:  # noqa: ANN001
    assert kept.vendor == "postgresql"
    assert type(kept).__module__ == "confsched.core.postgresql.base"
    assert kept.is_usable() is True
    assert round_trips == []


def test_a_connection_the_server_closed_is_replaced_before_the_first_query(
    kept,
    round_trips,  # noqa: ANN001
) -> None:
    pid = kept.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert cursor.fetchone() == (True,)
    _wait_until_the_server_spoke(kept)

    assert kept.is_usable() is False
    assert round_trips == ["SELECT 1"]
    # What Django does before a request's first query: close it, then connect anew.
    kept.health_check_enabled, kept.health_check_done = True, False
    kept.close_if_health_check_failed()
    assert kept.connection is None
    with kept.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid


def test_a_notification_is_not_taken_for_a_closing_connection(kept, round_trips) -> None:  # noqa: ANN001
    with kept.cursor() as cursor:
        cursor.execute("LISTEN confsched_health")
    with connection.cursor() as cursor:
        cursor.execute("NOTIFY confsched_health")
    _wait_until_the_server_spoke(kept)

    assert kept.is_usable() is True
    assert round_trips == ["SELECT 1"]


def test_a_connection_inside_its_atomic_block_is_asked(kept, round_trips) -> None:  # noqa: ANN001
    kept.set_autocommit(False)
    kept.in_atomic_block = True
    kept.connection.execute("SELECT 1")  # psycopg begins the transaction Django asked for
    assert (kept.is_left_in_transaction(), kept.is_usable(), round_trips) == (
        False,
        True,
        ["SELECT 1"],
    )
    kept.in_atomic_block = False
    kept.rollback()
    kept.set_autocommit(True)


@pytest.fixture
def locked_event(kept: PostgresWrapper) -> int:
    """A row `kept` locks inside a transaction it began past Django (a raw BEGIN), as a
    statement cut short by an error leaves it."""
    from confsched.programme.services import create_event

    event = create_event(slug="locked", name="Locked", timezone="UTC")
    kept.connection.execute("BEGIN")
    kept.connection.execute("SELECT 1 FROM programme_event WHERE id = %s FOR UPDATE", [event.pk])
    return event.pk


def _lock_now(pk: int) -> None:
    """Lock the row from the test's own connection, refusing to wait for it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM programme_event WHERE id = %s FOR UPDATE NOWAIT", [pk])


def test_a_transaction_left_open_is_never_taken_for_usable(kept, locked_event, round_trips) -> None:  # noqa: ANN001
    # Django's SELECT 1 would succeed inside it, and the connection (and its lock) be kept.
    assert (kept.is_left_in_transaction(), kept.is_usable(), round_trips) == (True, False, [])


def test_a_transaction_left_open_ends_with_the_request(kept, locked_event) -> None:  # noqa: ANN001
    from django.db.utils import OperationalError

    with pytest.raises(OperationalError, match="could not obtain lock"):
        _lock_now(locked_event)
    pid = kept.connection.info.backend_pid
    kept.close_if_unusable_or_obsolete()  # what request_finished does
    # Rolled back, so the lock is free before anything else is answered; the connection, in
    # order again, is kept.
    _lock_now(locked_event)
    assert (kept.connection.info.transaction_status, kept.connection.info.backend_pid) == (
        TransactionStatus.IDLE,
        pid,
    )


def test_a_failed_transaction_left_behind_ends_too(kept) -> None:  # noqa: ANN001
    import psycopg

    kept.connection.execute("BEGIN")
    with pytest.raises(psycopg.errors.DivisionByZero):
        kept.connection.execute("SELECT 1 / 0")
    assert kept.connection.info.transaction_status == TransactionStatus.INERROR
    kept.close_if_unusable_or_obsolete()
    assert kept.connection.info.transaction_status == TransactionStatus.IDLE


def test_an_idle_connection_outlives_the_request(kept) -> None:  # noqa: ANN001
    kept.close_if_unusable_or_obsolete()
    assert kept.connection is not None
