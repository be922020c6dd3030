"""A Sched listing page read into entries (see `sched.read` for the pages as a whole): the
header (zone, active filter, dates, place, event name), then per entry the title line, the time
line, the abstract, the speaker blocks and the footer (room, type, bullets)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, timezone

from confsched.core.errors import ParseError
from confsched.core.text import fold

MONTHS = {
    name: number
    for number, name in enumerate(
        "January February March April May June July August September October November "
        "December".split(),
        start=1,
    )
}
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()

_CLOCK = r"\d{1,2}:\d{2}\s?(?:[ap]m)?"
_TIME_LINE = re.compile(
    rf"^(?P<weekday>{'|'.join(WEEKDAYS)}),? (?P<month>{'|'.join(MONTHS)}) (?P<day>\d{{1,2}}), "
    rf"(?P<year>\d{{4}}) (?P<start>{_CLOCK}) - (?P<end>{_CLOCK}) (?P<zone>[A-Z][A-Za-z]{{1,5}})$"
)
_SLOT_HEADING = re.compile(rf"^{_CLOCK} [A-Z][A-Za-z]{{1,5}}$")
_DAY_HEADING = re.compile(rf"^(?:{'|'.join(WEEKDAYS)}), (?:{'|'.join(MONTHS)}) \d{{1,2}}$")
_ZONE_NOTE = re.compile(
    r"displayed in (?P<abbr>[A-Z][A-Za-z]{1,5}) \(UTC/GMT (?P<sign>[+-])(?P<hours>\d{1,2})"
    r"(?::(?P<minutes>\d{2}))?\)"
)
_FILTER_LINE = re.compile(r"^(?P<label>[A-Za-z][A-Za-z ]{0,40}): (?P<value>.+?) clear filter$")
_DATE_RANGE = re.compile(
    rf"^(?P<first>\d{{1,2}})(?:-(?P<last>\d{{1,2}}))? (?P<month>{'|'.join(MONTHS)}),? "
    r"(?P<year>\d{4})$"
)
_INITIALS = re.compile(r"^[A-Z]{1,3}$")
# Markers found by plain string search, not by patterns: a pattern with a repeat on each side
# of its text ("\s*Read More →\s*$") retries at every position of a long run of spaces, and
# 40,000 spaces took 18 s.
_EVENT_NAME_BEFORE = "You must be registered for "
_EVENT_NAME_AFTER = " to participate"
_BULLET = "•"
_READ_MORE = "Read More →"
# Every zone is less than a day from UTC: a time a day inside the datetime range can be shown
# in any of them (and stored in UTC) without overflowing.
_EARLIEST = datetime.min.replace(tzinfo=UTC) + timedelta(days=1)
_LATEST = datetime.max.replace(tzinfo=UTC) - timedelta(days=1)

# Abbreviations a Sched page may print when its header does not say the offset itself.
KNOWN_ABBREVIATIONS = {
    "UTC": 0, "GMT": 0, "WET": 0, "WEST": 60, "BST": 60, "IST": 60, "CET": 60, "CEST": 120,
    "EET": 120, "EEST": 180, "MSK": 180, "EST": -300, "EDT": -240, "CST": -360, "CDT": -300,
    "MST": -420, "MDT": -360, "PST": -480, "PDT": -420, "JST": 540, "KST": 540,
    "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780, "SGT": 480, "HKT": 480,
}  # fmt: skip


_LEVEL_WORDS = {"any", "beginner", "intermediate", "advanced", "expert", "all levels", "all"}


@dataclass
class _Block:
    """A speaker block under "Speakers"."""

    name: str
    position: str = ""
    company: str = ""
    bio: str = ""
    has_avatar: bool = False


@dataclass
class _Entry:
    """One listing entry before it becomes a Session."""

    source: str
    line: int
    title_line: str
    starts_at: datetime
    ends_at: datetime
    abstract: str
    blocks: list[_Block]
    room: str = ""
    track: str = ""
    level: str = ""
    has_slides: bool = False
    # "• Slides Attached" with a value: a listing may show the bullet empty (unknown).
    is_slides_shown: bool = False
    facets: dict[str, str] = field(default_factory=dict)


@dataclass
class _Page:
    source: str
    lines: list[str]
    header: dict[str, str] = field(default_factory=dict)
    entries: list[_Entry] = field(default_factory=list)


def _read_listing(page: _Page) -> None:
    lines = page.lines
    _read_header(page)
    time_rows = [index for index, line in enumerate(lines) if _TIME_LINE.match(line.strip())]
    position = 0
    while position < len(time_rows):
        opening = time_rows[position]
        if (
            position + 1 >= len(time_rows)
            or lines[time_rows[position + 1]].strip() != lines[opening].strip()
        ):
            raise ParseError(
                "this entry's time line is not repeated at the end of the entry, "
                "as Sched pages always do; the page looks cut or edited here",
                source=page.source,
                line=opening + 1,
            )
        closing = time_rows[position + 1]
        page.entries.append(_read_entry(page, opening, closing))
        position += 2


def _read_header(page: _Page) -> None:
    for index, raw in enumerate(page.lines[:40]):
        line = raw.strip()
        if match := _ZONE_NOTE.search(line):
            minutes = int(match["hours"]) * 60 + int(match["minutes"] or 0)
            if minutes >= 24 * 60:
                raise ParseError(
                    f"{match[0]!r} is no UTC offset: offsets lie within a day of UTC",
                    source=page.source,
                    line=index + 1,
                )
            page.header["zone_abbr"] = match["abbr"]
            page.header["zone_minutes"] = str(minutes if match["sign"] == "+" else -minutes)
        elif match := _FILTER_LINE.match(line):
            page.header["filter_label"] = match["label"].strip()
            page.header["filter_value"] = match["value"].strip()
            page.header["filter_line"] = str(index + 1)
        elif match := _DATE_RANGE.match(line):
            page.header["date_range"] = line
            following = page.lines[index + 1].strip() if index + 1 < len(page.lines) else ""
            if following and "Details" not in following and "Note:" not in following:
                page.header["location"] = following
        if name := _event_name(line):
            page.header["name"] = name


def _event_name(line: str) -> str:
    """The name in "You must be registered for NAME to participate", "" without it."""
    start = line.find(_EVENT_NAME_BEFORE)
    if start < 0:
        return ""
    start += len(_EVENT_NAME_BEFORE)
    end = line.find(_EVENT_NAME_AFTER, start + 1)  # the name has at least one character
    return line[start:end].strip() if end >= 0 else ""


def _page_facets(page: _Page) -> dict[str, str]:
    """What the page's active filter says about every entry on it."""
    label = page.header.get("filter_label", "").casefold()
    value = page.header.get("filter_value", "")
    if not value:
        return {}
    if label in {"type", "track", "session type", "category"}:
        return {"track": value}
    if label in {"audience level", "level", "experience level"} or (
        label == "company" and value.casefold() in _LEVEL_WORDS
    ):
        return {"level": value}
    if label in {"venue", "room", "location"}:
        return {"room": value}
    return {}


