"""Time zones as the writers need them: the programme's IANA zone, or UTC when it names none."""

from __future__ import annotations

from datetime import UTC, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def programme_zone(name: str) -> tzinfo:
    """The IANA zone called `name`, UTC for ""; ValueError for a name that is not a zone."""
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}; expected an IANA name") from exc
