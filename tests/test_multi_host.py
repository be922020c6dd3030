"""Several hosts, kept true: three app hosts (each `confsched serve`, a data folder of its own)
on one PostgreSQL and one Redis, behind the shipped nginx inside Debian's nginx.conf, take a
storm of 3,000 stars and reservations, and one host is killed in the middle of it, every
process at once (a network namespace of its own when root, tests/hosts.py). The failed
requests are sent once more, as a phone's retry would; then nothing is lost, nothing is held
twice, and the workshop holds exactly its seats.

Runs in the PostgreSQL pass (several hosts cannot share SQLite); needs PostgreSQL and Redis
(CI has both), skips otherwise unless CONFSCHED_REQUIRE_SERVICES is set. Every wait is bounded
(tests/hosts.py, the rush's 60 s a request).
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import in_its_pass, unavailable
from tests.front import NGINX, nginx_conf, running_nginx
from tests.hosts import app_hosts
from tests.served_demo import bench_modules, free_port, reachable

REDIS = os.environ.get("CONFSCHED_TEST_REDIS_HOSTS", "redis://127.0.0.1:6379/12")
ATTENDEES, SEATS = 1000, 30
# Two talks each attendee stars, beside the workshop they reserve: 3,000 requests.
TALKS = ("talk-a", "talk-b")
KILL_AFTER = 1000  # requests nginx has logged when the second host is killed

_TALKS = """
from datetime import timedelta
import django
django.setup()
from confsched.programme.models import Event, Session
event = Event.objects.get(slug="storm")
workshop = Session.objects.get(event=event, key="workshop")
for number, key in enumerate(("talk-a", "talk-b")):
    start = workshop.ends_at + timedelta(hours=number)
    Session.objects.create(event=event, key=key, title=key, room=workshop.room,
                           starts_at=start, ends_at=start + timedelta(minutes=45))
"""


def _kill_when_logged(log: Path, host: object, count: int, done: threading.Event) -> list[int]:
    """Kill `host` once nginx has logged `count` requests; what it had logged then (a list,
    filled by the thread)."""
    seen: list[int] = []

    def watch() -> None:
        deadline = time.monotonic() + 300
        while not done.is_set() and time.monotonic() < deadline:
            logged = log.read_bytes().count(b"\n") if log.exists() else 0
            if logged >= count:
                host.kill()  # type: ignore[attr-defined]
                seen.append(logged)
                return
            time.sleep(0.02)

    threading.Thread(target=watch, daemon=True).start()
    return seen


def test_three_hosts_hold_a_storm_with_one_killed(tmp_path: Path) -> None:
    in_its_pass("postgres")
    if not (reachable(5432) and reachable(6379)):
        unavailable("PostgreSQL on 5432 and Redis on 6379 are needed", "CONFSCHED_REQUIRE_SERVICES")
    if not NGINX.exists():
        unavailable("nginx is needed (make nginx)", "CONFSCHED_REQUIRE_SERVICES")
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    driver, serving = bench_modules("storm", "serving")
    with serving.fresh_site("postgres", name="confsched_hosts") as env:
        env["REDIS_URL"] = REDIS
        people = driver.prepare(env, count=ATTENDEES, seats=SEATS)
        serving.in_site(env, _TALKS)
        # Each attendee's three presses apart in time, as three people's are.
        requests = [(p, "reserve", "workshop") for p in people] + [
            (p, "star", talk) for talk in TALKS for p in people
        ]
        work = tmp_path / "nginx"
        work.mkdir()
        port = free_port()
        with app_hosts(env) as hosts:
            static = Path(env["CONFSCHED_DATA_DIR"]) / "host1" / "static"
            apps = [host.upstream for host in hosts]
            conf = nginx_conf(work, static=static, port=port, apps=apps, keepalive=16)
            with running_nginx(work, conf):
                finished = threading.Event()
                killed_at = _kill_when_logged(
                    work / "logs" / "access.log", hosts[1], KILL_AFTER, finished
                )
                storm = driver.rush(port, requests)
                finished.set()
                failed = [index for index, status in enumerate(storm.statuses) if status != 200]
                retry = driver.rush(port, [requests[index] for index in failed], clients=10)
                alive = [host.server.poll() is None for host in hosts]
        held = driver.seats_held(env)
        stars = driver.select(
            env,
            "SELECT s.key, COUNT(*), COUNT(DISTINCT f.user_id) FROM agenda_agendaitem f "
            "JOIN programme_session s ON s.id = f.session_id WHERE s.key IN ({}, {}) "
            "GROUP BY s.key ORDER BY s.key",
            list(TALKS),
        )
    print(
        f"\nkilled after {killed_at} logged; first pass {Counter(storm.statuses)}, "
        f"{storm.per_second:.0f}/s; retried {len(failed)}: {Counter(retry.statuses)}"
    )
    # The host died in the middle of the storm, and the other two served on.
    assert len(killed_at) == 1 and KILL_AFTER <= killed_at[0] < len(requests)
    assert alive == [True, False, True]
    # One retry of what failed, and every press took.
    assert Counter(retry.statuses) == {200: len(failed)}
    # Nothing lost, nothing twice: one reservation an attendee, the seats exactly filled, the
    # rest waitlisted behind them; one star an attendee a talk.
    keys = ("rows", "people", "confirmed", "waitlisted", "confirmed_first")
    assert {key: held[key] for key in keys} == {
        "rows": ATTENDEES, "people": ATTENDEES, "confirmed": SEATS,
        "waitlisted": ATTENDEES - SEATS, "confirmed_first": True,
    }  # fmt: skip
    assert stars == [("talk-a", ATTENDEES, ATTENDEES), ("talk-b", ATTENDEES, ATTENDEES)]


@pytest.mark.parametrize("as_root", [True, False])
def test_hosts_are_namespaces_as_root_and_loopback_addresses_otherwise(
    as_root: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which kind of host the test makes, by who runs it (no host is started here)."""
    from tests import hosts

    monkeypatch.setattr(hosts.os, "geteuid", lambda: 0 if as_root else 1000)
    if as_root and not hosts.can_make_namespaces():
        pytest.skip("this machine refuses network namespaces even to root")
    assert hosts.can_make_namespaces() is as_root
