"""The one clock the web layer reads, so tests can set the time by patching `now`.

Pure functions never call it: they take the current time as an argument (STYLE.md).
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    """The current moment, aware (UTC)."""
    # Through django.utils.timezone, so tests that patch that clock move this one too.
    return timezone.now()


# The machine's clock, as this module and Django give it before any test sets another.
_MACHINE_NOW, _DJANGO_NOW = now, timezone.now


def is_machine_time() -> bool:
    """Whether `now` reads the machine's clock (tests set another). Only then may a time be
    read inside the database instead, at the moment a statement holds its lock: the same
    clock, read later (agenda/seat_statements.py)."""
    return now is _MACHINE_NOW and timezone.now is _DJANGO_NOW
