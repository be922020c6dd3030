"""What keeping every version's programme costs: at 1,000 and 5,000 sessions, the time and bytes
of writing a version's snapshot at a release (VersionSnapshot: the programme as lossless JSON,
zlib-compressed), of reading it back, of an old version's page and exports rendered from it,
and of a release overall.

Usage: python bench/snapshots.py [--sizes 1000,5000] [--releases 3]
Uses a throw-away SQLite database in a temporary folder (or DATABASE_URL if set). Each release
moves 50 sessions of the draft by 15 minutes (back and forth); figures are the median of the
releases; pages and exports: the first request, then the best of two more (wall-clock
milliseconds; an old version's exports and the programme on its page are kept once rendered).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any


def _timed(run: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = run()
    return (time.perf_counter() - started) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000")
    parser.add_argument("--releases", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("CONFSCHED_DATA_DIR", tempfile.mkdtemp(prefix="confsched-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("CONFSCHED_TESTING", "1")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from confsched.programme.models import Event, ScheduleVersion
    from confsched.programme.services import loading, snapshots

    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    # The snapshot's write at each release, timed where load_programme calls it.
    kept: list[float] = []
    keep = snapshots.keep_programme

    def timed_keep(event: Event, version: ScheduleVersion) -> None:
        elapsed, _ = _timed(lambda: keep(event, version))
        kept.append(elapsed)

    loading.keep_programme = timed_keep  # type: ignore[assignment]
    client = Client()
    for size in (int(s) for s in args.sizes.split(",")):
        _bench_size(client, size, args.releases, kept)


def _bench_size(client: Any, size: int, releases_asked: int, kept: list[float]) -> None:  # noqa: PLR0915 - one report
    """One event of `size` sessions: its releases, its snapshot's write and read, its pages."""
    from confsched.interchange.programme_json import programme_from_json, programme_to_json
    from confsched.interchange.synthetic import synthetic_programme
    from confsched.programme.models import Event, ScheduleVersion, VersionSnapshot
    from confsched.programme.services import (
        create_event,
        load_programme,
        release_draft,
        snapshot,
        snapshots,
        start_draft,
    )

    slug = f"snap-{size}"
    Event.objects.filter(slug=slug).delete()
    programme = replace(
        synthetic_programme(size, rooms=max(5, size // 100), days=3), timezone="Europe/Paris"
    )
    event = create_event(slug=slug, name=f"Bench {size}", timezone="Europe/Paris")
    load_programme(event, programme)
    draft = start_draft(event)
    kept.clear()
    releases = []
    for number in range(releases_asked):
        moving = snapshot(draft)
        shift = timedelta(minutes=15 if number % 2 == 0 else -15)
        moving.sessions = [
            replace(s, starts_at=s.starts_at + shift, ends_at=s.ends_at + shift)
            if s.starts_at and s.ends_at and index % (size // 50) == 0 else s
            for index, s in enumerate(moving.sessions)
        ]  # fmt: skip
        load_programme(draft, moving, source="edit by bench")
        elapsed, _ = _timed(lambda n=number: release_draft(event, name=f"Release {n}"))
        releases.append(elapsed)
    # The parts of one snapshot's write, the event as the last release left it.
    snap_ms, current = _timed(lambda: snapshot(event))
    json_ms, text = _timed(lambda: programme_to_json(current))
    raw = text.encode()
    zip_ms, packed = _timed(lambda: zlib.compress(raw, 6))
    # Reading it back: the row, inflating, parsing.
    first = ScheduleVersion.objects.get(event=event, number=2)
    read_ms, _ = _timed(lambda: snapshots.version_programme(first))
    unzip_ms, unpacked = _timed(lambda: zlib.decompress(packed))
    parse_ms, _ = _timed(lambda: programme_from_json(unpacked))
    rows = VersionSnapshot.objects.filter(version__event=event)
    stored = [len(bytes(row.data)) for row in rows]

    def first_and_best(path: str) -> tuple[float, float]:
        """The first request's milliseconds, and the best of the two after it."""
        times = []
        for _ in range(3):
            elapsed, response = _timed(lambda: client.get(path))
            assert response.status_code == 200, (path, response.status_code)
            times.append(elapsed)
        return times[0], min(times[1:])

    print(f"\n{size} sessions, {len(current.speakers)} speakers")
    print(
        f"  release overall {statistics.median(releases):.0f} ms (median of {len(releases)}), "
        f"of which the snapshot's write {statistics.median(kept):.0f} ms"
    )
    print(
        f"  snapshot write parts: read the event {snap_ms:.0f} ms, JSON {json_ms:.0f} ms, "
        f"zlib {zip_ms:.0f} ms"
    )
    print(
        f"  bytes: JSON {len(raw):,}, stored {len(packed):,} "
        f"({len(packed) / len(raw):.1%}); {len(stored)} versions kept, "
        f"{sum(stored):,} bytes in all"
    )
    print(f"  read back: {read_ms:.0f} ms (inflate {unzip_ms:.0f} ms, parse {parse_ms:.0f} ms)")
    print(f"  {'request':<20} {'first ms':>9} {'then ms':>8}   the current one's first, then")
    for path in ("v/1/", "v/2/", "v/2/schedule.json", "v/2/schedule.xml", "v/2/schedule.ics"):
        first, then = first_and_best(f"/{slug}/{path}")
        now = path.replace("v/2/", "").replace("v/1/", "")
        now_first, now_then = first_and_best(f"/{slug}/{now}")
        print(f"  {path:<20} {first:>9.0f} {then:>8.0f}   /{now}: {now_first:.0f}, {now_then:.0f}")


if __name__ == "__main__":
    main()
