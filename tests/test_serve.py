"""`confsched serve` is a real server: it answers pages and serves the collected static files."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_SLUG
from tests.served_demo import served, sqlite_env, with_demo


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The demo served on SQLite; the site's root address."""
    env = sqlite_env(tmp_path)
    with_demo(env)
    with served(env) as event_page:
        yield event_page.removesuffix(f"/{DEMO_SLUG}/")


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


def test_static_files_are_collected_by_a_child_the_server_process_stays_lean(
    tmp_path: Path,
) -> None:
    # What collectstatic allocates would stay in gunicorn's master and in every worker it forks.
    probe = (
        COLLECT + "; print('collectstatic' in "
        "str([m for m in sys.modules if m.endswith('commands.collectstatic')]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=_production_env(tmp_path),
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert done.stdout == "False\n"
    assert "confsched/app.css" in _manifest(tmp_path)


def test_a_failed_collection_stops_serve_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "static").write_text("a file where the static folder belongs\n")
    collector = _collector(tmp_path)
    assert collector.wait(timeout=120) == 1
    assert collector.stderr is not None
    error = collector.stderr.read()
    assert f"NotADirectoryError: [Errno 20] Not a directory: '{tmp_path}/static" in error
    assert error.rstrip().endswith(
        "CommandError: collectstatic failed (exit code 1); its error is above"
    )
    assert (tmp_path / "static").read_text() == "a file where the static folder belongs\n"


@pytest.mark.parametrize(
    ("configured", "host", "address", "expected"),
    [
        ("", "127.0.0.1", "http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("", "::1", "http://[::1]:8000", "http://[::1]:8000"),
        ("", "0.0.0.0", "http://0.0.0.0:8000", ""),  # noqa: S104 - no one opens a page there
        ("https://schedule.example.org", "127.0.0.1", "http://127.0.0.1:8000",
         "https://schedule.example.org"),
    ],
)  # fmt: skip
def test_serve_makes_mails_link_to_where_it_serves_unless_told(
    monkeypatch: pytest.MonkeyPatch, configured: str, host: str, address: str, expected: str
) -> None:
    from django.conf import settings

    from confsched.web.management.commands.serve import own_address

    monkeypatch.setattr(settings, "CONFSCHED_BASE_URL", configured)
    monkeypatch.delenv("CONFSCHED_BASE_URL", raising=False)
    own_address(address, host=host)
    assert settings.CONFSCHED_BASE_URL == expected
    assert os.environ.get("CONFSCHED_BASE_URL", "") == ("" if configured else expected)
