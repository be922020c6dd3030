"""Overlaps, gaps, now/next and what changed: pure functions, exact values."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from confsched.agenda.planning import Gap, changes_since, gaps, now_and_next, overlapping

PARIS = zoneinfo.ZoneInfo("Europe/Paris")


@dataclass(frozen=True)
class S:
    name: str
    starts_at: datetime
    ends_at: datetime | None


def at(hour: int, minute: int = 0, day: int = 7) -> datetime:
    return datetime(2026, 4, day, hour, minute, tzinfo=UTC)


A = S("a", at(9), at(9, 25))
B = S("b", at(9, 15), at(9, 40))  # overlaps a and c
C = S("c", at(9, 30), at(9, 55))
D = S("d", at(9, 55), at(10, 20))  # starts as c ends: back to back, no clash
E = S("e", at(11), None)  # zero-length
F = S("f", at(11), at(11, 30))  # starts with e


def names(found: dict) -> dict[str, list[str]]:
    return {key.name: [other.name for other in value] for key, value in found.items()}


def test_overlaps_are_mutual_and_back_to_back_is_no_clash() -> None:
    assert names(overlapping([D, C, B, A, F, E])) == {
        "a": ["b"],
        "b": ["a", "c"],
        "c": ["b"],
        "d": [],
        "e": ["f"],
        "f": ["e"],
    }


def test_overlapping_nothing() -> None:
    assert overlapping([]) == {}
    assert names(overlapping([A])) == {"a": []}


def test_gaps_of_at_least_fifteen_minutes_within_a_day() -> None:
    next_day = S("n", at(8, day=8), at(9, day=8))
    assert gaps([A, D, F, next_day], zone=PARIS) == [
        Gap(starts_at=at(9, 25), ends_at=at(9, 55)),
        Gap(starts_at=at(10, 20), ends_at=at(11)),
    ]
    assert [g.minutes for g in gaps([A, D], zone=PARIS)] == [30]
    # b covers a's end: no gap between a and c
    assert gaps([A, B, C], zone=PARIS) == []
    assert gaps([A, S("x", at(9, 35), at(10))], zone=PARIS, minimum=timedelta(minutes=10)) == [
        Gap(starts_at=at(9, 25), ends_at=at(9, 35))
    ]


def test_a_night_between_two_days_is_no_gap() -> None:
    late = S("late", at(19), at(20))
    early = S("early", at(7, day=8), at(8, day=8))
    assert gaps([late, early], zone=PARIS) == []


def test_now_and_next() -> None:
    assert now_and_next([A, B, C, D], now=at(9, 20)) == ([A, B], C)
    assert now_and_next([A, D], now=at(9, 25)) == ([], D)
    assert now_and_next([A], now=at(12)) == ([], None)


def test_changes_since_starring() -> None:
    seen = {
        "starts_at": "2026-04-07T09:00:00+00:00",
        "ends_at": "2026-04-07T09:25:00+00:00",
        "room": "A",
        "title": "T",
    }
    assert changes_since(seen, dict(seen)) == []
    moved = {
        **seen,
        "starts_at": "2026-04-07T10:00:00+00:00",
        "ends_at": "2026-04-07T10:25:00+00:00",
        "room": "B",
    }
    assert changes_since(seen, moved) == ["time", "room"]
    assert changes_since(seen, {**seen, "title": "New"}) == ["title"]
    assert changes_since({}, moved) == []
