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


# Names the tz database lists that are no place: "localtime" is whatever this server runs in,
# "Factory" a placeholder; "posix/" and "right/" are copies under other rules.
_NOT_PLACES = frozenset({"localtime", "Factory"})


@lru_cache(maxsize=1)
def _known_zones() -> frozenset[str]:
    return frozenset(
        name
        for name in zoneinfo.available_timezones()
        if name not in _NOT_PLACES and not name.startswith(("posix/", "right/"))
    )


def known_zone_names() -> tuple[str, ...]:
    """Every name is_zone_name takes, sorted (aliases such as "US/Eastern" included)."""
    return tuple(sorted(_known_zones()))


# Longer than any IANA name (the longest is 32 characters); keeps messages short too.
SHOWN_MAX = 64


def is_zone_name(name: str) -> bool:
    """True for an IANA zone name this machine knows ("Europe/Paris", "UTC").

    The one gate for zone names from outside (query strings, cookies, API, imported files):
    only names listed by the tz database reach ZoneInfo, so folders ("Europe"), paths and
    absurd lengths never touch the file system.
    """
    return isinstance(name, str) and name in _known_zones()


def zone_problem(name: str) -> str:
    """What to tell a person who gave `name` as a time zone (the name shortened if long)."""
    shown = name if len(name) <= SHOWN_MAX else name[:SHOWN_MAX] + "…"
    return f"unknown time zone {shown!r}: give an IANA name such as Europe/Paris"


def get_zone(name: str) -> zoneinfo.ZoneInfo:
    """The zone called `name`, or InvalidEventError naming it when it is not an IANA zone."""
    if not is_zone_name(name):
        raise InvalidEventError(zone_problem(name))
    return zoneinfo.ZoneInfo(name)


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
