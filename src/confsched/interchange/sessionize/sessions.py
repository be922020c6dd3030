"""The Sessionize reader's speakers and sessions: a speaker's tag line split into position and
company, a session's times in its zone, its facets from its categories, and its fields."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from confsched.core.errors import ParseError
from confsched.core.text import fold
from confsched.core.timezones import get_zone, is_zone_name, zone_problem
from confsched.interchange.identity import visible
from confsched.interchange.programme import Session, SessionSpeaker, Speaker
from confsched.interchange.zones import skipped_time, wall_time

SERVICE_KIND = "Service"


_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


_TIME_EXAMPLE = "expected ISO 8601 such as 2020-03-28T08:00:00 or 2017-05-27T09:00:00Z"


# A day inside what datetime holds: no UTC offset (always under a day) can push a time in
# this range out of it, so converting to UTC or to any zone cannot overflow.
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)


_LATEST = datetime(9999, 12, 30, tzinfo=UTC)


_FACET_ORDER = ("kind", "track", "level", "language")


# Session fields and the key of a session that carries each (null says "none"; absent, nothing).
_SESSION_KEYS = {"abstract": "description", "speakers": "speakers", "room": "roomId"}


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


@dataclass
class _Entry:
    """One appearance of a session in the file, with the category items it names."""

    path: str
    raw: dict[str, Any]
    items: list[tuple[str, str, object]]  # (path, item id, the value as written)


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


def _list(value: object, path: str, source: str, expected: str = "a list") -> list[Any]:
    """A list field, null or missing as []."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ParseError(f"{path} is {_kind_of(value)}; expected {expected}", source=source)
    return value


