"""Imports from URLs: http(s) only at every hop, public addresses only unless allowed, one deadline
over the whole fetch, a size limit, errors that say what happened and where.

Only loopback is reachable here. A "public" host is a name the resolver seam answers with a
global address and the connection seam maps to a loopback test server; nothing else is mocked.
"""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qs

import pytest
from django.core.management import CommandError, call_command

from confsched.core.errors import ParseError
from confsched.interchange import fetch
from confsched.interchange.fetch import Fetched, fetch_url, read_source
from confsched.programme.models import Event

BODY = b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"
PROGRAMME = (
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//test//EN\r\n"
    b"BEGIN:VEVENT\r\nUID:keynote@test\r\nSUMMARY:Keynote\r\n"
    b"DTSTART:20260407T080000Z\r\nDTEND:20260407T090000Z\r\nEND:VEVENT\r\n"
    b"END:VCALENDAR\r\n"
)
HINT = (
    "only public addresses are fetched unless private hosts are allowed "
    "(CONFSCHED_IMPORT_PRIVATE_HOSTS=1 or confsched import --allow-private-hosts)"
)
PUBLIC_NAME = "schedule.example.org"
# A global address: the connection seam sends connections to it to the loopback test server.
PUBLIC_ADDRESS = "93.184.215.14"
TRICKLE_SECONDS = 0.3
LAST_MODIFIED = "Tue, 07 Apr 2026 08:00:00 GMT"


class Handler(BaseHTTPRequestHandler):
    hits: Counter[str] = Counter()
    # The validators /conditional was sent, in order.
    seen: ClassVar[list[tuple[str | None, str | None]]] = []

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        path, _, query = self.path.partition("?")
        self.hits[path] += 1
        if path == "/ok.ics":
            self.answer(BODY)
        elif path == "/programme.ics":
            self.answer(PROGRAMME)
        elif path == "/host":
            self.answer(self.headers["Host"].encode())
        elif path == "/big":
            self.send_response(200)
            self.send_header("Content-Length", "999999999")
            self.end_headers()
        elif path == "/big-undeclared":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"x" * 2048)
        elif path == "/redirect":
            self.send_response(302)
            self.send_header("Location", parse_qs(query)["to"][0])
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/loop":
            self.send_response(302)
            self.send_header("Location", "/loop")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/conditional":
            # 304 when the client already holds this version, by either validator.
            self.seen.append((self.headers["If-None-Match"], self.headers["If-Modified-Since"]))
            if self.headers["If-None-Match"] == '"v1"' or self.headers["If-Modified-Since"] == (
                LAST_MODIFIED
            ):
                self.send_response(304)
                self.send_header("ETag", '"v1"')
                self.end_headers()
            else:
                self.send_response(200)
                self.send_header("ETag", '"v1"')
                self.send_header("Last-Modified", LAST_MODIFIED)
                self.send_header("Content-Length", str(len(BODY)))
                self.end_headers()
                self.wfile.write(BODY)
        elif path == "/not-modified":
            self.send_response(304)
            self.end_headers()
        elif path == "/trickle-body":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.trickle(b"x" * 100)
        elif path == "/trickle-headers":
            self.trickle(b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 100)
        else:
            self.send_response(404, "Not Found")
            self.end_headers()

    def answer(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def trickle(self, data: bytes) -> None:
        for byte in data:
            try:
                self.wfile.write(bytes([byte]))
            except OSError:
                return  # the client hung up
            time.sleep(TRICKLE_SECONDS)

    def log_message(self, *args: object) -> None:
        pass


def serve(httpd: ThreadingHTTPServer) -> Iterator[int]:
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    yield from serve(ThreadingHTTPServer(("127.0.0.1", 0), Handler))


@pytest.fixture(scope="module")
def server(port: int) -> str:
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch, port: int) -> list[tuple[str, int]]:
    """Every connection fetch opens; PUBLIC_NAME resolves to PUBLIC_ADDRESS, served locally."""
    made: list[tuple[str, int]] = []
    real_resolve = fetch.resolve_addresses

    def resolve(host: str, port: int) -> list[str]:
        return [PUBLIC_ADDRESS] if host == PUBLIC_NAME else real_resolve(host, port)

    def connect(address: str, to_port: int, *, timeout: float) -> socket.socket:
        made.append((address, to_port))
        if address == PUBLIC_ADDRESS:
            address, to_port = "127.0.0.1", port
        return socket.create_connection((address, to_port), timeout=timeout)

    monkeypatch.setattr(fetch, "resolve_addresses", resolve)
    monkeypatch.setattr(fetch, "open_connection", connect)
    return made


