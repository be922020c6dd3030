"""Reservation benchmark: a rush of signed-in attendees on one workshop's seats.

Usage: python bench/reservations.py [--attendees 1000] [--seats 30] [--workers 4]
                                    [--databases postgres,sqlite] [--clients 50] [--rounds 2]
                                    [--front none|nginx]

For each database and round: a fresh site with the storm event and `--attendees` accounts, a
`confsched serve` with `--workers` gunicorn workers, then every attendee presses "Reserve a
seat" at once (what htmx sends), from `--clients` keep-alive connections. Prints one row per
round: reservations per second (requests over the rush's wall time), latency p50/p99/max in
milliseconds, CPU milliseconds per reservation of the app's workers and of PostgreSQL's
backends (from /proc), of this client's own threads (they share the two cores), the share of
the machine's time left idle during the rush (near 0%: the cores were the limit) and stolen by
the host (the virtual machine's cores running something else), failed
requests, and what the database holds (confirmed, waitlisted, duplicates, whether the waitlist
kept the order of acceptance).

With `--front nginx` the rush goes through Debian's nginx with the deploy configuration
(deploy/nginx/, one nginx worker keeping 32 connections to the app), as production runs it;
nginx's CPU is then counted with the app's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from serving import CLOCK_TICKS, cpu_ticks, free_port, fresh_site, served, worker_pids
from storm import prepare, rush, seats_held

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.front import nginx_conf, running_nginx  # noqa: E402 - the test's nginx, the same files


def _postgres_ticks(database: str) -> int:
    """CPU ticks used so far by every PostgreSQL server process on this machine (0 on SQLite):
    a backend that starts during the rush counts from zero."""
    if database != "postgres":
        return 0
    pids = []
    for stat in Path("/proc").glob("[0-9]*/comm"):
        try:
            if stat.read_text().strip() == "postgres":
                pids.append(int(stat.parent.name))
        except OSError:
            continue
    total = 0
    for pid in pids:
        try:
            total += cpu_ticks([pid])
        except OSError:  # ended meanwhile
            continue
    return total


def _machine_ticks() -> tuple[int, int, int]:
    """Ticks the whole machine spent so far: in all, idle, and stolen by the host (a virtual
    machine's cores that were not its own meanwhile), from /proc/stat."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n")[0].split()[1:9]]
    return sum(fields), fields[3] + fields[4], fields[7]  # idle with iowait; steal


@contextmanager
def _front(kind: str, env: dict[str, str], app_port: int) -> Iterator[tuple[int, list[int]]]:
    """The port the rush goes to, and the front's processes (counted with the app's CPU)."""
    if kind == "none":
        yield app_port, []
        return
    work = Path(tempfile.mkdtemp(prefix="confsched-bench-front-"))
    port = free_port()
    static = Path(env["CONFSCHED_DATA_DIR"]) / "static"
    conf = nginx_conf(work, static=static, app_port=app_port, port=port, keepalive=32)
    try:
        with running_nginx(work, conf) as nginx:
            yield port, [nginx.pid, *worker_pids(nginx.pid)]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attendees", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=30)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--databases", default="postgres,sqlite")
    parser.add_argument(
        "--front", choices=["none", "nginx"], default="none",
        help="nginx: through the deploy configuration's nginx (one worker), as in production",
    )  # fmt: skip
    parser.add_argument(
        "--fresh", action="store_true",
        help="each attendee on a new connection, as phones are (default: 50 kept alive)",
    )  # fmt: skip
    options = parser.parse_args()
    print(
        "| database | round | reservations/s | p50 ms | p99 ms | max ms | app CPU ms "
        "| db CPU ms | client CPU ms | idle | stolen | failed | confirmed | waitlisted "
        "| duplicates | in order |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for database in options.databases.split(","):
        for number in range(1, options.rounds + 1):
            with fresh_site(database, name="confsched_bench_reservations") as env:
                attendees = prepare(env, count=options.attendees, seats=options.seats)
                port = free_port()
                with (
                    served(env, port=port, workers=options.workers) as server,
                    _front(options.front, env, port) as (front_port, front_pids),
                ):
                    workers = worker_pids(server.pid) + front_pids
                    before = cpu_ticks(workers), _postgres_ticks(database)
                    machine, client = _machine_ticks(), os.times()
                    result = rush(
                        front_port,
                        [(a, "reserve") for a in attendees],
                        clients=options.clients,
                        fresh=options.fresh,
                    )
                    app = cpu_ticks(workers) - before[0]
                    db = _postgres_ticks(database) - before[1]
                    total, idle, steal = (
                        after - was for after, was in zip(_machine_ticks(), machine, strict=True)
                    )
                    spent = os.times()
                    client_s = spent.user + spent.system - client.user - client.system
                held = seats_held(env)
            rate = result.per_second
            p50, p99 = result.percentile(0.5) * 1000, result.percentile(0.99) * 1000
            most = max(result.latencies) * 1000
            failed = sum(n for status, n in Counter(result.statuses).items() if status != 200)
            counts = (
                f"{held['confirmed']} | {held['waitlisted']} | {held['rows'] - held['people']} "
                f"| {'yes' if held['confirmed_first'] else 'NO'}"
                if held
                else "– | – | – | –"
            )
            print(
                f"| {database} | {number} | {rate:.0f} | {p50:.0f} | {p99:.0f} | {most:.0f} "
                f"| {app * 1000 / CLOCK_TICKS / len(attendees):.1f} "
                f"| {db * 1000 / CLOCK_TICKS / len(attendees):.1f} "
                f"| {client_s * 1000 / len(attendees):.1f} | {idle / total:.0%} | {steal / total:.0%} "
                f"| {failed} | {counts} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
