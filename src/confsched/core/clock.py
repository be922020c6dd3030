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
