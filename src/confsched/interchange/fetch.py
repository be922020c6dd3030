"""Reading an import's input: a local file or an http(s) URL, within a size limit and a deadline.

The one place the importer touches the network; parsers stay pure and get bytes.

URLs are fetched with http.client rather than urllib so that every hop, redirects included,
passes one check before anything is sent: http or https only, and every address the host
resolves to public (loopback, private, link-local, metadata and other non-global addresses are
refused unless the caller allows private hosts). The connection then goes to the very address
that was checked, so a second DNS answer cannot swap in another one (DNS rebinding), while the
Host header, TLS SNI and the certificate check keep using the name.

One deadline covers the whole fetch: connecting, the TLS handshake, every send and every receive
may only take the time left, so a server that trickles a byte now and then cannot stretch it.
Proxy settings from the environment are not used: a proxy would hide the address we check.
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import socket
import ssl
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, cast
from urllib.parse import urljoin, urlsplit

from confsched.core.errors import ParseError

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

MAX_BYTES = 50 * 1024 * 1024
TIMEOUT_SECONDS = 30
MAX_REDIRECTS = 5
CHUNK_BYTES = 64 * 1024
USER_AGENT = "confsched-import"
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
PRIVATE_HOSTS_HINT = (
    "only public addresses are fetched unless private hosts are allowed "
    "(CONFSCHED_IMPORT_PRIVATE_HOSTS=1 or confsched import --allow-private-hosts)"
)

IPAddress: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address
# The well-known NAT64 prefix: its last 32 bits are the IPv4 address a translator leads to.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
# RFC 8215's local-use translation prefix: the IPv4 address may sit anywhere inside it, and it
# only ever leads into a network of one's own.
LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")
UNIQUE_LOCAL = ipaddress.IPv6Network("fc00::/7")


def is_url(location: str) -> bool:
    return "://" in location


def read_source(
    location: str,
    *,
    max_bytes: int = MAX_BYTES,
    timeout: float = TIMEOUT_SECONDS,
    allow_private: bool = False,
) -> tuple[str, bytes]:
    """(name for messages, content) of a file path or an http(s) URL.

    `timeout` is the whole fetch's deadline in seconds; `allow_private` lets URLs reach
    loopback, private and link-local addresses (an organizer importing from their own network).
    """
    if not is_url(location):
        path = Path(location)
        try:
            size = path.stat().st_size
            if size > max_bytes:
                raise ParseError(
                    f"is {size} bytes, over the {max_bytes}-byte limit", source=location
                )
            return path.name, path.read_bytes()
        except OSError as exc:
            raise ParseError(f"cannot read: {exc.strerror}", source=location) from exc
    fetch = _Fetch(location, timeout=timeout, allow_private=allow_private)
    return location, fetch.read(max_bytes=max_bytes).body


@dataclass(frozen=True)
class Fetched:
    """A URL's answer: 200 with the body, or 304 (not modified) with none; names lower-case."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def is_not_modified(self) -> bool:
        return self.status == 304


def fetch_url(
    url: str,
    *,
    headers: dict[str, str] | None = None,
    max_bytes: int = MAX_BYTES,
    timeout: float = TIMEOUT_SECONDS,
    allow_private: bool = False,
) -> Fetched:
    """GET an http(s) URL as read_source does, sending `headers` too, with the status and headers.

    Meant for conditional requests (If-None-Match, If-Modified-Since): a 304 is an answer, not
    an error. Any other status outside 2xx is a ParseError naming the URL.
    """
    fetch = _Fetch(url, timeout=timeout, allow_private=allow_private, headers=headers or {})
    return fetch.read(max_bytes=max_bytes)


def resolve_addresses(host: str, port: int) -> list[str]:
    """The addresses a host name (or an address in any spelling) resolves to, in order.

    Tests replace this to stand in for DNS. The system resolver cannot be interrupted, so its
    own time limits apply to it; the deadline is checked again once it has answered.
    """
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def open_connection(address: str, port: int, *, timeout: float) -> socket.socket:
    """A TCP connection to an address already checked; tests replace this to stand in for it."""
    return socket.create_connection((address, port), timeout=timeout)


def tls_context() -> ssl.SSLContext:
    """The TLS settings for https URLs: the system's trusted certificates, names checked."""
    return ssl.create_default_context()