def refusal(url: str, **kwargs: object) -> str:
    with pytest.raises(ParseError) as caught:
        read_source(url, **kwargs)  # type: ignore[arg-type]
    return str(caught.value)


def test_reads_a_url_from_a_private_host_when_allowed(server: str) -> None:
    assert read_source(f"{server}/ok.ics", allow_private=True) == (f"{server}/ok.ics", BODY)


def test_a_loopback_server_is_refused_by_default(server: str) -> None:
    assert refusal(f"{server}/ok.ics") == (
        f"{server}/ok.ics: refused: 127.0.0.1 is a loopback address; {HINT}"
    )


def test_a_public_host_is_fetched_from_the_address_that_was_checked(
    connections: list[tuple[str, int]],
) -> None:
    # The Host header keeps the name (and leaves out http's own port) while the connection
    # goes to the checked address, not to a second lookup.
    url = f"http://{PUBLIC_NAME}/host"
    assert read_source(url) == (url, PUBLIC_NAME.encode())
    assert connections == [(PUBLIC_ADDRESS, 80)]


def test_refuses_a_declared_size_over_the_limit(server: str) -> None:
    assert refusal(f"{server}/big", max_bytes=1024, allow_private=True) == (
        f"{server}/big: is 999999999 bytes, over the 1024-byte limit"
    )


def test_refuses_an_undeclared_size_over_the_limit(server: str) -> None:
    assert refusal(f"{server}/big-undeclared", max_bytes=1024, allow_private=True) == (
        f"{server}/big-undeclared: is over the 1024-byte limit"
    )


def test_names_the_servers_answer(server: str) -> None:
    assert refusal(f"{server}/missing.xml", allow_private=True) == (
        f"{server}/missing.xml: the server answered 404 Not Found"
    )


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/x.xml"])
def test_only_http_and_https(url: str) -> None:
    scheme = url.split(":")[0]
    assert refusal(url) == f"{url}: only http and https URLs can be imported, not {scheme}:"


def test_an_unreachable_host_is_named() -> None:
    # Port 9 (discard): nothing listens.
    assert refusal("http://127.0.0.1:9/x.ics", timeout=2, allow_private=True) == (
        "http://127.0.0.1:9/x.ics: could not be fetched: Connection refused"
    )