def _text(value: object, path: str, source: str) -> str:
    """A string field, null as ""; CRLF as LF, ends trimmed."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ParseError(f"{path} is {_kind_of(value)}; expected a string", source=source)
    return value.replace("\r\n", "\n").replace("\r", "\n").strip()


def _id(value: object, path: str, source: str) -> str:
    """An id as a key, invisible characters (a zero-width space pasted with it) dropped."""
    key = visible(str(value)) if isinstance(value, str | int) else ""
    if isinstance(value, bool) or not key:
        raise ParseError(
            f"{path} is {_kind_of(value)}; expected an id (a string or a number)", source=source
        )
    return key


def _speakers(entries: list[Any], source: str) -> dict[str, Speaker]:
    """view/All's speakers: id -> Speaker, in the file's order."""
    speakers: dict[str, Speaker] = {}
    for index, item in enumerate(entries):
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


def _parse_time(value: object, path: str, source: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str) or not _DATE_TIME.match(value.strip()):
        raise ParseError(f"{path} {value!r} is not a date-time ({_TIME_EXAMPLE})", source=source)
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise ParseError(
            f"{path} {value!r} is not a date-time ({_TIME_EXAMPLE})", source=source
        ) from exc
    if parsed.tzinfo is not None:
        _check_range(parsed, path, value, source)
    return parsed


def _check_range(value: datetime, path: str, written: object, source: str) -> None:
    """Refuse an aware time too near the ends of the calendar to be converted between zones."""
    # Comparing aware datetimes never overflows, unlike astimezone().
    if not _EARLIEST <= value <= _LATEST:
        raise ParseError(
            f"{path} {written!r} is out of range: a time must fall between "
            f"{_EARLIEST.date().isoformat()} and {_LATEST.date().isoformat()} (UTC)",
            source=source,
        )


def _zone_for_naive_times(
    entries: list[_Entry], default_timezone: str, source: str
) -> tzinfo | None:
    """The zone naive times are read in: None when every time has an offset."""
    for entry in entries:
        for field_name in ("startsAt", "endsAt"):
            path = f"{entry.path}.{field_name}"
            parsed = _parse_time(entry.raw.get(field_name), path, source)
            if parsed is None or parsed.utcoffset() is not None:
                continue
            if not default_timezone:
                raise ParseError(
                    f"the times have no UTC offset ({path} is {entry.raw[field_name]!r}) and a "
                    "Sessionize export names no time zone; give the event's time zone with "
                    "--timezone, e.g. --timezone America/New_York",
                    source=source,
                )
            if not is_zone_name(default_timezone):
                raise ParseError(
                    "the times have no UTC offset and the time zone given cannot read them: "
                    f"{zone_problem(default_timezone)}",
                    source=source,
                )
            return get_zone(default_timezone)
    return None


def _localise(
    value: datetime | None, zone: tzinfo, path: str, written: object, source: str,
    warnings: list[str],
) -> datetime | None:  # fmt: skip
    """A naive time as local time in `zone`; one the clocks skip moves forward by the gap."""
    if value is None or value.tzinfo is not None:
        return value
    _check_range(value.replace(tzinfo=zone), path, written, source)
    moved, skipped = wall_time(value, zone)
    if skipped:
        warnings.append(skipped_time(f"{source}: {path}", value.isoformat(), zone, moved))
    return moved


def _session(
    entry: _Entry,
    *,
    source: str,
    zone: tzinfo | None,
    rooms: dict[str, str],
    speakers: dict[str, Speaker],
    facets: dict[str, tuple[str, str, int]],
    warnings: list[str],
) -> Session:
    path, raw = entry.path, entry.raw
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
        starts_at = _localise(
            starts_at, zone, f"{path}.startsAt", raw.get("startsAt"), source, warnings
        )
        ends_at = _localise(ends_at, zone, f"{path}.endsAt", raw.get("endsAt"), source, warnings)
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

    links: dict[str, SessionSpeaker] = {}  # by key: one look-up per speaker, not one per pair
    raw_speakers = _list(raw.get("speakers"), f"{path}.speakers", source, "a list of speaker ids")
    for number, item in enumerate(raw_speakers):
        # view/All lists ids; view/Sessions objects with an id: accept both.
        speaker_id = item.get("id") if isinstance(item, dict) else item
        speaker_key = _id(speaker_id, f"{path}.speakers[{number}]", source)
        if speaker_key not in speakers:
            raise ParseError(
                f"{path}.speakers[{number}] {speaker_id!r} is not one of the speakers the file "
                "defines",
                source=source,
            )
        links.setdefault(speaker_key, SessionSpeaker(speaker_key=speaker_key))

    values = _facet_values(entry, source=source, title=title, facets=facets, warnings=warnings)
    kind = values.get("kind", "")
    if not kind and raw.get("isServiceSession") is True:
        kind = SERVICE_KIND
        values["kind"] = kind
    # A session with no item of a category says nothing of that facet; a missing key nothing
    # of its field: unknown, not empty (Session.unknown).
    unknown = {facet for facet in _FACET_ORDER if facet not in values}
    unknown |= {name for name, key in _SESSION_KEYS.items() if key not in raw}

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
        speakers=tuple(links.values()),
        is_cancelled=is_cancelled,
        needs_review=needs_review,
        review_note=" ".join(notes),
        unknown=frozenset(unknown),
    )


def _facet_values(
    entry: _Entry,
    *,
    source: str,
    title: str,
    facets: dict[str, tuple[str, str, int]],
    warnings: list[str],
) -> dict[str, str]:
    """kind/track/level/language from the session's category items."""
    chosen: dict[str, list[tuple[int, str]]] = {}
    for path, item_id, written in entry.items:
        if item_id not in facets:
            # Harmless to the programme, unlike a missing room or speaker: noted, not refused.
            warnings.append(
                f"{source}: {path} {written!r} is not an item of any category the file "
                "defines; ignored"
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
                f"{source}: {entry.path} {title!r} has several {facet} values "
                f"({', '.join(repr(name) for name in names)}); kept {names[0]!r}"
            )
    return values
