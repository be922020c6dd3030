"""Time the public schedule pages for events of growing size; print a table.

Usage: python bench/list_page.py [--repeat N]
Uses a throw-away SQLite database in a temporary folder (or DATABASE_URL if set).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    data_dir = tempfile.mkdtemp(prefix="confsched-bench-")
    os.environ.setdefault("CONFSCHED_DATA_DIR", data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("CONFSCHED_TESTING", "1")  # plain static storage, no manifest needed
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from confsched.interchange.sched.read import parse_sched_pages
    from confsched.interchange.synthetic import synthetic_programme
    from confsched.programme.services import create_event, load_programme

    call_command("migrate", verbosity=0)
    files = [
        (p.name, p.read_bytes())
        for p in sorted((ROOT / "demo/pytorch-conference-europe-2026").glob("*.txt"))
    ]
    started = time.perf_counter()
    programme = parse_sched_pages(files)
    parsed = time.perf_counter()
    demo = create_event(slug="demo", name="Demo", timezone="Europe/Paris")
    load_programme(demo, programme)
    loaded = time.perf_counter()
    print(
        f"demo import: parse {1000 * (parsed - started):.1f} ms, load {1000 * (loaded - parsed):.1f} ms (29 sessions, 42 speakers)"
    )

    client = Client()
    print(f"{'sessions':>8} {'page':<22} {'median ms':>10} {'p95 ms':>8} {'queries':>8} {'KiB':>7}")
    for size in (30, 300, 3000):
        event = create_event(slug=f"e{size}", name=f"E{size}", timezone="Europe/Paris")
        load_programme(event, synthetic_programme(size, rooms=max(3, size // 60), days=3))
        for label, path in (
            ("list", ""),
            ("grid", "grid/"),
            ("search + 2 filters", "?q=tensors+company&level=advanced&track=track-3"),
        ):
            url = f"/{event.slug}/{path}"
            client.get(url)  # warm
            times = []
            for _ in range(args.repeat):
                begin = time.perf_counter()
                response = client.get(url)
                times.append(1000 * (time.perf_counter() - begin))
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            p95 = statistics.quantiles(times, n=20)[-1] if len(times) >= 2 else times[0]
            print(
                f"{size:>8} {label:<22} {statistics.median(times):>10.1f} {p95:>8.1f} {len(queries):>8} {len(response.content) / 1024:>7.0f}"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
