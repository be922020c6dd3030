"""A session page's "More in this track" (queries.track_neighbours), read from the outline a
process holds: the sessions starting next first, then the latest before, in time order (title
then breaking ties), and how many the track holds besides; and similar sessions picked from the
outline in their order (queries.outlines_in_order)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from confsched.interchange.synthetic import synthetic_programme
from confsched.programme import queries
from confsched.programme.models import Event, Session
from confsched.programme.services import create_event, load_programme

pytestmark = pytest.mark.django_db

# 80 sessions: "Track 0" holds s0, s8, ... s72 on the first day, s0 and s8 at the first slot,
# s40 and s48 at the fifth (titles "Session number 40 …" < "Session number 48 …").


@pytest.fixture
def event() -> Event:
    made = create_event(slug="tracks", name="Tracks", timezone="Europe/Brussels")
    base = synthetic_programme(80)
    untracked = [replace(s, track="") if s.key == "s1" else s for s in base.sessions]
    load_programme(made, replace(base, sessions=untracked))
    return made


def _neighbours(event: Event, key: str, limit: int = 3) -> tuple[list[str], int]:
    outline = queries.outlined(event).sessions
    rows, total = queries.track_neighbours(outline, Session.objects.get(key=key), limit=limit)
    return [row.key for row in rows], total


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("s0", ["s8", "s16", "s24"]),  # s8 at the same time, its title after
        ("s8", ["s16", "s24", "s32"]),  # s0, at the same time, titled before: not next
        ("s40", ["s48", "s56", "s64"]),
        ("s64", ["s48", "s56", "s72"]),  # one after it: the two latest before fill in
        ("s72", ["s48", "s56", "s64"]),  # the last: the three before it
    ],
)
def test_the_next_sessions_of_the_track_then_the_latest_before(
    event: Event, key: str, expected: list[str]
) -> None:
    assert _neighbours(event, key) == (expected, 9)


def test_a_track_smaller_than_the_limit_shows_all_of_it_in_time_order(event: Event) -> None:
    assert _neighbours(event, "s40", limit=20) == (
        ["s0", "s8", "s16", "s24", "s32", "s48", "s56", "s64", "s72"],
        9,
    )


def test_a_session_without_a_track_has_no_neighbours(event: Event) -> None:
    assert _neighbours(event, "s1") == ([], 0)


def test_similar_sessions_are_picked_from_the_outline_in_the_order_asked(event: Event) -> None:
    outline = queries.outlined(event).sessions
    pks = dict(Session.objects.values_list("key", "pk"))
    picked = queries.outlines_in_order(outline, [pks["s30"], pks["s2"], 10**9, pks["s17"]])
    assert [row.key for row in picked] == ["s30", "s2", "s17"]
