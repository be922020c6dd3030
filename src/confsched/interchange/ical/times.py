"""The time zones of an iCalendar file (TZID, VTIMEZONE) and its DTSTART and DTEND, dates or
date-times, as TimeValues (see `ical.read` for the order of lookup)."""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from typing import cast

from icalendar import Component, Timezone, TimezoneDaylight, TimezoneStandard, vRecur
from icalendar.timezone import tzp
from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from confsched.core.errors import ParseError
from confsched.core.timezones import get_zone, is_zone_name
from confsched.interchange.ical.events import TimeValue
from confsched.interchange.ical.lines import (
    _LIBRARY_ERRORS,
    _Component,
    _problem,
    _Property,
    _property_name,
    _read_property,
    _shown_tzid,
    _snippet,
)

# VTIMEZONE observances as calendar programs write them: once a year, at most.
_YEARLY_RULE_PARTS = frozenset({"FREQ", "BYMONTH", "BYDAY", "BYMONTHDAY", "UNTIL", "COUNT", "WKST"})


# --- time zones ----------------------------------------------------------------------------


class _Zones:
    """The TZIDs of one file as zones; see `ical.read` for the order of lookup."""

    def __init__(self, calendar: _Component, *, source: str, notes: list[str]) -> None:
        self.source = source
        self.notes = notes
        self.defined: dict[str, _Component] = {}
        for child in calendar.children:
            if child.name == "VTIMEZONE":
                tzid = next(
                    (
                        _read_property(number, content).text.strip("/")
                        for number, content in child.properties
                        if _property_name(content) == "TZID"
                    ),
                    "",
                )
                if tzid:
                    self.defined.setdefault(tzid, child)
        self.resolved: dict[str, tzinfo | None] = {}

    def resolve(self, tzid: str, *, who: str, line: int) -> tzinfo | None:
        """The zone a TZID names, None when nothing defines it."""
        if tzid not in self.resolved:
            self.resolved[tzid] = self._lookup(tzid, who=who, line=line)
        return self.resolved[tzid]

    def _lookup(self, tzid: str, *, who: str, line: int) -> tzinfo | None:
        name = tzid.strip("/")
        if is_zone_name(name):
            return get_zone(name)
        if name in self.defined:
            return self._from_vtimezone(name, who=who, line=line)
        guesses = [(WINDOWS_TO_OLSON.get(name, ""), "a Windows zone name")]
        if tzid.startswith("/"):
            # "/vendor/…/Area/Place": IANA names have at most three parts, longest first.
            parts = name.split("/")
            guesses += [
                ("/".join(parts[-size:]), "a globally unique TZID, less its vendor prefix")
                for size in (3, 2, 1)
                if len(parts) > size
            ]
        for candidate, how in guesses:
            if is_zone_name(candidate):
                self.notes.append(
                    f"{self.source}: TZID {_shown_tzid(tzid)!r} read as {candidate} ({how})"
                )
                return get_zone(candidate)
        return None

    def _from_vtimezone(self, name: str, *, who: str, line: int) -> tzinfo:
        component = self.defined[name]
        try:
            # The package annotates this as `datetime.tzinfo` with `datetime` the class.
            zone = cast("tzinfo", tzp.create_timezone(_library_timezone(component)))
            zone.utcoffset(datetime(2000, 1, 1))  # noqa: DTZ001 - a naive probe, as zones take it
        except _LIBRARY_ERRORS as exc:
            problem = str(exc) if isinstance(exc, _UnreadableTimezone) else _problem(exc)
            raise ParseError(
                f"{who}: TZID {_shown_tzid(name)!r} is defined by the VTIMEZONE of line "
                f"{component.line}, which cannot be read: {problem}",
                source=self.source,
                line=line,
            ) from exc
        return zone


def _library_timezone(component: _Component) -> Timezone:
    """The VTIMEZONE as the library's component, built without its process-wide zone cache."""
    zone = Timezone()
    _add_properties(zone, component)
    for child in component.children:
        observance: Component
        if child.name == "STANDARD":
            observance = TimezoneStandard()
        elif child.name == "DAYLIGHT":
            observance = TimezoneDaylight()
        else:
            continue
        _add_properties(observance, child)
        zone.add_component(observance)
    return zone


class _UnreadableTimezone(ValueError):
    """A VTIMEZONE line that cannot be used; the message names it."""


def _add_properties(target: Component, component: _Component) -> None:
    for number, content in component.properties:
        prop = _read_property(number, content)
        if prop.value is None:
            raise _UnreadableTimezone(f"line {number}: {_snippet(content)!r}: {prop.problem}")
        if isinstance(prop.value, vRecur) and not _is_yearly(prop.value):
            raise _UnreadableTimezone(
                f"line {number}: {_snippet(content)!r} is not a rule confsched reads in a "
                "VTIMEZONE: FREQ=YEARLY with one BYMONTH and one BYDAY (or up to seven "
                "BYMONTHDAY), as calendar programs write them"
            )
        target.add(prop.name, prop.value, encode=False)


def _is_yearly(rule: vRecur) -> bool:
    """A few changes a year at most (one month, one weekday or a week of days in it): the
    zone walks its rules from their DTSTART up to each time it converts."""
    parts = {str(key).upper(): value for key, value in rule.items()}
    months = len(parts.get("BYMONTH", []))
    in_month = "BYDAY" in parts or "BYMONTHDAY" in parts
    return (
        [str(freq).upper() for freq in parts.get("FREQ", [])] == ["YEARLY"]
        and set(parts) <= _YEARLY_RULE_PARTS
        and (months == 1 or (months == 0 and not in_month))
        and len(parts.get("BYDAY", [])) <= 1
        and len(parts.get("BYMONTHDAY", [])) <= 7  # noqa: PLR2004 - a week: "second Sunday"
    )


# --- DTSTART and DTEND ---------------------------------------------------------------------


def _time_value(
    by_name: dict[str, list[_Property]], name: str, *, who: str, source: str, zones: _Zones
) -> TimeValue | None:
    if name not in by_name:
        return None
    prop, count = by_name[name][0], len(by_name[name])
    if count > 1:
        raise ParseError(
            f"{who}: {name} is given {count} times; expected one", source=source, line=prop.line
        )
    value = getattr(prop.value, "dt", None)
    if not isinstance(value, date):  # datetime is a date; a time, period or duration is not
        raise ParseError(
            f"{who}: {_snippet(prop.written)!r} cannot be read; expected a date-time such as "
            "20260407T094500 (local, with TZID) or 20260407T074500Z (UTC), or a date such as "
            "20260407",
            source=source,
            line=prop.line,
        )
    tzid = prop.param("TZID")
    # A TZID on a date is meaningless (RFC 5545 3.3.4): an all-day event stays one.
    if tzid and isinstance(value, datetime) and value.tzinfo is None:
        zone = zones.resolve(tzid, who=who, line=prop.line)
        if zone is not None:
            value = value.replace(tzinfo=zone)
    return TimeValue(value=value, tzid=tzid, text=_snippet(prop.written), line=prop.line)
