"""Insight's pure figures: fill ratios, the likely-full rule, slots, and the SVG bars."""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime
from decimal import Decimal

from confsched.programme.insight import (
    BAR_SPACE,
    Bar,
    SessionStars,
    bar_chart_svg,
    bar_length,
    likely_full_keys,
    session_demands,
    slot_demands,
)

PARIS = zoneinfo.ZoneInfo("Europe/Paris")
NINE = datetime(2026, 4, 7, 9, 0, tzinfo=UTC)
HALF_PAST = datetime(2026, 4, 7, 9, 30, tzinfo=UTC)


def _row(key: str, *, stars: int, capacity: int | None, starts_at: datetime = NINE) -> SessionStars:
    return SessionStars(
        pk=len(key), key=key, title=key.title(), starts_at=starts_at, room="Hall",
        capacity=capacity, stars=stars,
    )  # fmt: skip


ROWS = [
    _row("a", stars=3, capacity=4),  # 75 %: below the line
    _row("b", stars=4, capacity=5),  # exactly 80 %: likely full
    _row("c", stars=9, capacity=None),  # no capacity: no ratio, never flagged
    _row("d", stars=0, capacity=0, starts_at=HALF_PAST),  # 0 seats means unknown
    _row("e", stars=12, capacity=10, starts_at=HALF_PAST),  # 120 %
]


def test_session_demands_fullest_first_unknown_capacity_last() -> None:
    demands = session_demands(ROWS, attendees_per_star=Decimal("1.0"))
    assert [(d.row.key, d.fill_percent, d.is_likely_full) for d in demands] == [
        ("e", 120, True),
        ("b", 80, True),
        ("a", 75, False),
        ("c", None, False),
        ("d", None, False),
    ]


def test_session_demands_attendees_per_star_scales_the_guess() -> None:
    demands = session_demands(ROWS, attendees_per_star=Decimal("1.5"))
    assert [(d.row.key, d.expected, d.fill_percent) for d in demands[:3]] == [
        ("e", Decimal("18.0"), 180),
        ("b", Decimal("6.0"), 120),
        ("a", Decimal("4.5"), 112),
    ]


def test_likely_full_keys_threshold_is_inclusive() -> None:
    assert likely_full_keys(ROWS, attendees_per_star=Decimal("1.0")) == frozenset({"b", "e"})
    assert likely_full_keys(ROWS, attendees_per_star=Decimal("0.5")) == frozenset()


def test_likely_full_keys_no_stars_is_never_full() -> None:
    rows = [_row("tiny", stars=0, capacity=1)]
    assert likely_full_keys(rows, attendees_per_star=Decimal("1.0")) == frozenset()


def test_slot_demands_sum_stars_per_start_in_the_zone() -> None:
    slots = slot_demands(ROWS, zone=PARIS)
    assert [(s.starts_at.isoformat(), s.sessions, s.stars) for s in slots] == [
        ("2026-04-07T11:00:00+02:00", 3, 16),
        ("2026-04-07T11:30:00+02:00", 2, 12),
    ]


def test_slot_demands_empty() -> None:
    assert slot_demands([], zone=PARIS) == []


def test_bar_length_proportional_and_clamped() -> None:
    assert bar_length(10, largest=10) == BAR_SPACE
    assert bar_length(5, largest=10) == round(BAR_SPACE / 2)
    assert bar_length(15, largest=10) == BAR_SPACE
    assert bar_length(0, largest=10) == 0
    assert bar_length(3, largest=0) == 0


def test_bar_chart_svg_one_bar_each_with_title_and_figure() -> None:
    svg = str(
        bar_chart_svg(
            [Bar(label="Tue 11:00", value=16, text="16"), Bar(label="<b>", value=8, text="8",
             is_marked=True)],
            title="Stars per slot",
        )
    )  # fmt: skip
    bars = re.findall(r'<rect class="bar" x="0" y="(\d+)" width="(\d+)" height="14" '
                      r'fill="(#\w+)"><title>([^<]*)</title>', svg)  # fmt: skip
    assert bars == [
        ("21", str(BAR_SPACE), "#2f5d9e", "Tue 11:00: 16"),
        ("57", str(round(BAR_SPACE / 2)), "#b3261e", "&lt;b&gt;: 8"),
    ]
    assert svg.startswith(
        '<svg class="chart" role="img" viewBox="0 0 400 76" width="100%" '
        'preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">'
        "<title>Stars per slot</title>"
    )
    assert "style=" not in svg
    assert ">&lt;b&gt;</text>" in svg


def test_bar_chart_svg_long_labels_are_cut_whole_in_the_title() -> None:
    label = "A very long session title that goes on and on and on about compilers"
    svg = str(bar_chart_svg([Bar(label=label, value=1, text="1")], title="t"))
    assert ">A very long session title that goes on and on and on…</text>" in svg
    assert f"<title>{label}: 1</title>" in svg


def test_bar_chart_svg_fixed_scale() -> None:
    svg = str(bar_chart_svg([Bar(label="x", value=50, text="50 %")], title="t", largest=100))
    assert f'width="{round(BAR_SPACE / 2)}"' in svg
