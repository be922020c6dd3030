"""How readers name sessions: keys made from what a file says, the same way in every reader.

* Invisible characters (byte-order marks, zero-width spaces and joiners, soft hyphens) are
  dropped from ids, keys and header names where a reader reads them: a file re-saved by an
  editor that adds one must keep every identity it had.
* A session without a guid, UID or key is keyed by its title and its start as a local time in
  the event's zone (`derived_key`): the zone the caller names (`default_timezone`, which
  `confsched import` sets to the event's own zone on every re-import), else the zone the file
  declares, else UTC. Never the offset the time happens to be written at: the same instant
  written in UTC, at an offset or as a naive local time after a re-export is the same
  session.
* Two events of one file that claim one identity (a UID repeated by RECURRENCE-ID overrides,
  a careless exporter) are told apart by their content, not by their position
  (`unique_keys`): the first in order of start, room and title keeps the key, the others get
  "-2", "-3" … in that order, so reordering the file moves no star to another talk.

How writers name sessions: one id, one guid and one slug per session, the same in every export
(frab schedule.xml, c3voc schedule.json and schedule2), because phone apps key on them:
EventFahrplan stores favourites and alarms under the event's integer `id`, c3voc's recording
tools name files after its `slug`, and schedule2 has only the guid and the slug.

* `export_ids`: the key itself when it is a positive integer below 2**31 (the number the
  source gave, which apps that read the source before already hold), else the first 31 bits of
  the key's SHA-256; numbered keys claim their own numbers first, then the others in key order
  take theirs, rehashing ("<key>#1", …) one already taken. Allocated over every session of the
  programme, written or not, so a session's id does not move when another is cancelled.
* `export_guid`: the key when it is a UUID, else uuid5(NAMESPACE_URL, "confsched:<slug>:<key>").
* `export_slug`: frab's "<event>-<id>-<title>", at most 100 characters, made to match both the
  XSD's `voc-slug-new` and schema.json's slug pattern.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, tzinfo

from confsched.core.text import slugify
from confsched.interchange.programme import Session

# BOM / zero-width no-break space, zero-width space, non-joiner, joiner, word joiner, soft
# hyphen, left-to-right and right-to-left marks, and the invisible operators U+2061–U+2064.
_INVISIBLE = re.compile("[\ufeff\u200b\u200c\u200d\u2060\u00ad\u200e\u200f\u2061-\u2064]")


def visible(text: str) -> str:
    """`text` without invisible characters, stripped of surrounding blanks."""
    return _INVISIBLE.sub("", text).strip()


def derived_key(title: str, starts_at: datetime | date | None, *, zone: tzinfo | None) -> str:
    """The key of a session its source gives no identity: the slug of its title and its start
    in `zone` (UTC when None; see the module's docstring), "opening-2026-04-07-0945", or its
    day when it has no time of day; the title alone when it has no start."""
    if isinstance(starts_at, datetime):
        stamp = f" {starts_at.astimezone(zone or UTC):%Y-%m-%d %H%M}"
    else:
        stamp = f" {starts_at.isoformat()}" if starts_at is not None else ""
    return slugify(f"{visible(title)}{stamp}", max_length=120)


def _content(session: Session) -> tuple[object, ...]:
    """What orders events that share a key: when, where and what they are."""
    moment = session.starts_at.astimezone(UTC).isoformat() if session.starts_at else ""
    end = session.ends_at.astimezone(UTC).isoformat() if session.ends_at else ""
    return (
        moment, session.room, session.title, end, session.kind, session.track,
        session.abstract, session.is_cancelled, repr(session.speakers), repr(session.links),
    )  # fmt: skip


def unique_keys(
    sessions: Sequence[Session], *, on_repeat: Callable[[Session, str], None]
) -> list[Session]:
    """`sessions` (in the file's order) with keys unique: see the module's docstring.

    `on_repeat(session, new_key)` is called for each session given another key, in the file's
    order, so that the reader can warn where it was written.
    """
    groups: dict[str, list[int]] = {}
    for index, session in enumerate(sessions):
        groups.setdefault(session.key, []).append(index)
    taken = set(groups)
    renamed: dict[int, str] = {}
    for key, indexes in groups.items():
        if len(indexes) == 1:
            continue
        ordered = sorted(indexes, key=lambda index: (_content(sessions[index]), index))
        number = 2
        for index in ordered[1:]:
            while f"{key}-{number}" in taken:  # a key that is itself "{key}-2"
                number += 1
            renamed[index] = f"{key}-{number}"
            taken.add(renamed[index])
            number += 1
    result = []
    for index, session in enumerate(sessions):
        if index in renamed:
            session = replace(session, key=renamed[index])
            on_repeat(sessions[index], session.key)
        result.append(session)
    return result


class PersonKeys:
    """Speaker keys for people a source names by id, keeping apart people who share an id.

    Schedules merged from several sub-schedules (a congress and its assemblies) reuse person
    ids, so one id can carry two or three names: these are different people. The first name
    seen under an id keeps the id as its key; every other name gets "<id>~<slug of the name>"
    (with "-2", "-3" should two names share a slug), stable across imports of the same file.
    Names are compared with spacing and case ignored, so "Ada  lovelace" is still "Ada Lovelace".
    Shared by the frab-family readers (schedule.xml, schedule.json, schedule2).
    """

    def __init__(self) -> None:
        self._keys: dict[str, dict[str, str]] = {}  # id -> folded name -> key
        self._names: dict[str, list[str]] = {}  # id -> names as first written
        self._labels: dict[str, str] = {}  # id -> the field it came from (guid, id, code)
        self._taken: set[str] = set()

    def key(self, ident: str, name: str, *, label: str = "id") -> str:
        """The key of the person called `name` under the source's `ident` (its `label` field)."""
        ident = visible(ident) or slugify(name)  # an id of zero-width spaces is no id
        folded = " ".join(name.split()).casefold()
        keys = self._keys.setdefault(ident, {})
        if folded in keys:
            return keys[folded]
        if not keys:
            key = ident
            self._labels[ident] = label
        else:
            key = base = f"{ident}~{slugify(name)}"
            number = 2
            while key in self._taken:
                key, number = f"{base}-{number}", number + 1
        keys[folded] = key
        self._names.setdefault(ident, []).append(" ".join(name.split()))
        self._taken.add(key)
        return key

    def warning(self) -> str:
        """For programme.warnings: how many ids name several people, with the first example."""
        shared = [ident for ident, names in self._names.items() if len(names) > 1]
        if not shared:
            return ""
        ident = shared[0]
        names = self._names[ident]
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        example = f"person {self._labels[ident]} {ident} names {len(names)} people: {shown}"
        if len(shared) == 1:
            return f"{example}; keyed apart"
        return f"{len(shared)} person ids name several people; keyed apart (e.g. {example})"


_ID_LIMIT = 2**31  # apps store ids in 32-bit ints
_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
_SLUG_HEAD = re.compile(r"[a-z0-9_]{4,}")  # the XSD's voc-slug-new before its first "-"
SLUG_LENGTH = 100


def is_numbered(key: str) -> bool:
    """Whether `key` is a number the exports can carry as it is (see `export_ids`)."""
    return key.isascii() and key.isdigit() and 0 < int(key) < _ID_LIMIT


def export_number(key: str) -> int:
    """The integer a key asks for: itself when numbered, else 31 bits of its SHA-256 (≥ 1)."""
    if is_numbered(key):
        return int(key)
    return max(1, int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") >> 1)


def export_ids(keys: Iterable[str]) -> dict[str, int]:
    """A distinct integer id for each key (see the module's docstring)."""
    unique = set(keys)
    ids: dict[str, int] = {key: int(key) for key in unique if is_numbered(key)}
    taken = set(ids.values())
    for key in sorted(unique - ids.keys()):
        number, attempt = export_number(key), 0
        while number in taken:
            attempt += 1
            number = export_number(f"{key}#{attempt}")
        taken.add(number)
        ids[key] = number
    return ids


def export_guid(slug: str, key: str) -> str:
    """A session's guid in every export: its key when a UUID, else a uuid5 of slug and key."""
    if _UUID.fullmatch(key):
        return key
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{slug}:{key}"))


def export_slug(slug: str, *, number: int, title: str) -> str:
    """A session's slug in every export: "<event>-<id>-<title>" (see the module's docstring).

    The event part is its slug, with "_" for "-" when its first word is shorter than the XSD
    allows (then padded with "_" to 4); a title without Latin letters or digits adds nothing."""
    head = re.sub(r"[^a-z0-9-]+", "", slugify(slug, max_length=40)).strip("-") or "event"
    if not _SLUG_HEAD.match(head.split("-", 1)[0]):
        head = head.replace("-", "_").ljust(4, "_")
    tail = slugify(f"{number} {visible(title)}", max_length=SLUG_LENGTH - len(head) - 1)
    tail = re.sub(r"[^a-z0-9-]+", "-", tail).strip("-")  # the title's own letters ("张伟")
    if len(tail) < 4:  # the XSD wants 4 characters after the first "-"
        tail = f"{tail}-talk"
    return f"{head}-{tail}"
