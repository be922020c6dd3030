"""The rush on a workshop, for real: 1,000 signed-in attendees reserve its 30 seats in the same
second through `confsched serve` (gunicorn, 4 workers) on PostgreSQL, then some give up their
seats while others still arrive. Nobody is overbooked, the waitlist keeps the order requests
were accepted in, each freed seat goes to the next in line, and no request fails.

Needs PostgreSQL on this machine (CI has it); skips otherwise unless CONFSCHED_REQUIRE_SERVICES
is set. Speed is the benchmark's business (bench/reservations.py), not this test's.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.conftest import ROOT, unavailable
from tests.served_demo import free_port, reachable

pytestmark = pytest.mark.skipif(
    not reachable(5432) and "CONFSCHED_REQUIRE_SERVICES" not in __import__("os").environ,
    reason="needs PostgreSQL on 127.0.0.1:5432",
)

ATTENDEES, SEATS, LATE = 1000, 30, 200


@pytest.fixture
def storm() -> Iterator[object]:
    if not reachable(5432):
        unavailable("PostgreSQL on 5432 is needed", "CONFSCHED_REQUIRE_SERVICES")
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import serving
        import storm as storm_module

        yield storm_module, serving
    finally:
        sys.path.remove(str(ROOT / "bench"))


def test_a_thousand_attendees_rush_thirty_seats(storm: tuple[object, object]) -> None:
    driver, serving = storm
    with serving.fresh_site("postgres", name="confsched_storm") as env:
        attendees = driver.prepare(env, count=ATTENDEES + LATE, seats=SEATS)
        first, late = attendees[:ATTENDEES], attendees[ATTENDEES:]
        port = free_port()
        with serving.served(env, port=port, workers=4):
            opening = driver.rush(port, [(person, "reserve") for person in first])
            after_opening = driver.seats_held(env["DATABASE_URL"])
            # Ten with a seat and ten on the waitlist give up while 200 more arrive.
            order = after_opening["usernames"]
            leaving = set(order[:10]) | set(order[SEATS : SEATS + 10])
            mixed = [(p, "cancel") for p in first if p.username in leaving] + [
                (p, "reserve") for p in late
            ]
            second = driver.rush(port, mixed)
            after = driver.seats_held(env["DATABASE_URL"])
    assert Counter(opening.statuses) == {200: ATTENDEES}
    assert {k: after_opening[k] for k in ("rows", "people", "confirmed", "waitlisted",
                                          "promoted", "confirmed_first")} == {
        "rows": 1000, "people": 1000, "confirmed": 30, "waitlisted": 970, "promoted": 0,
        "confirmed_first": True,
    }  # fmt: skip
    assert Counter(second.statuses) == {200: 20 + LATE}
    assert {k: after[k] for k in ("rows", "people", "confirmed", "waitlisted", "promoted",
                                  "confirmed_first")} == {
        "rows": 1000 - 20 + LATE, "people": 1000 - 20 + LATE, "confirmed": 30,
        "waitlisted": 970 - 20 + LATE, "promoted": 10, "confirmed_first": True,
    }  # fmt: skip
    # The ten promoted are the first ten who stayed on the waitlist, in order.
    stayed = [name for name in order[SEATS:] if name not in leaving]
    assert (
        after["usernames"][:SEATS] == [n for n in order[:SEATS] if n not in leaving] + stayed[:10]
    )
