"""Load benchmark: serve synthetic events with `confsched serve` and drive every page with wrk.

Usage: python bench/load.py [--sizes 200,1000,5000] [--databases sqlite,postgres]
                            [--duration 8] [--connections 16] [--workers 2] [--only list,grid]

For each database and event size it builds a fresh database holding one event shaped like a
FOSDEM-sized programme (10 rooms per 1,000 sessions and at least 10, two days, 1.372 speakers
per session, ~800-character abstracts) and one attendee with 50 stars, starts `confsched serve`
with the given number of gunicorn workers, and runs wrk against each URL as a visitor and,
for pages that differ per person, as the signed-in attendee. It prints one table row per URL:
requests/s, latency p50/p99, CPU milliseconds per request (user + system time of the gunicorn
workers from /proc, divided by the requests served) and bytes on the wire per response
(headers included, as wrk counts them; responses compressed when the server chooses to, since
wrk asks with `Accept-Encoding: gzip, br`).

PostgreSQL is reached at CONFSCHED_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432)
in a database `confsched_bench` that is dropped and made anew for every size.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from serving import CLOCK_TICKS, cpu_ticks, fresh_site, run, served, worker_pids

ROOT = Path(__file__).resolve().parent.parent
SLUG = "bench"

# (label, path under /<event>/, whether a signed-in attendee sees something else)
PAGES = [
    ("list", "", True),
    ("grid", "grid/", True),
    ("list filtered", "?q=tensors&room=room-3&level=advanced", True),
    ("session", "sessions/s{middle}/", True),
    # The attendee's agenda: their 50 picks of the whole programme (a visitor's is empty).
    ("agenda", "agenda/", True),
    ("speakers", "speakers/", False),
    ("speaker", "speakers/p{middle}/", False),
    ("schedule.xml", "schedule.xml", False),
    ("schedule.json", "schedule.json", False),
    ("schedule.ics", "schedule.ics", False),
    ("schedule.xml 304", "schedule.xml", False),
]

SETUP = textwrap.dedent(
    """
    import django, sys
    django.setup()
    from dataclasses import replace
    from django.contrib.auth import get_user_model
    from django.test import Client
    from confsched.agenda.models import AgendaItem
    from confsched.interchange.synthetic import fosdem_shaped
    from confsched.programme.models import Session
    from confsched.programme.services import create_event, load_programme

    size = int(sys.argv[1])
    programme = fosdem_shaped(size)
    event = create_event(slug="bench", name="Bench", timezone="Europe/Brussels")
    load_programme(event, programme)
    user = get_user_model().objects.create_user("attendee", password="not-used-here")
    picks = Session.objects.filter(event=event).order_by("key")[: 50 * 7 : 7]
    AgendaItem.objects.bulk_create(AgendaItem(user=user, session=s) for s in picks)
    client = Client()
    client.force_login(user)
    print(client.cookies["sessionid"].value)
    """
)


@dataclass
class Result:
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    bytes_read: int
    cpu_ms: float
    non_2xx: int


def _peak_memory_mb(pid: int) -> float:
    """The most resident memory the process ever had (kernel's VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}
_SIZES = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}


def _wrk(url: str, *, duration: int, connections: int, headers: list[str]) -> dict[str, float]:
    command = [
        "wrk", f"-c{connections}", f"-t{min(connections, 2)}", f"-d{duration}s", "--latency",
        "--timeout", "30s",
        "-H", "Accept-Encoding: gzip, br",
    ]  # fmt: skip
    for header in headers:
        command += ["-H", header]
    ran = subprocess.run(  # noqa: S603 - wrk with our own arguments
        [*command, url], check=False, capture_output=True, text=True
    )
    if ran.returncode:
        raise RuntimeError(f"wrk failed ({ran.returncode}) on {url}:\n{ran.stdout}{ran.stderr}")
    output = ran.stdout
    latency = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", output, re.MULTILINE))
    # Thread Stats: "Latency  avg  stdev  max  +/- stdev"
    slowest = re.search(r"^\s+Latency\s+\S+\s+\S+\s+([\d.]+\w+)", output, re.MULTILINE)
    done = re.search(r"(\d+) requests in ([\d.]+)(\w+), ([\d.]+)(\w+) read", output)
    if done is None:
        raise RuntimeError(f"wrk printed no summary:\n{output}")
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)

    def millis(text: str) -> float:
        number, unit = re.fullmatch(r"([\d.]+)(\w+)", text).groups()  # type: ignore[union-attr]
        return float(number) * _UNITS[unit]

    return {
        "requests": int(done.group(1)),
        "seconds": float(done.group(2)) * {"s": 1, "m": 60, "ms": 0.001}[done.group(3)],
        "bytes": float(done.group(4)) * _SIZES[done.group(5)],
        "p50": millis(latency["50"]),
        "p99": millis(latency["99"]),
        "max": millis(slowest.group(1)) if slowest else 0.0,
        "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
    }