def test_an_unknown_host_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    def resolve(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(fetch, "resolve_addresses", resolve)
    assert refusal("http://nowhere.example.org/x.ics") == (
        "http://nowhere.example.org/x.ics: could not be fetched: nowhere.example.org was not "
        "found (Name or service not known)"
    )


@pytest.mark.parametrize(
    ("path", "what"), [("/trickle-body", "body"), ("/trickle-headers", "status and headers")]
)
def test_a_trickling_server_is_cut_off_at_the_deadline(server: str, path: str, what: str) -> None:
    # A byte every 0.3 s would keep a per-read timeout of 1 s waiting for 30 s.
    assert refusal(f"{server}{path}", timeout=1, allow_private=True) == (
        f"{server}{path}: took longer than the 1-second limit"
    ), what


@pytest.mark.parametrize("target", ["ftp://example.org/x.xml", "file:///etc/passwd"])
@pytest.mark.parametrize("allow_private", [False, True])
def test_a_redirect_to_another_scheme_is_refused(
    connections: list[tuple[str, int]], target: str, allow_private: bool
) -> None:
    url = f"http://{PUBLIC_NAME}/redirect?to={target}"
    scheme = target.split(":")[0]
    assert refusal(url, allow_private=allow_private) == (
        f"{url}: redirected to {target}: only http and https URLs can be imported, not {scheme}:"
    )
    assert connections == [(PUBLIC_ADDRESS, 80)]


def test_a_redirect_from_a_public_host_to_loopback_is_refused(
    connections: list[tuple[str, int]], port: int
) -> None:
    target = f"http://127.0.0.1:{port}/ok.ics"
    url = f"http://{PUBLIC_NAME}/redirect?to={target}"
    assert refusal(url) == (
        f"{url}: redirected to {target}: refused: 127.0.0.1 is a loopback address; {HINT}"
    )
    assert connections == [(PUBLIC_ADDRESS, 80)]


def test_a_host_with_any_private_address_is_refused(
    monkeypatch: pytest.MonkeyPatch, connections: list[tuple[str, int]]
) -> None:
    monkeypatch.setattr(fetch, "resolve_addresses", lambda host, port: [PUBLIC_ADDRESS, "10.1.2.3"])
    assert refusal("http://intranet.example.org/x.ics") == (
        "http://intranet.example.org/x.ics: refused: intranet.example.org resolves to 10.1.2.3, "
        f"a private address; {HINT}"
    )
    assert connections == []


def test_a_relative_redirect_is_followed(server: str) -> None:
    url = f"{server}/redirect?to=/ok.ics"
    assert read_source(url, allow_private=True) == (url, BODY)


def test_more_than_five_redirects_are_refused(server: str) -> None:
    Handler.hits.clear()
    assert refusal(f"{server}/loop", allow_private=True) == (
        f"{server}/loop: redirected to {server}/loop: redirects more than 5 times"
    )
    assert Handler.hits == Counter({"/loop": 6})


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://127.0.0.1/", "127.0.0.1 is a loopback address"),
        ("https://127.8.9.10:8443/x.ics", "127.8.9.10 is a loopback address"),
        ("http://[::1]/", "::1 is a loopback address"),
        ("http://10.0.0.1/", "10.0.0.1 is a private address"),
        ("http://172.16.0.1/", "172.16.0.1 is a private address"),
        ("http://172.31.255.254/", "172.31.255.254 is a private address"),
        ("http://192.168.1.1/", "192.168.1.1 is a private address"),
        ("http://169.254.169.254/latest/", "169.254.169.254 is a link-local address"),
        ("http://[fe80::1]/", "fe80::1 is a link-local address"),
        ("http://[fc00::1]/", "fc00::1 is a unique-local address"),
        ("http://[fd00:ec2::254]/", "fd00:ec2::254 is a unique-local address"),
        ("http://0.0.0.0/", "0.0.0.0 is an unspecified address"),
        ("http://[::]/", ":: is an unspecified address"),
        ("http://224.0.0.1/", "224.0.0.1 is a multicast address"),
        ("http://100.64.0.1/", "100.64.0.1 is a non-public address"),
        (
            "http://[::ffff:127.0.0.1]/",
            "::ffff:127.0.0.1 is the IPv6 form of 127.0.0.1, a loopback address",
        ),
        (
            "http://[::ffff:169.254.169.254]/",
            "::ffff:169.254.169.254 is the IPv6 form of 169.254.169.254, a link-local address",
        ),
        (
            "http://[2002:7f00:1::]/",
            "2002:7f00:1:: is the IPv6 form of 127.0.0.1, a loopback address",
        ),
        (
            "http://[64:ff9b::a00:1]/",
            "64:ff9b::a00:1 is the IPv6 form of 10.0.0.1, a private address",
        ),
        ("http://2130706433/", "2130706433 resolves to 127.0.0.1, a loopback address"),
        ("http://0x7f.1/", "0x7f.1 resolves to 127.0.0.1, a loopback address"),
        ("http://017700000001/", "017700000001 resolves to 127.0.0.1, a loopback address"),
        ("http://127.1/", "127.1 resolves to 127.0.0.1, a loopback address"),
        ("http://0x7f000001/", "0x7f000001 resolves to 127.0.0.1, a loopback address"),
        (
            "http://0251.0376.0251.0376/",
            "0251.0376.0251.0376 resolves to 169.254.169.254, a link-local address",
        ),
    ],
)
def test_addresses_that_are_not_public_are_refused_before_connecting(
    connections: list[tuple[str, int]], url: str, problem: str
) -> None:
    assert refusal(url) == f"{url}: refused: {problem}; {HINT}"
    assert connections == []


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """(port, certificate) of an https server on loopback whose certificate names PUBLIC_NAME."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is needed to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    subprocess.run(  # noqa: S603 - fixed arguments, no shell
        [
            openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "2", "-subj", f"/CN={PUBLIC_NAME}",
            "-addext", f"subjectAltName=DNS:{PUBLIC_NAME}",
            "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem"),
        ],
        check=True, capture_output=True,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(folder / "cert.pem", folder / "key.pem")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    for port in serve(httpd):
        yield port, folder / "cert.pem"


@pytest.fixture
def tls_connections(
    monkeypatch: pytest.MonkeyPatch,
    tls_server: tuple[int, Path],
    connections: list[tuple[str, int]],
) -> list[tuple[str, int]]:
    """As `connections`, with https to PUBLIC_ADDRESS served locally and its certificate trusted."""

    def connect(address: str, port: int, *, timeout: float) -> socket.socket:
        connections.append((address, port))
        return socket.create_connection(("127.0.0.1", tls_server[0]), timeout=timeout)

    monkeypatch.setattr(fetch, "resolve_addresses", lambda host, port: [PUBLIC_ADDRESS])
    monkeypatch.setattr(fetch, "open_connection", connect)
    monkeypatch.setattr(
        fetch, "tls_context", lambda: ssl.create_default_context(cafile=tls_server[1])
    )
    return connections


def test_https_checks_the_certificate_against_the_name_not_the_address(
    tls_connections: list[tuple[str, int]],
) -> None:
    url = f"https://{PUBLIC_NAME}/host"
    assert read_source(url) == (url, PUBLIC_NAME.encode())
    assert refusal("https://other.example.org/host") == (
        "https://other.example.org/host: could not be fetched: Hostname mismatch, certificate "
        "is not valid for 'other.example.org'."
    )
    assert tls_connections == [(PUBLIC_ADDRESS, 443), (PUBLIC_ADDRESS, 443)]


def run_import(*args: str) -> list[str]:
    out = StringIO()
    call_command("import", "--event", "t", "--timezone", "Europe/Paris", *args, stdout=out)
    return out.getvalue().splitlines()


IMPORTED = [
    "Created event t (Europe/Paris)",
    "Imported 1 file(s) into t: 1 sessions created, 0 updated, 0 unchanged, 0 cancelled, "
    "0 flagged for review; speakers 0 created, 0 updated.",
]


@pytest.mark.django_db
def test_the_import_command_refuses_a_private_host_by_default(server: str) -> None:
    with pytest.raises(CommandError) as caught:
        run_import(f"{server}/programme.ics")
    assert str(caught.value) == (
        f"{server}/programme.ics: refused: 127.0.0.1 is a loopback address; {HINT}\n"
        "Nothing was imported."
    )
    assert Event.objects.count() == 0


@pytest.mark.django_db
def test_the_import_command_fetches_from_a_private_host_with_the_option(server: str) -> None:
    assert run_import("--allow-private-hosts", f"{server}/programme.ics")[:2] == IMPORTED


@pytest.mark.django_db
def test_the_import_command_fetches_from_a_private_host_with_the_setting(
    server: str, settings: object
) -> None:
    settings.CONFSCHED_IMPORT_PRIVATE_HOSTS = True  # type: ignore[attr-defined]
    assert run_import(f"{server}/programme.ics")[:2] == IMPORTED


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


def test_fetch_url_sends_the_callers_headers_and_returns_status_and_headers(server: str) -> None:
    Handler.seen.clear()
    answer = fetch_url(f"{server}/conditional", allow_private=True)
    assert (answer.status, answer.body, answer.is_not_modified) == (200, BODY, False)
    assert (answer.headers["etag"], answer.headers["last-modified"]) == ('"v1"', LAST_MODIFIED)
    assert Handler.seen == [(None, None)]


@pytest.mark.parametrize(
    "headers",
    [{"If-None-Match": '"v1"'}, {"If-Modified-Since": LAST_MODIFIED}],
    ids=["etag", "last-modified"],
)
def test_fetch_url_answers_304_to_a_conditional_request(
    server: str, headers: dict[str, str]
) -> None:
    Handler.seen.clear()
    answer = fetch_url(f"{server}/conditional", headers=headers, allow_private=True)
    assert answer == Fetched(304, answer.headers, b"")
    assert answer.is_not_modified
    assert answer.headers["etag"] == '"v1"'
    assert Handler.seen == [(headers.get("If-None-Match"), headers.get("If-Modified-Since"))]


def test_a_304_to_a_plain_request_is_an_error(server: str) -> None:
    assert refusal(f"{server}/not-modified", allow_private=True) == (
        f"{server}/not-modified: the server answered 304 Not Modified"
    )
    with pytest.raises(ParseError) as caught:
        fetch_url(f"{server}/not-modified", allow_private=True)
    assert str(caught.value) == f"{server}/not-modified: the server answered 304 Not Modified"


def test_fetch_url_checks_addresses_as_read_source_does(server: str) -> None:
    with pytest.raises(ParseError) as caught:
        fetch_url(f"{server}/conditional", headers={"If-None-Match": '"v1"'})
    assert str(caught.value) == (
        f"{server}/conditional: refused: 127.0.0.1 is a loopback address; {HINT}"
    )


def test_the_callers_headers_follow_a_redirect(server: str) -> None:
    Handler.seen.clear()
    answer = fetch_url(
        f"{server}/redirect?to=/conditional", headers={"If-None-Match": '"v1"'},
        allow_private=True,
    )  # fmt: skip
    assert answer.status == 304
    assert Handler.seen == [('"v1"', None)]
