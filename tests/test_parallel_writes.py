"""200 attendees save at the same moment through `confsched serve` (4 workers): profiles, alert
settings, share links, reminders, stars and ratings, each a request that reads and then
writes. Every one is answered as saved and is in the database, on SQLite as on PostgreSQL.

On SQLite, a transaction that read before asking for the write lock could not get it once
another writer had committed, and was answered 503 at once: 54 of 200 here before every
transaction took the lock at its start (settings.py, transaction_mode IMMEDIATE).
bench/writers.py prints the same round as a table.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import in_its_pass, unavailable
from tests.served_demo import bench_modules, free_port, reachable

WRITERS = 200


@pytest.fixture
def writers() -> list[object]:
    return bench_modules("writers", "serving")


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_two_hundred_attendees_saving_at_once_lose_nothing(
    writers: list[object], database: str
) -> None:
    in_its_pass(database)
    if database == "postgres" and not reachable(5432):
        unavailable("PostgreSQL on 5432 is needed", "CONFSCHED_REQUIRE_SERVICES")
    driver, serving = writers
    with serving.fresh_site(database, name="confsched_writers") as env:
        env["CONFSCHED_PROXY_COUNT"] = "1"  # each attendee's address, as the driver sends it
        people = driver.prepare(env, count=WRITERS)
        port = free_port()
        with serving.served(env, port=port, workers=4):
            done = driver.write_at_once(port, people)
        held = driver.saved(env)
    per_kind = Counter(done.kinds)
    # Every form answers a saved write with a redirect back to its page.
    assert {kind: done.statuses_of(kind) for kind in per_kind} == {
        kind: Counter({302: count}) for kind, count in per_kind.items()
    }
    assert held == dict(per_kind)
    assert sum(held.values()) == WRITERS


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_each_write_sent_twice_at_the_same_moment_is_saved_once(
    writers: list[object], database: str
) -> None:
    """A double tap, or the page's retry racing a first request whose answer is late: both
    are answered as saved, and the database holds one star, one seat, one rating each."""
    in_its_pass(database)
    if database == "postgres" and not reachable(5432):
        unavailable("PostgreSQL on 5432 is needed", "CONFSCHED_REQUIRE_SERVICES")
    driver, serving = writers
    with serving.fresh_site(database, name="confsched_twice") as env:
        env["CONFSCHED_PROXY_COUNT"] = "1"
        people = driver.prepare(env, count=70)
        port = free_port()
        with serving.served(env, port=port, workers=4):
            done = driver.write_at_once(port, people, times=2)
        held = driver.saved(env)
    per_person = Counter(driver.KINDS[n % len(driver.KINDS)] for n in range(len(people)))
    assert {kind: done.statuses_of(kind) for kind in per_person} == {
        kind: Counter({302: 2 * count}) for kind, count in per_person.items()
    }
    assert held == dict(per_person)
