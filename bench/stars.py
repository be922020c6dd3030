"""Stars under load: many signed-in attendees starring and unstarring at once.

Usage: python bench/stars.py [--clients 200] [--interval 2] [--duration 30] [--workers 4]
                             [--database postgres|sqlite] [--size 1000]

Builds a fresh database with one event of --size sessions and --clients attendees, serves it
with `confsched serve --workers N`, and runs one thread per attendee that, every --interval
seconds (started at random offsets), stars or unstars a random session the way the page's
htmx button does (POST with the CSRF token, HX-Request). It prints the requests made, stars
per second, latency p50/p95/p99/max and errors; then compares every attendee's stars in the
database with what their own requests asked for, last request winning: "lost" counts stars
that should be there and are not, or should not be there and are.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import secrets
import statistics
import sys
import textwrap
import threading
import time

from serving import fresh_site, run, served

SLUG = "bench"

SETUP = textwrap.dedent(
    """
    import django, json, sys
    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client
    from confsched.interchange.synthetic import synthetic_programme
    from confsched.programme.services import create_event, load_programme

    size, clients = int(sys.argv[1]), int(sys.argv[2])
    event = create_event(slug="bench", name="Bench", timezone="Europe/Brussels")
    load_programme(event, synthetic_programme(size, rooms=10, days=2, slot_minutes=15))
    User = get_user_model()
    cookies = []
    for n in range(clients):
        user = User.objects.create_user(f"attendee{n}", password="not-used-here")
        client = Client()
        client.force_login(user)
        cookies.append(client.cookies["sessionid"].value)
    print(json.dumps(cookies))
    """
)
COUNT = textwrap.dedent(
    """
    import django, json
    django.setup()
    from confsched.agenda.models import AgendaItem
    found = {}
    for name, key in AgendaItem.objects.values_list("user__username", "session__key"):
        found.setdefault(name, []).append(key)
    print(json.dumps(found))
    """
)


def _attendee(
    number: int, cookie: str, args: argparse.Namespace, port: int, stop: float,
    latencies: list[float], errors: list[str], wanted: dict[str, bool],
) -> None:  # fmt: skip
    secret = secrets.token_hex(16)  # Django accepts its 32-character secret as the token
    headers = {
        "Cookie": f"sessionid={cookie}; csrftoken={secret}",
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "Referer": f"http://127.0.0.1:{port}/{SLUG}/",
    }
    chooser = random.Random(number)  # noqa: S311 - load pattern, not security
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    time.sleep(chooser.uniform(0, args.interval))
    while time.monotonic() < stop:
        key = f"s{chooser.randrange(args.size)}"
        on = not wanted.get(key, False)
        body = f"starred={'1' if on else '0'}&csrfmiddlewaretoken={secret}"
        started = time.perf_counter()
        try:
            connection.request("POST", f"/{SLUG}/sessions/{key}/star", body, headers)
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                wanted[key] = on
            else:
                errors.append(f"HTTP {response.status}")
        except (OSError, http.client.HTTPException) as exc:
            errors.append(type(exc).__name__)
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        latencies.append(time.perf_counter() - started)
        time.sleep(max(0.0, args.interval - (time.perf_counter() - started)))
    connection.close()


def _load(
    cookies: list[str], args: argparse.Namespace
) -> tuple[list[float], list[str], list[dict[str, bool]], float]:
    """Every attendee's thread for --duration seconds: latencies, errors, what each asked for."""
    time.sleep(1)
    latencies: list[float] = []
    errors: list[str] = []
    wanted: list[dict[str, bool]] = [{} for _ in cookies]
    stop = time.monotonic() + args.duration
    threads = [
        threading.Thread(
            target=_attendee,
            args=(n, cookie, args, args.port, stop, latencies, errors, wanted[n]),
            daemon=True,
        )
        for n, cookie in enumerate(cookies)
    ]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    return latencies, errors, wanted, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database", default="postgres", choices=["postgres", "sqlite"])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    with fresh_site(args.database, name="confsched_stars") as env:
        made = run([sys.executable, "-c", SETUP, str(args.size), str(args.clients)], env)
        cookies = json.loads(made.splitlines()[-1])
        with served(env, port=args.port, workers=args.workers):
            latencies, errors, wanted, elapsed = _load(cookies, args)
        stored = json.loads(run([sys.executable, "-c", COUNT], env).splitlines()[-1])
    lost = 0
    for n, asked in enumerate(wanted):
        have = set(stored.get(f"attendee{n}", []))
        lost += sum(1 for key, on in asked.items() if on != (key in have))
    ms = sorted(1000 * value for value in latencies)
    centiles = statistics.quantiles(ms, n=100) if len(ms) > 1 else ms * 99
    print(
        f"{args.database}, {args.workers} workers, {args.clients} attendees starring every "
        f"{args.interval:g} s for {args.duration:g} s"
    )
    print(
        f"requests {len(ms)}, stars/s {len(ms) / elapsed:.1f}, p50 {centiles[49]:.1f} ms, "
        f"p95 {centiles[94]:.1f} ms, p99 {centiles[98]:.1f} ms, max {ms[-1]:.1f} ms, "
        f"errors {len(errors)}{' ' + str(sorted(set(errors))) if errors else ''}, lost {lost}"
    )


if __name__ == "__main__":
    main()
