"""The rush on a workshop, for real: 1,000 signed-in attendees reserve its 30 seats in the same
second through `confsched serve` (gunicorn, 4 workers) on PostgreSQL, then some give up their
seats while others still arrive. Nobody is overbooked, the waitlist keeps the order requests
were accepted in, each freed seat goes to the next in line, and no request fails. The same,
smaller, on SQLite (one write lock, taken before any read of the transaction).

Needs PostgreSQL on this machine (CI has it) for its part; skips it otherwise unless
CONFSCHED_REQUIRE_SERVICES is set. Speed is the benchmark's business (bench/reservations.py),
not this test's.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import in_its_pass, unavailable
from tests.served_demo import bench_modules, free_port, reachable


@pytest.fixture
def storm() -> list[object]:
    return bench_modules("storm", "serving")


@pytest.mark.parametrize(
    ("database", "attendees", "seats", "late"),
    [("postgres", 1000, 30, 200), ("sqlite", 300, 10, 60)],
)
def test_attendees_rush_a_workshop_s_seats(
    storm: list[object], database: str, attendees: int, seats: int, late: int
) -> None:
    in_its_pass(database)
    if database == "postgres" and not reachable(5432):
        unavailable("PostgreSQL on 5432 is needed", "CONFSCHED_REQUIRE_SERVICES")
    driver, serving = storm
    with serving.fresh_site(database, name="confsched_storm") as env:
        people = driver.prepare(env, count=attendees + late, seats=seats)
        first, later = people[:attendees], people[attendees:]
        port = free_port()
        with serving.served(env, port=port, workers=4):
            opening = driver.rush(port, [(person, "reserve") for person in first])
            after_opening = driver.seats_held(env)
            # Ten with a seat and ten on the waitlist give up while more arrive.
            order = after_opening["usernames"]
            leaving = set(order[:10]) | set(order[seats : seats + 10])
            mixed = [(p, "cancel") for p in first if p.username in leaving] + [
                (p, "reserve") for p in later
            ]
            second = driver.rush(port, mixed)
            after = driver.seats_held(env)
    keys = (
        "rows", "people", "confirmed", "waitlisted", "promoted", "confirmed_first",
        "times_in_order",
    )  # fmt: skip
    assert Counter(opening.statuses) == {200: attendees}
    assert {k: after_opening[k] for k in keys} == {
        "rows": attendees, "people": attendees, "confirmed": seats,
        "waitlisted": attendees - seats, "promoted": 0, "confirmed_first": True,
        "times_in_order": True,
    }  # fmt: skip
    assert Counter(second.statuses) == {200: 20 + late}
    assert {k: after[k] for k in keys} == {
        "rows": attendees - 20 + late, "people": attendees - 20 + late, "confirmed": seats,
        "waitlisted": attendees - seats - 20 + late, "promoted": 10, "confirmed_first": True,
        "times_in_order": True,
    }  # fmt: skip
    # The ten promoted are the first ten who stayed on the waitlist, in order.
    stayed = [name for name in order[seats:] if name not in leaving]
    assert (
        after["usernames"][:seats] == [n for n in order[:seats] if n not in leaving] + stayed[:10]
    )


# The event allows one seat at a time; a second workshop overlaps the first by an hour.
_SECOND_WORKSHOP = """
from datetime import timedelta
import django
django.setup()
from confsched.programme.models import Event, Session
event = Event.objects.get(slug="storm")
first = Session.objects.get(event=event, key="workshop")
event.allow_double_booking = False
event.save(update_fields=["allow_double_booking"])
Session.objects.create(
    event=event, key="workshop-b", title="Workshop B", room=first.room, seats=first.seats,
    starts_at=first.starts_at + timedelta(hours=1), ends_at=first.ends_at + timedelta(hours=1))
"""


@pytest.mark.parametrize("database", ["postgres", "sqlite"])
def test_two_overlapping_workshops_reserved_at_once_give_each_person_one_seat(
    storm: list[object], database: str
) -> None:
    """Each of 100 attendees presses "Reserve" on two overlapping workshops at the same moment:
    one press wins, the other is refused (409), and nobody holds two."""
    in_its_pass(database)
    if database == "postgres" and not reachable(5432):
        unavailable("PostgreSQL on 5432 is needed", "CONFSCHED_REQUIRE_SERVICES")
    driver, serving = storm
    with serving.fresh_site(database, name="confsched_overlap") as env:
        people = driver.prepare(env, count=100, seats=500)
        serving.in_site(env, _SECOND_WORKSHOP)
        port = free_port()
        with serving.served(env, port=port, workers=4):
            both = [(p, "reserve", key) for p in people for key in ("workshop", "workshop-b")]
            done = driver.rush(port, both, clients=40, fresh=True)
        held = driver.select(
            env,
            "SELECT u.username, COUNT(*) FROM agenda_reservation r "
            "JOIN auth_user u ON u.id = r.user_id GROUP BY u.username HAVING COUNT(*) > {}",
            [0],
        )
    assert Counter(done.statuses) == {200: 100, 409: 100}
    assert Counter(count for _, count in held) == {1: 100}
