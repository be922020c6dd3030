"""A VTIMEZONE that holds for every date, not only the calendar's own.

A reader keeps one definition per TZID: vobject (and Radicale, built on it) registers the first
VTIMEZONE it reads for a name and applies it to every later calendar in the process. A block
bounded to one calendar's years ("from 2019-01-01 to 2020-01-01") then shifts another
calendar's sessions by an hour. So each zone is written once and for all dates:

- its history as the library writes it (observances with RDATE lists, read from the zone),
  from 1970 (or the earliest session, if older) to the year the zone's current rule takes over;
- from that year on, the current rule as two observances with a yearly RRULE and no end, read
  from the rule the tz database itself stores for the future (the POSIX TZ string closing the
  zone's TZif file, such as "CET-1CEST,M3.5.0,M10.5.0/3").

A zone without daylight saving today needs no rule: its last observance holds for ever. The
block depends on the zone (and the oldest session before 1970) only, so every calendar of one
zone carries the same definition.
"""

from __future__ import annotations

import calendar
import os
import re
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache
from importlib import resources

from icalendar import Timezone, TimezoneDaylight, TimezoneStandard, vRecur

# Transitions before this are history few calendars need; earlier sessions move it back.
FIRST_YEAR = 1970

_NAME = r"(?:[A-Za-z]{3,}|<[-+0-9A-Za-z]+>)"
_OFFSET = r"[-+]?\d{1,3}(?::\d{2}){0,2}"
_DATE = r"M(\d{1,2})\.(\d)\.(\d)(?:/(" + _OFFSET + r"))?"
_POSIX = re.compile(
    rf"(?P<std>{_NAME})(?P<std_offset>{_OFFSET})"
    rf"(?:(?P<dst>{_NAME})(?P<dst_offset>{_OFFSET})?,(?P<start>{_DATE}),(?P<end>{_DATE}))?"
)


@dataclass(frozen=True)
class _Change:
    """One yearly change of a POSIX rule: Mmonth.week.weekday at `at` (local, before it)."""

    month: int
    week: int  # 1-4, 5 for the last
    weekday: int  # 0 Sunday
    at: timedelta

    def local(self, year: int) -> datetime:
        """The wall-clock time (in the offset before it) of this change in `year`."""
        first_weekday, length = calendar.monthrange(year, self.month)
        # calendar: Monday is 0; POSIX: Sunday is 0.
        first = 1 + (self.weekday - (first_weekday + 1) % 7) % 7
        day = first + 7 * (self.week - 1)
        while day > length:
            day -= 7
        return datetime(year, self.month, day) + self.at  # noqa: DTZ001 - wall-clock time

    def rule(self) -> vRecur | None:
        """The change as a yearly RRULE, None when no rule of one month can say it."""
        shift, at = divmod(self.at, timedelta(days=1))
        weekday = ("SU", "MO", "TU", "WE", "TH", "FR", "SA")[(self.weekday + shift) % 7]
        if shift == 0:
            nth = -1 if self.week == 5 else self.week  # noqa: PLR2004 - POSIX's "last"
            return vRecur(freq="YEARLY", bymonth=self.month, byday=f"{nth}{weekday}")
        # The weekday of a week of days moved by whole days: the weekday in the moved week.
        if self.week == 5:  # noqa: PLR2004 - POSIX's "last"
            length = calendar.monthrange(2001, self.month)[1]
            if self.month == 2:  # noqa: PLR2004 - February's last week moves in leap years
                return None
            days = range(length - 6 + shift, length + 1 + shift)
        else:
            days = range(7 * (self.week - 1) + 1 + shift, 7 * self.week + 1 + shift)
        if days.start < 1 or days.stop - 1 > calendar.monthrange(2001, self.month)[1]:
            return None
        return vRecur(freq="YEARLY", bymonth=self.month, byday=weekday, bymonthday=list(days))


