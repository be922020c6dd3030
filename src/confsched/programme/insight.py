"""Insight for organizers: stars against room capacity, overflow flags, demand per time slot.

Pure: the rows come in (one per session, with its star count), figures and charts go out.

Stars are a guess at attendance, not a count of it: not everyone stars what they attend, so
each event says how many attendees one star stands for (`Event.attendees_per_star`, 1.0 unless
the organizer knows better). A session is *likely full* when that guess reaches
LIKELY_FULL_SHARE (80 %) of its room's seats: near enough that the room will feel full and
late-comers may stand, early enough to move the session to a bigger room. A session whose room
has no capacity is never flagged; it has no fill ratio and sorts after the others.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

LIKELY_FULL_SHARE = Decimal("0.8")


@dataclass(frozen=True)
class SessionStars:
    """One session's row as read from the database."""

    pk: int
    key: str
    title: str
    starts_at: datetime
    room: str  # "" when none
    capacity: int | None  # the room's seats, None when unknown
    stars: int
    seats: int | None = None  # the session's own seats for reservations; None: open entry


@dataclass(frozen=True)
class SessionDemand:
    """A session's stars, the attendance they suggest, and how full that makes its room."""

    row: SessionStars
    expected: Decimal  # stars × attendees per star

    @property
    def fill(self) -> Decimal | None:
        """Expected attendance over seats (1 = full); None without a capacity."""
        if not self.row.capacity:
            return None
        return self.expected / self.row.capacity

    @property
    def fill_percent(self) -> int | None:
        fill = self.fill
        return None if fill is None else round(fill * 100)

    @property
    def is_likely_full(self) -> bool:
        fill = self.fill
        return fill is not None and self.row.stars > 0 and fill >= LIKELY_FULL_SHARE


@dataclass(frozen=True)
class SlotDemand:
    """The stars of the sessions starting at one moment."""

    starts_at: datetime  # in the event's zone
    stars: int
    sessions: int


def session_demands(
    rows: list[SessionStars], *, attendees_per_star: Decimal
) -> list[SessionDemand]:
    """Every session's demand, fullest first: by fill ratio, then stars, then start and title."""
    demands = [SessionDemand(row=row, expected=row.stars * attendees_per_star) for row in rows]

    def order(demand: SessionDemand) -> tuple:
        fill = demand.fill
        return (
            fill is None,
            -(fill or 0),
            -demand.row.stars,
            demand.row.starts_at,
            demand.row.title,
        )

    return sorted(demands, key=order)


def likely_full_keys(rows: list[SessionStars], *, attendees_per_star: Decimal) -> frozenset[str]:
    """The keys of the sessions likely to fill their room."""
    return frozenset(
        demand.row.key
        for demand in session_demands(rows, attendees_per_star=attendees_per_star)
        if demand.is_likely_full
    )


def slot_demands(rows: list[SessionStars], *, zone: zoneinfo.ZoneInfo) -> list[SlotDemand]:
    """Stars per start time, in time order: when the hallways and the big rooms fill up."""
    slots: dict[datetime, list[int]] = {}
    for row in rows:
        slots.setdefault(row.starts_at.astimezone(zone), []).append(row.stars)
    return [
        SlotDemand(starts_at=moment, stars=sum(stars), sessions=len(stars))
        for moment, stars in sorted(slots.items())
    ]


@dataclass(frozen=True)
class Bar:
    label: str
    value: int  # drawn length, against the chart's largest value
    text: str  # the figure written at the bar's end
    is_marked: bool = False  # drawn in the warning colour


# Chart geometry, in SVG user units; the chart scales to the width it is given. Each item is a
# label line with its bar below, so that a phone shows the chart as large as a desktop does.
CHART_WIDTH = 400
BAR_SPACE = CHART_WIDTH - 56  # room left for the figure after the longest bar
ROW_HEIGHT = 36
BAR_HEIGHT = 14
LABEL_CHARS = 54


def bar_length(value: int, *, largest: int) -> int:
    """A bar's length in user units: proportional, the largest value filling BAR_SPACE."""
    if largest <= 0 or value <= 0:
        return 0
    return round(BAR_SPACE * min(value, largest) / largest)


def bar_chart_svg(bars: list[Bar], *, title: str, largest: int | None = None) -> SafeString:
    """A horizontal bar chart as inline SVG, one labelled bar per item, readable without CSS.

    Presentation attributes only (no style attribute: the page's CSP forbids inline styles);
    each bar carries a <title> with its label and figure for screen readers and tooltips.
    `largest` fixes the scale (e.g. 100 for percentages); by default the largest value.
    """
    top = max((bar.value for bar in bars), default=0) if largest is None else largest
    height = ROW_HEIGHT * len(bars) + 4
    rows = []
    for index, bar in enumerate(bars):
        y = 4 + index * ROW_HEIGHT
        length = bar_length(bar.value, largest=top)
        label = (
            bar.label
            if len(bar.label) <= LABEL_CHARS
            else bar.label[: LABEL_CHARS - 1].rstrip() + "…"
        )
        colour = "#b3261e" if bar.is_marked else "#2f5d9e"
        rows.append(
            (y + 12, label, f"{bar.label}: {bar.text}", y + 17, length, BAR_HEIGHT, colour,
             length + 6, y + 28, bar.text)
        )  # fmt: skip
    body = format_html_join(
        "",
        '<text x="0" y="{0}" font-size="13" fill="#1d1d1f">{1}</text>'
        '<rect class="bar" x="0" y="{3}" width="{4}" height="{5}" fill="{6}">'
        "<title>{2}</title></rect>"
        '<text x="{7}" y="{8}" font-size="13" fill="#1d1d1f">{9}</text>',
        rows,
    )
    return format_html(
        '<svg class="chart" role="img" viewBox="0 0 {} {}" width="100%" '
        'preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">'
        "<title>{}</title>{}</svg>",
        CHART_WIDTH,
        height,
        title,
        body,
    )