def _zone_for(page: _Page, abbreviation: str, line: int) -> timezone:
    if page.header.get("zone_abbr") == abbreviation:
        return timezone(timedelta(minutes=int(page.header["zone_minutes"])), abbreviation)
    if abbreviation in KNOWN_ABBREVIATIONS:
        return timezone(timedelta(minutes=KNOWN_ABBREVIATIONS[abbreviation]), abbreviation)
    raise ParseError(
        f"time zone {abbreviation!r} is not declared in the page header and is not one "
        "confsched knows; keep the header line 'This schedule is automatically displayed in …'",
        source=page.source,
        line=line,
    )


def _parse_clock(text: str, *, source: str, line: int) -> time:
    text = text.replace(" ", "").lower()
    suffix = text[-2:] if text.endswith(("am", "pm")) else ""
    hours_text, minutes_text = text.removesuffix(suffix).split(":")
    hours, minutes = int(hours_text), int(minutes_text)
    if suffix:
        if not 1 <= hours <= 12:
            raise ParseError(f"{text!r} is not a 12-hour time", source=source, line=line)
        hours = hours % 12 + (12 if suffix == "pm" else 0)
    if hours > 23 or minutes > 59:
        raise ParseError(f"{text!r} is not a time of day", source=source, line=line)
    return time(hours, minutes)


def _parse_time_line(page: _Page, index: int) -> tuple[datetime, datetime]:
    line_number = index + 1
    match = _TIME_LINE.match(page.lines[index].strip())
    assert match is not None  # noqa: S101 - only called on lines the pattern selected
    try:
        day = date(int(match["year"]), MONTHS[match["month"]], int(match["day"]))
    except ValueError as exc:
        raise ParseError(f"no such date: {exc}", source=page.source, line=line_number) from exc
    if WEEKDAYS[day.weekday()] != match["weekday"]:
        raise ParseError(
            f"{match['month']} {match['day']}, {match['year']} is a {WEEKDAYS[day.weekday()]}, "
            f"not a {match['weekday']}",
            source=page.source,
            line=line_number,
        )
    zone = _zone_for(page, match["zone"], line_number)
    start = _parse_clock(match["start"], source=page.source, line=line_number)
    end = _parse_clock(match["end"], source=page.source, line=line_number)
    # The one place where a session's times meet date arithmetic: a time outside what every
    # time zone can show, or an overflow on the way, is refused here.
    try:
        starts_at = datetime.combine(day, start, tzinfo=zone)
        ends_at = datetime.combine(day, end, tzinfo=zone)
        if ends_at < starts_at:  # runs past midnight
            ends_at += timedelta(days=1)
        in_range = _EARLIEST <= starts_at and ends_at <= _LATEST
    except OverflowError:  # past midnight of 31 December 9999
        in_range = False
    if not in_range:
        raise ParseError(
            f"{page.lines[index].strip()!r} falls outside the dates confsched can show in every "
            f"time zone ({_EARLIEST.date().isoformat()} to {_LATEST.date().isoformat()}, UTC)",
            source=page.source,
            line=line_number,
        )
    return starts_at, ends_at


