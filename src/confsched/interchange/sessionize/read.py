"""Sessionize's API exports, read: view/All, view/Sessions and view/GridSmart.

Sessionize publishes no schema; this reader follows its API documentation and real exports
(`https://sessionize.com/api/v2/<id>/view/<name>`). Three shapes are read:

* view/All: one JSON object with `sessions`, `speakers`, `questions`, `categories` and
  `rooms`. Sessions point at speakers (UUID strings), at a room (`roomId`) and at category
  items (`categoryItems`) by id.
* view/Sessions: a list of session groups (`groupId`, `groupName`, `sessions`). Each session
  carries its speakers as `{"id", "name"}`, its room as `roomId` and `room`, and its category
  items inside `categories` (`[{"id", "name", "sort", "categoryItems": [{"id", "name"}]}]`).
* view/GridSmart: a list of days (`date`, `rooms`, `timeSlots`); `rooms[].sessions` and
  `timeSlots[].rooms[].session` hold sessions shaped as in view/Sessions.

In the two list shapes one session may appear several times (in two groups, in its room and in
its time slot): every copy is read, and copies of one id must agree. These shapes carry less
than view/All: a speaker is a name only (no tag line, bio or photo) and rooms come in the
file's order (no `sort`).

Quirks handled:

* The file may start with a UTF-8 byte-order mark (Orlando Code Camp 2020 does).
* Times carry no zone name. Sessionize writes what the organizer set: naive local times
  ("2020-03-28T08:00:00") or UTC with a "Z" ("2017-05-27T09:00:00Z"). An offset is trusted;
  naive times are read in `default_timezone` and refused without one. `Programme.timezone` is
  that default when it was needed, else "" (a file in UTC says nothing of the event's zone).
  A naive time the clocks skip (spring forward) is moved forward by the gap, with a warning.
  A time within a day of the ends of the calendar (years 1 and 9999) is refused: it could not
  be turned into UTC or a local time.
* Service sessions (registration, breaks, lunch, plenary slots) have UUID ids, a null
  description and no speakers. They are kept as sessions, so the grid shows the breaks; their
  kind is "Service" unless a format category gives one.
* Sessions not yet scheduled have a null `startsAt`: kept unscheduled, flagged for review.
* `status`, when present: "Accepted" is the normal case; "Declined", "Cancelled" and
  "Canceled" mark the session cancelled; any other value ("Nominated", "Waitlisted") flags it
  for review.
* Categories are the event's own, with free titles: the question put to speakers ("Track",
  "Which track?", "Thema/Track", "Session format"). A title is read by its words, case and
  accents ignored, against the vocabulary in `_FACET_WORDS`: track(s); stream(s), parcours,
  trilha(s); topic(s), theme(s), thema, themen, thématique(s), tema(s); category, categories,
  catégorie(s), kategorie(n), categoría(s) -> track (Orlando Code Camp calls its tracks
  "Category"); format(s), type(s), kind, typ, formato(s) -> kind; level(s), difficulty,
  niveau(x), nivel(es) -> level; language(s), langue(s), sprache(n), idioma(s), lingua ->
  language. A title whose words name several facets takes the facet of its surest word (for
  the track, the groups above in that order; every other word is sure) and, among equally
  sure words, the last ("Track level" is a level: English puts the head noun last). When
  several categories give one facet, the surest title wins ("Track" over "Stream" over
  "Topic" over "Category"), then the first by Sessionize's `sort`, then the first in the file;
  the others are noted and not read. A session with several items of one category keeps the
  first by the items' `sort` (view/All) or by their order in the file (list shapes).
* Speakers have one free `tagLine`. It is split into position and company only when it
  clearly reads so: "Position at Company" / "Position @ Company" (one " at " or " @ ", no
  "|" or ";", and no ", " or ". " after it), or "Position, Company" (exactly one ", ", no "|",
  ";", "@", " at ", " and " or "&", a job word such as Director or Engineer before the comma
  and none after it, nor "MVP" or "Expert"). A leading "Own Name, " is dropped from the
  position. Any other tag line ("Microsoft MVP, Aurelia Ninja", "Seminole State College") is
  the position, whole: a wrong company is worse than none.

Links: the exports carry none for a session (the samples' sessions have no link, file or
recording field); a speaker's `links` are their profiles (Twitter, LinkedIn, blog), which a
Programme does not hold. The format's `carries` leaves out "links", so a re-import keeps the
links another source or an organizer gave.

Errors name the JSON path of the value at fault ("sessions[12].startsAt",
"[0].rooms[1].sessions[3].speakers[0]").

Identity: a session's key is its Sessionize id as a string; a speaker's key is their
Sessionize id (invisible characters, such as a zero-width space, dropped from both).
A session with no item of a category that gives a facet (track, format, level, language), or
without a `description`, `speakers` or `roomId` key, says nothing about that field: it is
unknown for the session (`Session.unknown`), not empty; a null says "none".

Text: descriptions and bios are plain text in Sessionize (no HTML, no
Markdown rendering), kept as written with CRLF turned into LF and the ends trimmed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, tzinfo
from typing import Any

from confsched.core.errors import ParseError
from confsched.core.text import fold
from confsched.core.timezones import get_zone, is_zone_name, zone_problem
from confsched.interchange.documents import read_json
from confsched.interchange.identity import visible
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.zones import skipped_time, wall_time

FORMAT_NAME = "sessionize-json"
DESCRIPTION = (
    "Sessionize API export: view/All, view/Sessions or view/GridSmart (JSON with sessions, "
    "speakers, categories, rooms)"
)

SERVICE_KIND = "Service"
# What view/Sessions and view/GridSmart can say (Programme.carries): of a speaker only the
# name, so importing them leaves the company, position, bio and photo view/All gave.
LIST_SHAPE_CARRIES = frozenset(
    {"title", "kind", "abstract", "starts_at", "ends_at", "room", "track", "speakers"}
    | {"speaker.name", "level", "language", "is_cancelled", "needs_review", "review_note"}
)

_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_TIME_EXAMPLE = "expected ISO 8601 such as 2020-03-28T08:00:00 or 2017-05-27T09:00:00Z"
# A day inside what datetime holds: no UTC offset (always under a day) can push a time in
# this range out of it, so converting to UTC or to any zone cannot overflow.
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
_LATEST = datetime(9999, 12, 30, tzinfo=UTC)


def _vocabulary(*groups: tuple[str, int, str]) -> dict[str, tuple[str, int]]:
    return {word: (facet, rank) for facet, rank, words in groups for word in words.split()}


# A word of a category's title (folded) -> the Session field it names, and how surely
# (0 is surest). Whole words only: stems would also catch "streaming" or "formation".
_FACET_WORDS = _vocabulary(
    ("track", 0, "track tracks"),
    ("track", 1, "stream streams parcours trilha trilhas"),
    ("track", 2, "topic topics theme themes thema themen thematique thematiques tema temas"),
    ("track", 3, "category categories categorie kategorie kategorien categoria categorias"),
    ("kind", 0, "format formats type types kind typ formato formatos"),
    ("level", 0, "level levels difficulty niveau niveaux nivel niveles"),
    ("language", 0, "language languages langue langues sprache sprachen idioma idiomas lingua"),
)
_TITLE_WORD = re.compile(r"[^\W_]+")
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

_SESSIONIZE_KEYS = ('"isServiceSession"', '"isPlenumSession"', '"categoryItems"')
_LIST_START = re.compile(r"^\[\s*\{")
_KEY = r'"{}"\s*:'


def looks_like(head: str) -> bool:
    """True for the start of a Sessionize view/All, view/Sessions or view/GridSmart export."""
    text = head.lstrip()
    if text.startswith("{"):
        return re.search(r'"sessions"\s*:\s*\[', text) is not None and any(
            key in text for key in _SESSIONIZE_KEYS
        )
    if not _LIST_START.match(text):
        return False
    # Sessionize writes these keys first in each group or day, so a cut head still has them.
    if all(re.search(_KEY.format(key), text) for key in ("groupId", "groupName", "sessions")):
        return True
    return (
        re.search(_KEY.format("date"), text) is not None
        and re.search(r'"rooms"\s*:\s*\[', text) is not None
        and any(
            key in text
            for key in (*_SESSIONIZE_KEYS, '"isDefault"', '"timeSlots"', '"hasOnlyPlenum')
        )
    )


# --- the file ------------------------------------------------------------------------------


@dataclass
class _Category:
    path: str
    title: str
    order: tuple[int, int]  # Sessionize's sort, then the file's order
    items: dict[str, str] = field(default_factory=dict)  # item id -> name, in display order


@dataclass
class _Entry:
    """One appearance of a session in the file, with the category items it names."""

    path: str
    raw: dict[str, Any]
    items: list[tuple[str, str, object]]  # (path, item id, the value as written)


@dataclass
class _Document:
    """What every shape of export holds, with the JSON paths that messages name."""

    rooms: dict[str, str] = field(default_factory=dict)  # room id -> name, in display order
    speakers: dict[str, Speaker] = field(default_factory=dict)
    categories: dict[str, _Category] = field(default_factory=dict)
    entries: list[_Entry] = field(default_factory=list)
    # view/Sessions and view/GridSmart repeat a session where it belongs to several places.
    repeats_sessions: bool = False


def parse(data: bytes, *, source: str, default_timezone: str = "") -> Programme:
    """Read a Sessionize export into a Programme; refuse it whole if it is broken."""
    document = _document(read_json(data, source=source, what="a Sessionize export"), source)
    facets, category_notes = _facets(document.categories, source)
    zone = _zone_for_naive_times(document.entries, default_timezone, source)

    programme = Programme(timezone=default_timezone if zone is not None else "")
    if document.repeats_sessions:
        programme.carries = LIST_SHAPE_CARRIES
    programme.notes.extend(category_notes)
    if zone is not None:
        programme.notes.append(
            f"{source}: times have no UTC offset; read as local times in {default_timezone}"
        )
    sessions: list[Session] = []
    seen: dict[str, tuple[str, Session]] = {}
    for entry in document.entries:
        warnings: list[str] = []
        session = _session(
            entry,
            source=source,
            zone=zone,
            rooms=document.rooms,
            speakers=document.speakers,
            facets=facets,
            warnings=warnings,
        )
        if session.key in seen:
            first_path, first = seen[session.key]
            if document.repeats_sessions and session == first:
                continue
            raise ParseError(_repeated_id(entry.path, session, first_path, first), source=source)
        seen[session.key] = (entry.path, session)
        sessions.append(session)
        programme.warnings.extend(warnings)
    programme.sessions = sessions
    programme.speakers = list(document.speakers.values())
    programme.rooms = list(dict.fromkeys(name for name in document.rooms.values() if name))
    local_days = sorted(session.starts_at.date() for session in sessions if session.starts_at)
    if local_days:
        programme.start_date, programme.end_date = local_days[0], local_days[-1]
    return programme


def _repeated_id(path: str, session: Session, first_path: str, first: Session) -> str:
    message = f"{path}.id {session.key!r} is also the id of {first_path}"
    differing = [item.name for item in fields(Session) if item.compare]
    differing = [name for name in differing if getattr(session, name) != getattr(first, name)]
    if differing:
        # Only the list shapes get here with copies: say what the copies disagree on.
        return f"{message}, whose {differing[0]} differs; copies of one session must agree"
    return f"{message}; session ids must be unique"


_EXPECTED = (
    "expected view/All (an object with 'sessions', 'speakers', 'categories' and 'rooms'), "
    "view/Sessions (a list of groups with 'groupName' and 'sessions') or view/GridSmart (a "
    "list of days with 'date', 'rooms' and 'timeSlots')"
)


def _document(root: object, source: str) -> _Document:
    """The export's content, whichever of the three shapes it has."""
    if isinstance(root, dict):
        return _all_document(root, source)
    if not isinstance(root, list):
        raise ParseError(
            f"not a Sessionize export: the top level is {_kind_of(root)}; {_EXPECTED}",
            source=source,
        )
    if not root:
        raise ParseError(
            "the export is an empty list: it holds no sessions (Sessionize's view/GridSmart "
            "stays [] until the schedule is published)",
            source=source,
        )
    first = root[0]
    if isinstance(first, dict) and ("timeSlots" in first or "rooms" in first):
        return _grid_document(root, source)
    if isinstance(first, dict) and ("groupName" in first or "sessions" in first):
        return _sessions_document(root, source)
    what = (
        "objects with no 'sessions', 'rooms' or 'timeSlots'"
        if isinstance(first, dict)
        else f"values starting with {_kind_of(first)}"
    )
    raise ParseError(
        f"not a Sessionize export: the top level is a list of {what}; {_EXPECTED}",
        source=source,
    )


