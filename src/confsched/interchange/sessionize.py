"""Sessionize's "All data" export (`https://sessionize.com/api/v2/<id>/view/All`), read.

Sessionize publishes no schema; this reader follows its API documentation and real exports.
The file is one JSON object with `sessions`, `speakers`, `questions`, `categories` and
`rooms`. Sessions point at speakers (UUID strings), at a room (`roomId`) and at category items
(`categoryItems`) by id.

Quirks handled:

* The file may start with a UTF-8 byte-order mark (Orlando Code Camp 2020 does).
* Times carry no zone name. Sessionize writes what the organizer set: naive local times
  ("2020-03-28T08:00:00") or UTC with a "Z" ("2017-05-27T09:00:00Z"). An offset is trusted;
  naive times are read in `default_timezone` and refused without one. `Programme.timezone` is
  that default when it was needed, else "" (a file in UTC says nothing of the event's zone).
  A naive time the clocks skip (spring forward) is moved forward by the gap, with a warning.
* Service sessions (registration, breaks, lunch, plenary slots) have UUID ids, a null
  description and no speakers. They are kept as sessions, so the grid shows the breaks; their
  kind is "Service" unless a format category gives one.
* Sessions not yet scheduled have a null `startsAt`: kept unscheduled, flagged for review.
* `status`, when present: "Accepted" is the normal case; "Declined", "Cancelled" and
  "Canceled" mark the session cancelled; any other value ("Nominated", "Waitlisted") flags it
  for review.
* Categories are the event's own, with free titles. A category is read by the last word of
  its title, case and accents ignored: format/type -> kind ("Session format"), level/difficulty
  -> level, language(s) -> language, track(s)/category/categories/topic(s)/theme(s) -> track
  (Orlando Code Camp calls its tracks "Category"). When two categories read as the same facet,
  the first by `sort` is used; a session with several items of one category keeps the first.
* Speakers have one free `tagLine`. It is split into position and company only when it
  clearly reads so: "Position at Company" / "Position @ Company" (one " at " or " @ ", no
  "|" or ";", and no ", " or ". " after it), or "Position, Company" (exactly one ", ", no "|",
  ";", "@", " at ", " and " or "&", a job word such as Director or Engineer before the comma
  and none after it, nor "MVP" or "Expert"). A leading "Own Name, " is dropped from the
  position. Any other tag line ("Microsoft MVP, Aurelia Ninja", "Seminole State College") is
  the position, whole: a wrong company is worse than none.

Identity: a session's key is its Sessionize id as a string; a speaker's key is their
Sessionize id. Text: descriptions and bios are plain text in Sessionize (no HTML, no
Markdown rendering), kept as written with CRLF turned into LF and the ends trimmed.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from confsched.core.errors import ParseError
from confsched.core.text import fold, slugify
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker

FORMAT_NAME = "sessionize-json"
DESCRIPTION = "Sessionize API export, view/All (JSON with sessions, speakers, categories, rooms)"

SERVICE_KIND = "Service"

_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_TIME_EXAMPLE = "expected ISO 8601 such as 2020-03-28T08:00:00 or 2017-05-27T09:00:00Z"

# Last word of a category's title (slugified) -> the Session field it fills.
_FACET_WORDS = {
    "format": "kind",
    "type": "kind",
    "level": "level",
    "difficulty": "level",
    "language": "language",
    "languages": "language",
    "track": "track",
    "tracks": "track",
    "category": "track",
    "categories": "track",
    "topic": "track",
    "topics": "track",
    "theme": "track",
    "themes": "track",
}
_FACET_ORDER = ("kind", "track", "level", "language")

_CANCELLED_STATUSES = {"declined", "cancelled", "canceled"}

# Words that make the text before a comma a job title ("Founder, Germinal").
_JOB_WORDS = {
    "founder", "cofounder", "co-founder", "owner", "partner", "president", "ceo", "cto", "cio",
    "coo", "cfo", "vp", "director", "head", "manager", "lead", "leader", "chief", "officer",
    "engineer", "developer", "programmer", "architect", "designer", "consultant", "advocate",
    "evangelist", "scientist", "analyst", "researcher", "professor", "lecturer", "teacher",
    "instructor", "trainer", "coach", "student", "specialist", "administrator", "maintainer",
    "host", "editor", "writer", "author", "principal", "intern", "fellow",
}  # fmt: skip
# After the comma, these say the tag line lists titles or awards, not a company.
_NOT_COMPANY_WORDS = _JOB_WORDS | {"mvp", "expert", "ninja", "speaker"}
_WORD = re.compile(r"[\w-]+")
_AT = re.compile(r"\s(?:at|@)\s", re.IGNORECASE)


def looks_like(head: str) -> bool:
    """True for the start of a Sessionize view/All export, and for nothing else."""
    text = head.lstrip()
    if not text.startswith("{") or not re.search(r'"sessions"\s*:\s*\[', text):
        return False
    return any(
        key in text for key in ('"isServiceSession"', '"isPlenumSession"', '"categoryItems"')
    )


def parse(data: bytes, *, source: str, default_timezone: str = "") -> Programme:
    """Read a Sessionize view/All export into a Programme; refuse it whole if it is broken."""
    root = _load(data, source)
    rooms = _rooms(root, source)
    speakers = _speakers(root, source)
    facets, category_notes = _categories(root, source)
    raw_sessions = root["sessions"]
    zone = _zone_for_naive_times(raw_sessions, default_timezone, source)

    programme = Programme(timezone=default_timezone if zone is not None else "")
    programme.notes.extend(category_notes)
    if zone is not None:
        programme.notes.append(
            f"{source}: times have no UTC offset; read as local times in {default_timezone}"
        )
    sessions: list[Session] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(raw_sessions):
        path = f"sessions[{index}]"
        session = _session(
            item,
            path=path,
            source=source,
            zone=zone,
            rooms=rooms,
            speakers=speakers,
            facets=facets,
            warnings=programme.warnings,
        )
        if session.key in seen:
            raise ParseError(
                f"{path}.id {session.key!r} is also the id of sessions[{seen[session.key]}]; "
                "session ids must be unique",
                source=source,
            )
        seen[session.key] = index
        sessions.append(session)
    programme.sessions = sessions
    programme.speakers = list(speakers.values())
    programme.rooms = list(dict.fromkeys(name for name in rooms.values() if name))
    local_days = sorted(session.starts_at.date() for session in sessions if session.starts_at)
    if local_days:
        programme.start_date, programme.end_date = local_days[0], local_days[-1]
    return programme


# --- the file ------------------------------------------------------------------------------


def _load(data: bytes, source: str) -> dict[str, Any]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"not UTF-8 text (byte {exc.start} cannot be decoded); a Sessionize export is UTF-8",
            source=source,
            line=data[: exc.start].count(b"\n") + 1,
        ) from exc
    try:
        root = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"not valid JSON: {exc.msg} at column {exc.colno}", source=source, line=exc.lineno
        ) from exc
    expected = (
        "expected a Sessionize view/All export: an object with 'sessions', 'speakers', "
        "'categories' and 'rooms'"
    )
    if isinstance(root, list):
        if root and isinstance(root[0], dict) and "groupName" in root[0]:
            raise ParseError(
                "this is Sessionize's view/Sessions export (a list of session groups), which "
                "has no rooms or speaker details; export view/All instead",
                source=source,
            )
        raise ParseError(
            f"not a Sessionize export: the top level is a list; {expected}", source=source
        )
    if not isinstance(root, dict):
        raise ParseError(
            f"not a Sessionize export: the top level is {_kind_of(root)}; {expected}",
            source=source,
        )
    missing = [key for key in ("sessions", "speakers", "rooms") if key not in root]
    if missing:
        keys = ", ".join(repr(key) for key in list(root)[:8]) or "nothing"
        raise ParseError(
            f"not a Sessionize export: the top-level object holds {keys} but no "
            f"{' or '.join(repr(key) for key in missing)}; {expected}",
            source=source,
        )
    for key in ("sessions", "speakers", "rooms", "categories"):
        if key in root and not isinstance(root[key], list):
            raise ParseError(f"'{key}' is {_kind_of(root[key])}; expected a list", source=source)
    return root


def _kind_of(value: object) -> str:
    """How a JSON value reads in a message: 'a string', 'null', 'an object'."""
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string"}
    names |= {list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def _object(value: object, path: str, source: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ParseError(f"{path} is {_kind_of(value)}; expected an object", source=source)
    return value


def _text(value: object, path: str, source: str) -> str:
    """A string field, null as ""; CRLF as LF, ends trimmed."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ParseError(f"{path} is {_kind_of(value)}; expected a string", source=source)
    return value.replace("\r\n", "\n").replace("\r", "\n").strip()


