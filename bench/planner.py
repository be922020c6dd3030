"""The clash-free planner on a large event: how long one plan takes.

Usage: python bench/planner.py [--sessions 5000] [--rooms 20] [--walk 5] [--repeat 5]

Builds --sessions sessions over three days in --rooms rooms (random starts on a 5-minute grid,
10 to 90 minutes long, random weights 0..12 with a few must-sees), then times plan() with one
walking time for every change of room, with a full walking matrix, and weigh() + plan() from
interests. Prints the best of --repeat runs of each, in milliseconds, and the plan's size.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime, timedelta

from confsched.agenda.planner import Facts, Interests, Slot, plan, weigh


def build(count: int, rooms: int, seed: int = 7) -> tuple[list[Slot], list[Facts]]:
    chance = random.Random(seed)  # noqa: S311 - made-up data, no secret
    start = datetime(2026, 4, 7, 7, tzinfo=UTC)
    slots, facts = [], []
    for index in range(count):
        day = chance.randrange(3)
        begins = start + timedelta(days=day, minutes=5 * chance.randrange(12 * 12))
        length = timedelta(minutes=chance.randrange(10, 91, 5))
        key = f"s{index}"
        room = f"room-{chance.randrange(rooms)}"
        slots.append(Slot(key=key, starts_at=begins, ends_at=begins + length, room=room))
        facts.append(
            Facts(
                key=key,
                track=f"track-{chance.randrange(10)}",
                level=chance.choice(["any", "intermediate", "advanced"]),
                text=" ".join(
                    chance.choice(["compiler", "kernel", "agents", "edge"]) for _ in range(3)
                ),
            )
        )
    return slots, facts


def best_ms(run, repeat: int) -> float:  # noqa: ANN001 - any callable
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=5000)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--walk", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    slots, facts = build(args.sessions, args.rooms)
    chance = random.Random(1)  # noqa: S311 - made-up data, no secret
    weights = {s.key: chance.randrange(13) for s in slots}
    matrix = {
        (f"room-{a}", f"room-{b}"): chance.randrange(0, 11)
        for a in range(args.rooms)
        for b in range(args.rooms)
    }
    interests = Interests(
        tracks=frozenset({"track-1", "track-2"}),
        levels=frozenset({"advanced"}),
        keywords=("compiler",),
        must_see=frozenset(s.key for s in slots[:: max(1, args.sessions // 20)]),
    )
    single = plan(slots, weights, walk=args.walk)
    print(f"{args.sessions} sessions, {args.rooms} rooms")
    print(
        f"plan, one walking time ({args.walk} min): {best_ms(lambda: plan(slots, weights, walk=args.walk), args.repeat):.1f} ms, {len(single.slots)} sessions, total {single.total}"
    )
    print(
        f"plan, walking matrix: {best_ms(lambda: plan(slots, weights, walk=lambda a, b: matrix[(a, b)]), args.repeat):.1f} ms"
    )
    print(
        f"weigh + plan from interests: {best_ms(lambda: plan(slots, weigh(facts, interests), walk=args.walk), args.repeat):.1f} ms"
    )


if __name__ == "__main__":
    main()
