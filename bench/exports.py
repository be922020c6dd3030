"""Exports and feeds at 5,000 sessions and 7,000 speakers: the first render after a server
start (nothing kept), the first after a change of one session (as an organizer's edit in the
admin makes it), a warm request and a conditional GET, on SQLite and PostgreSQL.

Usage: python bench/exports.py [--sizes 5000] [--databases sqlite,postgres] [--rounds 3]
                               [--src DIR,DIR] [--name confsched_bench_exports]

`--src` serves each source tree (its `src` folder first on PYTHONPATH) from its own
`confsched serve` (one worker each) over the same database, to compare two versions in one
run: each round renames one session, then asks every export once of each server, the servers
taking turns at going first. Cold and after-change figures are the worker's CPU milliseconds
for that one request (from /proc: other load on the machine does not count, but its 10 ms
ticks do); after a change, the median and range over the rounds. Warm and 304 are the best
wall-clock milliseconds of five requests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import textwrap
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from load import SETUP
from serving import CLOCK_TICKS, cpu_ticks, fresh_site, run, served, worker_pids

# Every export and the whole-event calendar.
URLS = [
    "schedule.json", "schedule.xml", "schedule2.json", "schedule.xcal",
    "schedule.rfc6321.xcal", "schedule.csv", "schedule.ics",
]  # fmt: skip

# An organizer renames a session in the admin: its row changes and the event's version moves.
CHANGE = textwrap.dedent(
    """
    import django, sys
    django.setup()
    from django.utils import timezone
    from confsched.programme.models import Event, Session
    event = Event.objects.get(slug="bench")
    Session.objects.filter(event=event, key=sys.argv[1]).update(
        title="Renamed at " + str(timezone.now()), updated_at=timezone.now()
    )
    Event.objects.filter(pk=event.pk).update(updated_at=timezone.now())
    """
)


def _get(url: str, **headers: str) -> tuple[float, int, str]:
    asked = urllib.request.Request(url, headers={"Accept-Encoding": "gzip", **headers})  # noqa: S310 - loopback
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(asked) as response:  # noqa: S310 - our own server
            body = response.read()
            status, etag = response.status, response.headers.get("ETag", "")
    except urllib.error.HTTPError as answer:
        body, status, etag = b"", answer.code, ""
    elapsed = (time.perf_counter() - started) * 1000
    if status not in (200, 304):
        raise RuntimeError(f"{url}: HTTP {status}")
    return elapsed, len(body), etag


def bench_one(
    database: str, size: int, trees: list[str], rounds: int, port: int, name: str
) -> None:
    with fresh_site(database, name=name) as env, ExitStack() as stack:
        run([sys.executable, "-c", SETUP, str(size)], env)
        servers = []
        for index, tree in enumerate(trees):
            tree_env = dict(env)
            if tree:
                tree_env["PYTHONPATH"] = str(Path(tree) / "src")
            server = stack.enter_context(served(tree_env, port=port + index, workers=1))
            servers.append(
                (
                    tree or "this tree",
                    f"http://127.0.0.1:{port + index}/bench/",
                    worker_pids(server.pid),
                )
            )

        def cpu_ms(url: str, pids: list[int]) -> tuple[float, int, str]:
            before = cpu_ticks(pids)
            _, length, etag = _get(url)
            return (cpu_ticks(pids) - before) * 1000 / CLOCK_TICKS, length, etag

        load = os.getloadavg()
        print(
            f"\n{database}, {size} sessions, {round(size * 1.372)} speakers, one worker per tree,"
            f" load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
        )
        cold = {
            (label, url): cpu_ms(base + url, pids) for label, base, pids in servers for url in URLS
        }
        changed: dict[tuple[str, str], list[float]] = {key: [] for key in cold}
        last: dict[tuple[str, str], tuple[float, int, str]] = {}
        for round_ in range(rounds):
            run([sys.executable, "-c", CHANGE, f"s{size // 2 + round_}"], env)
            # The servers take turns at going first.
            ordered = servers[round_ % len(servers) :] + servers[: round_ % len(servers)]
            for label, base, pids in ordered:
                for url in URLS:
                    last[label, url] = cpu_ms(base + url, pids)
                    changed[label, url].append(last[label, url][0])
        print(
            f"{'export':<22} {'tree':<24} {'cold CPU':>8} {'changed CPU (min-max)':>22}"
            f" {'warm ms':>8} {'304 ms':>7} {'gzip bytes':>11}"
        )
        for url in URLS:
            for label, base, _ in servers:
                warm = min(_get(base + url)[0] for _ in range(5))
                etag = last[label, url][2]
                not_modified = min(_get(base + url, **{"If-None-Match": etag})[0] for _ in range(5))
                values = changed[label, url]
                spread = f"{statistics.median(values):.0f} ({min(values):.0f}-{max(values):.0f})"
                print(
                    f"{url:<22} {label[-24:]:<24} {cold[label, url][0]:>8.0f} {spread:>22}"
                    f" {warm:>8.1f} {not_modified:>7.1f} {last[label, url][1]:>11}"
                )
        load = os.getloadavg()
        print(f"load average after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
        sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000")
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--src", default="", help="source trees to compare, comma-separated")
    parser.add_argument("--port", type=int, default=8767)
    parser.add_argument("--name", default="confsched_bench_exports", help="PostgreSQL database")
    args = parser.parse_args()
    trees = args.src.split(",") if args.src else [""]
    for database in args.databases.split(","):
        for size in args.sizes.split(","):
            bench_one(database.strip(), int(size), trees, args.rounds, args.port, args.name)


if __name__ == "__main__":
    main()
