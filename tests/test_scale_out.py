"""Two app processes on one PostgreSQL and one Redis serve the same schedule: an import through
either is visible on both at once, because every cached page, stencil and export is keyed by
the schedule version the database holds, and no process keeps state of its own that could
go stale.

Needs PostgreSQL and Redis on this machine (CI has both); skips when either is unreachable,
unless CONFSCHED_REQUIRE_SERVICES is set.
"""

from __future__ import annotations

import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_DIR, DEMO_SLUG, unavailable
from tests.served_demo import confsched, reachable, served, with_demo

POSTGRES = os.environ.get("CONFSCHED_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432")
REDIS = os.environ.get("CONFSCHED_TEST_REDIS", "redis://127.0.0.1:6379/15")
DATABASE = "confsched_scale_out"
TITLE = "TorchJD: Jacobian Descent in PyTorch"


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - our own server
        return response.read().decode().replace("\r\n ", "")  # iCalendar's folded lines


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[list[str], dict[str, str]]]:
    if not (reachable(5432) and reachable(6379)):
        unavailable("PostgreSQL on 5432 and Redis on 6379 are needed", "CONFSCHED_REQUIRE_SERVICES")
    import psycopg
    import redis

    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        connection.execute(f"CREATE DATABASE {DATABASE}")
    redis.Redis.from_url(REDIS).flushdb()
    env = {
        k: v for k, v in os.environ.items() if k not in {"DEBUG", "CONFSCHED_TESTING"}
    } | {
        "SECRET_KEY": "s" * 50,
        "CONFSCHED_DATA_DIR": str(tmp_path),
        "DATABASE_URL": f"{POSTGRES}/{DATABASE}",
        "REDIS_URL": REDIS,
    }  # fmt: skip
    with_demo(env)
    try:
        with served(env) as first, served(env) as second:
            yield [first, second], env
    finally:
        redis.Redis.from_url(REDIS).flushdb()


def test_an_import_through_one_process_is_served_by_both_at_once(
    two_servers: tuple[list[str], dict[str, str]], tmp_path: Path
) -> None:
    bases, env = two_servers
    pages = ["", "grid/", "speakers/valerian-rey/", "schedule.json", "schedule.ics"]
    before = {(base, page): _get(base + page) for base in bases for page in pages}
    assert all(TITLE in body for body in before.values())
    # Both processes now hold every page; an organizer re-imports with one title changed.
    changed = tmp_path / "pages"
    changed.mkdir()
    for path in sorted(DEMO_DIR.glob("*.txt")):
        text = path.read_text(encoding="utf-8").replace(TITLE, "TorchJD retitled")
        (changed / path.name).write_text(text, encoding="utf-8")
    output = confsched(
        "import", "--event", DEMO_SLUG, *sorted(str(p) for p in changed.iterdir()), env=env
    )
    # Sched pages key sessions by title: the retitled talk is new, the old one cancelled.
    assert "1 sessions created" in output and "1 cancelled" in output
    after = {(base, page): _get(base + page) for base in bases for page in pages}
    assert [key for key, body in before.items() if "TorchJD retitled" in body] == []
    assert [key for key, body in after.items() if "TorchJD retitled" not in body] == []
