"""For the push tests: a browser's side of a subscription (its own P-256 key pair and auth
secret, RFC 8291) and a local HTTPS push service that keeps what it is sent."""

from __future__ import annotations

import base64
import http.server
import json
import os
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.front import self_signed


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """What pushManager.subscribe makes on a device: a key pair and a 16-byte secret."""

    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def keys(self) -> dict[str, str]:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64url(point), "auth": b64url(self.auth)}

    def subscription(self, endpoint: str) -> dict[str, object]:
        return {"endpoint": endpoint, "expirationTime": None, "keys": self.keys()}

    def read(self, body: bytes) -> dict[str, str]:
        """The JSON a message carries, decrypted as the browser does (aes128gcm)."""
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver(http.server.ThreadingHTTPServer):
    """Answers 201, or what `answers` says for a path (status, extra headers)."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.received: list[Received] = []
        self.answers: dict[str, tuple[int, dict[str, str]]] = {}
        self.lock = threading.Lock()

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.server_address[1]}"

    def endpoint(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def taken(self) -> list[Received]:
        with self.lock:
            taken, self.received = self.received, []
        return taken


class _Handler(http.server.BaseHTTPRequestHandler):
    server: Receiver
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with self.server.lock:
            self.server.received.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
        status, extra = self.server.answers.get(self.path, (201, {}))
        self.send_response(status)
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def running_receiver(work: Path) -> Iterator[tuple[Receiver, Path]]:
    """A receiver on 127.0.0.1 with a self-signed certificate; yields it and the certificate
    (for the sender to trust)."""
    certificate, key = self_signed(work)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server = Receiver()
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, certificate
    finally:
        server.shutdown()
        server.server_close()
