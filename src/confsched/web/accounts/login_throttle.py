"""The log-in throttle: strict per account, loose per address.

django-axes compares every lockout parameter with one failure limit. At a conference everyone
shares a few NAT addresses, so five failures from one address must not lock the venue out:
accounts lock after AXES_FAILURE_LIMIT failures (per account, and per account and address, as
AXES_LOCKOUT_PARAMETERS says), an address only after CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT
failures for any accounts (a password-guessing run across many accounts).
"""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import authenticate
from django.db.models import Sum
from django.http import HttpRequest


class AccountFirstHandler(AxesDatabaseHandler):
    """axes' database handler, with the address counted against its own, looser limit."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        per_account = super().get_failures(request, credentials)
        attempts = AccessAttempt.objects.filter(ip_address=request.axes_ip_address)  # type: ignore[attr-defined] - set by axes on the request
        if settings.AXES_COOLOFF_TIME is not None:
            attempts = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
        per_address = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
        if per_address >= settings.CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT:
            # Reported as the account limit, the one number axes compares with.
            return max(per_account, get_failure_limit(request, credentials))
        return per_account


def password_is_right(request: HttpRequest, user: Any, password: str) -> bool:
    """Whether `password` is `user`'s, asked the way a log-in asks: a wrong one counts towards
    the same lockout (axes), and a locked account is answered no whatever is typed. For the
    forms that ask for the password again (deleting the account, changing the password), so
    that a signed-in device left open is no way to guess it."""
    return authenticate(request, username=user.get_username(), password=password) is not None
