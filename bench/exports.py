"""Exports and feeds at 5,000 sessions and 7,000 speakers: the first render after a server
start (nothing kept), the first after a change of one session (as an organizer's edit in the
admin makes it), a warm request and a conditional GET, on SQLite and PostgreSQL.

Usage: python bench/exports.py [--sizes 5000] [--databases sqlite,postgres] [--workers 1]
Cold and after-change figures are the worker's CPU milliseconds for that one request (from
/proc, so other load on the machine does not count); warm and 304 are the best wall-clock
milliseconds of five requests.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
import urllib.request

from load import CLOCK_TICKS, SETUP, _cpu_ticks, _worker_pids
from serving import fresh_site, run, served

# Every export and the whole-event calendar.
URLS = ["schedule.json", "schedule.xml", "schedule.ics", "schedule.xcal", "schedule.csv"]

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


def bench_one(database: str, size: int, workers: int, port: int) -> None:
    with fresh_site(database, name="confsched_bench_exports") as env:
        run([sys.executable, "-c", SETUP, str(size)], env)
        with served(env, port=port, workers=workers) as server:
            pids = _worker_pids(server.pid)

            def cpu_ms(url: str) -> tuple[float, int, str]:
                before = _cpu_ticks(pids)
                _, size, etag = _get(url)
                return (_cpu_ticks(pids) - before) * 1000 / CLOCK_TICKS, size, etag

            base = f"http://127.0.0.1:{port}/bench/"
            print(
                f"\n{database}, {size} sessions, {round(size * 1.372)} speakers, {workers} worker(s)"
            )
            print(
                f"{'export':<15} {'cold CPU':>8} {'changed CPU':>11} {'warm ms':>8} {'304 ms':>7} {'gzip bytes':>11}"
            )
            cold = {url: cpu_ms(base + url) for url in URLS}
            run([sys.executable, "-c", CHANGE, f"s{size // 2}"], env)
            changed = {url: cpu_ms(base + url) for url in URLS}
            for url in URLS:
                warm = min(_get(base + url)[0] for _ in range(5))
                etag = changed[url][2]
                not_modified = min(_get(base + url, **{"If-None-Match": etag})[0] for _ in range(5))
                print(
                    f"{url:<15} {cold[url][0]:>8.0f} {changed[url][0]:>11.0f} {warm:>8.1f} "
                    f"{not_modified:>7.1f} {changed[url][1]:>11}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000")
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--port", type=int, default=8767)
    args = parser.parse_args()
    for database in args.databases.split(","):
        for size in args.sizes.split(","):
            bench_one(database.strip(), int(size), args.workers, args.port)


if __name__ == "__main__":
    main()
