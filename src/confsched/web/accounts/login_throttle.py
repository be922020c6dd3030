"""The log-in throttle: wrong passwords lock the guesser out, not the account's owner and not the
venue.

Three counts of failed log-ins (wrong passwords, unknown names) within the cool-off
(CONFSCHED_LOGIN_COOLOFF_HOURS, 15 minutes), all in the database so every app process sees them:

- **An account from one address** (the pair): after CONFSCHED_LOGIN_FAILURE_LIMIT failures (5)
  that address may not log in to that account until the cool-off has passed. A guesser locks
  out only themselves: the owner, from any other address, logs in as ever.
- **An address**, failures under any names: after CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT (300)
  it may not log in to any account. A venue puts hundreds of attendees behind one NAT address,
  where the old limit of 100 let a hundred failures under made-up names lock everyone out; a few
  hundred leaves room for a hall's typos while still stopping one address that tries name after
  name (5 guesses per name, 300 names at most, per cool-off).
- **An account from all addresses**, for a guesser with many addresses:
  past CONFSCHED_LOGIN_ACCOUNT_FAILURE_LIMIT (50) failures the account is not locked, as a lock
  would be the guesser's to give, but slowed: each address gets one try at it per cool-off
  instead of five. The owner's right password from an address that has not failed still logs
  in; the guesser's many addresses yield a fifth of the guesses.

An address is the visitor's: behind CONFSCHED_PROXY_COUNT reverse proxies, the one the
outermost proxy saw. An IPv6 address counts by its /64, which one device can roam across: else
a guesser would have millions of addresses to lock out one by one.

A successful log-in clears its own pair only; a password reset clears every count of its
account. django-axes records the attempts (`AXES_LOCKOUT_PARAMETERS` is the pair, so axes
records, clears and reports per pair); the handler below adds the other two counts, read with
the pair's in one query.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.contrib.auth import authenticate
from django.db.models import Q, Sum
from django.http import HttpRequest

# An IPv6 address counts by its network of this size: a subscriber's (one device may roam
# across all of it), as an IPv4 address is one subscriber's or one NAT's.
IPV6_PREFIX = 64

# django-axes keeps the name tried in a column of this many characters; a longer name (no
# account's: Django's names have at most 150) is recorded cut, as a failed log-in like any.
MAX_RECORDED_NAME = 255


def client_address(request: HttpRequest) -> str | None:
    """The visitor's address as the throttles count it (AXES_CLIENT_IP_CALLABLE; feedback's
    throttle too): REMOTE_ADDR, or behind CONFSCHED_PROXY_COUNT reverse proxies the address the
    outermost of them saw, the one it appended to X-Forwarded-For (what the visitor put there
    comes before it, and is not read). An IPv6 address is its /64 network's first address."""
    address = request.META.get("REMOTE_ADDR", "")
    proxies = settings.CONFSCHED_PROXY_COUNT
    if proxies:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        hops = [hop.strip() for hop in forwarded if hop.strip()]
        if len(hops) >= proxies:
            address = hops[-proxies]
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False).network_address)
    return str(parsed)


def recorded_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> Any:
    """The log-in name as axes records it (AXES_USERNAME_CALLABLE): the one typed, cut to its
    column. Longer, PostgreSQL refused to store the attempt and the log-in answered 500."""
    typed = credentials.get(settings.AXES_USERNAME_FORM_FIELD) if credentials else None
    if typed is None:
        typed = getattr(request, "data", request.POST).get(settings.AXES_USERNAME_FORM_FIELD)
    return typed[:MAX_RECORDED_NAME] if isinstance(typed, str) else typed


class PairFirstHandler(AxesDatabaseHandler):
    """axes' database handler: the pair's failures as axes counts them, the address's and the
    account's against their own limits."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        address = request.axes_ip_address  # type: ignore[attr-defined] - set by axes on the request
        username = get_client_username(request, credentials)
        attempts = AccessAttempt.objects.filter(Q(ip_address=address) | Q(username=username))
        if settings.AXES_COOLOFF_TIME is not None:
            attempts = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
        counts = attempts.aggregate(
            pair=Sum("failures_since_start", filter=Q(ip_address=address, username=username)),
            address=Sum("failures_since_start", filter=Q(ip_address=address)),
            account=Sum("failures_since_start", filter=Q(username=username)),
        )
        pair, limit = counts["pair"] or 0, get_failure_limit(request, credentials)
        # Reported as the pair's limit, the one number axes compares with: locked.
        if (counts["address"] or 0) >= settings.CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(pair, limit)
        if (counts["account"] or 0) >= settings.CONFSCHED_LOGIN_ACCOUNT_FAILURE_LIMIT and pair:
            return max(pair, limit)
        return pair


def forget_failures(username: str) -> None:
    """Clear every count of the account's failed log-ins: its owner proved who they are (a
    password reset through its mail), so the lock-out page's "reset your password" holds."""
    reset(username=username[:MAX_RECORDED_NAME])


def password_is_right(request: HttpRequest, user: Any, password: str) -> bool:
    """Whether `password` is `user`'s, asked the way a log-in asks: a wrong one counts towards
    the same lockout (axes), and a locked account is answered no whatever is typed. For the
    forms that ask for the password again (deleting the account, changing the password), so
    that a signed-in device left open is no way to guess it."""
    return authenticate(request, username=user.get_username(), password=password) is not None
