"""`confsched serve` is a real server: it answers pages and serves the collected static files."""

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
