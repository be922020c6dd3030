"""A kept PostgreSQL connection is checked without a round trip (core/postgresql/), and one the
server closed is still found and replaced before a request's first query uses it."""

from __future__ import annotations

import select
from collections.abc import Iterator

import pytest
from django.db import connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper

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


def test_a_connection_inside_a_transaction_is_asked(kept, round_trips) -> None:  # noqa: ANN001
    kept.connection.execute("BEGIN")
    assert kept.is_usable() is True
    assert round_trips == ["SELECT 1"]
    kept.connection.execute("ROLLBACK")
