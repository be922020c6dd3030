"""`confsched serve` is a real server: it answers pages and serves the collected static files."""

from __future__ import annotations

import fcntl
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_DIR


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _confsched(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "confsched.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "DEBUG", "CONFSCHED_TESTING"}
    }
    env.update(
        SECRET_KEY="s" * 50,
        CONFSCHED_DATA_DIR=str(tmp_path),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    _confsched("migrate", "--noinput", env=env)
    demo = [str(path) for path in sorted(DEMO_DIR.glob("*.txt"))]
    _confsched(
        "import",
        "--event",
        "pytorch-conference-europe-2026",
        "--timezone",
        "Europe/Paris",
        *demo,
        env=env,
    )
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "confsched.cli", "serve", "--port", str(port), "--workers", "1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):  # up to 20 s for collectstatic and the first worker
            try:
                urllib.request.urlopen(base + "/pytorch-conference-europe-2026/", timeout=2)  # noqa: S310 - our own server
                break
            except OSError:
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serve_answers_pages_and_static_files(server: str) -> None:
    with urllib.request.urlopen(server + "/pytorch-conference-europe-2026/", timeout=5) as page:  # noqa: S310
        html = page.read().decode()
        assert (page.status, page.headers["Server"]) == (200, "gunicorn")
    assert "Showing <strong>28</strong> of 28 sessions." in html
    stylesheet = html.split('<link rel="stylesheet" href="', 1)[1].split('"', 1)[0]
    assert stylesheet.startswith("/static/confsched/app.") and stylesheet.endswith(
        ".css"
    )  # hashed name
    with urllib.request.urlopen(server + stylesheet, timeout=5) as css:  # noqa: S310
        assert (css.status, css.headers["Content-Type"]) == (200, 'text/css; charset="utf-8"')
        assert "max-age=315360000" in css.headers["Cache-Control"]  # immutable, hashed file


# What `serve` does before it starts gunicorn, alone: collectstatic under the data folder's lock.
COLLECT = (
    "import django; django.setup(); "
    "from confsched.web.management.commands.serve import collect_static; "
    "import sys; collect_static(out=sys.stdout)"
)


def _production_env(data_dir: Path) -> dict[str, str]:
    # Not a test run: the settings then use the hashed-manifest storage that serve uses.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "DEBUG", "CONFSCHED_TESTING"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="confsched.settings",
        SECRET_KEY="s" * 50,
        CONFSCHED_DATA_DIR=str(data_dir),
    )
    return env


def _collector(data_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", COLLECT], env=_production_env(data_dir),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _manifest(data_dir: Path) -> dict[str, str]:
    return json.loads((data_dir / "static" / "staticfiles.json").read_text())["paths"]


def test_two_serves_starting_at_once_both_collect_the_static_files(tmp_path: Path) -> None:
    first, second = _collector(tmp_path), _collector(tmp_path)
    results = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in (first, second)]
    assert results == [(0, ""), (0, "")]
    assert _manifest(tmp_path)["confsched/app.css"].startswith("confsched/app.")


def test_collecting_waits_while_another_process_holds_the_lock(tmp_path: Path) -> None:
    with (tmp_path / ".collectstatic.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a serve busy collecting would
        waiting = _collector(tmp_path)
        assert waiting.stdout is not None
        # Read without a clock: the line comes only once the child has found the lock taken.
        line = waiting.stdout.readline()
        assert line == "Waiting for another confsched to finish collecting static files\n"
        assert not (tmp_path / "static").exists()  # it wrote nothing while it waited
        fcntl.flock(lock, fcntl.LOCK_UN)
    assert waiting.wait(timeout=120) == 0
    assert "confsched/app.css" in _manifest(tmp_path)
