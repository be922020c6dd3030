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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
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
