"""The `schedule.json` that frab and pretalx export (the c3voc "v1" format), read.

Spec: the JSON Schema (draft-06) of voc/schedule, validator/json/schema.json. The shape is
{"schedule": {"version", "base_url", "conference": {"title", "acronym", "start", "end",
"time_zone_name", "rooms", "days": [{"date", "day_start", "day_end", "rooms": {"Room":
[event, …]}}]}}}.

Reading is lenient, as real exports break the schema in many ways; what it handles:

* A UTF-8 byte-order mark; `logo: null`; missing guids (the key falls back to the event's id,
  then its slug, then "c3voc-" and 12 hex digits of the SHA-256 of its date, room and title);
  events without room (the room they are listed under) or without persons; persons named by
  any field frab or pretalx has used (`values.person_name`), keyed by guid, else code, else
  id, else the slug of their name. One id under several names is several people (merged
  schedules reuse ids): see `identity.PersonKeys`; a warning counts such ids.
* Times: an event's `date` carries an explicit offset and is trusted over `start` and over
  `time_zone_name`; pretalx's DemoCon declares "UTC" and writes +01:00, and the offsets win
  (with a warning). Without `date`, the day's date and `start` are read in the declared zone
  (a start before `day_start` is after midnight: the next day; in a day without `day_start`,
  frab's of around 2013, a room's list that goes back in time has crossed midnight, with a
  note counting them; a day without `date` takes its `day_start`'s, else conference.start's
  plus its position). Naive times use the declared zone, else `default_timezone`, else the
  file is refused; a local time the clocks skip moves forward by the gap, with a warning.
  `end` wins over `duration`, which may be H:MM, HH:MM or HH:MM:SS and is added in absolute
  time (two hours from 01:30 on the night clocks change end at 04:30 in spring); without both
  the session has no end.
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
reader, `c3voc.schedule2_read`, which the sniffer also sends it to); times that leave the years 1
to 9999 once converted to UTC or to the programme's zone, or once the duration is added. A
zone name that is not in the tz database (a folder such as "Europe", a 300-letter name) is
ignored with a warning, as the declared zone, or refused, as `default_timezone`.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from urllib.parse import urljoin

from confsched.core.errors import ParseError
from confsched.core.text import slugify
from confsched.core.timezones import zone_problem
from confsched.interchange.c3voc.read_times import _event_end, _event_start, _Reader
from confsched.interchange.c3voc.values import (
    _V1_CARRIERS,
    _abstract,
    _array,
    _is_url,
    _parse_clock,
    _parse_datetime,
    _shorten,
    _zone_or_none,
    clean_text,
    describe_value,
    identity_field,
    person_name,
    plain_text,
    read_links,
    room_capacities,
    shown_value,
    text_field,
    unknown_fields,
    urlless_warning,
)
from confsched.interchange.documents import read_json
from confsched.interchange.programme import (
    Programme,
    Session,
    SessionSpeaker,
    Speaker,
)

FORMAT_NAME = "c3voc-json"
DESCRIPTION = "frab/pretalx schedule.json (c3voc v1 JSON)"

_SCHEDULE_KEY = re.compile(r'(?<!\\)"schedule"\s*:\s*\{')
_CONFERENCE_KEY = re.compile(r'(?<!\\)"conference"\s*:\s*\{')
# v1 lists events per day in "rooms" objects; schedule2 has one "events" array and none.
_ROOMS_OBJECT = re.compile(r'(?<!\\)"rooms"\s*:\s*\{')
_EVENTS_ARRAY = re.compile(r'(?<!\\)"events"\s*:\s*\[')
SCHEDULE2_FORMAT_NAME = "c3voc-schedule2"  # the reader of c3voc.schedule2_read, named in refusals


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
    start = _parse_datetime(conference.get("start"))
    reader.first_date = start.replace(hour=0, minute=0, second=0, tzinfo=None) if start else None
    for index, day in enumerate(days):
        reader.day_positions[f"schedule.conference.days[{index}]"] = index
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
    if count := reader.after_midnight:
        programme.notes.append(
            f"{count} events of days without day_start come after an event later in the day "
            "in their room's list: read as after midnight, on the next date"
            if count > 1
            else "1 event of a day without day_start comes after an event later in the day in "
            "its room's list: read as after midnight, on the next date"
        )
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
        # frab lists a room's events by start: without day_start, a clock that goes back
        # (00:00 after 23:00) has crossed midnight, and so has every event after it.
        watch = _parse_datetime(day.get("day_start")) is None
        previous, crossed = None, False
        for index, event in enumerate(events):
            event_path = f"{room_path}[{index}]"
            if watch and isinstance(event, dict) and event.get("date") in (None, ""):
                clock = _parse_clock(event.get("start"))
                if clock is not None:
                    crossed = crossed or (previous is not None and clock < previous)
                    previous = clock
            _read_event(
                reader, event, day=day, day_path=path, room=room_name.strip(), path=event_path,
                after_midnight=crossed and isinstance(event, dict) and not event.get("date"),
            )  # fmt: skip


def _read_event(
    reader: _Reader, event: object, *, day: dict, day_path: str, room: str, path: str,
    after_midnight: bool = False,
) -> None:  # fmt: skip
    if not isinstance(event, dict):
        raise reader.refuse(f"{path} is {describe_value(event)}; expected an event object")
    title = event.get("title")
    if not isinstance(title, str) or not title.strip():
        shown = "missing" if "title" not in event else describe_value(title)
        raise reader.refuse(f"{path}.title is {shown}; expected the event's title")
    starts_at = _event_start(
        reader, event, day=day, day_path=day_path, path=path, after_midnight=after_midnight
    )
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


def _read_person(reader: _Reader, person: object, path: str) -> Speaker | None:
    if isinstance(person, str):  # some old exports list bare names
        person = {"name": person}
    if not isinstance(person, dict):
        raise reader.refuse(f"{path} is {describe_value(person)}; expected a person object")
    name = person_name(person)
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
