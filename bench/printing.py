"""Printed days at scale: the public day PDF of a 1,000-session day, and the agenda PDF of a
visitor who starred all 1,000 sessions of that day, in an event of 3,000 sessions.

Usage: python bench/printing.py [--size 3000] [--days 3] [--rooms 20]
Uses a throw-away SQLite database in a temporary folder. For each PDF it prints the wall-clock
and CPU milliseconds (this process: WeasyPrint renders in it) of the first request (nothing
kept), of a second request for the same content, and the PDF's pages and size.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import Counter


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=3000)
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--rooms", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("CONFSCHED_DATA_DIR", tempfile.mkdtemp(prefix="confsched-bench-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("CONFSCHED_TESTING", "1")  # plain static storage, no manifest needed
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from confsched.agenda.models import AgendaItem
    from confsched.interchange.synthetic import synthetic_programme
    from confsched.programme.models import Session
    from confsched.programme.services import create_event, load_programme

    call_command("migrate", verbosity=0)
    event = create_event(slug="bench", name="Bench", timezone="Europe/Paris")
    programme = synthetic_programme(args.size, rooms=args.rooms, days=args.days, slot_minutes=15)
    load_programme(event, programme)
    sessions = list(Session.objects.filter(event=event))
    days = Counter(s.starts_at.astimezone(event.zone).date() for s in sessions)
    day, count = days.most_common(1)[0]
    user = User.objects.create_user("bench", "bench@example.org", "bench-password-0123")
    AgendaItem.objects.bulk_create(
        AgendaItem(user=user, session=s)
        for s in sessions
        if s.starts_at.astimezone(event.zone).date() == day
    )
    client = Client()
    client.force_login(user)
    print(f"{args.size} sessions, {count} on {day}, {args.rooms} rooms; {count} stars that day")
    print(f"{'PDF':<14} {'request':<8} {'wall ms':>8} {'CPU ms':>8} {'status':>6} {'KiB':>6}")
    for label, path in (
        ("public day", f"/bench/print/{day}.pdf"),
        ("agenda day", f"/bench/agenda/print/{day}.pdf"),
    ):
        for attempt in ("first", "second"):
            wall, cpu = time.perf_counter(), time.process_time()
            response = client.get(path)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(
                f"{label:<14} {attempt:<8} {1000 * wall:>8.0f} {1000 * cpu:>8.0f} "
                f"{response.status_code:>6} {len(response.content) / 1024:>6.0f}"
            )


if __name__ == "__main__":
    main()
