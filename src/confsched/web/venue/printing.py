"""Printable timetables: one day's rooms × time grid cut into sheets that fit the paper, as PDF.

A day of 60 rooms does not fit across any paper, and a day of 20 time slots does not fit down
it, so a day is dealt into sheets, each a page: at most ROOMS_PER_SHEET rooms across and
ROWS_PER_SHEET start times down, cut where no session runs across the cut (the lunch break)
when there is such a place. The paper is A4 landscape while every sheet has A4_MAX_ROOMS rooms
or fewer, A3 landscape above.

Rows are the times sessions start: every entry prints its own times, so the rows between
sessions ending and the next starting would only take paper.

WeasyPrint renders the PDF from the same HTML the browser gets, and fetches nothing: its URL
fetcher hands over our own print stylesheet and refuses every other address (images, fonts,
anything an imported text could name), so a PDF never waits on or reveals itself to the network.
"""

from __future__ import annotations

import math
import zoneinfo
from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache, partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.contrib.staticfiles import finders
from django.templatetags.static import static

from confsched.programme.layout import NO_ROOM

# Eight columns on A3 landscape are 48 mm each: a 60-character title takes three lines.
ROOMS_PER_SHEET = 8
# Five columns on A4 landscape are 52 mm each; six would drop under 45 mm.
A4_MAX_ROOMS = 5
# An entry is about five lines (times, a title of two or three, speakers): 17 mm at 8 pt.
ROWS_PER_SHEET = {"a4": 8, "a3": 11}
STYLESHEET = "confsched/print.css"


@dataclass
class Cell:
    """Sessions in one room from one row for `row_span` rows; `is_continued` when they began
    on an earlier sheet (a cut that had to go through them)."""

    sessions: list[Any]
    row_span: int
    is_continued: bool = False


COVERED = Cell(sessions=[], row_span=0)  # under a cell that starts in an earlier row


@dataclass
class Row:
    starts_at: datetime  # local
    # Per room: a Cell starting here, None where the room is free, COVERED under a longer cell.
    cells: list[Cell | None] = field(default_factory=list)


@dataclass(frozen=True)
class Sheet:
    """One page of a day: some of its rooms (by 1-based position among the day's rooms),
    from `starts_at` to `ends_at`."""

    columns: list[str]
    rows: list[Row]
    first_room: int
    last_room: int
    starts_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class Timetable:
    day: date
    room_count: int
    paper: str  # "a4" or "a3", landscape
    sheets: list[Sheet]

    @property
    def is_split(self) -> bool:
        return len(self.sheets) > 1

    @property
    def is_split_by_room(self) -> bool:
        return any(len(sheet.columns) < self.room_count for sheet in self.sheets)


def room_name(session: Any) -> str:
    return session.room.name if session.room else NO_ROOM


def split_evenly(count: int, *, most: int) -> list[int]:
    """Sizes of the fewest groups of at most `most` that hold `count`, differing by one at most
    (60 rooms by 8 are 8, 8, 8, 8, 7, 7, 7, 7, not seven eights and a four)."""
    if count <= 0:
        return []
    groups = math.ceil(count / most)
    base, extra = divmod(count, groups)
    return [base + 1] * extra + [base] * (groups - extra)


def _local_end(session: Any, zone: zoneinfo.ZoneInfo) -> datetime:
    return (session.ends_at or session.starts_at).astimezone(zone)


@dataclass
class _Span:
    column: int
    first: int  # row index
    last: int  # one past the last row
    sessions: list[Any]


def _spans(
    sessions: list[Any], columns: list[str], starts: list[datetime], zone: zoneinfo.ZoneInfo
) -> list[_Span]:
    """Each session as the rows it covers in its room; one overlapping another already placed
    in the same room joins it rather than being hidden."""
    spans: list[_Span] = []
    taken: dict[tuple[int, int], _Span] = {}
    for session in sessions:
        column = columns.index(room_name(session))
        first = starts.index(session.starts_at.astimezone(zone))
        last = max(first + 1, bisect_left(starts, _local_end(session, zone)))
        covering = next(
            (taken[(column, r)] for r in range(first, last) if (column, r) in taken), None
        )
        if covering is not None:
            covering.sessions.append(session)
            continue
        span = _Span(column=column, first=first, last=last, sessions=[session])
        spans.append(span)
        for row in range(first, last):
            taken[(column, row)] = span
    return spans


def _pauses(
    sessions: list[Any], starts: list[datetime], zone: zoneinfo.ZoneInfo
) -> list[timedelta]:
    """Per row, how long every room has been idle when it starts (zero when one is busy)."""
    pauses = []
    busy_until = starts[0]
    index = 0
    for start in starts:
        while index < len(sessions) and sessions[index].starts_at.astimezone(zone) < start:
            busy_until = max(busy_until, _local_end(sessions[index], zone))
            index += 1
        pauses.append(max(start - busy_until, timedelta(0)))
    return pauses


def _cuts(spans: list[_Span], *, pauses: list[timedelta], most: int) -> list[int]:
    """Where the row blocks end: the fewest blocks of at most `most` rows, each cut before a
    row that no session runs across: of those within a row of an even share, the one after the
    longest pause (lunch), else the nearest; where there is none, at the share itself.

    `pauses[row]` is how long every room is idle before that row starts."""
    rows = len(pauses)
    clean = [True] * (rows + 1)
    for span in spans:
        for row in range(span.first + 1, span.last):
            clean[row] = False
    ends = []
    start = 0
    while rows - start > most:
        blocks = math.ceil((rows - start) / most)
        target = start + math.ceil((rows - start) / blocks)
        candidates = [row for row in range(start + 1, start + most + 1) if clean[row]]
        rank = partial(_cut_rank, target=target, blocks=blocks, most=most, pauses=pauses)
        ends.append(min(candidates, key=rank) if candidates else target)
        start = ends[-1]
    ends.append(rows)
    return ends


