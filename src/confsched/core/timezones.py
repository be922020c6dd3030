"""Time-zone helpers: validating IANA names and describing a zone for people."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from functools import lru_cache

from confsched.core.errors import InvalidEventError


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name this machine knows, sorted; the "Etc/" and legacy aliases excluded."""
    names = {
        name
        for name in zoneinfo.available_timezones()
        if "/" in name and not name.startswith(("Etc/", "SystemV/", "US/", "posix/", "right/"))
    }
    names.add("UTC")
    return tuple(sorted(names))


def get_zone(name: str) -> zoneinfo.ZoneInfo:
    """The zone called `name`, or InvalidEventError naming it when it is not an IANA zone."""
    if not name or name.startswith(("/", ".")) or ".." in name:
        raise InvalidEventError(
            f"unknown time zone {name!r}: give an IANA name such as Europe/Paris"
        )
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise InvalidEventError(
            f"unknown time zone {name!r}: give an IANA name such as Europe/Paris"
        ) from exc


def format_offset(offset: timedelta | None) -> str:
    """UTC+02:00 style; UTC for a zero offset."""
    if offset is None or offset == timedelta(0):
        return "UTC"
    total = int(offset.total_seconds())
    sign = "+" if total >= 0 else "-"
    hours, minutes = divmod(abs(total) // 60, 60)
    return f"UTC{sign}{hours:02d}:{minutes:02d}"


def describe_zone(zone: zoneinfo.ZoneInfo, at: datetime) -> str:
    """'Europe/Paris (CEST, UTC+02:00)' for the moment `at`."""
    local = at.astimezone(zone)
    abbreviation = local.tzname() or ""
    offset = format_offset(local.utcoffset())
    if abbreviation and abbreviation != offset and not abbreviation.startswith(("+", "-")):
        return f"{zone.key} ({abbreviation}, {offset})"
    return f"{zone.key} ({offset})"
