"""The c3voc "schedule2" JSON, the format the newest c3voc tools publish, read.

Spec: the draft JSON Schema of voc/schedule, validator/json/schema2.json ("alpha-3"). Its shape:
{"schedule": {"version", "conference": {"acronym", "title", "start", "end", "time_zone_name",
"rooms": [{"name", "guid", "slug"}], "tracks": [{"name", "slug"}], "days": [{"index", "date",
"start", "end"}], "defaults": {"language"}}, "events": [event or meta event, …]}}. Unlike v1
(`c3voc.read`), the events are one flat list with absolute `start` and `end`; an event names
its room and track by reference, and its people as `participants` with a role.

Reading is lenient, as for v1; what it does:

* The schedule's `version` (the producer's, not the schema's) goes to the notes.
* Identity: a session's key is the event's `guid`, else `id`, else `code`, else `slug`, else
  "c3voc-" and 12 hex digits of the SHA-256 of its start, room and title. Two events with one
  key refuse the file. A guid that is not a string is warned about, as in v1
  (`c3voc.values.identity_field`); invisible characters are dropped from ids.
* A field an event has no key for ("track", "language", "type", "room", the texts,
  "participants"/"persons", "links" and "attachments", "end" and "duration") is unknown for
  that session (`Session.unknown`), not empty; a key that is null or "" says "none".
* Times: `start` (required) and `end` are ISO 8601 date-times. An offset is trusted; a time
  without one is read in `time_zone_name`, else in `default_timezone`, else the file is
  refused; a local time the clocks skip moves forward by the gap, with a warning. Without
  `end`, the deprecated `duration` (ISO 8601 such as PT1H30M, or v1's H:MM) gives the end,
  added in absolute time; without both the session has no end. `conference.start` and `end`
  (dates or date-times) give the dates, else the sessions' first and last day.
* Rooms: `event.room` is a reference {guid, name, slug}: its name, else the name of the
  conference room with that guid, else with that slug; a plain string is the name itself.
  A reference that names no room the file declares refuses the file. `Programme.rooms` follows
  `conference.rooms`, then rooms only events name, by name.
* Tracks: `event.track` is {slug} (or {name}): the name of the conference track with that
  slug, else the slug; a plain string is the name.
* Kind: the schema's upper-case types read as words ("LIGHTNING_TALK" -> "Lightning Talk",
  meta events' "BREAK" -> "Break"); other spellings stay as written.
* Text: `abstract`, `description` and `subtitle` may be a string, null, or a map from
  language to text; a map gives the text in the event's language, else the conference's
  default language, else English, else its first entry. The abstract is the subtitle, the
  abstract and the description, blank lines between (a description equal to the abstract
  once), HTML as plain text (see `c3voc.values.clean_text`).
* State: CANCELED and WITHDRAWN sessions are read as cancelled; DRAFT and SUBMITTED ones as
  awaiting review; REJECTED and DELETED ones are left out (with a note), as they are not part
  of the programme; CONFIRMED, ACCEPTED, DELAYED and no state as scheduled. A state the schema
  does not name is read as scheduled, with a warning.
* People: `participants` (or v1's `persons`) with `name` (or `public_name`, `full_public_name`,
  `full_name`), keyed by guid,
  else code, else id, else the slug of the name; one id under several names is several people
  (`identity.PersonKeys`). Roles, logos, urls and colours have no place in a Programme.
* Links: `links`, then `attachments`, as in v1 (`c3voc_json.read_links`): references {url,
  title, type} with the types in upper case (SLIDES, MEDIA, WEB, …) or plain addresses; a
  relative url is read against `conference.url`.

Refused, with the JSON path: what `documents.read_json` refuses, values of the wrong type, a
document without events, unreadable times, and times that leave the years 1 to 9999 once
converted to UTC or to the programme's zone, or once the duration is added.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime
from urllib.parse import urlsplit

from confsched.core.errors import ParseError
from confsched.core.text import slugify
from confsched.core.timezones import get_zone, is_zone_name, zone_problem
from confsched.interchange.c3voc.read import looks_like_schedule2
from confsched.interchange.c3voc.schedule2_read_times import _end, _parse_datetime, _Reader, _start
from confsched.interchange.c3voc.values import (
    PERSON_NAME_FIELDS,
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

FORMAT_NAME = "c3voc-schedule2"
# schedule2 names people by `name` first; then every field frab has used (`person_name`).
SCHEDULE2_NAME_FIELDS = ("name", *(f for f in PERSON_NAME_FIELDS if f != "name"))
DESCRIPTION = "c3voc schedule2 JSON (one flat events list; the newest c3voc tools)"

_CANCELLED = frozenset({"CANCELED", "WITHDRAWN"})
_IN_REVIEW = frozenset({"DRAFT", "SUBMITTED"})
_LEFT_OUT = frozenset({"REJECTED", "DELETED"})
_SCHEDULED = frozenset({"CONFIRMED", "ACCEPTED", "DELAYED"})


def looks_like(head: str) -> bool:
    """True for the start of a schedule2 document: "schedule" with "conference" and "events"."""
    return looks_like_schedule2(head)


def parse(data: bytes, *, source: str, default_timezone: str = "") -> Programme:
    """Read a c3voc schedule2 document into a Programme, or refuse the whole file."""
    if default_timezone and not is_zone_name(default_timezone):
        raise ParseError(f"--timezone: {zone_problem(default_timezone)}", source=source)
    document = read_json(data, source=source, what="a c3voc schedule2 document")
    top = _object(document, "the top level", 'with a "schedule" object', source=source)
    schedule = _object(
        top.get("schedule"), "schedule", 'with "conference" and "events"', source=source
    )
    conference = _object(
        schedule.get("conference"),
        "schedule.conference",
        "with the conference's title, time zone and rooms",
        source=source,
    )

    programme = Programme(
        name=plain_text(conference.get("title")) or plain_text(conference.get("acronym"))
    )
    zone_name = plain_text(conference.get("time_zone_name"))
    if zone_name and is_zone_name(zone_name):
        programme.timezone = zone_name
    elif zone_name:
        shown = zone_name if len(zone_name) <= 64 else zone_name[:64] + "…"
        programme.warnings.append(
            f"schedule.conference.time_zone_name {shown!r} is not an IANA time zone; ignored"
        )
    zone = programme.timezone or default_timezone
    defaults = conference.get("defaults")
    default_language = plain_text(defaults.get("language")) if isinstance(defaults, dict) else ""
    reader = _Reader(
        source=source,
        zone=get_zone(zone) if zone else None,
        languages=tuple(dict.fromkeys(code for code in (default_language, "en") if code)),
        rooms={},
        tracks={},
        programme=programme,
        base_url=_web_address(conference.get("url")),
    )
    programme.rooms = _declared(reader, conference, "rooms", reader.rooms, ("guid", "slug"))
    programme.room_capacities = room_capacities(
        conference.get("rooms"), path="schedule.conference.rooms", warnings=programme.warnings
    )
    _declared(reader, conference, "tracks", reader.tracks, ("slug",))

    events = schedule.get("events")
    if not isinstance(events, list):
        raise reader.refuse(_no_events_list(schedule, events))
    for index, event in enumerate(events):
        _read_event(reader, event, f"schedule.events[{index}]")
    if not reader.sessions:
        listed = "is empty" if not events else f"holds {len(events)}, all rejected or deleted"
        raise reader.refuse(f"no events: schedule.events {listed}; there is no programme to import")

    programme.sessions = [session for session, _ in reader.sessions.values()]
    programme.speakers = list(reader.speakers.values())
    named = set(programme.rooms)
    programme.rooms += sorted(
        {s.room for s in programme.sessions if s.room and s.room not in named}
    )
    _read_dates(reader, conference)
    _report(reader)
    version = plain_text(schedule.get("version"))
    if version:  # the producer's own version of the programme: worth a line in the import log
        programme.notes.append(f"schedule version {shown_value(version)}")
    return programme


def _object(value: object, path: str, expected: str, *, source: str) -> dict:
    if isinstance(value, dict):
        return value
    found = "missing or null" if value is None else describe_value(value)
    raise ParseError(
        f"not a c3voc schedule2 document: {path} is {found}; expected an object {expected}",
        source=source,
    )


def _no_events_list(schedule: dict, events: object) -> str:
    conference = schedule.get("conference")
    days = conference.get("days") if isinstance(conference, dict) else None
    if (
        events is None
        and isinstance(days, list)
        and any(isinstance(day, dict) and "rooms" in day for day in days)
    ):
        return (
            "schedule.events is missing and the days list rooms of events, as a v1 schedule.json "
            "does: import it as c3voc-json"
        )
    found = "missing" if "events" not in schedule else describe_value(events)
    return f"schedule.events is {found}; expected an array of events"


def _declared(
    reader: _Reader, conference: dict, name: str, index: dict[str, str], keys: tuple[str, ...]
) -> list[str]:
    """Names of conference.rooms or .tracks in order; `index` gets each one's guid and slug."""
    items = conference.get(name)
    if items is None:
        return []
    path = f"schedule.conference.{name}"
    if not isinstance(items, list):
        raise reader.refuse(f"{path} is {describe_value(items)}; expected an array")
    names: list[str] = []
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            raise reader.refuse(f"{path}[{position}] is {describe_value(item)}; expected an object")
        item_name = text_field(reader, item, "name", f"{path}[{position}]").strip()
        if not item_name:
            continue
        for key in keys:
            reference = text_field(reader, item, key, f"{path}[{position}]").strip()
            if reference:
                index.setdefault(reference, item_name)
        if item_name not in names:
            names.append(item_name)
    return names


