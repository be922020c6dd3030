"""Start-up refuses to run without a secret in production, and the deploy check is clean."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _confsched(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "CONFSCHED_TESTING"}
    }
    base["CONFSCHED_DATA_DIR"] = str(tmp_path)
    return subprocess.run(
        [sys.executable, "-m", "confsched.cli", *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_missing_secret_key_stops_start_up(tmp_path: Path) -> None:
    result = _confsched("check", tmp_path=tmp_path)
    # The CLI reports a setting to fix in one line, without a traceback.
    assert (result.returncode, result.stderr) == (
        2,
        "confsched: SECRET_KEY is not set. Set it in the environment (make run does this for "
        "you), or set DEBUG=1 for a development server.\n",
    )


def test_the_deploy_check_is_clean_behind_https(tmp_path: Path) -> None:
    result = _confsched(
        "check", "--deploy", tmp_path=tmp_path,
        SECRET_KEY="k" * 20 + "-a-long-random-production-secret-0123456789",
        CONFSCHED_HTTPS="1",
    )  # fmt: skip
    # Silenced: W021, HSTS preload, which is an explicit choice (CONFSCHED_HSTS_PRELOAD).
    assert (result.returncode, result.stdout.strip()) == (
        0,
        "System check identified no issues (1 silenced).",
    )


def test_hsts_preload_is_a_choice_that_the_deploy_check_then_finds_clean(tmp_path: Path) -> None:
    result = _confsched(
        "check", "--deploy", tmp_path=tmp_path,
        SECRET_KEY="k" * 20 + "-a-long-random-production-secret-0123456789",
        CONFSCHED_HTTPS="1", CONFSCHED_HSTS_PRELOAD="1",
    )  # fmt: skip
    assert (result.returncode, result.stdout.strip()) == (
        0,
        "System check identified no issues (0 silenced).",
    )


def test_a_new_data_folder_is_made_on_first_use(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "data"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = subprocess.run(
        [sys.executable, "-m", "confsched.cli", "migrate", "--noinput", "-v0"],
        env={**env, "CONFSCHED_DATA_DIR": str(folder), "DEBUG": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert (folder / "confsched.sqlite3").is_file()


# Three requests through Django's own WSGI handler (which opens and closes connections as a
# served request does; the test client keeps them open itself), counting the connections made.
REQUESTS_ON_SQLITE = """
import io, django
django.setup()
from django.core.management import call_command
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.db.backends.signals import connection_created
call_command("migrate", "--noinput", verbosity=0)
connection.close()
opened = []
connection_created.connect(lambda **kwargs: opened.append(1))
handler = WSGIHandler()
for _ in range(3):
    environ = {
        "REQUEST_METHOD": "GET", "PATH_INFO": "/", "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80", "wsgi.input": io.BytesIO(), "wsgi.url_scheme": "http",
    }
    answer = handler(environ, lambda status, headers: None)
    answer.close()
    print(answer.status_code, end=" ")
print(len(opened))
"""


def test_the_sqlite_default_keeps_its_connection_between_requests(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CONFSCHED_TESTING"}}
    result = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", REQUESTS_ON_SQLITE],
        env={**env, "CONFSCHED_DATA_DIR": str(tmp_path), "DEBUG": "1",
             "DJANGO_SETTINGS_MODULE": "confsched.settings"},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    # Each request read the database (the home page lists the events); one connection served
    # all three.
    assert (result.returncode, result.stdout, result.stderr) == (0, "200 200 200 1\n", "")


def test_a_base_url_that_is_not_the_site_s_address_stops_start_up(tmp_path: Path) -> None:
    """Every link in every mail starts with it: a path or a bare host would make none whole."""
    result = _confsched(
        "check", tmp_path=tmp_path, SECRET_KEY="k" * 50, CONFSCHED_BASE_URL="schedule.example.org"
    )
    assert (result.returncode, result.stderr) == (
        2,
        "confsched: CONFSCHED_BASE_URL must be the site's http:// or https:// address, e.g. "
        "https://schedule.example.org: 'schedule.example.org'\n",
    )
