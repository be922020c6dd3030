"""Filtering and facet counting of a schedule, in memory and pure.

An event has hundreds, at most a few thousand sessions: one query loads them, and filtering
here keeps search accent- and case-insensitive on every database and lets days follow the
viewer's time zone (a session crossing midnight there belongs to the next day).
"""

from __future__ import annotations

import re
import zoneinfo
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Protocol

from django.utils.translation import gettext

from confsched.core.text import fold

FACETS = ("date", "room", "track", "level", "slides")


class _Named(Protocol):
    slug: str
    name: str


@dataclass(frozen=True)
class Filters:
    """What the viewer asked for: OR within a facet, AND across facets and search words."""

    date: tuple[str, ...] = ()
    room: tuple[str, ...] = ()
    track: tuple[str, ...] = ()
    level: tuple[str, ...] = ()
    slides: tuple[str, ...] = ()
    q: str = ""
    problems: tuple[str, ...] = field(default=(), compare=False)

    @property
    def is_active(self) -> bool:
        return bool(self.q or any(getattr(self, facet) for facet in FACETS))

    def without(self, facet: str) -> Filters:
        return replace(self, **{facet: ()})  # type: ignore[arg-type]  # facet names a tuple field


def parse_filters(params: Mapping[str, Sequence[str]]) -> Filters:
    """Filters from GET parameters (a QueryDict's lists); malformed values are named, not fatal."""
    problems = []
    values: dict[str, tuple[str, ...]] = {}
    for facet in FACETS:
        raw = [value.strip() for value in params.get(facet, []) if value.strip()]
        values[facet] = tuple(dict.fromkeys(raw))
    valid_dates = []
    for value in values["date"]:
        try:
            valid_dates.append(date.fromisoformat(value).isoformat())
        except ValueError:
            problem = gettext("ignored date %(value)s: write dates as YYYY-MM-DD")
            problems.append(problem % {"value": repr(value)})
    values["date"] = tuple(valid_dates)
    if bad := [value for value in values["slides"] if value not in {"yes", "no"}]:
        problem = gettext("ignored slides=%(value)s: use yes or no")
        problems.append(problem % {"value": repr(bad[0])})
        values["slides"] = tuple(value for value in values["slides"] if value in {"yes", "no"})
    q = " ".join(" ".join(params.get("q", [])).split())[:200]
    return Filters(q=q, problems=tuple(problems), **values)


class _SessionLike(Protocol):
    title: str
    kind: str
    abstract: str
    has_slides: bool


def facet_value(session: object, facet: str, zone: zoneinfo.ZoneInfo) -> str:
    """The value a session has for a facet, as it appears in URLs ("" when it has none)."""
    if facet == "date":
        starts_at = getattr(session, "starts_at", None)
        return starts_at.astimezone(zone).date().isoformat() if starts_at else ""
    if facet == "slides":
        return "yes" if getattr(session, "has_slides", False) else "no"
    related: _Named | None = getattr(session, facet, None)
    return related.slug if related is not None else ""


def search_text(session: object) -> str:
    """Folded text that free-text search looks in: title, kind, abstract, speakers, companies."""
    parts = [getattr(session, name, "") or "" for name in ("kind", "title", "abstract")]
    for link in session.speaker_links.all():  # type: ignore[attr-defined]
        parts += [link.speaker.name, link.affiliation, link.speaker.company]
    return fold(" ".join(parts))


@dataclass
class FilterResult:
    sessions: list
    counts: dict[str, Counter[str]]
    unknown: list[str]


def apply_filters(
    sessions: Iterable[object], filters: Filters, *, zone: zoneinfo.ZoneInfo,
    known: Mapping[str, set[str]] | None = None,
) -> FilterResult:  # fmt: skip
    """The sessions that match, and per facet option how many would match if it were chosen.

    Counts follow the usual faceted-search rule: an option's count applies every other facet's
    selection and this option alone, so a count is exactly what choosing it would leave.
    Values not in `known` (per facet) are left out of the filter and reported as unknown.
    """
    unknown = []
    for facet, names in (known or {}).items():
        chosen = getattr(filters, facet)
        unknown += [f"{facet} {value!r}" for value in chosen if value not in names]
        kept = tuple(value for value in chosen if value in names)
        filters = replace(filters, **{facet: kept})  # type: ignore[arg-type]  # a tuple field
    # Each word must start a word of the text: "hat" finds "Red Hat", not "that".
    patterns = [re.compile(rf"\b{re.escape(word)}") for word in fold(filters.q).split()]
    if not patterns and not any(getattr(filters, facet) for facet in FACETS):
        # The unfiltered page (the one most asked for): every session matches, and an option's
        # count is how many sessions have it.
        every = list(sessions)
        return FilterResult(
            sessions=every,
            counts={
                facet: Counter(facet_value(session, facet, zone) for session in every)
                for facet in FACETS
            },
            unknown=unknown,
        )
    rows: list[tuple[object, dict[str, str], bool]] = []
    for session in sessions:
        values = {facet: facet_value(session, facet, zone) for facet in FACETS}
        text = search_text(session) if patterns else ""
        rows.append((session, values, all(pattern.search(text) for pattern in patterns)))

    def passes(values: dict[str, str], skip: str | None) -> bool:
        return all(
            not getattr(filters, facet) or values[facet] in getattr(filters, facet)
            for facet in FACETS
            if facet != skip
        )

    counts: dict[str, Counter[str]] = {facet: Counter() for facet in FACETS}
    matched = []
    for session, values, found in rows:
        if not found:
            continue
        for facet in FACETS:
            if passes(values, facet):
                counts[facet][values[facet]] += 1
        if passes(values, None):
            matched.append(session)
    return FilterResult(sessions=matched, counts=counts, unknown=unknown)


def facet_rows(sessions: Iterable[Any], attribute: str) -> list[Any]:
    """The rooms (tracks, levels) the sessions use, each once, in the event's order."""
    rows = {getattr(s, attribute) for s in sessions if getattr(s, attribute) is not None}
    return sorted(rows, key=lambda row: (row.position, row.name))


def group_by(items: Iterable[object], key: Callable[[object], object]) -> list[tuple[object, list]]:
    """Consecutive runs of items with the same key (items come sorted)."""
    groups: list[tuple[object, list]] = []
    for item in items:
        value = key(item)
        if groups and groups[-1][0] == value:
            groups[-1][1].append(item)
        else:
            groups.append((value, [item]))
    return groups