def _fetch(url: str, headers: list[str]) -> None:
    """One request, read to the end; a 304 is an answer too (the URL answers)."""
    asked = urllib.request.Request(url, headers=dict(h.split(": ", 1) for h in headers))  # noqa: S310
    try:
        urllib.request.urlopen(asked, timeout=120).read()  # noqa: S310 - our own server on loopback
    except urllib.error.HTTPError as answer:
        if answer.code != 304:
            raise


def measure(
    base: str, path: str, *, master: int, duration: int, connections: int, headers: list[str]
) -> Result:
    pids = worker_pids(master)
    # Warm every worker (each builds its pages once per schedule version) before measuring, so
    # that no build runs into the measurement. First a burst of requests at once, every one
    # waited for, so that a worker that took any has finished its build; then rounds of wrk
    # until one sees no slow request. The slowest request tells, not the p99: while one worker
    # builds, the other answers all the rest. A round in which nothing finished proves nothing
    # (wrk does not count requests still open when it stops).
    with ThreadPoolExecutor(2 * connections) as pool:
        list(pool.map(lambda _: _fetch(base + path, headers), range(4 * connections)))
    for _ in range(10):
        warm = _wrk(base + path, duration=2, connections=connections, headers=headers)
        if warm["requests"] and warm["max"] < 1000:
            break
    before = cpu_ticks(pids)
    found = _wrk(base + path, duration=duration, connections=connections, headers=headers)
    used = cpu_ticks(pids) - before
    requests = int(found["requests"]) or 1
    return Result(
        requests=requests,
        seconds=found["seconds"],
        p50_ms=found["p50"],
        p99_ms=found["p99"],
        bytes_read=int(found["bytes"]),
        cpu_ms=used * 1000 / CLOCK_TICKS / requests,
        non_2xx=int(found["non_2xx"]),
    )


def _etag(url: str) -> str:
    with urllib.request.urlopen(url) as response:  # noqa: S310 - our own server on loopback
        return response.headers["ETag"]


def bench_one(database: str, size: int, args: argparse.Namespace) -> None:
    with fresh_site(database, name="confsched_bench") as env:
        started = time.perf_counter()
        cookie = run([sys.executable, "-c", SETUP, str(size)], env).strip().splitlines()[-1]
        built = time.perf_counter() - started
        with served(env, port=args.port, workers=args.workers) as server:
            base = f"http://127.0.0.1:{args.port}/{SLUG}/"
            print(f"\n{database}, {size} sessions (event built in {built:.1f} s)")
            print(
                f"{'page':<18} {'who':<9} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
                f"{'CPU ms/req':>10} {'bytes/resp':>11}"
            )
            middle = size // 2
            for label, path, personal in PAGES:
                if args.only and label not in args.only:
                    continue
                path = path.format(middle=middle)
                headers = []
                if label.endswith(" 304"):
                    headers.append(f"If-None-Match: {_etag(base + path)}")
                for who in ("visitor", "attendee") if personal else ("visitor",):
                    asked = (
                        [*headers, f"Cookie: sessionid={cookie}"] if who == "attendee" else headers
                    )
                    result = measure(
                        base, path, master=server.pid, duration=args.duration,
                        connections=args.connections, headers=asked,
                    )  # fmt: skip
                    flag = f"  ({result.non_2xx} non-2xx/3xx)" if result.non_2xx else ""
                    print(
                        f"{label:<18} {who:<9} {result.requests / result.seconds:>8.1f} "
                        f"{result.p50_ms:>8.1f} {result.p99_ms:>8.1f} {result.cpu_ms:>10.1f} "
                        f"{result.bytes_read / result.requests:>11.0f}{flag}",
                        flush=True,
                    )
            peaks = [_peak_memory_mb(pid) for pid in worker_pids(server.pid)]
            print(
                f"peak memory of the workers (VmHWM): {', '.join(f'{mb:.0f} MB' for mb in peaks)}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="200,1000,5000")
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--duration", type=int, default=8, help="seconds of wrk per URL")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--only", default="", help="comma-separated page labels to run")
    args = parser.parse_args()
    args.only = {label.strip() for label in args.only.split(",") if label.strip()}
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk (make bench-load does it)")
    for database in args.databases.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            bench_one(database.strip(), size, args)


if __name__ == "__main__":
    main()