def _read_event(reader: _Reader, event: object, path: str) -> None:
    if not isinstance(event, dict):
        raise reader.refuse(f"{path} is {describe_value(event)}; expected an event object")
    title = event.get("title")
    if not isinstance(title, str) or not title.strip():
        shown = "missing" if "title" not in event else describe_value(title)
        raise reader.refuse(f"{path}.title is {shown}; expected the event's title")
    state = text_field(reader, event, "state", path).strip().upper()
    if state in _LEFT_OUT:
        reader.left_out[state] = reader.left_out.get(state, 0) + 1
        return
    if state and state not in _CANCELLED | _IN_REVIEW | _SCHEDULED:
        reader.unknown_states[state] = reader.unknown_states.get(state, 0) + 1
    starts_at = _start(reader, event, path)
    ends_at = _end(reader, event, starts_at, path)
    room = _room(reader, event.get("room"), f"{path}.room")
    language = text_field(reader, event, "language", path).strip()
    key = _key(reader, event, starts_at=starts_at, room=room, title=title.strip(), path=path)
    parts = [_localized(reader, event, name, path, language) for name in _TEXTS]
    subtitle, abstract, description = (clean_text(part) for part in parts)
    if description == abstract:
        description = ""
    session = Session(
        key=key,
        title=title.strip(),
        kind=_kind(text_field(reader, event, "type", path).strip()),
        abstract="\n\n".join(part for part in (subtitle, abstract, description) if part),
        starts_at=starts_at,
        ends_at=ends_at,
        room=room,
        track=_track(reader, event.get("track"), f"{path}.track"),
        language=language,
        speakers=_people(reader, event, path),
        links=read_links(reader, event, path, base_url=reader.base_url, urlless=reader.urlless),
        is_cancelled=state in _CANCELLED,
        needs_review=state in _IN_REVIEW,
        review_note=f"state {state} in the schedule2 file" if state in _IN_REVIEW else "",
        unknown=unknown_fields(event, _CARRIERS, has_room=bool(room)),
    )
    if key in reader.sessions:
        raise reader.refuse(
            f"{path} has the key {key!r} of {reader.sessions[key][1]}; "
            "expected each event to have its own guid"
        )
    reader.sessions[key] = (session, path)


