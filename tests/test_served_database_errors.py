"""On PostgreSQL, one bad request never leaves a worker or its connection unusable.

Against a real `confsched serve` (gunicorn, one worker, so every request meets the same
connection): the NULs the audit sent are a 400 that says where, and after a view failed with a
database error inside a transaction it began past Django, the worker answers the next requests
and the row that transaction locked is free at once (tests/faulty/ adds that view). Needs
PostgreSQL on this machine; skips without it, unless CONFSCHED_REQUIRE_SERVICES is set.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_SLUG, unavailable
from tests.served_demo import reachable, served, sqlite_env, with_demo

POSTGRES = os.environ.get("CONFSCHED_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DATABASE = "confsched_served_errors"
SAID = "The request holds a NUL character (U+0000) in {}: no text here may."


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not reachable(5432):
        unavailable("PostgreSQL on 5432 is needed", "CONFSCHED_REQUIRE_SERVICES")
    import psycopg

    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        connection.execute(f"CREATE DATABASE {DATABASE}")
    env = sqlite_env(Path(tmp_path_factory.mktemp("served-errors"))) | {
        "DATABASE_URL": f"{POSTGRES}/{DATABASE}",
        "DJANGO_SETTINGS_MODULE": "tests.faulty.settings",
    }
    with_demo(env)
    with served(env) as base:
        yield base.removesuffix(f"{DEMO_SLUG}/")


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - our own server
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


AUDITED = [
    (f"{DEMO_SLUG}/people/?q=a%00b", "the query parameter 'q'"),
    (f"{DEMO_SLUG}/sessions/a%00b/", "the address"),
    (f"{DEMO_SLUG}/speakers/a%00b/", "the address"),
    (f"{DEMO_SLUG}/agenda/shared/a%00b/", "the address"),
    (f"{DEMO_SLUG}/agenda/a%00b.ics", "the address"),
    (f"{DEMO_SLUG}/alerts/a%00b.atom", "the address"),
    (f"{DEMO_SLUG}/alerts/unsubscribe/a%00b/", "the address"),
    (f"{DEMO_SLUG}/feedback/speaker/a%00b/", "the address"),
]
AUDITED_API = [
    f"api/v1/events/{DEMO_SLUG}%00",
    f"api/v1/events/{DEMO_SLUG}/sessions/a%00b",
    f"api/v1/events/{DEMO_SLUG}/speakers/a%00b",
    f"api/v1/events/{DEMO_SLUG}/agenda/a%00b",
]


def test_the_audited_nuls_are_400s_and_the_worker_goes_on(site: str) -> None:
    pages = [_get(site + path) for path, _ in AUDITED]
    assert pages == [(400, SAID.format(where) + "\n") for _, where in AUDITED]
    api = [_get(site + path) for path in AUDITED_API]
    assert [(status, json.loads(body)) for status, body in api] == [
        (400, {"detail": SAID.format("the address")})
    ] * len(AUDITED_API)
    assert _get(f"{site}api/v1/events/{DEMO_SLUG}")[0] == 200


def test_a_view_s_database_error_leaves_no_transaction_behind(site: str) -> None:
    import psycopg

    status, _ = _get(f"{site}faulty/left-open/{DEMO_SLUG}/")
    assert status == 500
    # The same worker (there is one) answers, with the same connection or a new one.
    assert [_get(f"{site}{DEMO_SLUG}/")[0], _get(f"{site}api/v1/events/{DEMO_SLUG}")[0]] == [
        200,
        200,
    ]
    with psycopg.connect(f"{POSTGRES}/{DATABASE}", autocommit=True) as connection:
        # Refuses to wait: the row the failed view locked must be free already.
        with connection.transaction():
            row = connection.execute(
                "SELECT slug FROM programme_event WHERE slug = %s FOR UPDATE NOWAIT", [DEMO_SLUG]
            ).fetchone()
        states = connection.execute(
            "SELECT state FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [DATABASE],
        ).fetchall()
    assert (row, states) == ((DEMO_SLUG,), [("idle",)])
