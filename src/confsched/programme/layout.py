"""Arranging sessions into days, time slots and a rooms × time grid; pure, zone-aware."""

from __future__ import annotations

import zoneinfo
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from math import floor
from typing import Any

NO_ROOM = "No room"


@dataclass
class Slot:
    starts_at: datetime  # local to the viewer's zone
    sessions: list[Any]


@dataclass
class Day:
    day: date
    slots: list[Slot]

    @property
    def count(self) -> int:
        return sum(len(slot.sessions) for slot in self.slots)


def days_and_slots(sessions: list[Any], zone: zoneinfo.ZoneInfo) -> list[Day]:
    """Sessions (sorted by start) grouped by local day, then by local start time."""
    days: list[Day] = []
    for session in sessions:
        local = session.starts_at.astimezone(zone)
        if not days or days[-1].day != local.date():
            days.append(Day(day=local.date(), slots=[]))
        slots = days[-1].slots
        if slots and slots[-1].starts_at == local:
            slots[-1].sessions.append(session)
        else:
            slots.append(Slot(starts_at=local, sessions=[session]))
    return days


# The grid draws time to scale in steps of this many minutes: a row is at least one step tall,
# so a one-minute changeover is not a sliver; a break as long as its time, like any row.
GRID_STEP_MINUTES = 5
GRID_MOST_STEPS = 36  # three hours; the page's stylesheet has a height for each step count
# A cell is at least this many steps tall, enough for a title on two lines, a line of facts
# and the speakers: a five-minute lightning talk gets that room; its row grows, and with it
# the cells beside it.
GRID_CELL_MIN_STEPS = 4


@dataclass
class Cell:
    sessions: list[Any]
    row_span: int
    steps: int = 0  # the height of the rows it spans, in grid steps


COVERED = Cell(sessions=[], row_span=0)


@dataclass
class GridRow:
    starts_at: datetime
    ends_at: datetime
    # Per column: a Cell starting here, None for an empty slot, COVERED under a longer cell.
    cells: list[Cell | None] = field(default_factory=list)
    anchor: str = ""  # its id on the page, unique on the page (GridDay.row_anchor)

    # The row's height in grid steps: its length to scale (at least one step, at most the cap),
    # grown where a short cell needs the room to show its title and speakers.
    steps: int = 1

    @property
    def is_break(self) -> bool:
        """No session runs in any room."""
        return all(cell is None for cell in self.cells)

    @property
    def natural_steps(self) -> int:
        """The row's length to scale, in steps: at least one, at most the cap."""
        minutes = (self.ends_at - self.starts_at).total_seconds() / 60
        return max(1, min(GRID_MOST_STEPS, round(minutes / GRID_STEP_MINUTES)))


@dataclass
class GridDay:
    day: date
    columns: list[str]
    rows: list[GridRow]

    def row_anchor(self, row: GridRow) -> str:
        """The row's id on the page: `slot-YYYYMMDD-HHMM` of its start, prefixed with this
        table's day for a row past midnight, which the next day's table may start too."""
        start = row.starts_at.strftime("%Y%m%d-%H%M")
        if row.starts_at.date() == self.day:
            return f"slot-{start}"
        return f"slot-{self.day:%Y%m%d}-{start}"


def grid_days(
    sessions: list[Any],
    zone: zoneinfo.ZoneInfo,
    *,
    rooms: Sequence[Any] = (),
    to_scale: bool = False,
) -> list[GridDay]:
    """Per local day, a table of rooms × time intervals; sessions span the rows they cover.

    Rows are the intervals between consecutive start/end times of that day, so a table with
    rowspans draws it without any layout arithmetic in the page. A session overlapping another
    in the same room joins that cell rather than being hidden. `rooms` (Room rows) are columns
    of every day even when nothing happens in them (the editor drops sessions there).

    `to_scale` (the public grid): every row is exactly as tall as its time, rounded to the
    step from the day's first start so that the rounding never adds up (a row between two
    times in one step is no steps tall), and no row grows for a short cell: the page shows a
    short cell's whole card when it is hovered or focused instead.
    """
    result = []
    for day in days_and_slots(sessions, zone):
        day_sessions = [session for slot in day.slots for session in slot.sessions]
        order = {room.name: (room.position, room.name) for room in rooms}
        for session in day_sessions:
            name = session.room.name if session.room else NO_ROOM
            order.setdefault(name, (session.room.position, name) if session.room else (10**9, name))
        columns = sorted(order, key=order.__getitem__)
        bounds = sorted(
            {s.starts_at.astimezone(zone) for s in day_sessions}
            | {_local_end(s, zone) for s in day_sessions}
        )
        rows = [GridRow(starts_at=a, ends_at=b) for a, b in zip(bounds, bounds[1:], strict=False)]
        if not rows:  # only zero-length sessions, all at one time
            rows = [GridRow(starts_at=bounds[0], ends_at=bounds[0])]
        occupied: list[list[Cell | None]] = [[None] * len(rows) for _ in columns]
        starts: dict[tuple[int, int], Cell] = {}
        for session in day_sessions:
            column = columns.index(session.room.name if session.room else NO_ROOM)
            first = min(bisect_left(bounds, session.starts_at.astimezone(zone)), len(rows) - 1)
            last = min(max(first + 1, bisect_left(bounds, _local_end(session, zone))), len(rows))
            covering = next((c for c in occupied[column][first:last] if c is not None), None)
            if covering is not None:
                covering.sessions.append(session)
                continue
            cell = Cell(sessions=[session], row_span=last - first)
            starts[(column, first)] = cell
            for covered in range(first, last):
                occupied[column][covered] = cell
        for index, row in enumerate(rows):
            row.cells = [
                starts[(column, index)]
                if (column, index) in starts
                else (None if occupied[column][index] is None else COVERED)
                for column in range(len(columns))
            ]
        if to_scale:
            _steps_to_scale(rows)
        else:
            for row in rows:
                row.steps = row.natural_steps
        for (_, first), cell in sorted(starts.items(), key=lambda item: item[0][1]):
            spanned = rows[first : first + cell.row_span]
            short = GRID_CELL_MIN_STEPS - sum(row.steps for row in spanned)
            if short > 0 and not to_scale:
                spanned[-1].steps = min(GRID_MOST_STEPS, spanned[-1].steps + short)
        for (_, first), cell in starts.items():
            cell.steps = min(
                GRID_MOST_STEPS, sum(row.steps for row in rows[first : first + cell.row_span])
            )
        grid_day = GridDay(day=day.day, columns=columns, rows=rows)
        for row in rows:
            row.anchor = grid_day.row_anchor(row)
        result.append(grid_day)
    return result


def _steps_to_scale(rows: list[GridRow]) -> None:
    """Each row's steps: the step its end falls nearest to, less its start's, counted from
    the first row's start; at most the cap, for a long break or a long session alone."""

    def step(moment: datetime) -> int:
        minutes = (moment - rows[0].starts_at).total_seconds() / 60
        return floor(minutes / GRID_STEP_MINUTES + 0.5)

    for row in rows:
        row.steps = min(GRID_MOST_STEPS, step(row.ends_at) - step(row.starts_at))


def _local_end(session: Any, zone: zoneinfo.ZoneInfo) -> datetime:
    end = session.ends_at or session.starts_at
    return end.astimezone(zone)
