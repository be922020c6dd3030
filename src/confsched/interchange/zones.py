"""Time zones of programmes: the zone writers use (the programme's, or UTC when it names none),
and the zone a file implies when it names none (its UTC offsets and its location's city)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo

import pytz

from confsched.core.text import fold
from confsched.core.timezones import format_offset, get_zone, is_zone_name
from confsched.interchange.programme import Programme


def programme_zone(name: str) -> tzinfo:
    """The IANA zone called `name`, UTC for ""; ValueError for a name that is not a zone."""
    if not name:
        return UTC
    if not is_zone_name(name):
        raise ValueError(f"unknown time zone {name[:64]!r}; expected an IANA name")
    return get_zone(name)


def zone_out_of_reach(value: datetime, zones: Iterable[tzinfo | None]) -> str:
    """The first of `zones` that `value` cannot be converted to, or "".

    Near the years 1 and 9999 an offset can push an instant beyond what datetime holds;
    readers try here the conversions that would fail later, in the database or a writer.
    """
    for zone in zones:
        if zone is None:
            continue
        try:
            value.astimezone(zone)
        except OverflowError:
            return str(zone)
    return ""


@dataclass(frozen=True)
class ZoneGuess:
    """The zone a programme's own times and location imply: `name` ("" when they do not say),
    and in words why (or why not), for the import report."""

    name: str
    reason: str


@lru_cache(maxsize=1)
def _current_zones() -> tuple[str, ...]:
    """Zones in use today, without the tz database's old spellings (Asia/Calcutta for
    Asia/Kolkata), which would otherwise make one place look like two; pytz keeps that list."""
    return tuple(name for name in pytz.common_timezones if "/" in name and is_zone_name(name))


def _written_offsets(programme: Programme) -> set[tuple[datetime, timedelta]]:
    """(instant, offset) for each time written at a fixed UTC offset (not at a named zone)."""
    found = set()
    for session in programme.sessions:
        for moment in (session.starts_at, session.ends_at):
            if moment is not None and not isinstance(moment.tzinfo, ZoneInfo):
                offset = moment.utcoffset()
                if offset is not None:
                    found.add((moment.astimezone(UTC), offset))
    # All at +00:00 is how iCalendar and xCal write any time ("Z"): it names no place.
    return found if any(offset for _, offset in found) else set()


def _zones_named_in(location: str) -> list[str]:
    """Zones whose city the location names: "Palais des Congrès, Paris" -> Europe/Paris."""
    words = f" {' '.join(re.findall(r'[a-z0-9]+', fold(location)))} "
    return [
        name
        for name in _current_zones()
        if f" {' '.join(re.findall(r'[a-z0-9]+', fold(name.rsplit('/', 1)[-1])))} " in words
    ]


def _fixed_zone(offset: timedelta) -> str:
    """The tz database's fixed-offset zone for a whole-hour offset (its sign is inverted by
    POSIX convention: Etc/GMT-2 is UTC+02:00), or "" when there is none."""
    hours, rest = divmod(int(offset.total_seconds()), 3600)
    name = "Etc/GMT" if hours == 0 else f"Etc/GMT{-hours:+d}"
    return name if not rest and is_zone_name(name) else ""


def guess_zone(programme: Programme) -> ZoneGuess:
    """The IANA zone that fits every UTC offset the programme writes and the city its location
    names. With offsets but no city, a single offset gives the tz database's fixed-offset zone
    and several (a change to summer time inside the event) the one zone that fits them all."""
    written = _written_offsets(programme)
    offsets = sorted({offset for _, offset in written})
    shown = ", ".join(format_offset(offset) for offset in offsets)

    def fits(name: str) -> bool:
        zone = ZoneInfo(name)
        return all(instant.astimezone(zone).utcoffset() == offset for instant, offset in written)

    named = _zones_named_in(programme.location) if programme.location else []
    if named:
        fitting = [name for name in named if fits(name)]
        where = f"the location “{programme.location}”"
        if len(fitting) == 1:
            why = (
                f"{where} and the times written at {shown} point" if written else f"{where} points"
            )
            return ZoneGuess(fitting[0], f"{why} to {fitting[0]}")
        if len(fitting) > 1:
            return ZoneGuess("", f"{where} names the cities of {', '.join(fitting)}")
    if not written:
        return ZoneGuess("", "the file names no time zone and writes no local UTC offsets")
    candidates = [name for name in _current_zones() if fits(name)]
    if len(offsets) == 1 and (fixed := _fixed_zone(offsets[0])):
        return ZoneGuess(
            fixed,
            f"every time is written at {shown} and no city is named, so the zone is the fixed "
            f"offset {fixed}; give --timezone (such as {candidates[0] if candidates else fixed})"
            " to name the city's zone",
        )
    if len(candidates) == 1:
        return ZoneGuess(candidates[0], f"only {candidates[0]} has the offsets {shown} then")
    if not candidates:
        return ZoneGuess("", f"no time zone has the offsets {shown} at the times written")
    listed = ", ".join(candidates[:5]) + (", …" if len(candidates) > 5 else "")
    return ZoneGuess(
        "", f"{len(candidates)} zones have the offsets {shown} at the times written ({listed})"
    )


# --- local times and durations, as every reader reads them ---------------------------------


def wall_time(naive: datetime, zone: tzinfo) -> tuple[datetime, bool]:
    """A naive wall-clock time read in `zone`, and whether the clocks skip it.

    A time in a spring-forward gap (02:30 in Paris on 2026-03-29) names no instant; it is moved
    forward by the gap (03:30), the instant a clock that forgot to change would show. A time
    that occurs twice (autumn) is its first occurrence.
    """
    local = naive.replace(tzinfo=zone)
    # A wall time the clocks skip does not survive a trip through UTC; the trip moves it
    # forward by the gap, a real instant (astimezone to the same zone would not).
    try:
        moved = local.astimezone(UTC).astimezone(zone)
    except OverflowError:  # at the ends of the calendar; the readers' range checks refuse it
        return local, False
    if moved.replace(tzinfo=None) != naive.replace(tzinfo=None):
        return moved, True
    return local, False


def skipped_time(where: str, written: object, zone: tzinfo, moved: datetime) -> str:
    """The warning for a time the clocks skip: where it is, as written, and how it was read."""
    return (
        f"{where} {written!r} does not exist in {zone} (the clocks skip it); read as {moved:%H:%M}"
    )


def plus_duration(start: datetime, length: timedelta) -> datetime:
    """The end of something lasting `length` from `start`, in absolute time.

    Adding to the wall clock would make a two-hour talk that starts at 01:30 on the night
    clocks spring forward last one real hour (and three in autumn). The result is shown in
    `start`'s zone. OverflowError past the years datetime holds, as for `+`.
    """
    zone = start.tzinfo
    assert zone is not None  # readers make every time aware before adding to it
    end = (start.astimezone(UTC) + length).astimezone(zone)
    if end.replace(tzinfo=None) < start.replace(tzinfo=None):
        # Python compares times of one zone by their wall clocks: 02:15 after the clocks fall
        # back would "end before" a 02:45 start. In UTC it is the same instant, compared right.
        return end.astimezone(UTC)
    return end
