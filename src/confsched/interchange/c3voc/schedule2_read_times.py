"""The schedule2 reader's state, and an event's times: its start, and its end from its end or
duration (ISO 8601 or clock), checked against the zones they meet."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from confsched.core.errors import ParseError
from confsched.interchange.c3voc.values import shown_value
from confsched.interchange.identity import PersonKeys
from confsched.interchange.programme import Programme, Session, Speaker
from confsched.interchange.zones import plus_duration, skipped_time, wall_time, zone_out_of_reach

_ISO_DURATION = re.compile(
    r"P(?!$)(?:(?P<w>\d+)W)?(?:(?P<d>\d+)D)?"
    r"(?:T(?=\d)(?:(?P<h>\d+)H)?(?:(?P<m>\d+)M)?(?:(?P<s>\d+(?:\.\d+)?)S)?)?"
)


_CLOCK_DURATION = re.compile(r"(?P<h>\d+):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?")


@dataclass
class _Reader:
    source: str
    zone: ZoneInfo | None  # the declared zone, else the default; naive times are read in it
    languages: tuple[str, ...]  # the order a localized text is looked up in
    rooms: dict[str, str]  # guid or slug of a declared room -> its name
    tracks: dict[str, str]  # slug of a declared track -> its name
    programme: Programme
    base_url: str = ""  # conference.url, for relative link addresses
    sessions: dict[str, tuple[Session, str]] = field(default_factory=dict)  # key -> (s, path)
    speakers: dict[str, Speaker] = field(default_factory=dict)
    people: PersonKeys = field(default_factory=PersonKeys)
    fallback_keys: dict[str, int] = field(default_factory=dict)
    left_out: dict[str, int] = field(default_factory=dict)
    unknown_states: dict[str, int] = field(default_factory=dict)
    urlless: list[str] = field(default_factory=list)  # paths of links without a url

    def refuse(self, message: str) -> ParseError:
        return ParseError(message, source=self.source)

    def outside(self, value: datetime) -> str:
        """The zone `value` cannot be converted to (UTC, as stored, or the programme's), or "".

        Near the years 1 and 9999 an offset can push an instant beyond what datetime holds;
        the conversions that would fail later, in the database or a writer, are tried here.
        """
        return zone_out_of_reach(value, (UTC, self.zone))


def _start(reader: _Reader, event: dict, path: str) -> datetime:
    raw = event.get("start")
    if raw in (None, ""):
        raise reader.refuse(
            f"{path}.start is missing; expected an ISO 8601 date and time such as "
            "2020-12-14T09:00:00+01:00"
        )
    return _moment(reader, raw, f"{path}.start")


def _end(reader: _Reader, event: dict, starts_at: datetime, path: str) -> datetime | None:
    raw_end = event.get("end")
    if raw_end not in (None, ""):
        end = _moment(reader, raw_end, f"{path}.end")
        if end < starts_at:
            raise reader.refuse(
                f"{path}.end is {shown_value(raw_end)}, before the event's start "
                f"{starts_at.isoformat()}; expected a later time"
            )
        return end
    raw = event.get("duration")
    if raw in (None, ""):
        return None
    text = raw.strip() if isinstance(raw, str) else ""
    match = _ISO_DURATION.fullmatch(text) or _CLOCK_DURATION.fullmatch(text)
    if match is None:
        raise reader.refuse(
            f"{path}.duration is {shown_value(raw)}; expected an ISO 8601 duration such as PT1H30M"
        )
    parts = {name: value for name, value in match.groupdict().items() if value}
    try:
        length = timedelta(
            weeks=int(parts.get("w", 0)),
            days=int(parts.get("d", 0)),
            hours=int(parts.get("h", 0)),
            minutes=int(parts.get("m", 0)),
            seconds=float(parts.get("s", 0)),
        )
        ends_at: datetime | None = plus_duration(starts_at, length)
    except (OverflowError, ValueError):  # more than timedelta, or int(), can hold
        ends_at = None
    if ends_at is None or reader.outside(ends_at):
        raise reader.refuse(
            f"{path}.duration is {shown_value(raw)}, which from the start {starts_at.isoformat()} "
            "ends outside the years 1 to 9999"
        )
    return ends_at


def _moment(reader: _Reader, raw: object, path: str) -> datetime:
    """An aware datetime from an ISO 8601 string; naive ones in the programme's zone."""
    value = _parse_datetime(raw)
    if value is None or not (isinstance(raw, str) and ("T" in raw.upper() or " " in raw)):
        raise reader.refuse(
            f"{path} is {shown_value(raw)}; expected an ISO 8601 date and time such as "
            "2020-12-14T09:00:00+01:00"
        )
    if value.utcoffset() is None:
        if reader.zone is None:
            raise reader.refuse(
                f"{path} is {shown_value(raw)}, a time without a UTC offset, and the file names no "
                "time zone (schedule.conference.time_zone_name); give one with --timezone, for "
                "example --timezone Europe/Berlin"
            )
        value = value.replace(tzinfo=reader.zone)
    if zone := reader.outside(value):
        raise reader.refuse(f"{path} is {shown_value(raw)}, outside the years 1 to 9999 in {zone}")
    if reader.zone is not None and value.tzinfo is reader.zone:
        moved, skipped = wall_time(value.replace(tzinfo=None), reader.zone)
        if skipped:
            reader.programme.warnings.append(skipped_time(path, raw, reader.zone, moved))
            return moved
    return value


def _parse_datetime(value: object) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        return None
