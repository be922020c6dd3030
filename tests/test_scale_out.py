"""Two app processes on one PostgreSQL and one Redis serve the same schedule: an import through
either is visible on both at once, because every cached page, stencil and export is keyed by
the schedule version the database holds, and no process keeps state of its own that could
go stale.

Needs PostgreSQL and Redis on this machine (CI has both); skips when either is unreachable,
unless CONFSCHED_REQUIRE_SERVICES is set.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_DIR, DEMO_SLUG, unavailable

POSTGRES = os.environ.get("CONFSCHED_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432")
REDIS = os.environ.get("CONFSCHED_TEST_REDIS", "redis://127.0.0.1:6379/15")
DATABASE = "confsched_scale_out"
TITLE = "TorchJD: Jacobian Descent in PyTorch"


def _reachable(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _confsched(*args: str, env: dict[str, str]) -> str:
    return subprocess.run(
        [sys.executable, "-m", "confsched.cli", *args],
        env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - our own server
        return response.read().decode().replace("\r\n ", "")  # iCalendar's folded lines


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[list[str], dict[str, str]]]:
    if not (_reachable(5432) and _reachable(6379)):
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
    _confsched("migrate", "--noinput", env=env)
    demo = [str(path) for path in sorted(DEMO_DIR.glob("*.txt"))]
    _confsched("import", "--event", DEMO_SLUG, "--timezone", "Europe/Paris", *demo, env=env)
    ports = [_free_port(), _free_port()]
    processes = [
        subprocess.Popen(  # noqa: S603 - our own command
            [sys.executable, "-m", "confsched.cli", "serve", "--port", str(port), "--workers", "1"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for port in ports
    ]
    bases = [f"http://127.0.0.1:{port}/{DEMO_SLUG}/" for port in ports]
    try:
        for base in bases:
            for _ in range(150):
                try:
                    _get(base)
                    break
                except OSError:
                    time.sleep(0.2)
        yield bases, env
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)
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
    output = _confsched(
        "import", "--event", DEMO_SLUG, *sorted(str(p) for p in changed.iterdir()), env=env
    )
    # Sched pages key sessions by title: the retitled talk is new, the old one cancelled.
    assert "1 sessions created" in output and "1 cancelled" in output
    after = {(base, page): _get(base + page) for base in bases for page in pages}
    assert [key for key, body in before.items() if "TorchJD retitled" in body] == []
    assert [key for key, body in after.items() if "TorchJD retitled" not in body] == []
