"""A rush on one workshop: many signed-in attendees reserving its seats in the same second,
through a real `confsched serve`, and what the database holds afterwards.

Shared by the reservation benchmark (bench/reservations.py) and the storm test
(tests/agenda/test_reservation_storm.py). Each attendee is a real account with its own
session cookie and CSRF cookie, made in the served database before the rush; the requests are
what htmx sends when the "Reserve a seat" button is pressed.
"""

from __future__ import annotations

import http.client
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from serving import in_site, percentile, together

ROOT = Path(__file__).resolve().parent.parent
EVENT, KEY = "storm", "workshop"


@dataclass(frozen=True)
class Attendee:
    username: str
    session_cookie: str
    csrf: str


@dataclass
class Rush:
    """What one rush did: per request its status, when it was sent and answered (seconds since
    the rush began), and the wall time of the whole."""

    statuses: list[int] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0

    @property
    def per_second(self) -> float:
        return len(self.statuses) / self.wall if self.wall else 0.0

    def percentile(self, share: float) -> float:
        return percentile(self.latencies, share)


_PREPARE = """
import json, secrets, sys
from datetime import timedelta
import django
django.setup()
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from importlib import import_module
from django.utils import timezone
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import create_event

count, seats, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
event = Event.objects.filter(slug="storm").first() or create_event(
    slug="storm", name="Storm", timezone="Europe/Paris")
room, _ = Room.objects.get_or_create(event=event, name="Lab", slug="lab")
start = timezone.now() + timedelta(days=1)
Session.objects.get_or_create(event=event, key="workshop", defaults=dict(
    title="Workshop", room=room, seats=seats, starts_at=start, ends_at=start + timedelta(hours=2)))
unusable = make_password(None)
users = User.objects.bulk_create(
    [User(username=f"{prefix}{n:05}", email=f"{prefix}{n:05}@example.org", password=unusable)
     for n in range(count)])
store = import_module(settings.SESSION_ENGINE).SessionStore
out = []
for user in users:
    session = store()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "confsched.web.accounts.backends.AccountsBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    out.append([user.username, session.session_key])
print(json.dumps(out))
"""


def prepare(env: dict[str, str], *, count: int, seats: int, prefix: str = "a") -> list[Attendee]:
    """The storm event with its workshop (`seats` seats, starting tomorrow) and `count` signed-in
    attendees in the database `env` names."""
    made = in_site(env, _PREPARE, str(count), str(seats), prefix)
    return [
        Attendee(username, cookie, secrets.token_hex(16)) for username, cookie in json.loads(made)
    ]


def post_form(
    connection: http.client.HTTPConnection, attendee: Attendee, path: str, form: str,
    headers: dict[str, str] | None = None,
) -> int:  # fmt: skip
    """POST the url-encoded `form` to `path` as `attendee` does from the event's page (their
    cookies, their CSRF token, the page as Referer and Origin); the answer's status."""
    site = f"http://{connection.host}:{connection.port}"
    connection.request(
        "POST", path, body=f"{form}&csrfmiddlewaretoken={attendee.csrf}",
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"sessionid={attendee.session_cookie}; csrftoken={attendee.csrf}",
            "Referer": f"{site}/{EVENT}/", "Origin": site, **(headers or {}),
        },
    )  # fmt: skip
    response = connection.getresponse()
    response.read()
    return response.status


def _post(
    connection: http.client.HTTPConnection, attendee: Attendee, action: str, *, key: str = KEY,
    close: bool = False,
) -> int:  # fmt: skip
    """What htmx sends when the seat button ("reserve", "cancel") or the star ("star") is
    pressed."""
    extra = {"HX-Request": "true", **({"Connection": "close"} if close else {})}
    if action == "star":
        return post_form(connection, attendee, f"/{EVENT}/sessions/{key}/star", "starred=1", extra)
    path = f"/{EVENT}/sessions/{key}/reserve"
    return post_form(connection, attendee, path, f"action={action}", extra)


def rush(
    port: int, requests: list[tuple[Attendee, str]] | list[tuple[Attendee, str, str]], *,
    clients: int = 50, fresh: bool = False,
) -> Rush:  # fmt: skip
    """Send every (attendee, "reserve", "cancel" or "star"[, session key: the workshop's when
    left out]) at once from `clients` connections, each request on its own after a common start;
    returns what came back. `fresh`: each attendee on a connection of their own (as phones
    are), else each client's connection kept alive from one attendee's request to the next."""
    result = Rush(statuses=[0] * len(requests), latencies=[0.0] * len(requests))
    local = threading.local()

    def connect() -> http.client.HTTPConnection:
        if not hasattr(local, "connection"):
            local.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        return local.connection

    def one(index: int) -> None:
        attendee, action, *key = requests[index]
        sent = time.perf_counter()
        try:
            status = _post(connect(), attendee, action, key=key[0] if key else KEY, close=fresh)
            if fresh:
                local.__dict__.pop("connection").close()
        except (OSError, http.client.HTTPException):
            local.__dict__.pop("connection", None)
            status = -1
        result.statuses[index] = status
        result.latencies[index] = time.perf_counter() - sent

    shares = [list(range(n, len(requests), clients)) for n in range(clients)]
    result.wall = together(
        clients, lambda n: [one(index) for index in shares[n]], before=lambda n: connect()
    )
    return result


def seats_held(env: dict[str, str]) -> dict[str, object]:
    """The workshop's reservations as the database `env` names holds them, in acceptance
    (primary key) order: statuses, users, and whether every confirmed row precedes every
    waitlisted one."""
    rows = select(
        env,
        "SELECT r.id, r.status, u.username, r.confirmed_at > r.created_at, r.created_at "
        "FROM agenda_reservation r JOIN programme_session s ON s.id = r.session_id "
        "JOIN auth_user u ON u.id = r.user_id WHERE s.key = {} ORDER BY r.id",
        [KEY],
    )
    confirmed = [row for row in rows if row[1] == "confirmed"]
    waitlisted = [row for row in rows if row[1] == "waitlisted"]
    taken = [_moment(row[4]) for row in rows]
    return {
        "rows": len(rows),
        "people": len({row[2] for row in rows}),
        "confirmed": len(confirmed),
        "waitlisted": len(waitlisted),
        "promoted": sum(1 for row in confirmed if row[3]),
        "confirmed_first": not confirmed or not waitlisted or confirmed[-1][0] < waitlisted[0][0],
        "usernames": [row[2] for row in rows],
        "statuses": [row[1] for row in rows],
        # Each place's time is when it was taken: in the order the places were given.
        "times_in_order": taken == sorted(taken),
    }


def select(env: dict[str, str], query: str, parameters: list[object]) -> list[tuple]:
    """The rows of `query` ("{}" where each parameter goes) in the database `env` names."""
    if env.get("DATABASE_URL"):
        import psycopg

        with psycopg.connect(env["DATABASE_URL"]) as connection:
            marked = query.format(*["%s"] * len(parameters))
            return connection.execute(marked, parameters).fetchall()  # type: ignore[arg-type]
    import sqlite3

    path = Path(env["CONFSCHED_DATA_DIR"]) / "confsched.sqlite3"
    with sqlite3.connect(path) as connection:
        return connection.execute(query.format(*["?"] * len(parameters)), parameters).fetchall()


def _moment(value: object) -> datetime:
    """A time as either database gives it: PostgreSQL's aware, SQLite's Django's UTC text."""
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value)).replace(tzinfo=UTC)
