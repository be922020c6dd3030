"""A served confsched when its database restarts or goes away, and when Redis is down.

The database is reached through a TCP relay this test controls: dropping every connection is a
restart (PostgreSQL closes them all), closing the relay's port is the database being down.
Needs PostgreSQL on this machine; skips without it, unless CONFSCHED_REQUIRE_SERVICES is set.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import unavailable
from tests.relay import Relay
from tests.served_demo import free_port, reachable, served, with_demo

POSTGRES = os.environ.get("CONFSCHED_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DATABASE = "confsched_resilience"


def _status(url: str) -> tuple[int, str, str]:
    """Status, Retry-After and the start of the body."""
    try:
        with urllib.request.urlopen(url, timeout=15) as response:  # noqa: S310 - our server
            return response.status, response.headers.get("Retry-After", ""), ""
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After", ""), error.read().decode()


@pytest.fixture
def served_through_relay(tmp_path: Path) -> Iterator[tuple[str, Relay]]:
    if not reachable(5432):
        unavailable("PostgreSQL on 5432 is needed", "CONFSCHED_REQUIRE_SERVICES")
    import psycopg

    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        connection.execute(f"CREATE DATABASE {DATABASE}")
    relay = Relay(("127.0.0.1", free_port()), ("127.0.0.1", 5432))
    relay.start()
    env = {
        k: v for k, v in os.environ.items() if k not in {"DEBUG", "CONFSCHED_TESTING", "REDIS_URL"}
    } | {
        "SECRET_KEY": "s" * 50,
        "CONFSCHED_DATA_DIR": str(tmp_path),
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{relay.listen[1]}/{DATABASE}",
    }  # fmt: skip
    with_demo(env)
    try:
        with served(env) as base:
            yield base, relay
    finally:
        relay.stop()


def test_a_database_restart_costs_no_request(served_through_relay) -> None:  # noqa: ANN001
    base, relay = served_through_relay
    pages = ["", "grid/", "speakers/", "changes/", "schedule.json", "agenda/"] * 2
    assert [_status(base + page)[0] for page in pages] == [200] * 12
    relay.restart()
    assert [_status(base + page)[0] for page in pages] == [200] * 12


def test_while_the_database_is_down_pages_say_so_and_come_back_at_once(
    served_through_relay,  # noqa: ANN001
) -> None:
    base, relay = served_through_relay
    assert _status(base + "changes/")[0] == 200
    relay.stop()
    status, retry_after, body = _status(base + "changes/")
    assert (status, retry_after) == (503, "30")
    assert "<h1>Back in a moment</h1>" in body
    assert 'class="site-header' in body  # the site's layout, not a bare error
    relay.start()
    assert _status(base + "changes/")[0] == 200


def test_pages_are_served_while_redis_is_down(tmp_path: Path) -> None:
    """The shared cache unreachable (nothing listens on its port): pages are built and served
    without it; right after an import every page is one that no process holds yet."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "DEBUG", "CONFSCHED_TESTING"}
    } | {
        "SECRET_KEY": "s" * 50,
        "CONFSCHED_DATA_DIR": str(tmp_path),
        "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",
    }  # fmt: skip
    with_demo(env)
    with served(env) as base:
        pages = ["", "grid/", "speakers/", "schedule.json", "schedule.ics", "sessions/x/"]
        assert [_status(base + page)[0] for page in pages] == [200, 200, 200, 200, 200, 404]
