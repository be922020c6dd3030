"""Start-up refuses to run without a secret in production, and the deploy check is clean."""

from __future__ import annotations

import json
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


# settings.STORAGES["default"] and MEDIA_URL as a process started with some environment reads.
PRINT_MEDIA_SETTINGS = """
import json
from django.conf import settings
default = settings.STORAGES["default"]
print(json.dumps([settings.MEDIA_URL, default["BACKEND"], default["OPTIONS"]], default=str))
"""
S3_VARIABLES = {
    "CONFSCHED_S3_BUCKET", "CONFSCHED_S3_ENDPOINT_URL", "CONFSCHED_S3_REGION",
    "CONFSCHED_MEDIA_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
}  # fmt: skip


def _media_settings(tmp_path: Path, **env: str) -> list[object]:
    base = {
        k: v for k, v in os.environ.items() if k not in S3_VARIABLES | {"CONFSCHED_TESTING"}
    }  # fmt: skip
    result = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", PRINT_MEDIA_SETTINGS],
        env={**base, "CONFSCHED_DATA_DIR": str(tmp_path), "DEBUG": "1",
             "DJANGO_SETTINGS_MODULE": "confsched.settings", **env},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(result.stdout)


def test_uploaded_files_live_in_the_data_folder_by_default(tmp_path: Path) -> None:
    assert _media_settings(tmp_path) == [
        "/media/",
        "confsched.core.storage.AtomicFileSystemStorage",
        {"location": str(tmp_path / "media"), "base_url": "/media/"},
    ]


def test_an_object_store_from_the_environment(tmp_path: Path) -> None:
    found = _media_settings(
        tmp_path, CONFSCHED_S3_BUCKET="confsched", CONFSCHED_S3_REGION="eu-west-1",
        CONFSCHED_S3_ENDPOINT_URL="https://s3.example.org/", AWS_ACCESS_KEY_ID="id",
        AWS_SECRET_ACCESS_KEY="secret",
    )  # fmt: skip
    assert found == [
        "/media/",  # served by the app's media view, from the bucket
        "confsched.core.object_storage.ObjectStorage",
        {
            "bucket_name": "confsched", "endpoint_url": "https://s3.example.org",
            "region_name": "eu-west-1", "addressing_style": "path", "file_overwrite": False,
            "querystring_auth": True, "custom_domain": None, "url_protocol": "https:",
            "default_acl": None,
            "object_parameters": {"CacheControl": "public, max-age=31536000, immutable"},
        },
    ]  # fmt: skip
    # With a public address (a CDN, the bucket's own): links lead there, unsigned; AWS itself
    # (no endpoint) addresses buckets its own way.
    found = _media_settings(
        tmp_path, CONFSCHED_S3_BUCKET="confsched",
        CONFSCHED_MEDIA_URL="https://cdn.example.org/confsched",
    )  # fmt: skip
    options = found[2]
    assert (found[0], options["custom_domain"], options["url_protocol"]) == (
        "https://cdn.example.org/confsched/", "cdn.example.org/confsched", "https:",
    )  # fmt: skip
    assert (options["querystring_auth"], options["addressing_style"]) == (False, None)


def test_an_incomplete_object_store_stops_start_up(tmp_path: Path) -> None:
    secret = "k" * 50
    cases = [
        (
            {"CONFSCHED_S3_ENDPOINT_URL": "http://127.0.0.1:8333"},
            "CONFSCHED_S3_ENDPOINT_URL or CONFSCHED_S3_REGION is set without "
            "CONFSCHED_S3_BUCKET: set the bucket to keep uploaded files in the object store, or "
            "unset both to keep them in the data folder.",
        ),
        (
            {"CONFSCHED_S3_BUCKET": "confsched", "AWS_ACCESS_KEY_ID": "id"},
            "Set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the object store "
            "(CONFSCHED_S3_BUCKET), or neither to use boto3's other credentials (a role, a "
            "profile).",
        ),
        (
            {"CONFSCHED_S3_BUCKET": "confsched", "CONFSCHED_S3_ENDPOINT_URL": "s3.example.org"},
            "CONFSCHED_S3_ENDPOINT_URL must be an http:// or https:// address: 's3.example.org'",
        ),
        (
            {"CONFSCHED_MEDIA_URL": "cdn.example.org/media"},
            "CONFSCHED_MEDIA_URL must be an http:// or https:// address: 'cdn.example.org/media'",
        ),
    ]
    for env, message in cases:
        unset = {k: "" for k in S3_VARIABLES}
        result = _confsched("check", tmp_path=tmp_path, SECRET_KEY=secret, **{**unset, **env})
        assert (result.returncode, result.stderr) == (2, f"confsched: {message}\n")