def _seconds(text: str) -> timedelta:
    sign = -1 if text.startswith("-") else 1
    parts = [int(part) for part in text.lstrip("+-").split(":")]
    hours, minutes, seconds = (parts + [0, 0])[:3]
    return sign * timedelta(hours=hours, minutes=minutes, seconds=seconds)


def _change(text: str) -> _Change:
    match = re.fullmatch(_DATE, text)
    assert match is not None  # the whole string matched _POSIX
    month, week, weekday, at = match.groups()
    return _Change(int(month), int(week), int(weekday), _seconds(at) if at else timedelta(hours=2))


@dataclass(frozen=True)
class _Rule:
    """A zone's rule for the future: standard and daylight names and offsets, and the two
    yearly changes (daylight starts, daylight ends)."""

    std: str
    std_offset: timedelta
    dst: str
    dst_offset: timedelta
    start: _Change
    end: _Change

    def changes(self, year: int) -> list[tuple[datetime, timedelta, timedelta]]:
        """The year's changes as (UTC instant, offset before, offset after), in order."""
        made = [
            (self.start.local(year) - self.std_offset, self.std_offset, self.dst_offset),
            (self.end.local(year) - self.dst_offset, self.dst_offset, self.std_offset),
        ]
        return sorted((moment.replace(tzinfo=UTC), before, after) for moment, before, after in made)


def _parse_rule(text: str) -> _Rule | None:
    """The POSIX TZ string's yearly rule; None for a zone without daylight saving (or a rule
    written otherwise, which the tz database does not do today)."""
    match = _POSIX.fullmatch(text)
    if match is None or not match["dst"]:
        return None
    std_offset = -_seconds(match["std_offset"])  # POSIX counts west of Greenwich
    dst_offset = -_seconds(match["dst_offset"]) if match["dst_offset"] else std_offset + HOUR
    return _Rule(
        std=match["std"].strip("<>"),
        std_offset=std_offset,
        dst=match["dst"].strip("<>"),
        dst_offset=dst_offset,
        start=_change(match["start"]),
        end=_change(match["end"]),
    )


HOUR = timedelta(hours=1)


def _tzif(key: str) -> tuple[list[int], str] | None:
    """The zone file's transition instants (seconds since 1970, UTC) and its closing rule, from
    where `zoneinfo` reads it; None when the file cannot be found or read."""
    data = None
    for folder in zoneinfo.TZPATH:
        path = os.path.join(folder, *key.split("/"))
        if os.path.isfile(path):
            with open(path, "rb") as file:
                data = file.read()
            break
    if data is None:
        try:
            data = resources.files("tzdata").joinpath("zoneinfo", *key.split("/")).read_bytes()
        except (ModuleNotFoundError, OSError):
            return None
    if data[:4] != b"TZif" or data[4:5] < b"2":
        return None
    counts = [int.from_bytes(data[20 + 4 * i : 24 + 4 * i], "big") for i in range(6)]
    isut, isstd, leap, times, types, chars = counts
    second = 44 + times * 5 + types * 6 + chars + leap * 8 + isstd + isut
    counts = [
        int.from_bytes(data[second + 20 + 4 * i : second + 24 + 4 * i], "big") for i in range(6)
    ]
    isut, isstd, leap, times, types, chars = counts
    body = second + 44
    transitions = [
        int.from_bytes(data[body + 8 * i : body + 8 * i + 8], "big", signed=True)
        for i in range(times)
    ]
    end = body + times * 9 + types * 6 + chars + leap * 12 + isstd + isut
    footer = data[end:].strip(b"\n").decode("ascii", "replace")
    return transitions, footer


def vtimezone(zone: tzinfo, first_year: int = FIRST_YEAR) -> Timezone | None:
    """The zone's VTIMEZONE for every date from `first_year` on; None for UTC (written with
    "Z") and for a zone without an IANA name."""
    key = getattr(zone, "key", None)
    if not isinstance(key, str) or zone.utcoffset(datetime(2000, 1, 1)) is None:  # noqa: DTZ001
        return None
    return _vtimezone(key, min(first_year, FIRST_YEAR))


