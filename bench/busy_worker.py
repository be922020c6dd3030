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
import statistics
import subprocess
import time
import urllib.parse
from pathlib import Path

from semantic import QUERIES, answering_server, get, migrated_site, programme_file, timed
from serving import children, is_embedding_worker, percentile

SLUG = "busy"


def embedded(slug: str) -> int:
    from django.db import connection

    from confsched.search.models import SessionEmbedding

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
    for pid in children(server):
        if is_embedding_worker(pid):
            return pid
    raise RuntimeError("serve started no embedding worker (is the semantic extra installed?)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", default=str(Path(__file__).resolve().parent.parent / "src"))
    parser.add_argument("--phases", type=int, default=4, help="niceness 10, 0, 10, 0, ...")
    parser.add_argument("--phase", type=float, default=12.0, help="seconds per phase")
    options = parser.parse_args()

    src = Path(options.src)
    data_dir, env = migrated_site(src, name="busy", code=src)
    took, _, _ = timed(
        ["import", "--event", SLUG, "--timezone", "Europe/Paris",
         str(programme_file(5000, data_dir))],
        env,
    )  # fmt: skip
    print(f"import 5,000 (embedding queued): {took:.1f} s", flush=True)

    server, origin = answering_server(env, f"/{SLUG}/")
    base = f"{origin}/{SLUG}/"
    urls = {
        "list": base,
        "session": origin + middle_session_path(),
        "search": base + "search/?" + urllib.parse.urlencode({"q": QUERIES[0]}),
    }
    figures: dict[int, dict[str, list[float]]] = {}
    try:
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
