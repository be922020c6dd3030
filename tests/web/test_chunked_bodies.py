"""A chunked request body (Transfer-Encoding: chunked, no Content-Length) is read whole or
refused (413 past the limit, 411 where the server cannot end it), never taken as empty.

Against a real `confsched serve` (gunicorn, which ends its input where a chunked body ends),
and through Django's test client as a WSGI server with and without that promise.
"""

from __future__ import annotations

import http.client
import io
import itertools
import re
import socket
import urllib.parse
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.models import AttendeeProfile
from tests.conftest import DEMO_SLUG
from tests.served_demo import served, sqlite_env, with_demo

PROFILE = f"/{DEMO_SLUG}/profile/"
PASSWORD = "a fine password 7"
TOO_LARGE = "Request body too large: this site accepts at most 1048576 bytes.\n"
NO_LENGTH = (
    "Send this request's body with a Content-Length: this server cannot read a chunked one.\n"
)
FORM = "application/x-www-form-urlencoded"
_PEOPLE = itertools.count(1)  # one fresh username per sign-up: an object's id() is reused


def _in_chunks(body: bytes, size: int = 16) -> Iterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start : start + size]


class Browser:
    """One person's cookies against the served site, over http.client."""

    def __init__(self, base: str) -> None:
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname or "", parts.port or 80
        self.cookies: dict[str, str] = {}

    def send(
        self, method: str, path: str, body: bytes | None = None, *, chunked: bool = False
    ) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers |= {"Content-Type": FORM, "X-CSRFToken": self.cookies.get("csrftoken", "")}
        if chunked:
            headers["Transfer-Encoding"] = "chunked"
            connection.request(method, path, _in_chunks(body or b""), headers, encode_chunked=True)
        else:
            connection.request(method, path, body, headers)
        response = connection.getresponse()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        answer = (response.status, dict(response.headers), response.read().decode())
        connection.close()
        return answer


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = sqlite_env(Path(tmp_path_factory.mktemp("chunked")))
    with_demo(env)
    with served(env) as base:
        yield base.removesuffix(f"{DEMO_SLUG}/")


@pytest.fixture
def signed_in(site: str) -> Browser:
    browser = Browser(site)
    browser.send("GET", "/accounts/signup/")  # the CSRF cookie
    name = f"ada{next(_PEOPLE)}"
    fields = {"username": name, "email": f"{name}@example.org", "password1": PASSWORD,
              "password2": PASSWORD}  # fmt: skip
    status, _, _ = browser.send(
        "POST", "/accounts/signup/", urllib.parse.urlencode(fields).encode()
    )
    assert (status, "sessionid" in browser.cookies) == (302, True)
    return browser


def _shown(page: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
    return unescape(found.group(1)) if found else ""


def test_a_chunked_form_is_read_whole_under_confsched_serve(signed_in: Browser) -> None:
    fields = {"display_name": "Ada L.", "company": "Analytical Engines & Co",
              "role": "Engineer", "is_public": "on"}  # fmt: skip
    body = urllib.parse.urlencode(fields).encode()
    status, headers, _ = signed_in.send("POST", PROFILE, body, chunked=True)
    assert (status, headers["Location"]) == (302, f"{PROFILE}?saved=1")
    _, _, page = signed_in.send("GET", PROFILE)
    assert [_shown(page, name) for name in ("display_name", "company", "role")] == [
        "Ada L.",
        "Analytical Engines & Co",
        "Engineer",
    ]


def test_a_2_mb_chunked_body_is_refused_under_confsched_serve(signed_in: Browser) -> None:
    head = (
        f"POST {PROFILE} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {FORM}\r\n"
        "Transfer-Encoding: chunked\r\n"
        f"Cookie: {'; '.join(f'{k}={v}' for k, v in signed_in.cookies.items())}\r\n\r\n"
    ).encode()
    chunk = b"%x\r\n%s\r\n" % (64 * 1024, b"x" * (64 * 1024))
    with socket.create_connection((signed_in.host, signed_in.port), timeout=30) as conn:
        conn.sendall(head + b"d\r\ndisplay_name=\r\n")
        try:  # 2 MB in 32 chunks; the server may answer and close before the last
            for _ in range(32):
                conn.sendall(chunk)
            conn.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        answer = b""
        while part := conn.recv(65536):
            answer += part
    head_part, _, text = answer.partition(b"\r\n\r\n")
    lines = head_part.decode().split("\r\n")
    assert (lines[0], "Connection: close" in lines, text.decode()) == (
        "HTTP/1.1 413 Request Entity Too Large",
        True,
        TOO_LARGE,
    )


@pytest.mark.django_db
def test_a_chunked_body_a_server_ends_is_read_whole(demo_event, client: Client) -> None:  # noqa: ANN001
    ada = User.objects.create_user("ada", "ada@example.org", PASSWORD)
    client.force_login(ada)
    body = urllib.parse.urlencode({"display_name": "Ada L.", "is_public": "on"}).encode()
    # The input a server such as gunicorn gives: it ends where the body does.
    server_input = {"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True,
                    "CONTENT_TYPE": FORM}  # fmt: skip
    response = client.generic(
        "POST", PROFILE, b"", content_type=FORM, CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked", **server_input,
    )  # fmt: skip
    assert (response.status_code, response["Location"]) == (302, f"{PROFILE}?saved=1")
    profile = AttendeeProfile.objects.get(user=ada)
    assert (profile.display_name, profile.is_public) == ("Ada L.", True)


@pytest.mark.django_db
def test_a_chunked_body_no_server_ends_is_a_411(demo_event, client: Client) -> None:  # noqa: ANN001
    ada = User.objects.create_user("ada", "ada@example.org", PASSWORD)
    client.force_login(ada)
    response = client.generic(
        "POST", PROFILE, b"display_name=Ada", content_type=FORM, CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
    )  # fmt: skip
    assert (response.status_code, response.content.decode()) == (411, NO_LENGTH)
    assert AttendeeProfile.objects.filter(user=ada).exists() is False
