"""No input is a server error: hostile values in every route parameter and every form field,
as a visitor, an attendee and an organizer of the demo event, answer 4xx (or are ignored),
never 5xx; and no request leaves the database connection inside a transaction (a worker
whose connection holds one holds its locks against every other worker).

What is sent is found, not listed (tests/web/hostile.py): the URL patterns with each parameter
the resolver lets text through replaced by each value; each page's forms, each field replaced
in turn by each value, the other fields as the page filled them; the parameters each view's
module reads itself, sent the same way. Runs on SQLite and on PostgreSQL (DATABASE_URL).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta
from urllib.parse import parse_qsl, quote, unquote_to_bytes

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.urls import Resolver404, resolve

from confsched.agenda.alerts import set_alerts
from confsched.agenda.feedback import speaker_link
from confsched.agenda.reservations import set_seats
from confsched.agenda.services import set_sharing, star_session
from confsched.core import clock
from confsched.programme.models import Event, Session, Speaker
from confsched.teams.models import Invitation
from confsched.teams.services import invitation_token
from tests.conftest import DEMO_SLUG
from tests.teams import on_team
from tests.web.hostile import (
    HOSTILE,
    MANAGEMENT,
    NOT_FUZZED,
    Probe,
    Route,
    api_query_names,
    encoded,
    forms_of,
    is_ours,
    path_of,
    plain,
    reads,
    routes,
    submissions,
)

pytestmark = pytest.mark.django_db(transaction=True)

ROLES = ("visitor", "attendee", "organizer")
PASSWORD = "correct horse battery staple 42"
# The 16 places the audit found (issue 28, item 7), and the numbers it named: each role's
# probes must reach those it may, or the test proves nothing about them.
ANONYMOUS = {
    ("GET", "web:people", "q"),
    ("GET", "web:session", "key"),
    ("GET", "web:speaker", "key"),
    ("GET", "web:agenda_shared", "token"),
    ("GET", "web:agenda_feed", "token"),
    ("GET", "web:alerts_feed", "token"),
    ("GET", "web:alerts_unsubscribe", "token"),
    ("GET", "web:feedback_speaker", "token"),
    ("GET", "api-v1:get_event", "slug"),
    ("GET", "api-v1:get_session", "key"),
    ("GET", "api-v1:get_speaker", "key"),
    ("GET", "api-v1:agenda", "token"),
    ("GET", "api-v1:list_sessions", "page"),
    ("GET", "api-v1:plan_agenda", "walk"),
}
SIGNED_IN = {
    ("POST", "web:feedback", "comment"),
    ("POST", "web:feedback", "rating"),
    ("POST", "web:agenda_share", "display_name"),
    ("POST", "web:favourites_star", "key"),
    ("POST", "web:reminders", "minutes"),
}
STAFF = {
    ("POST", "web:session_reservations", "person"),
    ("POST", "web:session_reservations", "seats"),
    ("POST", "web:session_reservations", "reservation"),
    ("POST", "web:team", "member"),
    ("POST", "web:team", "invitation"),
    ("POST", "web:draft", "seen"),
}
REACHED = {
    "visitor": ANONYMOUS,
    "attendee": ANONYMOUS | SIGNED_IN,
    "organizer": ANONYMOUS | SIGNED_IN | STAFF,
}  # fmt: skip


@pytest.fixture
def site(demo_event: Event, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The demo event during its first session (feedback open), one session with seats, and
    a real token for every page that takes one."""
    session = Session.objects.filter(event=demo_event).published().order_by("starts_at").first()
    assert session is not None and session.starts_at is not None
    moment = session.starts_at + timedelta(minutes=30)
    monkeypatch.setattr(clock, "now", lambda: moment)
    set_seats(session, 10)
    attendee = User.objects.create_user("attendee", "attendee@example.org", PASSWORD)
    organizer = on_team(User.objects.create_user("organizer", "org@example.org", PASSWORD))
    star_session(attendee, session)
    links = set_sharing(attendee, demo_event, is_on=True, display_name="Ada")
    subscription = set_alerts(attendee, demo_event, is_on=True)
    speaker = Speaker.objects.filter(event=demo_event).order_by("key").first()
    assert speaker is not None
    invitation = Invitation.objects.create(
        event=demo_event, email="new@example.org", role="viewer", invited_by="organizer"
    )
    return {
        "users": {"attendee": attendee, "organizer": organizer},
        "session": session.key, "speaker": speaker.key, "room": session.room.slug,
        "day": f"{session.starts_at.astimezone(demo_event.zone):%Y-%m-%d}",
        "tokens": {
            "web:agenda_shared": links.share_token, "web:agenda_feed": links.feed_token,
            "web:alerts_feed": links.feed_token, "api-v1:agenda": links.feed_token,
            "web:alerts_unsubscribe": subscription.unsubscribe_token,
            "web:feedback_speaker": speaker_link(speaker).token,
            "web:team_join": invitation_token(invitation),
        },
        "ids": {"event": demo_event.pk, "session": session.pk, "speaker": speaker.pk,
                "user": organizer.pk},
    }  # fmt: skip