def _all_document(root: dict[str, Any], source: str) -> _Document:
    missing = [key for key in ("sessions", "speakers", "rooms") if key not in root]
    if missing:
        keys = ", ".join(repr(key) for key in list(root)[:8]) or "nothing"
        raise ParseError(
            f"not a Sessionize export: the top-level object holds {keys} but no "
            f"{' or '.join(repr(key) for key in missing)}; {_EXPECTED}",
            source=source,
        )
    for key in ("sessions", "speakers", "rooms", "categories"):
        if key in root and not isinstance(root[key], list):
            raise ParseError(f"'{key}' is {_kind_of(root[key])}; expected a list", source=source)
    document = _Document(
        rooms=_rooms(root["rooms"], source),
        speakers=_speakers(root["speakers"], source),
        categories=_categories(root.get("categories") or [], source),
    )
    for index, item in enumerate(root["sessions"]):
        path = f"sessions[{index}]"
        raw = _object(item, path, source)
        ids = _list(raw.get("categoryItems"), f"{path}.categoryItems", source, "a list of ids")
        items = [
            (f"{path}.categoryItems[{n}]", _id(value, f"{path}.categoryItems[{n}]", source), value)
            for n, value in enumerate(ids)
        ]
        document.entries.append(_Entry(path=path, raw=raw, items=items))
    return document


