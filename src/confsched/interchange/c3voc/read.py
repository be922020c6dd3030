"""The `schedule.json` that frab and pretalx export (the c3voc "v1" format), read.

Spec: the JSON Schema (draft-06) of voc/schedule, validator/json/schema.json. The shape is
{"schedule": {"version", "base_url", "conference": {"title", "acronym", "start", "end",
"time_zone_name", "rooms", "days": [{"date", "day_start", "day_end", "rooms": {"Room":
[event, …]}}]}}}.

Reading is lenient, as real exports break the schema in many ways; what it handles:

* A UTF-8 byte-order mark; `logo: null`; missing guids (the key falls back to the event's id,
  then its slug, then "c3voc-" and 12 hex digits of the SHA-256 of its date, room and title);
  events without room (the room they are listed under) or without persons; persons with
  `public_name` (frab) or `name` (pretalx), keyed by guid, else code, else id, else the slug
  of their name. One id under several names is several people (merged schedules reuse ids):
  see `frab_xml.PersonKeys`; a warning counts such ids.
* Times: an event's `date` carries an explicit offset and is trusted over `start` and over
  `time_zone_name`; pretalx's DemoCon declares "UTC" and writes +01:00, and the offsets win
  (with a warning). Without `date`, the day's date and `start` are read in the declared zone
  (a start before `day_start` is after midnight: the next day). Naive times use the declared
  zone, else `default_timezone`, else the file is refused; a local time the clocks skip moves
  forward by the gap, with a warning. `end` wins over `duration`, which may be H:MM, HH:MM or
  HH:MM:SS and is added in absolute time (two hours from 01:30 on the night clocks change end
  at 04:30 in spring); without both the session has no end.
* A guid that is not a string (a number, an object) is not used, with a warning naming its
  path; invisible characters (byte-order marks, zero-width spaces) are dropped from guids and
  ids.
* A field an event has no key for ("track", "language", "type", "room" when listed under "",
  "abstract" and "description", "persons", "links" and "attachments", "end" and "duration")
  is unknown for that session (`Session.unknown`), not empty; a key that is null or "" says
  "none".
* Text: the abstract is `abstract`, a blank line, then `description` (once when they are
  equal). Markdown stays as written; HTML becomes plain text (see `html_text`).
* `Programme.rooms` follows `conference.rooms` when present, else the order rooms first
  appear under the days; rooms only events name come after, by name. `conference.start` and
  `end` give the dates (else the sessions' days). Two events with one key refuse the file.
  The subtitle, logo and recording flags have no place in a Programme.
* Links: `links`, then `attachments`, each an array of references {url, title, type} (or of
  plain addresses) are the session's links; `type` or else the title and address tell the
  kind (see `links.link_kind`), a relative url is read against `schedule.base_url`, and one
  without a url is left out with a warning. A title equal to the url counts as none.

What it refuses (a ParseError naming the JSON path): JSON that `documents.read_json` refuses
(huge numbers, deep nesting); values of the wrong type where the reader needs them; a file
without events (a schedule2 document, with its flat `schedule.events`, is pointed to its own
reader, `c3voc_schedule2`, which the sniffer also sends it to); times that leave the years 1
to 9999 once converted to UTC or to the programme's zone, or once the duration is added. A
zone name that is not in the tz database (a folder such as "Europe", a 300-letter name) is
ignored with a warning, as the declared zone, or refused, as `default_timezone`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import Protocol
from urllib.parse import urljoin, urlsplit
from zoneinfo import ZoneInfo

from confsched.core.errors import ParseError
from confsched.core.text import slugify
from confsched.core.timezones import get_zone, is_zone_name, zone_problem
from confsched.interchange.documents import read_json
from confsched.interchange.html_text import html_to_text as _html_to_text
from confsched.interchange.identity import PersonKeys, visible
from confsched.interchange.links import link_kind
from confsched.interchange.programme import (
    Programme,
    Session,
    SessionLink,
    SessionSpeaker,
    Speaker,
)
from confsched.interchange.zones import plus_duration, skipped_time, wall_time, zone_out_of_reach

FORMAT_NAME = "c3voc-json"
DESCRIPTION = "frab/pretalx schedule.json (c3voc v1 JSON)"

_CLOCK = re.compile(r"^(\d{1,2}):([0-5]\d)(?::([0-5]\d))?$")
_DURATION = re.compile(r"^(\d+):([0-5]\d)(?::([0-5]\d))?$")
_SCHEDULE_KEY = re.compile(r'(?<!\\)"schedule"\s*:\s*\{')
_CONFERENCE_KEY = re.compile(r'(?<!\\)"conference"\s*:\s*\{')
# v1 lists events per day in "rooms" objects; schedule2 has one "events" array and none.
_ROOMS_OBJECT = re.compile(r'(?<!\\)"rooms"\s*:\s*\{')
_EVENTS_ARRAY = re.compile(r'(?<!\\)"events"\s*:\s*\[')
SCHEDULE2_FORMAT_NAME = "c3voc-schedule2"  # the reader of c3voc_schedule2, named in refusals

# Tags that make a text HTML; without one it is Markdown or plain text and stays as written.
_HTML_TAG_NAMES = frozenset(
    "address article aside blockquote dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 "
    "header hr li main nav ol p pre section table tbody td tfoot th thead tr ul "
    "a abbr b br cite code del em i img ins kbd mark q s small span strong sub sup u".split()
)
_HTML_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>")


def looks_like(head: str) -> bool:
    """True for the start of a v1 schedule.json: "schedule" holding "conference", not schedule2."""
    return _is_envelope(head) and not _is_schedule2(head)


def looks_like_schedule2(head: str) -> bool:
    """True for the start of a c3voc schedule2 document: one "events" array, no "rooms" object."""
    return _is_envelope(head) and _is_schedule2(head)


def _is_envelope(head: str) -> bool:
    """An object with "schedule" holding "conference", as both c3voc versions start."""
    text = head.lstrip("\ufeff \t\r\n")
    if not text.startswith("{"):
        return False
    schedule = _SCHEDULE_KEY.search(text)
    return schedule is not None and _CONFERENCE_KEY.search(text, schedule.end()) is not None


def _is_schedule2(head: str) -> bool:
    return _EVENTS_ARRAY.search(head) is not None and _ROOMS_OBJECT.search(head) is None


# --- reading -------------------------------------------------------------------------------


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


def parse(data: bytes, *, source: str, default_timezone: str = "") -> Programme:
    """Read a frab/pretalx schedule.json into a Programme, or refuse the whole file."""
    default_zone = None
    if default_timezone:
        default_zone = _zone_or_none(default_timezone)
        if default_zone is None:
            raise ParseError(f"--timezone: {zone_problem(default_timezone)}", source=source)
    document = read_json(data, source=source, what="a schedule.json")
    schedule = _schedule_object(document, source=source)
    conference = schedule.get("conference")
    if not isinstance(conference, dict):
        raise ParseError(
            f"schedule.conference is {describe_value(conference)}; expected an object with the "
            "conference's title, time zone and days",
            source=source,
        )
    programme = Programme(
        name=plain_text(conference.get("title")) or plain_text(conference.get("acronym"))
    )
    zone_name = conference.get("time_zone_name")
    declared_zone = None
    if isinstance(zone_name, str) and zone_name.strip():
        declared_zone = _zone_or_none(zone_name.strip())
        if declared_zone is None:
            programme.warnings.append(
                f"conference.time_zone_name {_shorten(zone_name)!r} is not an IANA time zone; "
                "ignored"
            )
        else:
            programme.timezone = zone_name.strip()
    base_url = schedule.get("base_url")
    reader = _Reader(
        source=source,
        declared_zone=declared_zone,
        default_zone=default_zone,
        base_url=base_url if isinstance(base_url, str) and _is_url(base_url) else "",
        warnings=programme.warnings,
        notes=programme.notes,
    )
    declared_rooms = _declared_rooms(conference.get("rooms"))
    programme.room_capacities = room_capacities(
        conference.get("rooms"), path="schedule.conference.rooms", warnings=programme.warnings
    )
    days = conference.get("days")
    if not isinstance(days, list):
        raise reader.refuse(
            f"schedule.conference.days is {describe_value(days)}; expected an array of days"
        )
    for index, day in enumerate(days):
        _read_day(reader, day, f"schedule.conference.days[{index}]")
    if not reader.sessions:
        raise reader.refuse(_no_events(schedule, days))
    if warning := reader.people.warning():
        programme.warnings.append(warning)
    if warning := urlless_warning(reader.urlless):
        programme.warnings.append(warning)

    programme.sessions = [session for session, _ in reader.sessions.values()]
    programme.speakers = list(reader.speakers.values())
    named = set(declared_rooms or reader.room_order)
    programme.rooms = (declared_rooms or reader.room_order) + sorted(
        {s.room for s in programme.sessions if s.room and s.room not in named}
    )
    _read_dates(reader, programme, conference)
    if reader.zone_disagreements:
        offsets = ", ".join(sorted(reader.zone_disagreements))
        count = sum(reader.zone_disagreements.values())
        programme.warnings.append(
            f"conference.time_zone_name is {programme.timezone!r} but {count} event dates carry "
            f"other offsets ({offsets}); the times follow the dates' own offsets"
        )
    for what, count in sorted(reader.fallback_keys.items()):
        programme.notes.append(f"{count} events have no guid; keyed by their {what}")
    return programme


def _schedule_object(document: object, *, source: str) -> dict:
    if not isinstance(document, dict):
        raise ParseError(
            f"not a schedule.json: the top level is {describe_value(document)}, not an object "
            'with a "schedule" object',
            source=source,
        )
    schedule = document.get("schedule")
    if "schedule" not in document:
        keys = list(document)
        listed = ", ".join(json.dumps(key, ensure_ascii=False) for key in keys[:8])
        more = f" and {len(keys) - 8} more" if len(keys) > 8 else ""
        holds = f"holds the keys {listed}{more}" if keys else "is an empty object"
        raise ParseError(
            f'not a schedule.json: the top level has no "schedule" object; it {holds}',
            source=source,
        )
    if not isinstance(schedule, dict):
        raise ParseError(
            f'not a schedule.json: "schedule" is {describe_value(schedule)}, not an object '
            'with a "conference" object',
            source=source,
        )
    return schedule


def room_capacities(rooms: object, *, path: str, warnings: list[str]) -> dict[str, int]:
    """Seats of the declared rooms that give a `capacity` (schema: number or null).

    null or absent: unknown. Anything but a whole number from 0 up is named in a warning and
    left out: a wrong capacity would only mislead the organizers' overflow guess.
    """
    if not isinstance(rooms, list):
        return {}
    seats: dict[str, int] = {}
    for index, room in enumerate(rooms):
        if not isinstance(room, dict) or room.get("capacity") is None:
            continue
        name, value = room.get("name"), room["capacity"]
        if not isinstance(name, str) or not name.strip():
            continue
        is_count = isinstance(value, int | float) and not isinstance(value, bool)
        if not is_count or value < 0 or value != int(value):
            warnings.append(
                f"{path}[{index}].capacity is {json.dumps(value, ensure_ascii=False)}; expected "
                f"a whole number of seats for room {name.strip()!r}, so it has none"
            )
            continue
        seats.setdefault(name.strip(), int(value))
    return seats


def _declared_rooms(rooms: object) -> list[str]:
    """Room names of conference.rooms (objects with a name, or plain names), in order."""
    if not isinstance(rooms, list):
        return []
    names: list[str] = []
    for room in rooms:
        name = room.get("name") if isinstance(room, dict) else room
        if isinstance(name, str) and name.strip() and name.strip() not in names:
            names.append(name.strip())
    return names


def _read_day(reader: _Reader, day: object, path: str) -> None:
    if not isinstance(day, dict):
        raise reader.refuse(f"{path} is {describe_value(day)}; expected a day object")
    rooms = day.get("rooms")
    if rooms is None:
        return
    if not isinstance(rooms, dict):
        raise reader.refuse(
            f"{path}.rooms is {describe_value(rooms)}; expected an object of room names "
            "to arrays of events"
        )
    for room_name, events in rooms.items():
        room_path = f"{path}.rooms[{json.dumps(room_name, ensure_ascii=False)}]"
        if room_name.strip() and room_name.strip() not in reader.room_order:
            reader.room_order.append(room_name.strip())
        if events is None:
            continue
        if not isinstance(events, list):
            raise reader.refuse(
                f"{room_path} is {describe_value(events)}; expected an array of events"
            )
        for index, event in enumerate(events):
            event_path = f"{room_path}[{index}]"
            _read_event(
                reader, event, day=day, day_path=path, room=room_name.strip(), path=event_path
            )


def _read_event(
    reader: _Reader, event: object, *, day: dict, day_path: str, room: str, path: str
) -> None:
    if not isinstance(event, dict):
        raise reader.refuse(f"{path} is {describe_value(event)}; expected an event object")
    title = event.get("title")
    if not isinstance(title, str) or not title.strip():
        shown = "missing" if "title" not in event else describe_value(title)
        raise reader.refuse(f"{path}.title is {shown}; expected the event's title")
    starts_at = _event_start(reader, event, day=day, day_path=day_path, path=path)
    ends_at = _event_end(reader, event, starts_at, path=path)
    room = text_field(reader, event, "room", path).strip() or room
    key = _event_key(reader, event, starts_at=starts_at, room=room, title=title, path=path)
    links: dict[str, SessionSpeaker] = {}  # by key: one look-up per person, not one per pair
    for person_index, person in enumerate(_array(reader, event, "persons", path)):
        speaker = _read_person(reader, person, f"{path}.persons[{person_index}]")
        if speaker is not None:
            links.setdefault(speaker.key, SessionSpeaker(speaker_key=speaker.key))
    session = Session(
        key=key,
        title=title.strip(),
        kind=text_field(reader, event, "type", path).strip(),
        abstract=_abstract(
            text_field(reader, event, "abstract", path),
            text_field(reader, event, "description", path),
        ),
        starts_at=starts_at,
        ends_at=ends_at,
        room=room,
        track=text_field(reader, event, "track", path).strip(),
        language=text_field(reader, event, "language", path).strip(),
        speakers=tuple(links.values()),
        links=read_links(reader, event, path, base_url=reader.base_url, urlless=reader.urlless),
        unknown=unknown_fields(event, _V1_CARRIERS, has_room=bool(room)),
    )
    if key in reader.sessions:
        raise reader.refuse(
            f"{path} has the key {key!r} of {reader.sessions[key][1]}; "
            "expected each event to have its own guid"
        )
    reader.sessions[key] = (session, path)


def _event_start(reader: _Reader, event: dict, *, day: dict, day_path: str, path: str) -> datetime:
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
            next_day = _plus(value.replace(tzinfo=None), timedelta(days=1))
            if next_day is None:
                raise reader.refuse(
                    f"{path}.start is {shown_value(raw_start)}, after midnight of "
                    f"{day_date.date()}: outside the years 1 to 9999"
                )
            value = _localize(reader, next_day, f"{path}.start", raw_start)
    return value


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


def _event_key(
    reader: _Reader, event: dict, *, starts_at: datetime, room: str, title: str, path: str
) -> str:
    for name in ("guid", "id", "slug"):
        value = identity_field(event, name, path, warnings=reader.warnings)
        if value:
            if name != "guid":
                reader.fallback_keys[name] = reader.fallback_keys.get(name, 0) + 1
            return value
    reader.fallback_keys["date, room and title"] = (
        reader.fallback_keys.get("date, room and title", 0) + 1
    )
    identity = f"{starts_at.isoformat()}|{room}|{title.strip()}"
    return "c3voc-" + hashlib.sha256(identity.encode()).hexdigest()[:12]


def identity_field(mapping: dict, name: str, path: str, *, warnings: list[str]) -> str:
    """An event's guid, id, code or slug as a key, invisible characters dropped; "" when it
    has none. A value that is neither a string nor a whole number is not used, with a warning
    naming its path; a guid written as a whole number is used as written, with a warning (the
    schema's guid is a string)."""
    value = mapping.get(name)
    if value is None or value == "":
        return ""
    if isinstance(value, bool) or not isinstance(value, int | str):
        warnings.append(
            f"{path}.{name} is {describe_value(value)}, not a string; not used as the "
            "event's identity"
        )
        return ""
    if name == "guid" and isinstance(value, int):
        warnings.append(
            f"{path}.guid is the number {shown_value(value)}, not a string; used as written"
        )
    return visible(str(value))


# Session fields, and the keys of an event that carry them: an event with none of them says
# nothing about the field. Shared with the schedule2 reader.
_V1_CARRIERS = {
    "kind": ("type",),
    "track": ("track",),
    "language": ("language",),
    "abstract": ("abstract", "description"),
    "speakers": ("persons",),
    "links": ("links", "attachments"),
    "ends_at": ("end", "duration"),
}


def unknown_fields(
    event: dict, carriers: dict[str, tuple[str, ...]], *, has_room: bool
) -> frozenset[str]:
    """The fields `event` has no key for (Session.unknown); "room" unless it has a room."""
    unknown = {name for name, keys in carriers.items() if not any(key in event for key in keys)}
    if not has_room and "room" not in event:
        unknown.add("room")
    return frozenset(unknown)


def read_links(
    reader: Refuser, event: dict, path: str, *, base_url: str, urlless: list[str]
) -> tuple[SessionLink, ...]:
    """The event's `links` then `attachments` (references or plain addresses) as links; the
    paths of those without a url go to `urlless`. Shared with the schedule2 reader."""
    found: list[SessionLink] = []
    for name in ("links", "attachments"):
        for index, item in enumerate(_array(reader, event, name, path)):
            item_path = f"{path}.{name}[{index}]"
            if isinstance(item, str):
                item = {"url": item}
            if not isinstance(item, dict):
                raise reader.refuse(
                    f"{item_path} is {describe_value(item)}; expected a link object with a url, "
                    "or an address"
                )
            href = text_field(reader, item, "url", item_path).strip()
            if not href:
                urlless.append(item_path)
                continue
            url = href
            if base_url and _is_url(href):
                url = urljoin(base_url, href)
            title = " ".join(text_field(reader, item, "title", item_path).split())
            if title in (href, url):
                title = ""
            kind = link_kind(
                url,
                title,
                declared=text_field(reader, item, "type", item_path),
                is_attachment=name == "attachments",
            )
            found.append(SessionLink(url=url, title=title, kind=kind))
    return tuple(found)


def urlless_warning(paths: list[str]) -> str:
    """For programme.warnings: how many links had no url, with the first one's path."""
    if not paths:
        return ""
    count = len(paths)
    return f"{count} link{'s' if count > 1 else ''} without a url left out (first: {paths[0]})"


def _read_person(reader: _Reader, person: object, path: str) -> Speaker | None:
    if isinstance(person, str):  # some old exports list bare names
        person = {"name": person}
    if not isinstance(person, dict):
        raise reader.refuse(f"{path} is {describe_value(person)}; expected a person object")
    name = plain_text(person.get("public_name")) or plain_text(person.get("name"))
    if not name:
        reader.warnings.append(f"{path}: a person without a name; left out")
        return None
    key = ""
    for field_name in ("guid", "code", "id"):
        value = person.get(field_name)
        if not isinstance(value, bool) and isinstance(value, int | str) and str(value).strip():
            key = reader.people.key(str(value).strip(), name, label=field_name)
            break
    key = key or slugify(name)
    avatar = plain_text(person.get("avatar"))
    if not _is_url(avatar):
        avatar = ""
    if avatar and reader.base_url:
        avatar = urljoin(reader.base_url, avatar)
    speaker = Speaker(
        key=key,
        name=name,
        bio=clean_text(text_field(reader, person, "biography", path)),
        avatar_url=avatar,
    )
    known = reader.speakers.get(key)
    if known is None:
        reader.speakers[key] = speaker
        return speaker
    # One key, one person (PersonKeys keys other names apart): the first spelling stays.
    if (not known.bio and speaker.bio) or (not known.avatar_url and speaker.avatar_url):
        reader.speakers[key] = Speaker(
            key=key,
            name=known.name,
            bio=known.bio or speaker.bio,
            avatar_url=known.avatar_url or speaker.avatar_url,
        )
    return known


def _read_dates(reader: _Reader, programme: Programme, conference: dict) -> None:
    """conference.start and .end, else the first and last day a session starts on."""
    zone = reader.declared_zone
    local_days = sorted(
        (s.starts_at.astimezone(zone) if zone else s.starts_at).date()
        for s in programme.sessions
        if s.starts_at
    )
    for name, fallback in (
        ("start", local_days[0] if local_days else None),
        ("end", local_days[-1] if local_days else None),
    ):
        raw = conference.get(name)
        value = _parse_datetime(raw)
        if value is None and raw not in (None, ""):
            programme.warnings.append(
                f"conference.{name} is {shown_value(raw)}, not a date; used the sessions' days"
            )
        day = value.date() if value else fallback
        setattr(programme, f"{name}_date", day)


def _array(reader: Refuser, mapping: dict, name: str, path: str) -> list:
    value = mapping.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise reader.refuse(f"{path}.{name} is {describe_value(value)}; expected an array")
    return value


def text_field(reader: Refuser, mapping: dict, name: str, path: str) -> str:
    """mapping[name] as text: "" when absent or null, numbers as written, else a refusal."""
    value = mapping.get(name)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise reader.refuse(f"{path}.{name} is {describe_value(value)}; expected a string")


class Refuser(Protocol):
    def refuse(self, message: str) -> ParseError: ...


def plain_text(value: object) -> str:
    """A stripped string, or "" for anything that is not one."""
    return value.strip() if isinstance(value, str) else ""


def _parse_clock(value: object) -> time | None:
    match = _CLOCK.match(value.strip()) if isinstance(value, str) else None
    if match is None or int(match[1]) > 23:
        return None
    return time(int(match[1]), int(match[2]), int(match[3] or 0))


def _parse_datetime(value: object) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def _abstract(abstract: str, description: str) -> str:
    parts = [clean_text(abstract), clean_text(description)]
    if parts[0] == parts[1]:
        parts = parts[:1]
    return "\n\n".join(part for part in parts if part)


def clean_text(text: str) -> str:
    """Plain text or Markdown as written (line ends normalised); HTML as text."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if any(tag.lower() in _HTML_TAG_NAMES for tag in _HTML_TAG.findall(text)):
        text = _html_to_text(text)
    return text.strip()


def _zone_or_none(name: str) -> ZoneInfo | None:
    return get_zone(name) if is_zone_name(name) else None


def _plus(value: datetime, delta: timedelta) -> datetime | None:
    """`value + delta`, or None past the years datetime holds."""
    try:
        return value + delta
    except OverflowError:
        return None


def _is_url(text: str) -> bool:
    """False for what urllib cannot even split ("http://[", a bracketed host left open)."""
    try:
        urlsplit(text)
    except ValueError:
        return False
    return True


def _shorten(text: str, limit: int = 64) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _no_events(schedule: dict, days: list) -> str:
    """Why a document without events is refused, naming what it holds instead."""
    if isinstance(schedule.get("events"), list):
        return (
            "no events under schedule.conference.days[].rooms; the events are in "
            "schedule.events, as in a c3voc schedule2 document: import it as "
            f"{SCHEDULE2_FORMAT_NAME}"
        )
    if not days:
        return "no events: schedule.conference.days is empty; there is no programme to import"
    return (
        f"no events: the {len(days)} days of schedule.conference.days list none under their "
        "rooms; there is no programme to import"
    )


def describe_value(value: object) -> str:
    """What a JSON value is, for messages: 'null', 'an array (of 3 items)', 'the string "x"'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"an array (of {len(value)} items)"
    if isinstance(value, str):
        return f"the string {shown_value(value)}"
    return f"the number {value}"


def shown_value(value: object, limit: int = 64) -> str:
    """A JSON value as written, cut short: a mutated file may hold megabytes in one value."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"