def _cut_rank(
    row: int, *, target: int, blocks: int, most: int, pauses: list[timedelta]
) -> tuple[bool, bool, timedelta, int]:
    """Lowest is best: never a cut that leaves more blocks than needed; then, within a row of
    the even share, the one after the longest pause; then the nearest to the share."""
    distance = abs(row - target)
    adds_a_block = math.ceil((len(pauses) - row) / most) > blocks - 1
    return (adds_a_block, distance > 1, -pauses[row] if distance <= 1 else timedelta(0), distance)


def _sheet(
    spans: list[_Span], starts: list[datetime], *, columns: list[str], block: tuple[int, int],
    zone: zoneinfo.ZoneInfo, first_room: int,
) -> Sheet:  # fmt: skip
    begin, end = block
    rows = [Row(starts_at=starts[index]) for index in range(begin, end)]
    grid: list[list[Cell | None]] = [[None] * len(columns) for _ in rows]
    ends_at = starts[begin]
    for span in spans:
        if span.last <= begin or span.first >= end:
            continue
        top = max(span.first, begin)
        bottom = min(span.last, end)
        grid[top - begin][span.column] = Cell(
            sessions=span.sessions, row_span=bottom - top, is_continued=span.first < begin
        )
        for covered in range(top + 1, bottom):
            grid[covered - begin][span.column] = COVERED
        ends_at = max(ends_at, *(_local_end(s, zone) for s in span.sessions))
    for row, cells in zip(rows, grid, strict=True):
        row.cells = cells
    return Sheet(
        columns=columns, rows=rows, first_room=first_room,
        last_room=first_room + len(columns) - 1, starts_at=starts[begin],
        # A cut through a session ends the sheet at the next one's first row.
        ends_at=min(ends_at, starts[end]) if end < len(starts) else ends_at,
    )  # fmt: skip


def timetable_for_day(
    sessions: list[Any], *, zone: zoneinfo.ZoneInfo, rooms_per_sheet: int = ROOMS_PER_SHEET,
    rows_per_sheet: int | None = None,
) -> Timetable:  # fmt: skip
    """The sheets of one local day's sessions (all starting that day in `zone`).

    Rooms keep the schedule's order (room position, then name; "No room" last). Each group of
    rooms has its own rows (the times its own rooms start something), so quiet rooms are not
    stretched by busy ones; its sheets follow each other in time before the next group's.
    """
    if not sessions:
        raise ValueError("a timetable needs at least one session")
    days = {session.starts_at.astimezone(zone).date() for session in sessions}
    if len(days) > 1:
        raise ValueError(f"a timetable is of one day; these sessions start on {len(days)}")
    order: dict[str, tuple[int, str]] = {}
    for session in sessions:
        name = room_name(session)
        order.setdefault(name, (session.room.position, name) if session.room else (10**9, name))
    rooms = sorted(order, key=order.__getitem__)
    sizes = split_evenly(len(rooms), most=rooms_per_sheet)
    paper = "a4" if max(sizes) <= A4_MAX_ROOMS else "a3"
    most_rows = rows_per_sheet or ROWS_PER_SHEET[paper]
    sheets = []
    first = 0
    for size in sizes:
        columns = rooms[first : first + size]
        chosen = sorted(
            (s for s in sessions if room_name(s) in columns),
            key=lambda s: (s.starts_at, order[room_name(s)]),
        )
        starts = sorted({s.starts_at.astimezone(zone) for s in chosen})
        spans = _spans(chosen, columns, starts, zone)
        begin = 0
        for end in _cuts(spans, pauses=_pauses(chosen, starts, zone), most=most_rows):
            block = (begin, end)
            sheets.append(
                _sheet(spans, starts, columns=columns, block=block, zone=zone, first_room=first + 1)
            )
            begin = end
        first += size
    return Timetable(day=days.pop(), room_count=len(rooms), paper=paper, sheets=sheets)


@dataclass
class Pdf:
    """A rendered PDF, kept per schedule version (see stencils.kept, which sizes by `size`)."""

    body: bytes
    pages: int
    size: int = field(init=False)

    def __post_init__(self) -> None:
        self.size = len(self.body)


def is_own_stylesheet(url: str) -> bool:
    return urlsplit(url).path == urlsplit(static(STYLESHEET)).path


@lru_cache(maxsize=1)
def _fetcher_class() -> type:
    """WeasyPrint's URL fetcher, our own: made on first use, as WeasyPrint loads in 0.9 s."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class OwnStylesheetOnly(URLFetcher):
        """Our print stylesheet, read from the static files; every other address refused."""

        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            if is_own_stylesheet(url):
                return URLFetcherResponse(
                    url, _stylesheet_bytes(), headers={"Content-Type": "text/css; charset=utf-8"}
                )
            raise ValueError(f"printing fetches nothing from the network; refused {url[:200]!r}")

    return OwnStylesheetOnly


def url_fetcher() -> Any:
    return _fetcher_class()()


@lru_cache(maxsize=1)
def _stylesheet_bytes() -> bytes:
    found = finders.find(STYLESHEET)
    if not found:
        raise FileNotFoundError(f"static file {STYLESHEET} is missing")
    return Path(str(found)).read_bytes()


def render_pdf(html: str, *, base_url: str) -> Pdf:
    """`html` as a PDF; its links made absolute against `base_url`, nothing fetched but our CSS."""
    from weasyprint import HTML

    document = HTML(string=html, base_url=base_url, url_fetcher=url_fetcher()).render()
    return Pdf(body=document.write_pdf(), pages=len(document.pages))
