"""What one import's change costs the next visitors, served: `confsched serve` with several
workers on PostgreSQL and Redis, as production runs it.

Usage: python bench/change_served.py [--size 5000] [--workers 4] [--rounds 3]
                                     [--pages list,grid,...] [--label NAME] [--front]
                                     [--vectors]

It writes a synthetic event of `size` sessions (shaped as in load.py) as a c3voc schedule.json
and imports it with `confsched import`, serves it (`--workers` gunicorn workers, Redis in a
database of its own, flushed), and asks every page once per worker so that each worker has
seen it. Then, `--rounds` times: one session renamed in the file and the file imported again
(the real import path: a new version, the files' digest written), and each page asked for by
as many visitors at once as there are workers (new connections, no cookies), so that each
worker answers one. Prints, per page, the slowest and the median of those first answers in
milliseconds, over the rounds. The goal of issue 32: at 5,000 sessions, ≤ 100 ms on every
worker for the list, the grid and a session page in every zone and language.

With --vectors, every session has a stored vector before the server starts (random unit vectors,
as the embedding worker would have stored them), so that a session page's similar sessions are
found by meaning, as on a site with the semantic extra; without it, by the words of the titles.

With --front, the shipped nginx (inside Debian's nginx.conf, tests/front.py) stands in front
with the app's default max-age, and `--rounds` more imports measure how soon a visitor asking
the list through it every 0.1 s sees the rename, and how many of its answers reached Python.

Run it on another tree with PYTHONPATH=<tree>/src (the served commands inherit it; the file is
written by this tree's code).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from serving import CLOCK_TICKS, cpu_ticks, fresh_site, in_site, run, served, worker_pids

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.front import nginx_conf, running_nginx  # noqa: E402 - the tests' nginx, the same files

REDIS = os.environ.get("CONFSCHED_BENCH_REDIS", "redis://127.0.0.1:6379/13")
SLUG = "bench"
WRITE = """
import sys
from pathlib import Path
import django
django.setup()
from confsched.interchange.c3voc.write import render
from confsched.interchange.synthetic import fosdem_shaped
Path(sys.argv[2]).write_bytes(render(fosdem_shaped(int(sys.argv[1])), slug="bench"))
"""
# With --vectors: random unit vectors for every session, as the embedding worker stores them,
# so that similar sessions are found by meaning (as on a site with the semantic extra):
# semantic.py's seed_vectors, with the event's vectors stamp moved as the worker moves it.
VECTORS = """
import sys
import django
django.setup()
from django.utils import timezone
from confsched.programme.models import Event
sys.path.insert(0, sys.argv[2])
from semantic import seed_vectors
seed_vectors(sys.argv[1])
Event.objects.filter(slug=sys.argv[1]).update(embedded_at=timezone.now())
"""
# (label, path under /bench/, request headers); {middle} is the renamed session's number.
PAGES = {
    "list": ("", {}),
    "grid": ("grid/", {}),
    "list fr": ("", {"Accept-Language": "fr"}),
    "grid New York": ("grid/?tz=America/New_York", {}),
    "session": ("sessions/s{middle}/", {}),
    "other session": ("sessions/s{other}/", {}),
}


def _get(url: str, headers: dict[str, str]) -> float:
    """Milliseconds until the whole answer was read."""
    asked = urllib.request.Request(url, headers={"Accept-Encoding": "gzip", **headers})  # noqa: S310
    started = time.perf_counter()
    with urllib.request.urlopen(asked, timeout=120) as answer:  # noqa: S310 - loopback
        answer.read()
    return (time.perf_counter() - started) * 1000


def _wave(url: str, headers: dict[str, str], count: int) -> list[float]:
    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(lambda _: _get(url, headers), range(count)))


def _rename(path: Path, key: str, title: str) -> None:
    """The session `key`'s title changed in the c3voc file, all else as it was."""
    data = json.loads(path.read_text())
    for day in data["schedule"]["conference"]["days"]:
        for events in day["rooms"].values():
            for event in events:
                if event["guid"] == key or event.get("slug", "").endswith(key):
                    event["title"] = title
    path.write_text(json.dumps(data))


@contextlib.contextmanager
def _front(env: dict[str, str], args: argparse.Namespace) -> Iterator[None]:
    """The shipped nginx (inside Debian's nginx.conf) in front of the served app, on --port + 1."""
    work = Path(tempfile.mkdtemp(prefix="confsched-change-served-front-"))
    static = Path(env["CONFSCHED_DATA_DIR"]) / "static"
    conf = nginx_conf(work, static=static, app_port=args.port, port=args.port + 1)
    with running_nginx(work, conf):
        yield