def _good(route: Route, site: dict[str, object]) -> dict[str, str]:
    """A value for each parameter that reaches the view: the demo event, a real key, a real
    token, an existing row for the admin's pages."""
    tokens, ids = site["tokens"], site["ids"]
    view = _view("/" + route.template.format(**dict.fromkeys(route.params, "x")))
    admin_model = (
        (route.name.split("_") + ["", ""])[1] if route.template.startswith("admin/") else ""
    )
    good = {
        "event": DEMO_SLUG, "slug": DEMO_SLUG, "number": "1", "extension": "json",
        "day": site["day"], "uidb64": "MQ", "token": tokens.get(view, "unknown"),
        "key": site["speaker"]
        if "speakers/" in route.template or route.template.startswith("speaker/")
        else site["session"],
        "session": site["session"], "room": site["room"], "pk": "1",
        "object_id": str(ids.get(admin_model, ids["user"])), "content_type_id": "1",
        "id": str(ids["user"]), "app_label": "programme", "url": "programme/",
        "name": f"photos/{'0' * 20}.jpg",  # an uploaded file's (web/site/media.py)
    }  # fmt: skip
    return {name: quote(str(good[name]), safe="") for name in route.params}


def _probes(client: Client, site: dict[str, object]) -> Iterator[Probe]:
    seen: set[tuple[object, ...]] = set()
    api_names = api_query_names()
    for route in routes():
        good = _good(route, site)
        path = "/" + route.template.format(**good)
        page = client.get(path)
        if _turned_away(page):
            continue  # the door comes before anything the parameters choose: nothing to try
        view = _view(path)
        get_names, post_names = reads(route.view)
        get_names |= api_names.get(route.template, set())
        # Each parameter the resolver lets through to our own views, as each value; GET and,
        # where the view reads a form, POST. (Django's admin and auth views, as they come,
        # are Django's to test.)
        for param in route.open_params if is_ours(route) else ():
            for name, value in HOSTILE.items():
                hostile = "/" + route.template.format(**{**good, param: value})
                for method in ("GET", "POST") if post_names else ("GET",):
                    yield Probe(method, hostile, view=view, field=param, value=name)
        # The parameters the view reads itself, each alone.
        for method, names in (("GET", get_names), ("POST", post_names)):
            for field in sorted(names - NOT_FUZZED):
                yield from _each_value(method, path, {}, field, seen)
        # The page's forms, each field in turn, as the page filled the others.
        if page.status_code != 200 or "html" not in page.get("Content-Type", ""):
            continue
        for form in forms_of(page.content.decode()):
            for action, defaults, files in submissions(form, path):
                target, query = path_of(action)
                if _is_django_admin(target):
                    yield from _every_field_at_once(form.method, target, defaults, seen, query)
                    continue
                for field in defaults:
                    yield from _each_value(form.method, target, defaults, field, seen, query=query)
                for field in files:
                    yield from _each_file(target, defaults, field, seen)


def _turned_away(page: HttpResponse) -> bool:
    """Whether the person is sent to log in or refused (the good values' answer)."""
    return page.status_code == 403 or (
        page.status_code == 302 and "login" in page.get("Location", "")
    )


def _is_django_admin(path: str) -> bool:
    """A form of Django's own admin (not our import page): Django's form classes judge each of
    its fields on its own, so each value goes into every field at once."""
    view = _view(path)
    return view.startswith("admin:") and view != "admin:programme_event_import"