def _read_entry(page: _Page, opening: int, closing: int) -> _Entry:
    lines = page.lines
    title_index = opening - 1
    while title_index >= 0 and not lines[title_index].strip():
        title_index -= 1
    title_line = lines[title_index].strip() if title_index >= 0 else ""
    if not title_line or _SLOT_HEADING.match(title_line) or _DAY_HEADING.match(title_line):
        raise ParseError(
            "a session time line without a title line above it",
            source=page.source,
            line=opening + 1,
        )
    starts_at, ends_at = _parse_time_line(page, opening)
    body = lines[opening + 1 : closing]
    speakers_at = next((i for i, line in enumerate(body) if line.strip() == "Speakers"), None)
    abstract_lines = body if speakers_at is None else body[:speakers_at]
    block_lines = [] if speakers_at is None else body[speakers_at + 1 :]
    entry = _Entry(
        source=page.source,
        line=title_index + 1,
        title_line=title_line,
        starts_at=starts_at,
        ends_at=ends_at,
        abstract=_paragraphs(abstract_lines),
        blocks=_read_blocks(block_lines),
        facets=_page_facets(page),
    )
    _read_entry_footer(page, closing + 1, entry)
    return entry


def _read_entry_footer(page: _Page, start: int, entry: _Entry) -> None:
    """Room line, then indented type line and bullets, up to the blank line that ends the entry."""
    lines = page.lines
    index = start
    if index < len(lines) and lines[index].strip() and not lines[index][0].isspace():
        candidate = lines[index].strip()
        if not _SLOT_HEADING.match(candidate):
            entry.room = candidate
            index += 1
    while index < len(lines) and lines[index].strip() and lines[index][0].isspace():
        text = lines[index].strip()
        if text.startswith(_BULLET) and text.removeprefix(_BULLET).strip():
            text = text.removeprefix(_BULLET).strip()
            if text.startswith("Audience Level "):
                entry.level = text.removeprefix("Audience Level ").strip()
            elif text.startswith("Slides Attached "):
                entry.has_slides = text.removeprefix("Slides Attached ").strip().casefold() == "yes"
                entry.is_slides_shown = True
        else:
            entry.track = text
        index += 1


def _paragraphs(lines: Iterable[str]) -> str:
    """Join lines, keeping paragraph breaks and dropping surrounding blank lines."""
    text = "\n".join(line.rstrip() for line in lines).strip()
    return re.sub(r"\n{3,}", "\n\n", text)


def _initials(name: str) -> str:
    return "".join(word[0] for word in name.split() if word[:1].isalpha()).upper()


def _read_blocks(lines: list[str]) -> list[_Block]:
    """Speaker blocks: 'avatar for NAME' or initials ('AW'), name, 'Position, Company', bio."""
    starts: list[tuple[int, bool]] = []
    stripped = [line.strip() for line in lines]
    # The next non-blank line after each line, from one pass backwards: a page of lines that
    # look like initials must not cost a scan of the rest of the page each.
    following = [""] * len(stripped)
    upcoming = ""
    for index in range(len(stripped) - 1, -1, -1):
        following[index] = upcoming
        upcoming = stripped[index] or upcoming
    for index, line in enumerate(stripped):
        if line.startswith("avatar for "):
            starts.append((index, True))
        elif _INITIALS.match(line):
            name_line = following[index]
            if name_line and _initials(name_line).startswith(line):
                starts.append((index, False))
    blocks = []
    for number, (start, has_avatar) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(lines)
        position = _skip_blank(stripped, start + 1, end)
        if position == end:
            continue
        name = stripped[position]
        position = _skip_blank(stripped, position + 1, end)
        block = _Block(name=name, has_avatar=has_avatar)
        if position < end and _is_position_line(stripped[position]):
            block.position, block.company = _split_position(stripped[position], name)
            position += 1
        block.bio = _without_read_more(_paragraphs(stripped[position:end]))
        blocks.append(block)
    return blocks


def _skip_blank(lines: list[str], position: int, end: int) -> int:
    while position < end and not lines[position]:
        position += 1
    return position


def _without_read_more(text: str) -> str:
    """The text less a trailing "Read More →" link and the blanks around it."""
    body = text.rstrip()
    if not body.endswith(_READ_MORE):
        return text
    return body.removesuffix(_READ_MORE).rstrip()


def _is_position_line(line: str) -> bool:
    return len(line) <= 120 and not line.endswith((".", "→", "!", "?"))


def _split_position(line: str, name: str) -> tuple[str, str]:
    """'Principal Engineer, Red Hat' -> position and company; Sched repeats the name when empty."""
    position, _, company = line.rpartition(", ")
    if not _:
        return "", line
    if fold(position) == fold(name):
        position = ""
    return position.strip(), company.strip()
