"""Many attendees saving at the same moment through a real `confsched serve`: their profile,
their alert setting, their agenda's share link, their reminders, a star, a rating and a seat,
each a request that reads and then writes (or each sent twice at once, as a double tap or a
retry racing the first). What came back, and what the database holds afterwards.

Shared by the parallel-writes benchmark (`python bench/writers.py`) and the test
(tests/test_parallel_writes.py). The attendees are storm.py's: real accounts with their own
session and CSRF cookies. The rating goes to a talk that began an hour ago (feedback is open
from a session's start).
"""

from __future__ import annotations

import argparse
import http.client
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import storm
from serving import free_port, fresh_site, in_site, percentile, served, together

ROOT = Path(__file__).resolve().parent.parent
EVENT = storm.EVENT
TALK = "talk"

# What each kind of write posts, and where (the forms' own fields).
WRITES: dict[str, tuple[str, str]] = {
    "profile": (f"/{EVENT}/profile/", "is_public=on&display_name=Ada+{n}&company=Lab&role=&links="),
    "alerts": (f"/{EVENT}/agenda/alerts", "alerts=on"),
    "share": (f"/{EVENT}/agenda/share", "share=on&display_name=Ada+{n}"),
    "reminders": (f"/{EVENT}/agenda/reminders", "minutes=10&by_mail=on"),
    "star": (f"/{EVENT}/sessions/{TALK}/star", "starred=1"),
    "seat": (f"/{EVENT}/sessions/{storm.KEY}/reserve", "action=reserve"),
    "feedback": (f"/{EVENT}/sessions/{TALK}/feedback/", "rating=4&comment=Clear+{n}"),
}
KINDS = tuple(WRITES)


@dataclass
class Writes:
    """What one round of writes did: per request its kind and status, and latencies."""

    kinds: list[str] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0

    def statuses_of(self, kind: str) -> Counter:
        return Counter(s for k, s in zip(self.kinds, self.statuses, strict=True) if k == kind)


_TALK = """
from datetime import timedelta
import django
django.setup()
from django.utils import timezone
from confsched.programme.models import Event, Room, Session
event = Event.objects.get(slug="storm")
room = Room.objects.get(event=event, slug="lab")
start = timezone.now() - timedelta(hours=1)
Session.objects.get_or_create(event=event, key="talk", defaults=dict(
    title="Talk", room=room, starts_at=start, ends_at=start + timedelta(minutes=30)))
"""


def prepare(env: dict[str, str], *, count: int) -> list[storm.Attendee]:
    """`count` signed-in attendees of the storm event, which gets a talk under way."""
    people = storm.prepare(env, count=count, seats=10, prefix="w")
    in_site(env, _TALK)
    return people


def _post(port: int, attendee: storm.Attendee, kind: str, n: int) -> int:
    path, body = WRITES[kind]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        # Each attendee from an address of their own, as phones on a venue's network are not
        # (they share a few): the throttles count per address too.
        address = {"X-Forwarded-For": f"10.0.{n // 250}.{n % 250 + 1}"}
        return storm.post_form(connection, attendee, path, body.format(n=n), address)
    except (OSError, http.client.HTTPException):
        return -1
    finally:
        connection.close()


def write_at_once(port: int, people: list[storm.Attendee], *, times: int = 1) -> Writes:
    """Each attendee sends one write, the kinds in turn, all released at the same moment;
    `times` 2: each sends it twice at that moment (a double tap, a retry racing the first)."""
    sent_by = [n for n in range(len(people)) for _ in range(times)]
    result = Writes(
        kinds=[KINDS[n % len(KINDS)] for n in sent_by],
        statuses=[0] * len(sent_by), latencies=[0.0] * len(sent_by),
    )  # fmt: skip

    def one(index: int) -> None:
        n = sent_by[index]
        sent = time.perf_counter()
        result.statuses[index] = _post(port, people[n], result.kinds[index], n)
        result.latencies[index] = time.perf_counter() - sent

    result.wall = together(len(sent_by), one)
    return result


_COUNT = """
import json
import django
django.setup()
from confsched.agenda.models import (AgendaItem, AgendaLinks, AlertSubscription,
    AttendeeProfile, Feedback, ReminderSetting, Reservation)
print(json.dumps({
    "profile": AttendeeProfile.objects.filter(is_public=True, company="Lab").count(),
    "alerts": AlertSubscription.objects.filter(is_on=True).count(),
    "share": AgendaLinks.objects.filter(share_token__isnull=False).count(),
    "reminders": ReminderSetting.objects.filter(minutes=10).count(),
    "star": AgendaItem.objects.filter(session__key="talk").count(),
    "feedback": Feedback.objects.filter(rating=4).count(),
    "seat": Reservation.objects.filter(session__key="workshop").count(),
}))
"""


def saved(env: dict[str, str]) -> dict[str, int]:
    """How many of each kind of write the database holds."""
    out = in_site(env, _COUNT)
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--writers", type=int, default=200)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    print(
        "| database | writers | round | 2xx/3xx | 503 | other | saved | p50 ms | p99 ms | wall s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for database in args.databases.split(","):
        for round_number in range(1, args.rounds + 1):
            with fresh_site(database, name="confsched_writers") as env:
                env["CONFSCHED_PROXY_COUNT"] = "1"
                people = prepare(env, count=args.writers)
                port = free_port()
                with served(env, port=port, workers=args.workers):
                    done = write_at_once(port, people)
                held = saved(env)
            statuses = Counter(done.statuses)
            ok = sum(n for status, n in statuses.items() if 200 <= status < 400)
            other = len(done.statuses) - ok - statuses[503]
            print(
                f"| {database} | {args.writers} | {round_number} | {ok} | {statuses[503]} | "
                f"{other} | {sum(held.values())} | {percentile(done.latencies, 0.5) * 1000:.0f} | "
                f"{percentile(done.latencies, 0.99) * 1000:.0f} | {done.wall:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