def _every_field_at_once(
    method: str, path: str, defaults: dict[str, str], seen: set[tuple[object, ...]], query: str
) -> Iterator[Probe]:
    view = _view(path)
    fields = sorted(name for name in defaults if not MANAGEMENT.search(name))
    if ("ALL", method, view, tuple(fields)) in seen:
        return
    seen.add(("ALL", method, view, tuple(fields)))
    for name, value in HOSTILE.items():
        # As many fields at once as stay under the body limit (a 413 would test nothing).
        size = max(1, (settings.CONFSCHED_MAX_REQUEST_BYTES // 2) // len(value))
        for start in range(0, len(fields), size):
            batch = fields[start : start + size]
            data = encoded({**plain(defaults), **dict.fromkeys(batch, value)})
            field = f"fields {batch[0]}…{batch[-1]}"
            yield _sent(method, path, data, query, view=view, field=field, value=name)


def _each_value(
    method: str, path: str, defaults: dict[str, str], field: str,
    seen: set[tuple[object, ...]], *, query: str = "",
) -> Iterator[Probe]:  # fmt: skip
    """The field as each value, once per view, method and the form's other fixed values."""
    view = _view(path)
    fixed = tuple(sorted((k, v) for k, v in defaults.items() if k not in {field, "next"}))
    if (method, view, field, fixed) in seen:
        return
    seen.add((method, view, field, fixed))
    for name, value in HOSTILE.items():
        data = encoded({**plain(defaults), field: value})
        yield _sent(method, path, data, query, view=view, field=field, value=name)


def _sent(method: str, path: str, data: str, query: str, **what: str) -> Probe:
    """The form's data as a GET form sends it (the query string) or a POST form (the body)."""
    if method == "GET":
        return Probe("GET", path, query=data, **what)
    return Probe("POST", path, query=query, body=data, **what)


def _each_file(
    path: str, defaults: dict[str, str], field: str, seen: set[tuple[object, ...]]
) -> Iterator[Probe]:
    view = _view(path)
    if ("FILE", view, field) in seen:
        return
    seen.add(("FILE", view, field))
    for name, value in HOSTILE.items():
        content = b"\xff" if name == "invalid UTF-8" else unquote_to_bytes(value)
        yield Probe("POST", path, body=encoded(plain(defaults)), files=((field, content),),
                    view=view, field=field, value=name)  # fmt: skip


def _view(path: str) -> str:
    try:
        return resolve(path).view_name
    except Resolver404:
        return path


def _client(role: str, site: dict[str, object]) -> Client:
    client = Client(raise_request_exception=False)
    if role != "visitor":
        client.force_login(site["users"][role])  # type: ignore[index]
    return client


def _send(client: Client, probe: Probe) -> HttpResponse:
    path = probe.path + (f"?{probe.query}" if probe.query else "")
    if probe.files:
        data: dict[str, object] = dict(parse_qsl(probe.body, keep_blank_values=True))
        for name, content in probe.files:
            data[name] = _upload(name, content)
        return client.post(path, data)
    if probe.method == "POST":
        return client.generic(
            "POST", path, probe.body.encode("latin-1"),
            content_type="application/x-www-form-urlencoded",
        )  # fmt: skip
    return client.get(path)


def _upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(f"{name}.json", content)


def _inside_a_transaction() -> bool:
    """Whether the connection was left holding a transaction (between requests it holds
    none: Django commits each statement outside atomic blocks)."""
    raw = connection.connection
    if raw is None:
        return False
    if connection.vendor == "postgresql":
        from psycopg.pq import TransactionStatus

        return bool(raw.info.transaction_status != TransactionStatus.IDLE)
    return bool(raw.in_transaction)


@pytest.fixture
def quiet_refusals() -> Iterator[None]:
    """Thousands of 4xx are the point here: Django logs each (with its 100 KB address) as a
    warning; server errors are still logged."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.usefixtures("quiet_refusals")
def test_hostile_values_never_get_a_server_error(site: dict[str, object], role: str) -> None:
    client = _client(role, site)
    probes = list(_probes(client, site))
    failures = []
    for probe in probes:
        response = _send(client, probe)
        if response.status_code >= 500:
            failures.append(f"{response.status_code} {probe}")
        if _inside_a_transaction():
            failures.append(f"left in a transaction: {probe}")
            connection.close()
        if role != "visitor" and settings.SESSION_COOKIE_NAME in response.cookies:
            client = _client(role, site)  # a log-out, a log-in as another: signed in again
    missed = sorted(REACHED[role] - {(probe.method, probe.view, probe.field) for probe in probes})
    header = f"{len(failures)} of {len(probes)} requests as {role} failed:"
    said = "\n".join([header, *failures, f"never reached: {missed}"])
    assert (failures, missed) == ([], []), said