def _sessions_document(root: list[Any], source: str) -> _Document:
    document = _Document(repeats_sessions=True)
    for index, item in enumerate(root):
        path = f"[{index}]"
        group = _object(item, path, source)
        if "sessions" not in group:
            raise ParseError(
                f"{path} has no 'sessions'; a view/Sessions export is a list of groups, each "
                "with 'groupName' and 'sessions'",
                source=source,
            )
        sessions = _list(group["sessions"], f"{path}.sessions", source, "a list of sessions")
        for number, session in enumerate(sessions):
            _add_listed_session(document, session, f"{path}.sessions[{number}]", source)
    return document


def _grid_document(root: list[Any], source: str) -> _Document:
    document = _Document(repeats_sessions=True)
    for index, item in enumerate(root):
        path = f"[{index}]"
        day = _object(item, path, source)
        for number, entry in enumerate(_list(day.get("rooms"), f"{path}.rooms", source)):
            room_path = f"{path}.rooms[{number}]"
            room = _object(entry, room_path, source)
            _add_room(document, room, room_path, source)
            sessions = _list(room.get("sessions"), f"{room_path}.sessions", source)
            for position, session in enumerate(sessions):
                _add_listed_session(document, session, f"{room_path}.sessions[{position}]", source)
        slots = _list(day.get("timeSlots"), f"{path}.timeSlots", source)
        for number, entry in enumerate(slots):
            slot_path = f"{path}.timeSlots[{number}]"
            slot = _object(entry, slot_path, source)
            for position, cell in enumerate(_list(slot.get("rooms"), f"{slot_path}.rooms", source)):
                cell_path = f"{slot_path}.rooms[{position}]"
                room = _object(cell, cell_path, source)
                _add_room(document, room, cell_path, source)
                if room.get("session") is not None:
                    _add_listed_session(document, room["session"], f"{cell_path}.session", source)
    return document


