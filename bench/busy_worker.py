"""Pages and searches while the embedding worker is busy, at its niceness and at the web's.

`confsched serve` starts the embedding worker at niceness 10 (serve.py), so that on a small
machine the web workers come first while a programme is embedded. This measures what that buys
and what it costs: a 5,000-session event is imported (its embedding queued, as `confsched
import` does), served with 2 web workers, and while the worker embeds it, phases of
`--phase` seconds alternate between the worker as started (niceness 10) and the worker
reniced to 0, the web workers' own. In each phase one client asks, one after the other, the
list page, a session page and a free-text search of the event; the figures per niceness are the
latencies (median, p90, max) of each kind of request and the sessions the worker embedded per
second.

    python bench/busy_worker.py [--src src] [--phases 4] [--phase 12]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from semantic import QUERIES, free_port, get, programme_file, timed

SLUG = "busy"


def embedded(slug: str) -> int:
    from django.db import connection

    from confsched.programme.models import SessionEmbedding

    connection.close()  # a fresh read of the worker's commits
    return SessionEmbedding.objects.filter(session__event__slug=slug).count()


def middle_session_path() -> str:
    from confsched.programme.models import Session

    return (
        Session.objects.filter(event__slug=SLUG)
        .order_by("starts_at", "pk")[2500]
        .get_absolute_url()
    )


def worker_pid(server: int) -> int:
    for pid in Path(f"/proc/{server}/task/{server}/children").read_text().split():
        if "\0worker\0" in Path(f"/proc/{pid}/cmdline").read_text():
            return int(pid)
    raise RuntimeError("serve started no embedding worker (is the semantic extra installed?)")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", default=str(Path(__file__).resolve().parent.parent / "src"))
    parser.add_argument("--phases", type=int, default=4, help="niceness 10, 0, 10, 0, ...")
    parser.add_argument("--phase", type=float, default=12.0, help="seconds per phase")
    options = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="confsched-bench-busy-"))
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CONFSCHED_TESTING"}},
        "PYTHONPATH": str(Path(options.src).resolve()),
        "CONFSCHED_DATA_DIR": str(data_dir),
        "SECRET_KEY": "bench-only-secret-" + "x" * 40,
    }
    os.environ.update({k: env[k] for k in ("CONFSCHED_DATA_DIR", "SECRET_KEY")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    sys.path.insert(0, str(Path(options.src).resolve()))
    import django

    django.setup()
    subprocess.run(  # noqa: S603 - our own command
        [sys.executable, "-m", "confsched.cli", "migrate", "--noinput"],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    took, _, _ = timed(
        ["import", "--event", SLUG, "--timezone", "Europe/Paris",
         str(programme_file(5000, data_dir))],
        env,
    )  # fmt: skip
    print(f"import 5,000 (embedding queued): {took:.1f} s", flush=True)

    port = free_port()
    server = subprocess.Popen(  # noqa: S603 - our own command
        [sys.executable, "-m", "confsched.cli", "serve", "--port", str(port), "--workers", "2"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/{SLUG}/"
    urls = {
        "list": base,
        "session": f"http://127.0.0.1:{port}{middle_session_path()}",
        "search": base + "search/?" + urllib.parse.urlencode({"q": QUERIES[0]}),
    }
    figures: dict[int, dict[str, list[float]]] = {}
    try:
        while True:
            try:
                get(base)
                break
            except OSError:
                time.sleep(0.2)
        worker = worker_pid(server.pid)
        while embedded(SLUG) == 0:  # the worker has loaded the model and is embedding
            time.sleep(0.5)
        for phase in range(options.phases):
            niceness = 10 if phase % 2 == 0 else 0
            subprocess.run(["renice", "-n", str(niceness), "-p", str(worker)], check=True,  # noqa: S603, S607
                           capture_output=True)  # fmt: skip
            kept = figures.setdefault(niceness, {"sessions/s": []})
            start_count, started = embedded(SLUG), time.perf_counter()
            while time.perf_counter() - started < options.phase:
                for kind, url in urls.items():
                    kept.setdefault(kind, []).append(get(url)[0] * 1000)
            done = embedded(SLUG)
            kept["sessions/s"].append((done - start_count) / (time.perf_counter() - started))
            print(f"phase {phase + 1}, niceness {niceness}: {done} of 5,000 embedded", flush=True)
            if done >= 5000:
                print("the worker finished: fewer phases than asked", flush=True)
                break
    finally:
        server.terminate()
        server.wait(timeout=60)

    print(f"\n{'worker niceness':<16} {'request':<8} {'n':>4} {'median ms':>10} {'p90 ms':>8} "
          f"{'max ms':>8}")  # fmt: skip
    for niceness, kinds in sorted(figures.items(), reverse=True):
        for kind in urls:
            values = kinds.get(kind, [])
            if values:
                print(
                    f"{niceness:<16} {kind:<8} {len(values):>4} {statistics.median(values):>10.0f} "
                    f"{percentile(values, 0.9):>8.0f} {max(values):>8.0f}"
                )
        rates = ", ".join(f"{rate:.1f}" for rate in kinds["sessions/s"])
        print(f"{niceness:<16} embedded sessions/s per phase: {rates}")


if __name__ == "__main__":
    main()