_TEXTS = ("subtitle", "abstract", "description")
# Session fields, and the keys of an event that carry them (see c3voc_json.unknown_fields).
_CARRIERS = {
    "kind": ("type",),
    "track": ("track",),
    "language": ("language",),
    "abstract": _TEXTS,
    "speakers": ("participants", "persons"),
    "links": ("links", "attachments"),
    "ends_at": ("end", "duration"),
}


def _room(reader: _Reader, room: object, path: str) -> str:
    if room is None:
        return ""
    if isinstance(room, str):
        return room.strip()
    if not isinstance(room, dict):
        raise reader.refuse(f"{path} is {describe_value(room)}; expected a room reference")
    name = text_field(reader, room, "name", path).strip()
    if name:
        return name
    for key in ("guid", "slug"):
        reference = text_field(reader, room, key, path).strip()
        if reference in reader.rooms:
            return reader.rooms[reference]
    if room.get("name") == "":  # an explicit empty name: no room (as `render` writes it)
        return ""
    references = [
        f"{key} {shown_value(room[key])}"
        for key in ("guid", "slug")
        if room.get(key) not in (None, "")
    ]
    if not references:
        raise reader.refuse(f"{path} has no name, guid or slug; expected a room reference")
    raise reader.refuse(
        f"{path} has {' and '.join(references)}, which no room in schedule.conference.rooms "
        "has; expected the reference of a declared room, or a name"
    )


def _track(reader: _Reader, track: object, path: str) -> str:
    if track is None:
        return ""
    if isinstance(track, str):
        return track.strip()
    if not isinstance(track, dict):
        raise reader.refuse(f"{path} is {describe_value(track)}; expected a track reference")
    slug = text_field(reader, track, "slug", path).strip()
    if slug not in reader.tracks and track.get("name") == "":
        return ""  # an explicit empty name: no track (as `render` writes it)
    return reader.tracks.get(slug) or text_field(reader, track, "name", path).strip() or slug