def _id(value: object, path: str, source: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        raise ParseError(
            f"{path} is {_kind_of(value)}; expected an id (a string or a number)", source=source
        )
    return str(value)


def _sort_key(item: dict[str, Any], index: int) -> tuple[int, int]:
    """Sessionize's `sort`, then the file's order (a missing or odd sort goes last)."""
    sort = item.get("sort")
    return (sort if isinstance(sort, int) and not isinstance(sort, bool) else 1 << 30, index)


def _rooms(root: dict[str, Any], source: str) -> dict[str, str]:
    """Room id -> name, in Sessionize's display order."""
    entries = []
    for index, item in enumerate(root["rooms"]):
        path = f"rooms[{index}]"
        room = _object(item, path, source)
        entries.append(
            (
                _sort_key(room, index),
                _id(room.get("id"), f"{path}.id", source),
                _text(room.get("name"), f"{path}.name", source),
            )
        )
    return {room_id: name for _, room_id, name in sorted(entries)}


def _categories(
    root: dict[str, Any], source: str
) -> tuple[dict[str, tuple[str, str, int]], list[str]]:
    """Category item id -> (facet, or "" if not read; item name; order), and notes."""
    categories = []
    for index, item in enumerate(root.get("categories") or []):
        path = f"categories[{index}]"
        category = _object(item, path, source)
        categories.append((_sort_key(category, index), path, category))
    items: dict[str, tuple[str, str, int]] = {}
    used: dict[str, str] = {}
    notes = []
    for _, path, category in sorted(categories, key=lambda entry: entry[0]):
        title = _text(category.get("title"), f"{path}.title", source)
        facet = _FACET_WORDS.get(slugify(title).rsplit("-", 1)[-1], "")
        if not facet:
            notes.append(
                f"{source}: category {title!r} is not read: it names no track, format, "
                "level or language"
            )
        elif facet in used:
            notes.append(
                f"{source}: category {title!r} is not read: {used[facet]!r} gives the {facet}"
            )
            facet = ""
        else:
            used[facet] = title
        entries = category.get("items") or []
        if not isinstance(entries, list):
            raise ParseError(f"{path}.items is {_kind_of(entries)}; expected a list", source=source)
        ordered = sorted(
            (_sort_key(_object(entry, f"{path}.items[{n}]", source), n), n, entry)
            for n, entry in enumerate(entries)
        )
        for order, (_, n, entry) in enumerate(ordered):
            item_id = _id(entry.get("id"), f"{path}.items[{n}].id", source)
            items[item_id] = (
                facet,
                _text(entry.get("name"), f"{path}.items[{n}].name", source),
                order,
            )
    return items, notes


# --- speakers ------------------------------------------------------------------------------


def _speakers(root: dict[str, Any], source: str) -> dict[str, Speaker]:
    """Speaker id -> Speaker, in the file's order."""
    speakers: dict[str, Speaker] = {}
    for index, item in enumerate(root["speakers"]):
        path = f"speakers[{index}]"
        raw = _object(item, path, source)
        key = _id(raw.get("id"), f"{path}.id", source)
        if key in speakers:
            raise ParseError(
                f"{path}.id {key!r} is defined twice; speaker ids must be unique", source=source
            )
        name = _text(raw.get("fullName"), f"{path}.fullName", source) or " ".join(
            part
            for part in (
                _text(raw.get("firstName"), f"{path}.firstName", source),
                _text(raw.get("lastName"), f"{path}.lastName", source),
            )
            if part
        )
        position, company = split_tag_line(
            _text(raw.get("tagLine"), f"{path}.tagLine", source), name
        )
        speakers[key] = Speaker(
            key=key,
            name=name,
            position=position,
            company=company,
            bio=_text(raw.get("bio"), f"{path}.bio", source),
            avatar_url=_text(raw.get("profilePicture"), f"{path}.profilePicture", source),
        )
    return speakers


def split_tag_line(tag_line: str, name: str = "") -> tuple[str, str]:
    """Position and company of a Sessionize tag line, by the rule in the module docstring."""
    tag_line = " ".join(tag_line.split())
    if not tag_line or "|" in tag_line or ";" in tag_line:
        return tag_line, ""
    position, company = tag_line, ""
    markers = list(_AT.finditer(tag_line))
    if len(markers) == 1:
        after = tag_line[markers[0].end() :].strip()
        if after and ", " not in after and ". " not in after:
            position, company = tag_line[: markers[0].start()].strip(), after
    elif not markers and tag_line.count(", ") == 1 and "@" not in tag_line:
        before, after = (part.strip() for part in tag_line.split(", "))
        words_before = {fold(word) for word in _WORD.findall(before)}
        words_after = {fold(word) for word in _WORD.findall(after)}
        if (
            " and " not in fold(tag_line)
            and "&" not in tag_line
            and words_before & _JOB_WORDS
            and not words_after & _NOT_COMPANY_WORDS
        ):
            position, company = before, after
    if company and name and fold(position).startswith(fold(name) + ", "):
        position = position[len(name) + 2 :].strip()
    return position, company


# --- sessions ------------------------------------------------------------------------------


def _parse_time(value: object, path: str, source: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _DATE_TIME.match(value.strip()):
        raise ParseError(f"{path} {value!r} is not a date-time ({_TIME_EXAMPLE})", source=source)
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise ParseError(
            f"{path} {value!r} is not a date-time ({_TIME_EXAMPLE})", source=source
        ) from exc


def _zone_for_naive_times(sessions: list[Any], default_timezone: str, source: str) -> tzinfo | None:
    """The zone naive times are read in: None when every time has an offset."""
    for index, item in enumerate(sessions):
        session = _object(item, f"sessions[{index}]", source)
        for field in ("startsAt", "endsAt"):
            path = f"sessions[{index}].{field}"
            parsed = _parse_time(session.get(field), path, source)
            if parsed is None or parsed.utcoffset() is not None:
                continue
            if not default_timezone:
                raise ParseError(
                    f"the times have no UTC offset ({path} is {session[field]!r}) and a "
                    "Sessionize export names no time zone; give the event's time zone with "
                    "--timezone, e.g. --timezone America/New_York",
                    source=source,
                )
            try:
                return ZoneInfo(default_timezone)
            except (ZoneInfoNotFoundError, ValueError) as exc:
                raise ParseError(
                    f"the times have no UTC offset and the time zone given, {default_timezone!r}, "
                    "is not an IANA time zone (e.g. America/New_York, Europe/Paris)",
                    source=source,
                ) from exc
    return None


def _localise(
    value: datetime | None, zone: tzinfo, path: str, source: str, warnings: list[str]
) -> datetime | None:
    """A naive time as local time in `zone`; one the clocks skip moves forward by the gap."""
    if value is None or value.tzinfo is not None:
        return value
    moved = value.replace(tzinfo=zone).astimezone(UTC).astimezone(zone)
    if moved.replace(tzinfo=None) != value:
        warnings.append(
            f"{source}: {path} {value.isoformat()!r} does not exist in {zone} (the clocks skip "
            f"it); read as {moved:%H:%M}"
        )
        return moved
    return value.replace(tzinfo=zone)


def _session(
    item: object,
    *,
    path: str,
    source: str,
    zone: tzinfo | None,
    rooms: dict[str, str],
    speakers: dict[str, Speaker],
    facets: dict[str, tuple[str, str, int]],
    warnings: list[str],
) -> Session:
    raw = _object(item, path, source)
    key = _id(raw.get("id"), f"{path}.id", source)
    if not isinstance(raw.get("title"), str):
        raise ParseError(
            f"{path}.title is {_kind_of(raw.get('title'))}; expected the session's title",
            source=source,
        )
    title = _text(raw["title"], f"{path}.title", source)
    starts_at = _parse_time(raw.get("startsAt"), f"{path}.startsAt", source)
    ends_at = _parse_time(raw.get("endsAt"), f"{path}.endsAt", source)
    if zone is not None:
        starts_at = _localise(starts_at, zone, f"{path}.startsAt", source, warnings)
        ends_at = _localise(ends_at, zone, f"{path}.endsAt", source, warnings)
    if starts_at is None:
        ends_at = None  # an end without a start places nothing on the grid
    elif ends_at is not None and ends_at < starts_at:
        raise ParseError(
            f"{path}.endsAt {raw['endsAt']!r} is before {path}.startsAt {raw['startsAt']!r}",
            source=source,
        )

    room = ""
    if raw.get("roomId") is not None:
        room_id = _id(raw["roomId"], f"{path}.roomId", source)
        if room_id not in rooms:
            raise ParseError(
                f"{path}.roomId {raw['roomId']!r} is not one of the rooms the file defines",
                source=source,
            )
        room = rooms[room_id]

    links: list[SessionSpeaker] = []
    raw_speakers = raw.get("speakers") or []
    if not isinstance(raw_speakers, list):
        raise ParseError(
            f"{path}.speakers is {_kind_of(raw_speakers)}; expected a list of speaker ids",
            source=source,
        )
    for number, entry in enumerate(raw_speakers):
        # view/All lists ids; view/Sessions objects with an id: accept both.
        speaker_id = entry.get("id") if isinstance(entry, dict) else entry
        speaker_key = _id(speaker_id, f"{path}.speakers[{number}]", source)
        if speaker_key not in speakers:
            raise ParseError(
                f"{path}.speakers[{number}] {speaker_id!r} is not one of the speakers the file "
                "defines",
                source=source,
            )
        if all(link.speaker_key != speaker_key for link in links):
            links.append(SessionSpeaker(speaker_key=speaker_key))

    values = _facet_values(
        raw, path=path, source=source, title=title, facets=facets, warnings=warnings
    )
    kind = values.get("kind", "")
    if not kind and raw.get("isServiceSession") is True:
        kind = SERVICE_KIND

    is_cancelled, needs_review, notes = False, False, []
    if starts_at is None:
        needs_review = True
        notes.append("Sessionize gives it no start time (startsAt is null): schedule it.")
    status = raw.get("status")
    if isinstance(status, str) and status.strip() and fold(status.strip()) != "accepted":
        if fold(status.strip()) in _CANCELLED_STATUSES:
            is_cancelled = True
        else:
            needs_review = True
            notes.append(f"Its Sessionize status is {status.strip()!r}, not Accepted.")
    return Session(
        key=key,
        title=title,
        kind=kind,
        abstract=_text(raw.get("description"), f"{path}.description", source),
        starts_at=starts_at,
        ends_at=ends_at,
        room=room,
        track=values.get("track", ""),
        level=values.get("level", ""),
        language=values.get("language", ""),
        speakers=tuple(links),
        is_cancelled=is_cancelled,
        needs_review=needs_review,
        review_note=" ".join(notes),
    )


def _facet_values(
    raw: dict[str, Any],
    *,
    path: str,
    source: str,
    title: str,
    facets: dict[str, tuple[str, str, int]],
    warnings: list[str],
) -> dict[str, str]:
    """kind/track/level/language from the session's category items."""
    raw_items = raw.get("categoryItems") or []
    if not isinstance(raw_items, list):
        raise ParseError(
            f"{path}.categoryItems is {_kind_of(raw_items)}; expected a list of ids", source=source
        )
    chosen: dict[str, list[tuple[int, str]]] = {}
    for number, entry in enumerate(raw_items):
        item_id = _id(entry, f"{path}.categoryItems[{number}]", source)
        if item_id not in facets:
            # Harmless to the programme, unlike a missing room or speaker: noted, not refused.
            warnings.append(
                f"{source}: {path}.categoryItems[{number}] {entry!r} is not an item of any "
                "category the file defines; ignored"
            )
            continue
        facet, name, order = facets[item_id]
        if facet:
            chosen.setdefault(facet, []).append((order, name))
    values = {}
    for facet in _FACET_ORDER:
        names = [name for _, name in sorted(chosen.get(facet, []))]
        if not names:
            continue
        values[facet] = names[0]
        if len(names) > 1:
            warnings.append(
                f"{source}: {path} {title!r} has several {facet} values "
                f"({', '.join(repr(name) for name in names)}); kept {names[0]!r}"
            )
    return values
