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
from typing import Any

from confsched.core.errors import ParseError
from confsched.core.text import fold
from confsched.interchange.documents import read_json
from confsched.interchange.programme import Programme, Session, Speaker
from confsched.interchange.sessionize.sessions import (
    _Entry,
    _id,
    _kind_of,
    _list,
    _object,
    _session,
    _speakers,
    _text,
    _zone_for_naive_times,
)

FORMAT_NAME = "sessionize-json"
DESCRIPTION = (
    "Sessionize API export: view/All, view/Sessions or view/GridSmart (JSON with sessions, "
    "speakers, categories, rooms)"
)

# What view/Sessions and view/GridSmart can say (Programme.carries): of a speaker only the
# name, so importing them leaves the company, position, bio and photo view/All gave.
LIST_SHAPE_CARRIES = frozenset(
    {"title", "kind", "abstract", "starts_at", "ends_at", "room", "track", "speakers"}
    | {"speaker.name", "level", "language", "is_cancelled", "needs_review", "review_note"}
)


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


# --- sessions ------------------------------------------------------------------------------
