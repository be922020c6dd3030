"""The cache in front: anonymous pages through nginx (deploy/nginx/) against nginx serving the
same bytes from files, in the same run.

Usage: python bench/cache_front.py [--sizes 1000,5000] [--duration 8] [--connections 16]

For each size it builds an event shaped as in load.py (SQLite), serves it with `confsched
serve` (2 workers, max-age long enough that nothing expires during the run) behind Debian's
nginx with the deploy configuration inside Debian's own nginx.conf (tests/front.py, as
tests/test_nginx.py runs it, one nginx worker; over plain HTTP and over HTTPS with a certificate
made for the run), fetches the list, the grid, a session page and schedule.xml once (the cache's MISS),
saves each gzipped body to a file that the same nginx serves with the same headers, and drives
both with wrk (`Accept-Encoding: gzip`). Prints requests/s, p50/p99 and CPU ms per request of
nginx's worker and of the app's workers (Python: 0 for a cached hit), and the ratio of cached
to static requests/s.
"""

from __future__ import annotations

import argparse
import os
import ssl
import sys
import tempfile
import urllib.request
from pathlib import Path

from load import SETUP, _wrk
from serving import CLOCK_TICKS, cpu_ticks, fresh_site, run, served, worker_pids

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.front import NGINX, nginx_conf, running_nginx  # noqa: E402 - the test's nginx, the same files

PAGES = [
    ("list", ""),
    ("grid", "grid/"),
    ("session", "sessions/s{middle}/"),
    ("schedule.xml", "schedule.xml"),
]
HEADERS = ["Accept-Encoding: gzip"]


# The run's own certificate (tests/front.self_signed) is trusted by no one: not checked here.
UNCHECKED = ssl._create_unverified_context()  # noqa: S323 - loopback, a certificate of the run


def _fetch(url: str) -> tuple[bytes, dict[str, str]]:
    asked = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})  # noqa: S310
    with urllib.request.urlopen(asked, timeout=120, context=UNCHECKED) as response:  # noqa: S310
        return response.read(), dict(response.headers)


def _ticks(pid: int) -> int:
    """A process's CPU ticks so far; 0 once it is gone (a worker that gunicorn replaced)."""
    try:
        return cpu_ticks([pid])
    except FileNotFoundError:
        return 0


def _measure(url: str, masters: dict[str, int], args: argparse.Namespace) -> dict:
    _wrk(url, duration=2, connections=args.connections, headers=HEADERS)  # warm
    pids = {who: worker_pids(master) for who, master in masters.items()}
    before = {pid: _ticks(pid) for found in pids.values() for pid in found}
    result = _wrk(url, duration=args.duration, connections=args.connections, headers=HEADERS)
    requests = int(result["requests"]) or 1
    return result | {
        f"{who} ms": sum(max(0, _ticks(pid) - before[pid]) for pid in found)
        * 1000
        / CLOCK_TICKS
        / requests
        for who, found in pids.items()
    }


def bench_one(size: int, args: argparse.Namespace) -> None:
    with fresh_site("sqlite", name="confsched_cache_front") as env:
        env |= {"CONFSCHED_PUBLIC_MAX_AGE": "3600", "CONFSCHED_PUBLIC_STALE": "60"}
        run([sys.executable, "-c", SETUP, str(size)], env)
        work = Path(tempfile.mkdtemp(prefix="confsched-cache-front-"))
        files = work / "files"
        files.mkdir()
        static = Path(env["CONFSCHED_DATA_DIR"]) / "static"
        extra = (
            # Stored gzipped: never gzipped again (Debian's nginx.conf turns gzip on).
            f"location /files/ {{ alias {files}/; default_type text/html; gzip off; "
            'add_header Content-Encoding gzip; add_header Vary "Accept-Encoding"; }'
        )
        conf = nginx_conf(
            work, static=static, app_port=args.port, port=args.port + 1, extra=extra,
            tls_port=args.port + 2,
        )  # fmt: skip
        with (
            served(env, port=args.port, workers=2) as server,
            running_nginx(work, conf) as nginx,
        ):
            pids = {"nginx": nginx.pid, "python": server.pid}
            front = f"http://127.0.0.1:{args.port + 1}"
            fronts = {"http": front, "https": f"https://127.0.0.1:{args.port + 2}"}
            print(f"\n{size} sessions")
            print(
                f"{'page':<13} {'scheme':<6} {'served':<7} {'req/s':>9} {'p50 ms':>7} "
                f"{'p99 ms':>7} {'nginx ms':>9} {'Python ms':>9} {'bytes':>8} {'x static':>8}"
            )
            for label, path in PAGES:
                path = f"/bench/{path.format(middle=size // 2)}"
                body, _ = _fetch(front + path)
                name = label.replace(".", "_")
                (files / name).write_bytes(body)
                for scheme, base in fronts.items():
                    # Each scheme and host is a page of its own in the cache (its key), and
                    # one the app builds anew (its links): asked once before it is measured.
                    _fetch(base + path)
                    assert _fetch(base + path)[1]["X-Cache-Status"] == "HIT", (label, scheme)
                    cached = _measure(base + path, pids, args)
                    plain = _measure(f"{base}/files/{name}", pids, args)
                    ratio = (
                        cached["requests"] / cached["seconds"]
                        / (plain["requests"] / plain["seconds"])
                    )  # fmt: skip
                    for served_by, found in (("cache", cached), ("file", plain)):
                        print(
                            f"{label:<13} {scheme:<6} {served_by:<7} "
                            f"{found['requests'] / found['seconds']:>9.0f} {found['p50']:>7.2f} "
                            f"{found['p99']:>7.2f} {found['nginx ms']:>9.3f} "
                            f"{found['python ms']:>9.3f} {len(body):>8} "
                            + (f"{ratio:>8.2f}" if served_by == "cache" else ""),
                            flush=True,
                        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,5000")
    parser.add_argument("--duration", type=int, default=8, help="seconds of wrk per URL")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--port", type=int, default=8775, help="the app's; nginx's is +1")
    args = parser.parse_args()
    if not NGINX.exists():
        sys.exit("nginx is not installed: apt-get install nginx")
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    for size in (int(s) for s in args.sizes.split(",")):
        bench_one(size, args)


if __name__ == "__main__":
    main()
