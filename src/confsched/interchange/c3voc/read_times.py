"""The schedule.json (v1) reader's state, and an event's times: its start from its date, its
day and its clock, its end from its end or duration, checked against the zones they meet."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from confsched.core.errors import ParseError
from confsched.interchange.c3voc.values import _parse_clock, _parse_datetime, _plus, shown_value
from confsched.interchange.identity import PersonKeys
from confsched.interchange.programme import Session, Speaker
from confsched.interchange.zones import plus_duration, skipped_time, wall_time, zone_out_of_reach

_DURATION = re.compile(r"^(\d+):([0-5]\d)(?::([0-5]\d))?$")


@dataclass
class _Reader:
    source: str
    declared_zone: ZoneInfo | None
    default_zone: ZoneInfo | None
    base_url: str
    people: PersonKeys = field(default_factory=PersonKeys)
    sessions: dict[str, tuple[Session, str]] = field(default_factory=dict)  # key -> (s, path)
    speakers: dict[str, Speaker] = field(default_factory=dict)
    room_order: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    zone_disagreements: dict[str, int] = field(default_factory=dict)
    fallback_keys: dict[str, int] = field(default_factory=dict)
    urlless: list[str] = field(default_factory=list)  # paths of links without a url
    first_date: datetime | None = None  # conference.start, for days without a date
    day_positions: dict[str, int] = field(default_factory=dict)  # day path -> its position
    after_midnight: int = 0  # events read on the next date as their room's list went back

    def nth_date(self, day_path: str) -> datetime | None:
        """The date of the day at `day_path` counted from conference.start, or None."""
        if self.first_date is None or day_path not in self.day_positions:
            return None
        return _plus(self.first_date, timedelta(days=self.day_positions[day_path]))

    def refuse(self, message: str) -> ParseError:
        return ParseError(message, source=self.source)

    def checked(self, value: datetime, path: str, raw: object) -> datetime:
        """`value`, or a refusal when it cannot be converted to UTC or to the programme's zone."""
        if zone := self.outside(value):
            raise self.refuse(
                f"{path} is {shown_value(raw)}, outside the years 1 to 9999 in {zone}"
            )
        return value

    def outside(self, value: datetime) -> str:
        """The zone `value` cannot be converted to (UTC, as stored, or the programme's), or "".

        Near the years 1 and 9999 an offset can push an instant beyond what datetime holds;
        the conversions that would fail later, in the database or a writer, are tried here.
        """
        return zone_out_of_reach(value, (UTC, self.declared_zone or self.default_zone))


def _event_start(
    reader: _Reader, event: dict, *, day: dict, day_path: str, path: str,
    after_midnight: bool = False,
) -> datetime:  # fmt: skip
    """The event's start: its `date`, else its day's date and its `start` clock.

    A clock before the day's `day_start` is after midnight (the next date). A day without
    `day_start` (frab's schedule.json of around 2013) says so by its room's list going back in
    time, which `_read_day` tells as `after_midnight`. A day without `date` takes the date of
    its `day_start`, else `reader.first_date` plus its position (`day["index"]` is 0-based in
    those files, 1-based later, so it is not used).
    """
    clock = None
    raw_start = event.get("start")
    if raw_start not in (None, ""):
        clock = _parse_clock(raw_start)
        if clock is None:
            raise reader.refuse(
                f"{path}.start is {shown_value(raw_start)}; expected a time of day as HH:MM"
            )
    raw_date = event.get("date")
    if raw_date not in (None, ""):
        value = _parse_datetime(raw_date)
        if value is None:
            raise reader.refuse(
                f"{path}.date is {shown_value(raw_date)}; expected an ISO 8601 date and time "
                "such as 2019-08-21T11:00:00+02:00"
            )
        if isinstance(raw_date, str) and "T" not in raw_date.upper() and " " not in raw_date:
            if clock is None:  # a bare date says nothing of the time of day
                raise reader.refuse(
                    f"{path}.date is {shown_value(raw_date)}, a date without a time, and the "
                    "event has no start; expected a date and time"
                )
            value = datetime.combine(value.date(), clock)
        if value.utcoffset() is None:
            return _localize(reader, value, f"{path}.date", raw_date)
        reader.checked(value, f"{path}.date", raw_date)
        _check_offset(reader, value)
        if clock is not None and value.strftime("%H:%M") != clock.strftime("%H:%M"):
            reader.warnings.append(
                f"{path}: start {raw_start!r} disagrees with date {raw_date!r}; kept the date"
            )
        return value
    if clock is None:
        raise reader.refuse(
            f"{path} has no date and no start; expected date (an ISO 8601 date and time) "
            "or start (HH:MM)"
        )
    raw_day = day.get("date")
    day_date = _parse_datetime(raw_day)
    if raw_day in (None, "") and day_date is None:
        day_date = _parse_datetime(day.get("day_start")) or reader.nth_date(day_path)
    if day_date is None:
        raise reader.refuse(
            f"{day_path}.date is {shown_value(raw_day)}; expected the day's date as YYYY-MM-DD, "
            f"which {path} needs as it has a start but no date"
        )
    value = _localize(reader, datetime.combine(day_date.date(), clock), f"{path}.start", raw_start)
    day_start = _parse_datetime(day.get("day_start"))
    if day_start is not None:
        if day_start.utcoffset() is None:
            day_start = day_start.replace(tzinfo=value.tzinfo)
        if value < day_start:  # frab days run past midnight: 01:00 belongs to the next date
            value = _next_date(reader, value, day_date, path=path, raw_start=raw_start)
    elif after_midnight:
        value = _next_date(reader, value, day_date, path=path, raw_start=raw_start)
        reader.after_midnight += 1
    return value