def _add_room(document: _Document, room: dict[str, Any], path: str, source: str) -> None:
    room_id = _id(room.get("id"), f"{path}.id", source)
    name = _text(room.get("name"), f"{path}.name", source)
    if not document.rooms.get(room_id):
        document.rooms[room_id] = name


def _add_listed_session(document: _Document, item: object, path: str, source: str) -> None:
    """A view/Sessions or view/GridSmart session: its speakers, room and categories inline."""
    raw = _object(item, path, source)
    if raw.get("roomId") is not None:
        room_id = _id(raw["roomId"], f"{path}.roomId", source)
        name = _text(raw.get("room"), f"{path}.room", source)
        if not document.rooms.get(room_id):
            document.rooms[room_id] = name
    for number, entry in enumerate(_list(raw.get("speakers"), f"{path}.speakers", source)):
        speaker_path = f"{path}.speakers[{number}]"
        speaker = _object(entry, speaker_path, source)
        key = _id(speaker.get("id"), f"{speaker_path}.id", source)
        name = _text(speaker.get("name"), f"{speaker_path}.name", source)
        document.speakers.setdefault(key, Speaker(key=key, name=name))
    items: list[tuple[str, str, object]] = []
    for number, entry in enumerate(_list(raw.get("categories"), f"{path}.categories", source)):
        group_path = f"{path}.categories[{number}]"
        group = _object(entry, group_path, source)
        group_id = _id(group.get("id"), f"{group_path}.id", source)
        title = _text(group.get("name"), f"{group_path}.name", source)
        category = document.categories.setdefault(
            group_id,
            _Category(
                path=group_path, title=title, order=_sort_key(group, len(document.categories))
            ),
        )
        chosen = _list(group.get("categoryItems"), f"{group_path}.categoryItems", source)
        for position, value in enumerate(chosen):
            item_path = f"{group_path}.categoryItems[{position}]"
            choice = _object(value, item_path, source)
            item_id = _id(choice.get("id"), f"{item_path}.id", source)
            category.items.setdefault(
                item_id, _text(choice.get("name"), f"{item_path}.name", source)
            )
            items.append((f"{item_path}.id", item_id, choice.get("id")))
    document.entries.append(_Entry(path=path, raw=raw, items=items))


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