def address_problem(address: str) -> str:
    """What makes an address not public ("a loopback address"), or "" when it is public.

    IPv6 spellings of an IPv4 address (IPv4-mapped, 6to4, NAT64) are judged by the IPv4
    address they lead to, so ::ffff:127.0.0.1 is loopback whatever the IPv6 flags say.
    """
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_ipv4(ip)
        if inner is not None and (kind := _kind(inner)):
            return f"the IPv6 form of {inner}, {kind}"
    return _kind(ip)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _kind(ip: IPAddress) -> str:
    # The specific kinds first, so that the message says what the address is; is_global last
    # catches the rest (shared 100.64/10, documentation ranges, and whatever Python adds).
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_unspecified:
        return "an unspecified address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_multicast:
        return "a multicast address"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in UNIQUE_LOCAL:
            return "a unique-local address"
        if ip.is_site_local:
            return "a site-local address"
        if ip in LOCAL_NAT64:
            return "a local-use NAT64 address"
    if ip.is_private:
        return "a private address"
    if ip.is_reserved:
        return "a reserved address"
    if not ip.is_global:
        return "a non-public address"
    return ""


@dataclass(frozen=True)
class _Hop:
    """One request's target, checked: where to connect and what to ask for."""

    host: str
    port: int
    addresses: tuple[str, ...]
    is_tls: bool
    target: str


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self.ends_at = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left; TimeoutError once there are none, like a socket that timed out."""
        left = self.ends_at - time.monotonic()
        if left <= 0:
            raise TimeoutError("deadline passed")
        return left


class _DeadlineReader(io.RawIOBase):
    """A socket's receiving side where each receive may only take the time left.

    http.client reads status line, headers, chunk sizes and body through this, so none of
    them can outlast the deadline, however the bytes are spread out.
    """

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        super().__init__()
        self._sock = sock
        # The socket's own reader, so that closing the connection while a response is still
        # being read leaves the socket open until the response is done, as http.client expects.
        self._raw = sock.makefile("rb", buffering=0)
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int | None:
        self._sock.settimeout(self._deadline.left())
        return self._raw.readinto(buffer)

    def close(self) -> None:
        self._raw.close()
        super().close()


class _DeadlineSocket:
    """The part of a socket http.client uses, each call limited to the deadline's time left."""

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        self._sock = sock
        self._deadline = deadline

    def sendall(self, data: bytes) -> None:
        # sendall's timeout is one limit for all of the data, not one per send.
        self._sock.settimeout(self._deadline.left())
        self._sock.sendall(data)

    def makefile(self, mode: str = "rb", *args: object, **kwargs: object) -> io.BufferedReader:
        return io.BufferedReader(_DeadlineReader(self._sock, self._deadline))

    def close(self) -> None:
        self._sock.close()


class _PinnedConnection(http.client.HTTPConnection):
    """An HTTP(S) connection to the hop's checked addresses, never to a new DNS answer."""

    def __init__(self, hop: _Hop, deadline: _Deadline) -> None:
        super().__init__(hop.host, hop.port)
        # The Host header leaves out the port only when it is the scheme's own.
        self.default_port = 443 if hop.is_tls else 80
        self._hop = hop
        self._deadline = deadline

    def connect(self) -> None:
        sock = self._connect_tcp()
        if self._hop.is_tls:
            try:
                sock.settimeout(self._deadline.left())
                sock = tls_context().wrap_socket(sock, server_hostname=self._hop.host)
            except BaseException:
                sock.close()
                raise
        # http.client only calls sendall, makefile and close on its socket.
        self.sock = cast(socket.socket, _DeadlineSocket(sock, self._deadline))

    def _connect_tcp(self) -> socket.socket:
        *others, last = self._hop.addresses
        for address in others:
            try:
                return open_connection(address, self._hop.port, timeout=self._deadline.left())
            except TimeoutError:
                raise
            except OSError:
                continue  # the host's next address may answer; the last one's error is reported
        return open_connection(last, self._hop.port, timeout=self._deadline.left())


