"""The frab reader's view of XML elements: their text, dates, clocks and links as the format
writes them, the fields an event leaves out, and what a document without events holds."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from urllib.parse import urljoin
from xml.etree.ElementTree import Element

from confsched.interchange.html_text import html_to_text as _html_to_text
from confsched.interchange.zones import plus_duration

_CLOCK = re.compile(r"(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?")
_HTML_TAG = re.compile(
    r"</?(?:p|br|div|span|a|ul|ol|li|em|strong|b|i|u|h[1-6]|pre|code|blockquote|img|hr|table"
    r"|tr|td|th|dl|dt|dd|sup|sub|tt)\b[^>]*>",
    re.IGNORECASE,
)


def _plus(value: datetime, delta: timedelta) -> datetime | None:
    """`value + delta` in absolute time, or None past the years datetime holds."""
    try:
        return plus_duration(value, delta)
    except OverflowError:
        return None


def _quoted(text: str, limit: int = 64) -> str:
    """`text` quoted for a message, cut short: a mutated file may hold megabytes in one value."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


# What a frab schedule holds where events go; anything else found there is named in the refusal.
_EXPECTED = {"schedule": {"conference", "version", "generator"}, "day": {"room", "event"}}


def _no_events(root: Element) -> str:
    """Why a document without events is refused, naming what it holds in their place."""
    days = root.findall("day")
    parents = [*days, *(room for day in days for room in day.findall("room"))] or [root]
    found: dict[str, None] = {}
    for parent in parents:
        expected = _EXPECTED.get(parent.tag, {"event"})
        for child in parent:
            if isinstance(child.tag, str) and child.tag not in expected:
                found.setdefault(f"<{child.tag}> under <{parent.tag}>")
    if found:
        shown = ", ".join(list(found)[:3])
        if len(found) > 3:
            shown += f" and {len(found) - 3} more"
        return f"no <event> elements: found {shown}; this is not a frab schedule.xml"
    if not days:
        return "no <event> elements: <schedule> holds no <day>; there is no programme to import"
    held = "its <day> holds" if len(days) == 1 else f"its {len(days)} <day> elements hold"
    return f"no <event> elements: {held} no events; there is no programme to import"


# Session fields, and the elements of an <event> that carry them: with none of them present,
# the event says nothing about the field.
_CARRIERS = {
    "kind": ("type",),
    "track": ("track",),
    "language": ("language",),
    "abstract": ("subtitle", "abstract", "description"),
    "speakers": ("persons",),
    "links": ("links", "attachments"),
    "ends_at": ("duration",),
}


def _unknown(element: Element, wrapper: str) -> frozenset[str]:
    """The fields `element` carries no element for (Session.unknown)."""
    unknown = {
        name for name, tags in _CARRIERS.items() if all(element.find(tag) is None for tag in tags)
    }
    if not wrapper and element.find("room") is None:
        unknown.add("room")
    return frozenset(unknown)


def _children(parent: Element, path: str, tag: str) -> Iterable[tuple[str, Element]]:
    for index, child in enumerate(parent.findall(tag), start=1):
        yield f"{path}/{tag}[{index}]", child


def _text(parent: Element, name: str) -> str:
    child = parent.find(name)
    if child is None:
        return ""
    return "".join(child.itertext()).strip()


def _absolute(base_url: str, href: str) -> str:
    """`href` read against `base_url`; as written when there is none or urllib cannot split it."""
    if not base_url:
        return href
    try:
        return urljoin(base_url, href)
    except ValueError:  # "http://[" and the like: the database check drops it later
        return href


def _line(text: str) -> str:
    return " ".join(text.split())


def _date(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _datetime(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _clock(text: str) -> time | None:
    match = _CLOCK.fullmatch(text)
    if match is None:
        return None
    return time(int(match["h"]), int(match["m"]), int(match["s"] or 0))


def _clean(text: str) -> str:
    """Plain text of an abstract: indentation undone, HTML converted, paragraphs kept."""
    text = _dedent(text.replace("\r\n", "\n").replace("\r", "\n"))
    if _HTML_TAG.search(text):
        text = _html_to_text(text)
    lines = [line.rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n").strip()


def _dedent(text: str) -> str:
    """Remove the indentation a pretty-printer gave every line after the first."""
    first, *rest = text.strip("\n").split("\n")
    indents = [len(line) - len(line.lstrip()) for line in rest if line.strip()]
    cut = min(indents, default=0)
    return "\n".join([first, *(line[cut:] for line in rest)])


def _after_midnight(events: list[tuple[str, Element]], *, watch: bool) -> list[bool]:
    """For each of a room's events (by start), whether its start, a clock without a date, is
    after midnight of its day: once a clock goes back (00:00 after 23:00), it and every later
    one (frab's days run past midnight). All False unless `watch`."""
    previous: time | None = None
    crossed = False
    late = []
    for _, element in events:
        date_text = _text(element, "date")
        timed = bool(date_text) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date_text)
        clock = _clock(_text(element, "start"))
        if watch and clock is not None and not timed:
            crossed = crossed or (previous is not None and clock < previous)
            previous = clock
        late.append(crossed and not timed)
    return late
