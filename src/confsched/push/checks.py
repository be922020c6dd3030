"""What a browser's subscription must be before it is kept: its endpoint an https URL whose
host is public, and its keys a P-256 point and a 16-byte secret (RFC 8291).

The endpoint's host is judged by the rule imports from URLs follow (interchange/fetch.py): every
address it resolves to must be public, so that nobody can make the workers POST to a loopback,
private, link-local or metadata address. CONFSCHED_PUSH_ALLOW_PRIVATE=1 admits loopback
addresses, and only those, for tests against a local receiver.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

from confsched.core.errors import ConfschedError
from confsched.interchange import fetch

MAX_ENDPOINT = 1000
LOOPBACK = "a loopback address"


class InvalidSubscriptionError(ConfschedError):
    """A subscription that cannot be kept; the message says what is wrong."""


@dataclass(frozen=True)
class Subscription:
    """A browser's PushSubscription.toJSON(), checked."""

    endpoint: str
    p256dh: str
    auth: str


def decoded(value: str) -> bytes:
    """base64url with or without its padding (browsers leave it out)."""
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def allow_loopback() -> bool:
    return bool(getattr(settings, "CONFSCHED_PUSH_ALLOW_PRIVATE", False))


def checked_subscription(data: object) -> Subscription:
    """`data` (the JSON the browser posted) as a Subscription; InvalidSubscriptionError names
    the field and what is wrong with it."""
    if not isinstance(data, dict):
        raise InvalidSubscriptionError(
            "The subscription must be a JSON object with endpoint and keys.p256dh, keys.auth."
        )
    endpoint = data.get("endpoint")
    keys = data.get("keys")
    if not isinstance(endpoint, str) or not endpoint:
        raise InvalidSubscriptionError("The subscription has no endpoint (a string).")
    if not isinstance(keys, dict):
        raise InvalidSubscriptionError("The subscription has no keys (p256dh and auth).")
    check_endpoint(endpoint)
    return Subscription(
        endpoint=endpoint,
        p256dh=_checked_key(keys.get("p256dh"), name="p256dh", size=65),
        auth=_checked_key(keys.get("auth"), name="auth", size=16),
    )


def check_endpoint(endpoint: str) -> None:
    """InvalidSubscriptionError unless `endpoint` is an https URL whose host resolves to public
    addresses only (loopback too with CONFSCHED_PUSH_ALLOW_PRIVATE=1)."""
    if len(endpoint) > MAX_ENDPOINT:
        raise InvalidSubscriptionError(
            f"The endpoint is {len(endpoint)} characters long, over the limit of {MAX_ENDPOINT}."
        )
    parts = urlsplit(endpoint)
    if parts.scheme.lower() != "https":
        raise InvalidSubscriptionError(
            f"The endpoint must be an https:// URL, not {parts.scheme or 'a relative'}: one."
        )
    try:
        port = parts.port or 443
        host = (parts.hostname or "").encode("idna").decode("ascii")
    except (ValueError, UnicodeError) as exc:
        raise InvalidSubscriptionError(
            f"The endpoint's host or port is not valid ({exc})."
        ) from exc
    if not host:
        raise InvalidSubscriptionError("The endpoint names no host.")
    try:
        addresses = fetch.resolve_addresses(host, port)
    except (OSError, UnicodeError) as exc:
        raise InvalidSubscriptionError(f"The endpoint's host {host} was not found.") from exc
    for address in addresses:
        problem = fetch.address_problem(address)
        if problem and not (problem == LOOPBACK and allow_loopback()):
            raise InvalidSubscriptionError(
                f"The endpoint's host is refused: {_described(host, address, problem)}; "
                "notifications only go to public push services."
            )


def _described(host: str, address: str, problem: str) -> str:
    try:
        is_literal = ipaddress.ip_address(host) == ipaddress.ip_address(address)
    except ValueError:
        is_literal = False
    return f"{address} is {problem}" if is_literal else f"{host} resolves to {address}, {problem}"


def _checked_key(value: object, *, name: str, size: int) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidSubscriptionError(f"The subscription has no keys.{name} (a string).")
    try:
        raw = decoded(value)
    except (binascii.Error, ValueError) as exc:
        raise InvalidSubscriptionError(f"keys.{name} is not base64url.") from exc
    if len(raw) != size:
        what = "an uncompressed P-256 point" if name == "p256dh" else "the authentication secret"
        raise InvalidSubscriptionError(
            f"keys.{name} must decode to {size} bytes ({what}), not {len(raw)}."
        )
    if name == "p256dh":
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError as exc:
            raise InvalidSubscriptionError(
                "keys.p256dh is not a point on the P-256 curve."
            ) from exc
    return value.rstrip("=")
