"""The site's VAPID key pair (RFC 8292): made on first use, then read from the database by every
app host and worker, so that they all sign with the key the browsers subscribed with."""

from __future__ import annotations

import functools

from cryptography.hazmat.primitives import serialization
from django.db import IntegrityError, transaction
from py_vapid import Vapid02, b64urlencode

from confsched.push.models import VapidKey


def application_server_key(vapid: Vapid02) -> str:
    """The public key as browsers take it (pushManager.subscribe's applicationServerKey): the
    uncompressed P-256 point, base64url without padding."""
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return str(b64urlencode(raw))


def site_key() -> VapidKey:
    """The key pair's row, made now if there is none; two hosts making it at once keep the one
    that was written first."""
    row = VapidKey.objects.filter(pk=1).first()
    if row is not None:
        return row
    vapid = Vapid02()
    vapid.generate_keys()
    try:
        with transaction.atomic():
            return VapidKey.objects.create(
                pk=1,
                private_pem=vapid.private_pem().decode("ascii"),
                public_key=application_server_key(vapid),
            )
    except IntegrityError:
        return VapidKey.objects.get(pk=1)


def public_key() -> str:
    return site_key().public_key


def signer() -> Vapid02:
    """The key pair, ready to sign VAPID tokens (read once per process)."""
    return _signer(site_key().private_pem)


@functools.lru_cache(maxsize=2)
def _signer(private_pem: str) -> Vapid02:
    return Vapid02.from_pem(private_pem.encode("ascii"))