@lru_cache(maxsize=64)
def _vtimezone(key: str, first_year: int) -> Timezone | None:
    zone = zoneinfo.ZoneInfo(key)
    tzif = _tzif(key)
    if tzif is None:
        # Not where zoneinfo reads it: the library's widest useful range.
        return _bare(Timezone.from_tzinfo(zone, key, date(first_year, 1, 1), date(2100, 1, 1)))
    transitions, footer = tzif
    rule = _parse_rule(footer)
    rules = (rule.start.rule(), rule.end.rule()) if rule is not None else (None, None)
    # Fat zone files close with an entry at 2038-01-19 that changes nothing: left out.
    transitions = [
        moment for moment in transitions if _offset(zone, moment - 1) != _offset(zone, moment)
    ]
    last = transitions[-1] if transitions else 0
    # The year of the zone file's last change, in local time (the year a history must reach).
    last_year = datetime.fromtimestamp(last, UTC).astimezone(zone).year
    if rule is None or None in rules:
        # No daylight saving now, so the last observance holds for ever; or a rule no RRULE
        # says (the tz database has none today): every change up to 2100.
        until = max(last_year + 1, first_year) + 1 if rule is None else 2100
        return _bare(Timezone.from_tzinfo(zone, key, date(first_year, 1, 1), date(until, 1, 1)))
    year = _rule_year(zone, rule, transitions, last_year)
    year = max(year, first_year + 1)
    timezone = _bare(Timezone.from_tzinfo(zone, key, date(first_year, 1, 1), date(year, 1, 1)))
    for change, (offset_from, offset_to, name, kind) in zip(
        (rule.start, rule.end),
        (
            (rule.std_offset, rule.dst_offset, rule.dst, TimezoneDaylight),
            (rule.dst_offset, rule.std_offset, rule.std, TimezoneStandard),
        ),
        strict=True,
    ):
        observance = kind()
        observance.add("DTSTART", change.local(year))
        observance.add("TZNAME", name)
        observance.add("TZOFFSETFROM", offset_from)
        observance.add("TZOFFSETTO", offset_to)
        observance.add("RRULE", change.rule())
        timezone.add_component(observance)
    return timezone


def _rule_year(zone: tzinfo, rule: _Rule, transitions: list[int], last_year: int) -> int:
    """The first year whose changes, and every later year's, are the rule's: the rule's year
    is walked back while the zone file's transitions of the year are the rule's."""
    listed = set(transitions)
    year = last_year + 1
    while year > FIRST_YEAR:
        made = rule.changes(year - 1)
        instants = {int(moment.timestamp()) for moment, _, _ in made}
        in_year = {
            moment for moment in listed if datetime.fromtimestamp(moment, UTC).year == year - 1
        }
        if in_year != instants or any(
            moment.astimezone(zone).utcoffset() != after for moment, _, after in made
        ):
            break
        year -= 1
    # Nothing matched: one year more, lest a change late on 31 December be left to neither.
    return year + 1 if year == last_year + 1 else year


def _offset(zone: tzinfo, moment: int) -> timedelta | None:
    return datetime.fromtimestamp(moment, UTC).astimezone(zone).utcoffset()


def _bare(timezone: Timezone) -> Timezone:
    """The library's zone without its COMMENT ("only works from … to …"), the block holding
    for every date from its first, and with one RDATE a line: vobject keeps only the first
    date of an RDATE that lists several, and the others' changes are lost to its readers."""
    timezone.pop("COMMENT", None)
    for observance in timezone.subcomponents:
        written = observance.pop("RDATE", None)
        if written is None:
            continue
        for dates in written if isinstance(written, list) else [written]:
            for moment in dates.dts:
                observance.add("RDATE", moment.dt)
    return timezone
