"""What one organizer's change costs the next visitor: the first list, grid, session page and
export after one session was renamed, at 1,000 and 5,000 sessions.

Usage: python bench/change_cost.py [--sizes 1000,5000] [--rounds 3] [--redis redis://127.0.0.1:6379/13]

In one process, with Django's test client (no network) on a throw-away SQLite database (or
DATABASE_URL). The event is shaped as in load.py (interchange.synthetic.fosdem_shaped: 10 rooms
per 1,000 sessions, two days, 1.372 speakers per session). Every page is asked for once to warm the
caches; then, each round, one session is renamed as the admin does it (the row saved, then
programme.services.record_edit: a version, and the event's `updated_at` moved with a step of the
outline journal naming the session) and each page is timed on its first request after the change:
in the event's zone and English, in French (Accept-Language), and in another zone (?tz=).

"restart" rounds rename a session, then drop this process's kept pages and parts as a server
start does, keeping the shared cache (Redis, `--redis`, a database number of its own that is
flushed first): the first requests then find in Redis what the previous version left there.

Wall-clock milliseconds (median and range over the rounds), the median CPU milliseconds of
this process for that request (SQLite runs in it; Redis does not), and its queries.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

# (label, path under /<event>/, headers)
PAGES = [
    ("list", "", {}),
    ("grid", "grid/", {}),
    ("list fr", "", {"HTTP_ACCEPT_LANGUAGE": "fr"}),
    ("grid fr", "grid/", {"HTTP_ACCEPT_LANGUAGE": "fr"}),
    ("list tz", "?tz=America/New_York", {}),
    ("grid tz", "grid/?tz=America/New_York", {}),
    ("session", "sessions/s{other}/", {}),
    ("schedule.xml", "schedule.xml", {}),
    ("schedule.json", "schedule.json", {}),
    ("schedule.ics", "schedule.ics", {}),
    ("schedule2.json", "schedule2.json", {}),
    ("schedule.xcal", "schedule.xcal", {}),
    ("rfc6321.xcal", "schedule.rfc6321.xcal", {}),
    ("schedule.csv", "schedule.csv", {}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--pages", default="", help="only these, by label: grid,grid fr")
    parser.add_argument(
        "--no-freeze", action="store_true",
        help="leave what setup made in the collector's view (serve freezes it, gunicorn_hooks)",
    )  # fmt: skip
    args = parser.parse_args()
    os.environ.setdefault("CONFSCHED_DATA_DIR", tempfile.mkdtemp(prefix="confsched-change-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("CONFSCHED_TESTING", "1")  # plain static storage, no manifest needed
    if args.redis:
        os.environ["REDIS_URL"] = args.redis
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from confsched.interchange.synthetic import fosdem_shaped
    from confsched.programme.models import Event, Session
    from confsched.programme.services import (
        create_event,
        load_programme,
        record_edit,
        session_facts,
    )
    from confsched.web.site.stencils import forget_local_stencils

    call_command("migrate", verbosity=0)
    cache.clear()
    if not args.no_freeze:  # as a served worker does once the app is loaded (gunicorn_hooks.py)
        from confsched.web.site.gunicorn_hooks import freeze_what_the_app_loaded

        freeze_what_the_app_loaded(None)

    def rename(event: Event, key: str, title: str) -> None:
        # As the admin saves a session: the row, then the edit recorded (a version, and the
        # event's version moved with a step naming the session).
        session = Session.objects.get(event=event, key=key)
        before = session_facts(session)
        session.title = title
        session.save()
        record_edit(session, before, editor="bench")

    def get(url: str, headers: dict[str, str]) -> tuple[float, float, int, bytes]:
        with CaptureQueriesContext(connection) as queries:
            started, cpu = time.perf_counter(), time.process_time()
            # A new visitor each time: a page in another zone leaves a cookie that keeps it.
            response = Client().get(url, **headers)
            elapsed = (time.perf_counter() - started) * 1000
            cpu_ms = (time.process_time() - cpu) * 1000
        if response.status_code != 200:
            raise RuntimeError(f"{url}: HTTP {response.status_code}")
        body = b"".join(response) if response.streaming else response.content
        return elapsed, cpu_ms, len(queries), body

    print(
        f"{'sessions':>8} {'case':<8} {'page':<14} {'median ms':>9} {'min':>7} {'max':>7} {'CPU ms':>7} {'queries':>7}"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        programme = fosdem_shaped(size)
        event = create_event(slug=f"change{size}", name="Change", timezone="Europe/Brussels")
        load_programme(event, programme)
        del programme  # a served worker never holds the imported programme
        Event.objects.filter(pk=event.pk).update(languages="en, fr")
        event.refresh_from_db()
        urls = [
            (label, f"/{event.slug}/" + path.format(other=size // 3), headers)
            for label, path, headers in PAGES
            if not args.pages or label in args.pages.split(",")
        ]
        for _, url, headers in urls:
            get(url, headers)
        for case in ("change", "restart"):
            times: dict[str, list[float]] = {label: [] for label, _, _ in urls}
            cpu: dict[str, list[float]] = {label: [] for label, _, _ in urls}
            queries: dict[str, int] = {}
            for round_ in range(args.rounds):
                for _, url, headers in urls:  # warm: the previous version kept everywhere
                    get(url, headers)
                title = f"Renamed {case} {round_} at {time.time()}"
                rename(event, f"s{size // 2 + round_}", title)
                if case == "restart":
                    forget_local_stencils()
                for label, url, headers in urls:
                    elapsed, cpu_ms, count, body = get(url, headers)
                    times[label].append(elapsed)
                    cpu[label].append(cpu_ms)
                    queries[label] = count
                    if label in ("list", "grid", "schedule.xml") and title.encode() not in body:
                        raise RuntimeError(f"{label}: the new title is missing after the change")
            for label, values in times.items():
                print(
                    f"{size:>8} {case:<8} {label:<14} {statistics.median(values):>9.0f} "
                    f"{min(values):>7.0f} {max(values):>7.0f} {statistics.median(cpu[label]):>7.0f} "
                    f"{queries[label]:>7}"
                )
            sys.stdout.flush()
    cache.clear()


if __name__ == "__main__":
    main()