class _Fetch:
    """One URL fetched through its redirects, each hop checked, under one deadline."""

    def __init__(
        self, location: str, *, timeout: float, allow_private: bool,
        headers: dict[str, str] | None = None,
    ) -> None:  # fmt: skip
        self.location = location
        # The caller's headers, on every hop; ours names the client and cannot be replaced.
        self.headers = {**(headers or {}), "User-Agent": USER_AGENT}
        # Only a conditional request can be answered "not modified"; to any other, 304 is wrong.
        names = {name.lower() for name in self.headers}
        self.is_conditional = bool(names & {"if-none-match", "if-modified-since"})
        self.timeout = timeout
        self.allow_private = allow_private
        self.deadline = _Deadline(timeout)
        self.url = location
        self.redirects = 0

    def error(self, message: str) -> ParseError:
        """A refusal naming the URL asked for and, after a redirect, the hop it came to."""
        hop = f"redirected to {self.url}: " if self.redirects else ""
        return ParseError(hop + message, source=self.location)

    def read(self, *, max_bytes: int) -> Fetched:
        while True:
            try:
                hop = self.check_hop()
                with closing(_PinnedConnection(hop, self.deadline)) as connection:
                    connection.request("GET", hop.target, headers=self.headers)
                    with connection.getresponse() as response:
                        location = response.getheader("Location")
                        if response.status in REDIRECT_STATUSES and location:
                            self.follow(location)
                            continue
                        headers = {name.lower(): value for name, value in response.getheaders()}
                        if response.status == 304 and self.is_conditional:
                            return Fetched(304, headers, b"")
                        if not 200 <= response.status < 300:
                            raise self.error(
                                f"the server answered {response.status} {response.reason}"
                            )
                        body = self.read_body(response, max_bytes=max_bytes)
                        return Fetched(response.status, headers, body)
            except TimeoutError as exc:
                raise ParseError(
                    f"took longer than the {self.timeout:g}-second limit", source=self.location
                ) from exc
            except ssl.SSLCertVerificationError as exc:
                raise self.error(f"could not be fetched: {exc.verify_message}") from exc
            except http.client.HTTPException as exc:
                raise self.error(
                    f"could not be fetched: the server's answer is broken ({exc!r})"
                ) from exc
            except OSError as exc:
                raise self.error(f"could not be fetched: {exc.strerror or exc}") from exc

    def follow(self, location: str) -> None:
        if self.redirects == MAX_REDIRECTS:
            raise self.error(f"redirects more than {MAX_REDIRECTS} times")
        self.url = urljoin(self.url, location.strip())
        self.redirects += 1

    def check_hop(self) -> _Hop:
        """The current URL's target, once its scheme and every address it resolves to pass."""
        parts = urlsplit(self.url)
        scheme = parts.scheme.lower()
        if scheme not in {"http", "https"}:
            raise self.error(f"only http and https URLs can be imported, not {scheme}:")
        try:
            port = parts.port or (443 if scheme == "https" else 80)
        except ValueError as exc:
            raise self.error("the port is not a number from 0 to 65535") from exc
        try:
            host = (parts.hostname or "").encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise self.error(f"{parts.hostname!r} is not a valid host name") from exc
        if not host:
            raise self.error("the URL names no host")
        try:
            addresses = resolve_addresses(host, port)
        except (OSError, UnicodeError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise self.error(f"could not be fetched: {host} was not found ({reason})") from exc
        self.deadline.left()
        if not self.allow_private:
            for address in addresses:
                if problem := address_problem(address):
                    raise self.error(f"refused: {self.describe(host, address, problem)}")
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return _Hop(host, port, tuple(addresses), scheme == "https", target)

    @staticmethod
    def describe(host: str, address: str, problem: str) -> str:
        """'10.0.0.1 is a private address' or 'intranet resolves to 10.0.0.1, a private address'."""
        try:
            is_literal = ipaddress.ip_address(host) == ipaddress.ip_address(address)
        except ValueError:
            is_literal = False
        if is_literal:
            return f"{address} is {problem}; {PRIVATE_HOSTS_HINT}"
        return f"{host} resolves to {address}, {problem}; {PRIVATE_HOSTS_HINT}"

    def read_body(self, response: http.client.HTTPResponse, *, max_bytes: int) -> bytes:
        # http.client sets length from a valid Content-Length only, so garbage there is
        # treated as absent and the count of actual bytes still applies.
        if response.length is not None and response.length > max_bytes:
            raise self.error(f"is {response.length} bytes, over the {max_bytes}-byte limit")
        data = bytearray()
        while chunk := response.read(CHUNK_BYTES):
            data += chunk
            if len(data) > max_bytes:
                raise self.error(f"is over the {max_bytes}-byte limit")
        return bytes(data)
