"""The clash-free planner: exact examples, and properties checked against brute force."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confsched.agenda.planner import (
    KEYWORD_WEIGHT,
    LEVEL_WEIGHT,
    SPEAKER_WEIGHT,
    TRACK_WEIGHT,
    Facts,
    Interests,
    Slot,
    can_follow,
    greedy_plan,
    is_feasible,
    must_see_clashes,
    plan,
    weigh,
)

NINE = datetime(2026, 4, 7, 9, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return NINE + timedelta(minutes=minutes)


def slot(key: str, start: int, end: int, room: str | None = "A") -> Slot:
    return Slot(key=key, starts_at=at(start), ends_at=at(end), room=room)


# Exact examples


def test_plan_prefers_heavier_overlapping_session() -> None:
    slots = [slot("a", 0, 30), slot("b", 15, 45, "B"), slot("c", 45, 60)]
    result = plan(slots, {"a": 1, "b": 5, "c": 1})
    assert result.keys == ["b", "c"]
    assert result.total == 6
    assert result.weights == {"b": 5, "c": 1}


def test_plan_two_light_sessions_beat_one_heavier_across_them() -> None:
    slots = [slot("long", 0, 60, "B"), slot("x", 0, 30), slot("y", 30, 60)]
    assert plan(slots, {"long": 3, "x": 2, "y": 2}).keys == ["x", "y"]


def test_plan_back_to_back_in_same_room_needs_no_walk() -> None:
    slots = [slot("a", 0, 30, "A"), slot("b", 30, 60, "A")]
    assert plan(slots, {"a": 1, "b": 1}, walk=10).keys == ["a", "b"]


def test_plan_walking_time_between_rooms_is_respected() -> None:
    slots = [slot("a", 0, 30, "A"), slot("b", 35, 60, "B"), slot("c", 40, 60, "B")]
    weights = {"a": 2, "b": 2, "c": 1}
    assert plan(slots, weights, walk=5).keys == ["a", "b"]
    assert plan(slots, weights, walk=6).keys == ["a", "c"]
    assert plan(slots, weights, walk=11).keys == ["a"]


def test_plan_walking_matrix_per_pair_of_rooms() -> None:
    slots = [slot("a", 0, 30, "A"), slot("near", 32, 60, "B"), slot("far", 32, 60, "C")]
    minutes = {("A", "B"): 2, ("A", "C"): 20}

    def walk(first: str | None, second: str | None) -> int:
        return minutes.get((first, second), 30)  # type: ignore[arg-type]  # rooms are named

    weights = {"a": 2, "near": 1, "far": 2}
    assert plan(slots, weights, walk=walk).keys == ["a", "near"]
    assert plan(slots, weights, walk=0).keys == ["a", "far"]


def test_plan_session_without_room_always_needs_the_walk() -> None:
    slots = [slot("a", 0, 30, None), slot("b", 30, 60, None)]
    assert plan(slots, {"a": 1, "b": 1}, walk=5).keys == ["a"]  # a tie: the earlier
    assert plan(slots, {"a": 1, "b": 1}, walk=0).keys == ["a", "b"]


def test_plan_sessions_starting_together_clash_even_zero_length() -> None:
    slots = [slot("z", 0, 0, "A"), slot("w", 0, 30, "B")]
    result = plan(slots, {"z": 1, "w": 1})
    assert result.keys == ["z"]
    assert can_follow(slots[0], slots[1]) is False


def test_plan_leaves_out_weightless_sessions() -> None:
    slots = [slot("a", 0, 30), slot("b", 30, 60)]
    assert plan(slots, {"a": 1}).keys == ["a"]
    assert plan(slots, {}).keys == []
    assert plan([], {}).total == 0


def test_plan_refuses_negative_weight() -> None:
    with pytest.raises(ValueError, match=r"weights must not be negative: 'a' has -1"):
        plan([slot("a", 0, 30)], {"a": -1})


def test_plan_refuses_negative_walk() -> None:
    with pytest.raises(ValueError, match=r"walking time from None to None is negative \(-5\)"):
        plan([slot("a", 0, 30)], {"a": 1}, walk=-5)


def test_slot_refuses_end_before_start() -> None:
    with pytest.raises(ValueError, match=r"session 'bad' ends before it starts"):
        slot("bad", 30, 0)


def test_greedy_can_be_worse_than_exact() -> None:
    slots = [slot("big", 0, 60, "B"), slot("x", 0, 30), slot("y", 30, 60)]
    weights = {"big": 3, "x": 2, "y": 2}
    assert greedy_plan(slots, weights).keys == ["big"]
    assert plan(slots, weights).keys == ["x", "y"]


def test_weigh_adds_each_match() -> None:
    rows = [
        Facts(key="t", track="training", level="advanced", text="fast compilers", speakers=()),
        Facts(key="k", track="other", text="running models on phones", speakers=("ada lovelace",)),
        Facts(key="n", track="other", level="advanced", text="nothing"),
    ]
    interests = Interests(
        tracks=frozenset({"training"}),
        levels=frozenset({"advanced"}),
        keywords=("phone", "compil"),
        speakers=("lovelace",),
    )
    assert weigh(rows, interests) == {
        "t": TRACK_WEIGHT + LEVEL_WEIGHT + KEYWORD_WEIGHT,
        "k": KEYWORD_WEIGHT + SPEAKER_WEIGHT,
        "n": 0,  # a level alone does not count when other interests were named
    }


def test_weigh_levels_alone_count() -> None:
    rows = [Facts(key="a", level="advanced"), Facts(key="b", level="beginner")]
    assert weigh(rows, Interests(levels=frozenset({"advanced"}))) == {"a": LEVEL_WEIGHT, "b": 0}


def test_weigh_keyword_starts_a_word() -> None:
    rows = [Facts(key="a", text="red hat"), Facts(key="b", text="that")]
    assert weigh(rows, Interests(keywords=("hat",))) == {"a": KEYWORD_WEIGHT, "b": 0}


def test_weigh_must_see_outweighs_all_others() -> None:
    rows = [Facts(key="a", track="t"), Facts(key="b", track="t"), Facts(key="m")]
    weights = weigh(rows, Interests(tracks=frozenset({"t"}), must_see=frozenset({"m"})))
    assert weights == {"a": TRACK_WEIGHT, "b": TRACK_WEIGHT, "m": 2 * TRACK_WEIGHT + 1}


def test_must_see_taken_over_many_others() -> None:
    slots = [slot("m", 0, 120, "B"), slot("a", 0, 30), slot("b", 30, 60), slot("c", 60, 90)]
    rows = [Facts(key=k, track="t") for k in "abc"] + [Facts(key="m")]
    weights = weigh(rows, Interests(tracks=frozenset({"t"}), must_see=frozenset({"m"})))
    assert plan(slots, weights).keys == ["m"]


def test_must_see_clashes_named_in_time_order() -> None:
    slots = [slot("m1", 0, 30, "A"), slot("m2", 20, 50, "B"), slot("m3", 32, 60, "A")]
    assert must_see_clashes(slots, {"m1", "m2", "m3"}) == [("m1", "m2"), ("m2", "m3")]
    assert must_see_clashes(slots, {"m1", "m3"}, walk=5) == []
    assert must_see_clashes(slots, {"m2", "m3"}, walk=0) == [("m2", "m3")]


# Properties

ROOMS = ["A", "B", "C", None]


@st.composite
def instances(draw: st.DrawFn, max_size: int = 12) -> tuple[list[Slot], dict[str, int]]:
    count = draw(st.integers(min_value=0, max_value=max_size))
    slots, weights = [], {}
    for index in range(count):
        start = draw(st.integers(min_value=0, max_value=40)) * 5
        length = draw(st.integers(min_value=0, max_value=12)) * 5
        key = f"s{index}"
        slots.append(slot(key, start, start + length, draw(st.sampled_from(ROOMS))))
        weights[key] = draw(st.integers(min_value=0, max_value=20))
    return slots, weights


walks = st.one_of(
    st.integers(min_value=0, max_value=15),
    st.dictionaries(
        st.tuples(st.sampled_from(ROOMS), st.sampled_from(ROOMS)),
        st.integers(min_value=0, max_value=20),
    ).map(lambda table: lambda a, b: table.get((a, b), 7)),
)


def brute_force(slots: list[Slot], weights: dict[str, int], walk: object) -> int:
    best = 0
    for size in range(1, len(slots) + 1):
        for subset in combinations(slots, size):
            if is_feasible(subset, walk=walk):  # type: ignore[arg-type]  # a Walk
                best = max(best, sum(weights[s.key] for s in subset))
    return best


@settings(max_examples=150, deadline=None)
@given(instances(max_size=9), walks)
def test_plan_equals_brute_force(case: tuple, walk: object) -> None:
    slots, weights = case
    assert plan(slots, weights, walk=walk).total == brute_force(slots, weights, walk)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(instances(max_size=12), st.integers(min_value=0, max_value=15))
def test_plan_equals_brute_force_twelve_sessions(case: tuple, walk: int) -> None:
    slots, weights = case
    assert plan(slots, weights, walk=walk).total == brute_force(slots, weights, walk)


@settings(max_examples=200, deadline=None)
@given(instances(max_size=40), walks)
def test_plan_never_clashes_and_never_worse_than_greedy(case: tuple, walk: object) -> None:
    slots, weights = case
    result = plan(slots, weights, walk=walk)  # type: ignore[arg-type]
    assert is_feasible(result.slots, walk=walk)  # type: ignore[arg-type]
    assert result.slots == sorted(result.slots, key=lambda s: (s.starts_at, s.ends_at))
    assert result.total == sum(weights[s.key] for s in result.slots)
    assert all(weights[s.key] > 0 for s in result.slots)
    assert result.total >= greedy_plan(slots, weights, walk=walk).total  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(instances(max_size=10), st.integers(min_value=0, max_value=15), st.data())
def test_plan_takes_every_must_see_that_fits(case: tuple, walk: int, data: st.DataObject) -> None:
    slots, _ = case
    keys = [s.key for s in slots]
    must = frozenset(data.draw(st.lists(st.sampled_from(keys), unique=True)) if keys else [])
    rows = [Facts(key=s.key, track="t" if i % 2 else "") for i, s in enumerate(slots)]
    weights = weigh(rows, Interests(tracks=frozenset({"t"}), must_see=must))
    result = plan(slots, weights, walk=walk)
    taken = {s.key for s in result.slots} & must
    # The most must-sees that can be attended together: checked by brute force.
    musts = [s for s in slots if s.key in must]
    most = max(
        (
            len(c)
            for n in range(len(musts) + 1)
            for c in combinations(musts, n)
            if is_feasible(c, walk=walk)
        ),
        default=0,
    )
    assert len(taken) == most
    if not must_see_clashes(slots, must, walk=walk):
        assert taken == must