def _seen_through_front(
    args: argparse.Namespace, schedule: Path, key: str, title: str, env: dict[str, str]
) -> tuple[float, int, float]:
    """One visitor asks for the list through the front every 0.1 s, before and after an import
    of one rename: seconds from the import's end until the rename showed, how many of the
    visitor's answers reached Python (X-Cache-Status other than HIT), and over how long."""
    url = f"http://127.0.0.1:{args.port + 1}/{SLUG}/"
    statuses: list[str] = []
    began = time.monotonic()

    def ask() -> str:
        asked = urllib.request.Request(url, headers={"Accept-Encoding": "identity"})  # noqa: S310
        with urllib.request.urlopen(asked, timeout=60) as answer:  # noqa: S310 - loopback
            statuses.append(answer.headers.get("X-Cache-Status", ""))
            return answer.read().decode()

    for _ in range(30):  # a while of visits before the change
        ask()
        time.sleep(0.1)
    _rename(schedule, key, title)
    run([str(Path(sys.executable).parent / "confsched"), "import", "--event", SLUG,
         "--skip-embeddings", str(schedule)], env)  # fmt: skip
    imported = time.monotonic()
    while title not in ask():
        if time.monotonic() - imported > 120:
            sys.exit(f"{title!r} not through the front after 120 s")
        time.sleep(0.1)
    delay = time.monotonic() - imported
    for _ in range(30):  # and after it
        ask()
        time.sleep(0.1)
    return delay, sum(status != "HIT" for status in statuses), time.monotonic() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--port", type=int, default=8795)
    parser.add_argument("--label", default="this tree")
    parser.add_argument(
        "--vectors", action="store_true",
        help="store a vector for every session: similar sessions by meaning, not by words",
    )  # fmt: skip
    parser.add_argument(
        "--front", action="store_true",
        help="also: how soon an import shows through the shipped nginx (on --port + 1)",
    )  # fmt: skip
    args = parser.parse_args()
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    work = Path(tempfile.mkdtemp(prefix="confsched-change-served-"))
    schedule = work / "schedule.json"
    with fresh_site("postgres", name="confsched_change_served") as env:
        env |= {"REDIS_URL": REDIS, "PYTHONUNBUFFERED": "1"}
        # The file is written by this tree's code whatever tree is served (PYTHONPATH).
        this_tree = {name: value for name, value in env.items() if name != "PYTHONPATH"}
        run([sys.executable, "-c", WRITE, str(args.size), str(schedule)], this_tree)
        confsched = [str(Path(sys.executable).parent / "confsched")]
        run([*confsched, "import", "--event", SLUG, "--name", "Bench", "--timezone",
             "Europe/Brussels", "--languages", "en,fr", "--skip-embeddings", str(schedule)], env)  # fmt: skip
        if args.vectors:
            in_site(env, VECTORS, SLUG, str(Path(__file__).resolve().parent))
        middle = args.size // 2
        key = in_site(env, f"""
import django; django.setup()
from confsched.programme.models import Session
print(Session.objects.filter(event__slug={SLUG!r}).order_by("starts_at", "key")[{middle}].key)
""").strip()  # fmt: skip
        other = in_site(env, f"""
import django; django.setup()
from confsched.programme.models import Session
print(Session.objects.filter(event__slug={SLUG!r}).order_by("starts_at", "key")[{middle + 7}].key)
""").strip()  # fmt: skip
        wanted = {label: PAGES[label] for label in args.pages.split(",")}
        base = f"http://127.0.0.1:{args.port}/{SLUG}/"
        urls = {
            label: (base + path.replace("s{middle}", key).replace("s{other}", other), headers)
            for label, (path, headers) in wanted.items()
        }
        firsts: dict[str, list[float]] = {label: [] for label in urls}
        cpu: dict[str, list[float]] = {label: [] for label in urls}
        each: dict[str, list[list[float]]] = {label: [] for label in urls}
        front = _front(env, args) if args.front else contextlib.nullcontext()
        with served(env, port=args.port, workers=args.workers) as server, front:
            workers = worker_pids(server.pid)
            for url, headers in urls.values():  # every worker has seen every page
                _get(url, headers)  # built once, alone (cold, a 5,000-session grid takes seconds)
                for _ in range(3):
                    _wave(url, headers, 2 * args.workers)
            for number in range(args.rounds):
                _rename(schedule, key, f"Renamed for round {number}")
                run(
                    [*confsched, "import", "--event", SLUG, "--skip-embeddings", str(schedule)], env
                )
                for label, (url, headers) in urls.items():
                    before = cpu_ticks(workers)
                    answers = _wave(url, headers, args.workers)
                    firsts[label] += answers
                    each[label].append(answers)
                    used = (cpu_ticks(workers) - before) * 1000 / CLOCK_TICKS
                    cpu[label].append(used / args.workers)
                with urllib.request.urlopen(base) as page:  # noqa: S310 - loopback
                    if f"Renamed for round {number}" not in page.read().decode():
                        sys.exit(f"round {number}: the import's rename is not on the list")
            if args.front:
                seen = [
                    _seen_through_front(args, schedule, key, f"Through the front {number}", env)
                    for number in range(args.rounds)
                ]
        print(f"\n{args.label}: {args.size} sessions{' with vectors' if args.vectors else ''}, "
              f"{args.workers} workers, PostgreSQL and Redis, "
              f"{args.rounds} imports of one rename; the first answer of each worker, ms")  # fmt: skip
        print(f"(load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}; CPU: "
              "the web workers' CPU time during a wave over its answers, median of the rounds)")  # fmt: skip
        print(f"{'page':<16} {'median':>8} {'slowest':>8} {'CPU':>8}")
        for label, times in firsts.items():
            print(f"{label:<16} {statistics.median(times):>8.0f} {max(times):>8.0f} "
                  f"{statistics.median(cpu[label]):>8.0f}", flush=True)  # fmt: skip
        print("\neach round's answers, ms (round 1 is the first change after the warm-up), "
              "and the workers' CPU ms an answer in that round")  # fmt: skip
        for label, rounds in each.items():
            shown = " | ".join(
                ", ".join(f"{ms:.0f}" for ms in answers) + f" ({used:.0f})"
                for answers, used in zip(rounds, cpu[label], strict=True)
            )
            print(f"{label:<16} {shown}")
        if args.front:
            print("\nthrough the front (nginx, max-age as configured), one visitor asking the "
                  "list every 0.1 s: seconds from the import's end until it saw the rename, and "
                  "its answers that reached Python (not HIT) per 5 s")  # fmt: skip
            for delay, reached, span in seen:
                print(f"visible after {delay:5.2f} s; {reached} of its answers reached Python "
                      f"in {span:.1f} s ({5 * reached / span:.2f} per 5 s)")  # fmt: skip


if __name__ == "__main__":
    main()
