"""The clash-free planner: the agenda of greatest worth in which one can attend every session.

Pure: no ORM, no clock. Weighted interval scheduling, exact, with walking time between rooms.

What "attend every session" means here: the chosen sessions, in time order, are attended one
after the other, so each must start no earlier than the previous one's end plus the time to
walk from its room to the next one's (nothing between the same room; a session without a room
is somewhere unknown, so any move to or from it takes the walking time). Only consecutive
picks matter: one walks A -> B -> C, never A -> C. Two sessions that start at the same moment
always clash, even zero-length ones (as in agenda/planning.py).

The dynamic programme: sessions sorted by (end, start); best(i) is the greatest worth of a
plan that ends with session i: its weight plus the best plan ending with a session that may
come right before it. For each room, the sessions of that room are kept in (end, start) order
with a running maximum of best(), so "the best predecessor in room r" is one binary search
for the last session of r that ends early enough for the walk from r to i's room. That is
exact for any walking matrix, in O(n * rooms * log n); with one walking time for every change
of room it takes two searches per session (all rooms with the walk, i's own room without),
O(n log n). best() only looks back at sessions already computed, since a predecessor ends
before i starts.

Weights come from interests (`weigh`): tracks, levels, keywords and speakers add to a
session's weight, and each must-see session weighs more than all the other sessions together,
so a plan never gives up a must-see for any number of others, and takes as many must-sees as
fit. `must_see_clashes` names the must-sees that cannot all be taken.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from confsched.core.text import fold
from confsched.programme.filtering import search_text

# How much each kind of match adds to a session's weight.
TRACK_WEIGHT = 3
SPEAKER_WEIGHT = 3
KEYWORD_WEIGHT = 2
LEVEL_WEIGHT = 1


@dataclass(frozen=True)
class Slot:
    """A session as the planner sees it: when, where, and its key."""

    key: str
    starts_at: datetime
    ends_at: datetime
    room: str | None = None

    def __post_init__(self) -> None:
        if self.ends_at < self.starts_at:
            raise ValueError(f"session {self.key!r} ends before it starts")


# Minutes to walk from one room to another: one number for any change of room, or a function
# of (from room, to room) for a full matrix. Never asked for the same (known) room.
Walk = int | Callable[[str | None, str | None], int]


@dataclass(frozen=True)
class Plan:
    slots: list[Slot]  # in time order
    weights: dict[str, int]  # the chosen sessions' weights, by key
    total: int

    @property
    def keys(self) -> list[str]:
        return [slot.key for slot in self.slots]


def _walk_seconds(walk: Walk, first: str | None, second: str | None) -> int:
    if first is not None and first == second:
        return 0
    minutes = walk if isinstance(walk, int) else walk(first, second)
    if minutes < 0:
        raise ValueError(f"walking time from {first!r} to {second!r} is negative ({minutes})")
    return minutes * 60


def can_follow(first: Slot, second: Slot, *, walk: Walk = 0) -> bool:
    """Whether one can attend `second` right after `first` (walking between their rooms)."""
    if second.starts_at <= first.starts_at:
        return False
    gap = (second.starts_at - first.ends_at).total_seconds()
    return gap >= _walk_seconds(walk, first.room, second.room)


def is_feasible(slots: Iterable[Slot], *, walk: Walk = 0) -> bool:
    """Whether every session can be attended, one after the other in time order."""
    ordered = sorted(slots, key=lambda s: (s.starts_at, s.ends_at))
    return all(can_follow(a, b, walk=walk) for a, b in zip(ordered, ordered[1:], strict=False))


class _Lane:
    """Sessions of one room (or of all rooms) in (end, start) order, with running maxima."""

    def __init__(self) -> None:
        self.ends: list[tuple[int, int]] = []
        self.best: list[tuple[int, int]] = []  # (worth, index of the session giving it)

    def add(self, end: int, start: int, worth: int, index: int) -> None:
        self.ends.append((end, start))
        if self.best and self.best[-1][0] >= worth:
            self.best.append(self.best[-1])  # ties keep the earlier plan: deterministic
        else:
            self.best.append((worth, index))

    def before(self, start: int, walk: int) -> tuple[int, int] | None:
        """The best plan ending in this lane that `start` can follow after `walk` seconds."""
        if walk:
            # Ends at least `walk` before `start`; such a session started before `start` too.
            count = bisect_right(self.ends, (start - walk, start - walk))
        else:
            # Ends by `start`, and not a zero-length session at `start` (same start: a clash).
            count = bisect_left(self.ends, (start, start))
        return self.best[count - 1] if count else None


def plan(slots: Sequence[Slot], weights: Mapping[str, int], *, walk: Walk = 0) -> Plan:
    """The sessions of greatest total weight that can all be attended; weightless ones are
    left out. Ties go to the plan found first (sessions ending earlier), deterministically."""
    chosen = [slot for slot in slots if weights.get(slot.key, 0) > 0]
    if bad := [key for key, weight in weights.items() if weight < 0]:
        raise ValueError(f"weights must not be negative: {bad[0]!r} has {weights[bad[0]]}")
    if isinstance(walk, int):
        _walk_seconds(walk, None, None)  # refuses a negative walking time
    chosen.sort(key=lambda s: (s.ends_at, s.starts_at, s.key))
    base = min((s.starts_at for s in chosen), default=None)

    def seconds(moment: datetime) -> int:
        return int((moment - base).total_seconds()) if base else 0

    rooms = list(dict.fromkeys(slot.room for slot in chosen))
    lanes = {room: _Lane() for room in rooms}
    everywhere = _Lane()  # only used with one walking time for every change of room
    best: list[int] = []
    previous: list[int | None] = []
    for index, slot in enumerate(chosen):
        start, end = seconds(slot.starts_at), seconds(slot.ends_at)
        candidates: list[tuple[int, int] | None]
        if isinstance(walk, int):
            # From any room with the walk (stricter than needed from the same room, so still
            # valid), or from the same room without it: together, every predecessor.
            candidates = [everywhere.before(start, walk * 60)]
            if slot.room is not None:
                candidates.append(lanes[slot.room].before(start, 0))
        else:
            candidates = [
                lanes[room].before(start, _walk_seconds(walk, room, slot.room)) for room in rooms
            ]
        found = max((c for c in candidates if c), default=None, key=lambda c: (c[0], -c[1]))
        worth = weights[slot.key] + (found[0] if found else 0)
        best.append(worth)
        previous.append(found[1] if found else None)
        lanes[slot.room].add(end, start, worth, index)
        everywhere.add(end, start, worth, index)
    picks: list[Slot] = []
    if best:
        at: int | None = max(range(len(best)), key=lambda i: (best[i], -i))
        while at is not None:
            picks.append(chosen[at])
            at = previous[at]
    picks.reverse()
    return Plan(
        slots=picks,
        weights={slot.key: weights[slot.key] for slot in picks},
        total=sum(weights[slot.key] for slot in picks),
    )


def greedy_plan(slots: Sequence[Slot], weights: Mapping[str, int], *, walk: Walk = 0) -> Plan:
    """The obvious heuristic, heaviest first, taking each session that still fits: the
    baseline the exact planner must never fall below."""
    taken: list[Slot] = []
    for slot in sorted(slots, key=lambda s: (-weights.get(s.key, 0), s.starts_at, s.key)):
        if weights.get(slot.key, 0) > 0 and is_feasible([*taken, slot], walk=walk):
            taken.append(slot)
    taken.sort(key=lambda s: (s.starts_at, s.ends_at))
    return Plan(
        slots=taken,
        weights={s.key: weights[s.key] for s in taken},
        total=sum(weights[s.key] for s in taken),
    )


@dataclass(frozen=True)
class Interests:
    """What a person cares about; each match adds weight (see the *_WEIGHT constants)."""

    tracks: frozenset[str] = frozenset()  # track slugs
    levels: frozenset[str] = frozenset()  # level slugs
    keywords: tuple[str, ...] = ()  # folded words, each must start a word of the text
    speakers: tuple[str, ...] = ()  # folded names (or parts of names)
    must_see: frozenset[str] = frozenset()  # session keys

    @property
    def is_empty(self) -> bool:
        return not (self.tracks or self.levels or self.keywords or self.speakers or self.must_see)


@dataclass(frozen=True)
class Facts:
    """What weighing reads of a session: its key, facet slugs, folded text and speaker names."""

    key: str
    track: str = ""
    level: str = ""
    text: str = ""
    speakers: tuple[str, ...] = ()


def _interest_weight(facts: Facts, interests: Interests) -> int:
    weight = 0
    if facts.track and facts.track in interests.tracks:
        weight += TRACK_WEIGHT
    if facts.level and facts.level in interests.levels:
        weight += LEVEL_WEIGHT
    for word in interests.keywords:
        if re.search(rf"\b{re.escape(word)}", facts.text):
            weight += KEYWORD_WEIGHT
    for name in interests.speakers:
        if any(re.search(rf"\b{re.escape(name)}", person) for person in facts.speakers):
            weight += SPEAKER_WEIGHT
    return weight


def weigh(sessions: Iterable[Facts], interests: Interests) -> dict[str, int]:
    """Each session's weight. Levels only refine: a level match alone counts when the person
    named nothing but levels. Must-sees weigh more than all the others together."""
    rows = list(sessions)
    weights = {facts.key: _interest_weight(facts, interests) for facts in rows}
    if interests.tracks or interests.keywords or interests.speakers:
        # "Intermediate" alone should not fill the day with every intermediate session.
        weights = {
            key: weight if weight > LEVEL_WEIGHT or not interests.levels else 0
            for key, weight in weights.items()
        }
    musts = [facts.key for facts in rows if facts.key in interests.must_see]
    heavy = sum(weight for key, weight in weights.items() if key not in interests.must_see) + 1
    for key in musts:
        weights[key] = heavy
    return weights


def must_see_clashes(
    slots: Sequence[Slot], must_see: Collection[str], *, walk: Walk = 0
) -> list[tuple[str, str]]:
    """Pairs of must-see sessions (keys, in time order) that cannot both be attended."""
    musts = sorted(
        (slot for slot in slots if slot.key in must_see), key=lambda s: (s.starts_at, s.ends_at)
    )
    pairs = []
    for index, first in enumerate(musts):
        for second in musts[index + 1 :]:
            if not can_follow(first, second, walk=walk):
                pairs.append((first.key, second.key))
    return pairs


# From sessions as the programme stores them (duck-typed: anything with the same attributes).

MAX_WORDS = 20  # keywords or speaker names read from one request


def split_terms(text: str) -> tuple[str, ...]:
    """Comma-separated terms, folded; blank ones dropped, repeats once, at most MAX_WORDS."""
    terms = [" ".join(fold(part).split()) for part in text.split(",")]
    return tuple(dict.fromkeys(term for term in terms if term))[:MAX_WORDS]


def facts_of(session: Any) -> Facts:
    """A stored session's facts: needs its track, level and speaker_links loaded."""
    links = session.speaker_links.all()
    return Facts(
        key=session.key,
        track=session.track.slug if session.track else "",
        level=session.level.slug if session.level else "",
        text=search_text(session),
        speakers=tuple(fold(link.speaker.name) for link in links),
    )


def slot_of(session: Any) -> Slot:
    return Slot(
        key=session.key,
        starts_at=session.starts_at,
        ends_at=session.ends_at or session.starts_at,
        room=session.room.slug if session.room else None,
    )


@dataclass(frozen=True)
class Proposal:
    sessions: list[Any]  # the chosen sessions, in time order
    weights: dict[str, int]
    total: int
    must_clashes: list[tuple[Any, Any]]  # pairs of must-see sessions that cannot both be seen


def propose(sessions: Sequence[Any], interests: Interests, *, walk: Walk = 0) -> Proposal:
    """The plan for stored sessions (cancelled ones are never proposed)."""
    running = [session for session in sessions if not session.is_cancelled and session.starts_at]
    weights = weigh((facts_of(s) for s in running), interests)
    slots = [slot_of(s) for s in running]
    result = plan(slots, weights, walk=walk)
    by_key = {session.key: session for session in running}
    return Proposal(
        sessions=[by_key[key] for key in result.keys],
        weights=result.weights,
        total=result.total,
        must_clashes=[
            (by_key[a], by_key[b])
            for a, b in must_see_clashes(slots, interests.must_see, walk=walk)
        ],
    )