def _kind(value: str) -> str:
    """The schema's enum values as words: "LIGHTNING_TALK" -> "Lightning Talk"."""
    return value.replace("_", " ").title() if value.isupper() else value


def _localized(reader: _Reader, event: dict, name: str, path: str, language: str) -> str:
    value = event.get(name)
    if not isinstance(value, dict):
        return text_field(reader, event, name, path)
    for code in dict.fromkeys((language, *reader.languages, *value)):
        if code not in value or value[code] is None:
            continue
        if not isinstance(value[code], str):
            raise reader.refuse(
                f"{path}.{name}[{shown_value(code)}] is {describe_value(value[code])}; "
                "expected a string"
            )
        return value[code]
    return ""


def _people(reader: _Reader, event: dict, path: str) -> tuple[SessionSpeaker, ...]:
    field_name = "participants" if "participants" in event else "persons"
    people = event.get(field_name)
    if people is None:
        return ()
    if not isinstance(people, list):
        raise reader.refuse(f"{path}.{field_name} is {describe_value(people)}; expected an array")
    keys: dict[str, None] = {}
    for index, person in enumerate(people):
        person_path = f"{path}.{field_name}[{index}]"
        if isinstance(person, str):
            person = {"name": person}
        if not isinstance(person, dict):
            raise reader.refuse(f"{person_path} is {describe_value(person)}; expected a person")
        name = person_name(person, fields=SCHEDULE2_NAME_FIELDS)
        if not name:
            reader.programme.warnings.append(f"{person_path}: a person without a name; left out")
            continue
        key = ""
        for label in ("guid", "code", "id"):
            value = person.get(label)
            if not isinstance(value, bool) and isinstance(value, int | str) and str(value).strip():
                key = reader.people.key(str(value).strip(), name, label=label)
                break
        key = key or slugify(name)
        reader.speakers.setdefault(key, Speaker(key=key, name=name))
        keys.setdefault(key)
    return tuple(SessionSpeaker(speaker_key=key) for key in keys)


def _key(
    reader: _Reader, event: dict, *, starts_at: datetime, room: str, title: str, path: str
) -> str:
    for name in ("guid", "id", "code", "slug"):
        value = identity_field(event, name, path, warnings=reader.programme.warnings)
        if value:
            if name != "guid":
                reader.fallback_keys[name] = reader.fallback_keys.get(name, 0) + 1
            return value
    what = "start, room and title"
    reader.fallback_keys[what] = reader.fallback_keys.get(what, 0) + 1
    identity = f"{starts_at.isoformat()}|{room}|{title}"
    return "c3voc-" + hashlib.sha256(identity.encode()).hexdigest()[:12]


def _read_dates(reader: _Reader, conference: dict) -> None:
    """conference.start and .end as local dates, else the first and last day a session starts."""
    programme = reader.programme
    zone = reader.zone
    local_days = sorted(
        (s.starts_at.astimezone(zone) if zone else s.starts_at).date()
        for s in programme.sessions
        if s.starts_at
    )
    for name, fallback in (("start", local_days[0]), ("end", local_days[-1])):
        raw = conference.get(name)
        value = _parse_datetime(raw)
        if value is None and raw not in (None, ""):
            programme.warnings.append(
                f"schedule.conference.{name} is {shown_value(raw)}, not a date; used the "
                "sessions' days"
            )
        day: date = value.date() if value else fallback
        setattr(programme, f"{name}_date", day)


def _report(reader: _Reader) -> None:
    programme = reader.programme
    if warning := reader.people.warning():
        programme.warnings.append(warning)
    if warning := urlless_warning(reader.urlless):
        programme.warnings.append(warning)
    if reader.unknown_states:
        states = ", ".join(sorted(reader.unknown_states))
        count = sum(reader.unknown_states.values())
        programme.warnings.append(
            f"{count} events have a state schedule2 does not define ({states}); read as scheduled"
        )
    for state, count in sorted(reader.left_out.items()):
        programme.notes.append(f"{count} events in state {state} left out")
    for what, count in sorted(reader.fallback_keys.items()):
        programme.notes.append(f"{count} events have no guid; keyed by their {what}")


def _web_address(value: object) -> str:
    """An http(s) address that urllib can split, else ""."""
    text = plain_text(value)
    try:
        parts = urlsplit(text)
    except ValueError:
        return ""
    return text if parts.scheme in ("http", "https") and parts.netloc else ""
