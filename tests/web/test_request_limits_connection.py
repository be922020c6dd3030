"""A 413 closes its connection: the body it leaves unread is never read as the next request.

Checked with a real socket against gunicorn, which `confsched serve` runs: gunicorn writes its
own `Connection` line (an application's is dropped), so the close is decided by a pre_request
hook (web/site/gunicorn_hooks.py).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from confsched.web.site.gunicorn_hooks import may_be_refused_unread
from tests.served_demo import sqlite_env

LIMIT = 1024 * 1024
TOO_LARGE = b"Request body too large: this site accepts at most 1048576 bytes.\n"
RUNNER = """
import sys
from gunicorn.app.base import BaseApplication
from confsched.wsgi import application
from confsched.web.site.gunicorn_hooks import close_when_body_may_be_unread

class Server(BaseApplication):
    def load_config(self):
        for key, value in {
            "bind": sys.argv[1], "workers": 1, "threads": 4, "keepalive": 5,
            "pre_request": close_when_body_may_be_unread,
        }.items():
            self.cfg.set(key, value)

    def load(self):
        return application

Server().run()
"""


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([("CONTENT-LENGTH", str(LIMIT))], False),
        ([("CONTENT-LENGTH", str(LIMIT + 1))], True),
        ([("CONTENT-LENGTH", "0" * 30 + "12")], False),
        ([("CONTENT-LENGTH", "9" * 5000)], True),
        ([("CONTENT-LENGTH", "12x")], True),
        ([("CONTENT-LENGTH", "²")], True),  # isdigit() says yes, int() raised in the hook
        ([("TRANSFER-ENCODING", "chunked")], True),
        ([("HOST", "example.org")], False),
    ],
)
def test_which_requests_may_be_refused_unread(
    headers: list[tuple[str, str]], expected: bool
) -> None:
    assert may_be_refused_unread(headers, limit=LIMIT) == expected


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment(tmp_path: Path) -> dict[str, str]:
    env = sqlite_env(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "confsched.cli", "migrate", "--noinput"],
        env=env, capture_output=True, check=True,
    )  # fmt: skip
    return env


def _started(command: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    for _ in range(150):  # up to 30 s for collectstatic and the first worker
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError(f"the server on port {port} did not start")


@pytest.fixture
def gunicorn_with_hook(tmp_path: Path) -> Iterator[int]:
    port = _free_port()
    env = _environment(tmp_path)
    process = _started([sys.executable, "-c", RUNNER, f"127.0.0.1:{port}"], env, port)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def confsched_serve(tmp_path: Path) -> Iterator[int]:
    port = _free_port()
    env = _environment(tmp_path)
    command = [
        sys.executable,
        "-m",
        "confsched.cli",
        "serve",
        "--port",
        str(port),
        "--workers",
        "1",
    ]
    process = _started(command, env, port)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def _exchange(port: int, request: bytes, body: bytes) -> tuple[bytes, bytes, bytes, bytes]:
    """Send `request` and `body` on one connection; return the status line, the Connection
    header, the body, and what the connection gives after the response (b"" once closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request + body)
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(65536)
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        length = next(
            int(v) for k, v in (x.split(b": ", 1) for x in lines[1:]) if k == b"Content-Length"
        )
        while len(rest) < length:
            rest += conn.recv(65536)
        connection = next(
            v for k, v in (x.split(b": ", 1) for x in lines[1:]) if k == b"Connection"
        )
        try:
            conn.sendall(b"GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            after = conn.recv(65536)
        except ConnectionError:
            after = b""
        return lines[0], connection, rest[:length], after


OVERSIZED = (
    b"POST /accounts/signup/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 2000000\r\n\r\n"
)


def test_a_413_closes_the_connection_under_gunicorn(gunicorn_with_hook: int) -> None:
    response = _exchange(gunicorn_with_hook, OVERSIZED, b"a" * 10_000)
    assert response == (b"HTTP/1.1 413 Request Entity Too Large", b"close", TOO_LARGE, b"")


def test_a_small_request_keeps_its_connection(gunicorn_with_hook: int) -> None:
    request = b"GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    status, connection, body, after = _exchange(gunicorn_with_hook, request, b"")
    assert (status, connection, body, after[:15]) == (
        b"HTTP/1.1 200 OK",
        b"keep-alive",
        b'{"items": [], "count": 0}',
        b"HTTP/1.1 200 OK",
    )


def test_a_413_closes_the_connection_under_confsched_serve(confsched_serve: int) -> None:
    response = _exchange(confsched_serve, OVERSIZED, b"a" * 10_000)
    assert response == (b"HTTP/1.1 413 Request Entity Too Large", b"close", TOO_LARGE, b"")
