"""Imports from URLs: http(s) only, a size limit, a timeout, errors that say what happened."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from confsched.core.errors import ParseError
from confsched.interchange.fetch import read_source

BODY = b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        if self.path == "/ok.ics":
            self.send_response(200)
            self.send_header("Content-Length", str(len(BODY)))
            self.end_headers()
            self.wfile.write(BODY)
        elif self.path == "/big":
            self.send_response(200)
            self.send_header("Content-Length", "999999999")
            self.end_headers()
        elif self.path == "/big-undeclared":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"x" * 2048)
        else:
            self.send_response(404, "Not Found")
            self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_reads_a_url(server: str) -> None:
    assert read_source(f"{server}/ok.ics") == (f"{server}/ok.ics", BODY)


def test_refuses_a_declared_size_over_the_limit(server: str) -> None:
    with pytest.raises(ParseError) as caught:
        read_source(f"{server}/big", max_bytes=1024)
    assert str(caught.value) == f"{server}/big: is 999999999 bytes, over the 1024-byte limit"


def test_refuses_an_undeclared_size_over_the_limit(server: str) -> None:
    with pytest.raises(ParseError) as caught:
        read_source(f"{server}/big-undeclared", max_bytes=1024)
    assert str(caught.value) == f"{server}/big-undeclared: is over the 1024-byte limit"


def test_names_the_servers_answer(server: str) -> None:
    with pytest.raises(ParseError) as caught:
        read_source(f"{server}/missing.xml")
    assert str(caught.value) == f"{server}/missing.xml: the server answered 404 Not Found"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/x.xml"])
def test_only_http_and_https(url: str) -> None:
    with pytest.raises(ParseError) as caught:
        read_source(url)
    scheme = url.split(":")[0]
    assert str(caught.value) == f"{url}: only http and https URLs can be imported, not {scheme}:"


def test_an_unreachable_host_is_named() -> None:
    with pytest.raises(ParseError) as caught:
        read_source("http://127.0.0.1:9/x.ics", timeout=2)  # port 9 (discard): nothing listens
    assert str(caught.value).startswith("http://127.0.0.1:9/x.ics: could not be fetched: ")


def test_files_and_their_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "p.ics"
    path.write_bytes(BODY)
    assert read_source(str(path)) == ("p.ics", BODY)
    with pytest.raises(ParseError) as caught:
        read_source(str(path), max_bytes=10)
    assert str(caught.value) == f"{path}: is {len(BODY)} bytes, over the 10-byte limit"
    with pytest.raises(ParseError) as caught:
        read_source(str(tmp_path / "nope.ics"))
    assert str(caught.value) == f"{tmp_path / 'nope.ics'}: cannot read: No such file or directory"