def _next_date(
    reader: _Reader, value: datetime, day_date: datetime, *, path: str, raw_start: object
) -> datetime:
    """`value` a day later: a session after midnight of its day's date."""
    next_day = _plus(value.replace(tzinfo=None), timedelta(days=1))
    if next_day is None:
        raise reader.refuse(
            f"{path}.start is {shown_value(raw_start)}, after midnight of "
            f"{day_date.date()}: outside the years 1 to 9999"
        )
    return _localize(reader, next_day, f"{path}.start", raw_start)


def _event_end(reader: _Reader, event: dict, starts_at: datetime, *, path: str) -> datetime | None:
    raw_end = event.get("end")
    if raw_end not in (None, ""):
        value = _parse_datetime(raw_end)
        if value is None:
            raise reader.refuse(
                f"{path}.end is {shown_value(raw_end)}; expected an ISO 8601 date and time "
                "such as 2019-08-21T11:30:00+02:00"
            )
        if value.utcoffset() is None:
            value = _localize(reader, value, f"{path}.end", raw_end)
        reader.checked(value, f"{path}.end", raw_end)
        if value < starts_at:
            raise reader.refuse(
                f"{path}.end is {shown_value(raw_end)}, before the event's start "
                f"{starts_at.isoformat()}; expected a later time"
            )
        return value
    raw_duration = event.get("duration")
    if raw_duration in (None, ""):
        return None
    match = _DURATION.match(raw_duration.strip()) if isinstance(raw_duration, str) else None
    if match is None:
        raise reader.refuse(
            f"{path}.duration is {shown_value(raw_duration)}; expected H:MM, HH:MM or HH:MM:SS"
        )
    hours, minutes, seconds = match.groups()
    try:
        length = timedelta(hours=int(hours), minutes=int(minutes), seconds=int(seconds or 0))
        ends_at: datetime | None = plus_duration(starts_at, length)
    except (OverflowError, ValueError):  # more hours than timedelta, or int(), can hold
        ends_at = None
    if ends_at is None or reader.outside(ends_at):
        raise reader.refuse(
            f"{path}.duration is {shown_value(raw_duration)}, which from the start "
            f"{starts_at.isoformat()} ends outside the years 1 to 9999"
        )
    return ends_at


def _localize(reader: _Reader, value: datetime, path: str, raw: object) -> datetime:
    """A naive time in the declared zone, else the caller's, else refuse."""
    zone = reader.declared_zone or reader.default_zone
    if zone is None:
        raise reader.refuse(
            f"{path} is {shown_value(raw)}, a time without a UTC offset, and the file names no "
            "time zone (conference.time_zone_name); give one with --timezone, for example "
            "--timezone Europe/Berlin"
        )
    reader.checked(value.replace(tzinfo=zone), path, raw)
    moved, skipped = wall_time(value, zone)
    if skipped:
        reader.warnings.append(skipped_time(f"{path}", raw, zone, moved))
    return moved


def _check_offset(reader: _Reader, value: datetime) -> None:
    """Count dates whose offset is not the declared zone's at that instant."""
    if reader.declared_zone is None:
        return
    offset = value.utcoffset()
    expected = value.astimezone(reader.declared_zone).utcoffset()
    if offset != expected and offset is not None:
        label = value.strftime("%z")
        label = f"{label[:3]}:{label[3:5]}"
        reader.zone_disagreements[label] = reader.zone_disagreements.get(label, 0) + 1