def _sort_key(item: dict[str, Any], index: int) -> tuple[int, int]:
    """Sessionize's `sort`, then the file's order (a missing or odd sort goes last)."""
    sort = item.get("sort")
    return (sort if isinstance(sort, int) and not isinstance(sort, bool) else 1 << 30, index)


def _rooms(entries: list[Any], source: str) -> dict[str, str]:
    """Room id -> name, in Sessionize's display order."""
    rooms = []
    for index, item in enumerate(entries):
        path = f"rooms[{index}]"
        room = _object(item, path, source)
        rooms.append(
            (
                _sort_key(room, index),
                _id(room.get("id"), f"{path}.id", source),
                _text(room.get("name"), f"{path}.name", source),
            )
        )
    return {room_id: name for _, room_id, name in sorted(rooms)}


def _categories(entries: list[Any], source: str) -> dict[str, _Category]:
    """view/All's categories with their items in Sessionize's order, by the file's order."""
    categories: dict[str, _Category] = {}
    for index, entry in enumerate(entries):
        path = f"categories[{index}]"
        raw = _object(entry, path, source)
        category = _Category(
            path=path,
            title=_text(raw.get("title"), f"{path}.title", source),
            order=_sort_key(raw, index),
        )
        items = _list(raw.get("items"), f"{path}.items", source)
        ordered = sorted(
            (_sort_key(_object(item, f"{path}.items[{n}]", source), n), n, item)
            for n, item in enumerate(items)
        )
        for _, n, item in ordered:
            item_id = _id(item.get("id"), f"{path}.items[{n}].id", source)
            category.items[item_id] = _text(item.get("name"), f"{path}.items[{n}].name", source)
        categories[str(index)] = category
    return categories


def _facet_of(title: str) -> tuple[str, int]:
    """The Session field a category title names and how surely (lower is surer); ("", 0)."""
    best: tuple[int, int, str] | None = None
    for position, word in enumerate(_TITLE_WORD.findall(fold(title))):
        if word in _FACET_WORDS:
            facet, rank = _FACET_WORDS[word]
            candidate = (rank, -position, facet)
            best = candidate if best is None else min(best, candidate)
    return (best[2], best[0]) if best else ("", 0)


def _facets(
    categories: dict[str, _Category], source: str
) -> tuple[dict[str, tuple[str, str, int]], list[str]]:
    """Category item id -> (facet, or "" if not read; item name; order), and notes."""
    ranked = sorted(
        ((*_facet_of(category.title), category) for category in categories.values()),
        key=lambda entry: (entry[1], entry[2].order),
    )
    chosen: dict[str, str] = {}  # facet -> the title of the category that gives it
    reads: dict[str, str] = {}  # category path -> its facet
    for facet, _, category in ranked:
        if facet and facet not in chosen:
            chosen[facet] = category.title
            reads[category.path] = facet
    notes = []
    items: dict[str, tuple[str, str, int]] = {}
    for category in sorted(categories.values(), key=lambda category: category.order):
        facet = reads.get(category.path, "")
        named = _facet_of(category.title)[0]
        if not named:
            notes.append(
                f"{source}: category {category.title!r} is not read: it names no track, "
                "format, level or language"
            )
        elif not facet:
            notes.append(
                f"{source}: category {category.title!r} is not read: {chosen[named]!r} gives "
                f"the {named}"
            )
        for order, (item_id, name) in enumerate(category.items.items()):
            items[item_id] = (facet, name, order)
    return items, notes


# --- speakers ------------------------------------------------------------------------------


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


# --- sessions ------------------------------------------------------------------------------


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
