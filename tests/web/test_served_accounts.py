"""Accounts and throttles under real concurrent requests: `confsched serve` with four workers,
on SQLite and on PostgreSQL, without Redis.

- Eight sign-ups with one e-mail address (in several spellings) at the same moment make one
  account; the seven others get the form's error, none a 5xx.
- A hundred feedback writes from one account, spread over the workers, accept twenty, the
  documented limit: counted in the database, which every worker sees (each worker's own cache
  let 76-80 through).

Needs PostgreSQL on this machine for its part (CI has it); skipped otherwise unless
CONFSCHED_REQUIRE_SERVICES is set.
"""

from __future__ import annotations

import http.client
import json
import secrets
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest

from tests.conftest import ROOT, in_its_pass, unavailable
from tests.served_demo import CONFSCHED, bench_modules, free_port, reachable

WORKERS = 4
TAKEN = (
    "An account with this e-mail address exists already: log in, or reset its password if you "
    "forgot it."
)

_PREPARE = """
import json
from datetime import timedelta
import django
django.setup()
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.utils import timezone
from confsched.programme.models import Room, Session
from confsched.programme.services import create_event

event = create_event(slug="served", name="Served", timezone="Europe/Paris")
room = Room.objects.create(event=event, name="Hall", slug="hall")
start = timezone.now() - timedelta(hours=1)  # under way: its feedback is open
Session.objects.create(event=event, key="talk", title="Talk", room=room, starts_at=start,
                       ends_at=start + timedelta(hours=2))
user = User.objects.create_user("rater", "rater@example.org")
session = import_module(settings.SESSION_ENGINE).SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "confsched.web.accounts.backends.AccountsBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print(json.dumps(session.session_key))
"""

_COUNT = """
import json, sys
import django
django.setup()
from django.contrib.auth.models import User
from confsched.agenda.models import Feedback
print(json.dumps({
    "accounts": sorted(User.objects.filter(email__iexact=sys.argv[1]).values_list("email", flat=True)),
    "feedback": list(Feedback.objects.values_list("rating", flat=True)),
}))
"""


@dataclass(frozen=True)
class Site:
    env: dict[str, str]
    port: int
    session_cookie: str  # the rater's

    def python(self, code: str, *args: str) -> object:
        done = subprocess.run(  # noqa: S603 - our own code
            [sys.executable, "-c", code, *args],
            env={**self.env, "DJANGO_SETTINGS_MODULE": "confsched.settings"},
            check=True, capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        return json.loads(done.stdout)

    def post(self, path: str, data: dict[str, str], *, signed_in: bool = False) -> tuple[int, str]:
        """One POST as a browser sends it (CSRF cookie and token, Origin), on its own connection."""
        csrf = secrets.token_hex(16)
        cookies = f"csrftoken={csrf}" + (f"; sessionid={self.session_cookie}" if signed_in else "")
        origin = f"http://127.0.0.1:{self.port}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(
                "POST", path, body=urlencode({**data, "csrfmiddlewaretoken": csrf}),
                headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookies,
                         "Origin": origin, "Referer": origin + path},
            )  # fmt: skip
            response = connection.getresponse()
            return response.status, response.read().decode()
        finally:
            connection.close()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest) -> Iterator[Site]:
    in_its_pass(request.param)
    if request.param == "postgres" and not reachable(5432):
        unavailable("PostgreSQL on 5432 is needed", "CONFSCHED_REQUIRE_SERVICES")
    (serving,) = bench_modules("serving")
    with serving.fresh_site(request.param, name="confsched_acct_served") as env:
        probe = Site(env, 0, "")
        cookie = str(probe.python(_PREPARE))
        port = free_port()
        server = subprocess.Popen(  # noqa: S603 - our own command
            [*CONFSCHED, "serve", "--port", str(port), "--workers", str(WORKERS), "--no-worker"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            for _ in range(300):  # collectstatic and the first worker
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/served/", timeout=10)  # noqa: S310 - our own server
                    break
                except OSError:
                    time.sleep(0.2)
            yield Site(env, port, cookie)
        finally:
            server.terminate()
            server.wait(timeout=30)


def _at_once(count: int, send: object) -> list[tuple[int, str]]:
    """`send(n)` for n in range(count), every one released at the same moment."""
    start = threading.Barrier(count)

    def one(number: int) -> tuple[int, str]:
        start.wait()
        return send(number)  # type: ignore[operator]

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, range(count)))


def test_eight_sign_ups_at_once_with_one_address_make_one_account(site: Site) -> None:
    spellings = ["ada@example.org", "Ada@Example.org", "ADA@EXAMPLE.ORG", " ada@example.org "]

    def sign_up(number: int) -> tuple[int, str]:
        return site.post("/accounts/signup/", {
            "username": f"ada{number}", "email": spellings[number % len(spellings)],
            "password1": "a long enough password 42", "password2": "a long enough password 42",
        })  # fmt: skip

    answers = _at_once(8, sign_up)
    assert Counter(status for status, _ in answers) == {302: 1, 200: 7}
    assert [TAKEN in body for status, body in answers if status == 200] == [True] * 7
    held = site.python(_COUNT, "ada@example.org")["accounts"]  # type: ignore[index]
    assert len(held) == 1


def test_a_hundred_feedback_writes_from_one_account_accept_twenty(site: Site) -> None:
    path = "/served/sessions/talk/feedback/"
    statuses = Counter(
        status
        for status, _ in _at_once(
            100, lambda n: site.post(path, {"rating": str(n % 5 + 1)}, signed_in=True)
        )
    )
    assert statuses == {302: 20, 429: 80}
    assert len(site.python(_COUNT, "")["feedback"]) == 1  # type: ignore[index]
