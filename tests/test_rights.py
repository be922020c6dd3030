"""Every staff URL, for every kind of person, on their own event and on another: the exact
status each gets (docs/teams.md), and nothing reached where it must not be.

The URLs come from the URLconf and the admin's registry, not from a list kept by hand: a staff
view added to web/staff/, an admin screen registered in programme/ or a JSON API operation
added without a row here fails `test_every_staff_url_is_in_the_table`.

The rights each role holds are spelled out here from the issue (not imported from
teams/rights.py), so that the test checks the code against the rules, not against itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, reverse

from confsched.admin.scoped import EventScoped
from confsched.agenda.reservations import set_seats
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Event, Session
from confsched.programme.services import create_event, load_programme
from confsched.teams.services import add_member
from confsched.web import urls as web_urls

OWN, OTHER = "own-event", "other-event"
SESSION, SPEAKER = "s0", "p0"

# What each role may do, as the issue says: owner everything; editor programme, imports,
# sync, settings, seats, check-in; viewer insight, reservations and feedback read only;
# check-in the check-in pages only.
READ, CHECKIN, SEATS, PROGRAMME, TEAM = "read", "checkin", "seats", "programme", "team"
ROLES = {
    "owner": {READ, CHECKIN, SEATS, PROGRAMME, TEAM},
    "editor": {READ, CHECKIN, SEATS, PROGRAMME},
    "viewer": {READ},
    "checkin": {CHECKIN},
}
# Who knocks: nobody signed in, an attendee, an account that is only `is_staff` (which opens
# no event since teams), each role on OWN, and a site administrator.
PEOPLE = ["anonymous", "attendee", "staff only", *ROLES, "site admin"]


def rights(person: str, slug: str) -> set[str]:
    if person == "site admin":
        return {READ, CHECKIN, SEATS, PROGRAMME, TEAM}
    return ROLES.get(person, set()) if slug == OWN else set()


# --- The web's staff pages: URL name -> [(method, data, right needed, status when allowed)].
# A refused POST's data is harmless: an unknown action (400) or an unknown code (302 to a page
# saying it is not on the list); the speaker link's POST makes a new link (302 back).
WEB: dict[str, list[tuple[str, dict[str, str] | None, str, int]]] = {
    "insight": [("GET", None, READ, 200)],
    "seats_overview": [("GET", None, READ, 200)],
    "session_reservations": [("GET", None, READ, 200), ("POST", {"action": "x"}, SEATS, 400)],
    "session_reservations_csv": [("GET", None, READ, 200)],
    "feedback_staff": [("GET", None, READ, 200)],
    "feedback_speaker_link": [("POST", {}, PROGRAMME, 302)],
    "checkin": [("GET", None, CHECKIN, 200)],
    "checkin_session": [("GET", None, CHECKIN, 200), ("POST", {"code": "zz"}, CHECKIN, 302)],
    "team": [("GET", None, TEAM, 200), ("POST", {"action": "x"}, TEAM, 400)],
    "speakers_staff": [("GET", None, PROGRAMME, 200), ("POST", {"action": "x"}, PROGRAMME, 400)],
    "speakers_review": [("GET", None, PROGRAMME, 200), ("POST", {"action": "x"}, PROGRAMME, 400)],
    "draft": [("GET", None, PROGRAMME, 200), ("POST", {"action": "x"}, PROGRAMME, 400)],
    "draft_editor": [("GET", None, PROGRAMME, 200), ("POST", {"action": "x"}, PROGRAMME, 400)],
}
# Views in web/staff/ that are not staff pages, and why.
NOT_STAFF = {
    "team_join": "an invitation's link: its signed token is the key (tests/web/test_team_pages)"
}
KEYS = {"feedback_speaker_link": SPEAKER}

# --- The JSON API: every operation is public (the published programme) or reached with the
# attendee's own secret feed token; none is a staff operation. A staff operation added to the
# API must be listed in API_STAFF and walked like the web's pages.
API_PUBLIC = {
    "openapi-json", "openapi-view", "index", "list_events", "get_event", "list_sessions",
    "plan_agenda", "get_session", "list_speakers", "get_speaker", "list_rooms", "list_tracks",
    "list_levels", "list_versions", "list_changes", "agenda", "api-root",
}  # fmt: skip
API_STAFF: dict[str, Any] = {}

# --- The admin: each event-scoped screen, what its rows' changes need.
HISTORY_MODELS = {"scheduleversion", "teamchange"}  # read only, for everyone
ADMIN_APPS = {"programme", "teams"}  # the apps whose screens are scoped to events


def _admin_base(model: str) -> str:
    """The admin's address of a model's screens: its app's label, then its name."""
    label = next(m._meta.app_label for m in admin.site._registry if m._meta.model_name == model)
    return f"/admin/{label}/{model}/"


ADMIN_KINDS = {"changelist", "add", "change", "history", "delete", "import"}


@dataclass(frozen=True)
class Cell:
    person: str
    method: str
    url: str
    status: int
    got: int
    location: str = ""


@pytest.fixture
def events(db: Any) -> dict[str, Event]:
    found = {}
    for slug in (OWN, OTHER):
        event = create_event(slug=slug, name=slug.title(), timezone="Europe/Paris")
        load_programme(event, synthetic_programme(2, rooms=1, days=1), by="command line")
        set_seats(Session.objects.get(event=event, key=SESSION), 5)
        owner = User.objects.create_user(f"owner-of-{slug}", f"{slug}@example.org")
        add_member(event, owner, "owner", by="command line")  # a team change to list
        found[slug] = event
    return found


def _clients(events: dict[str, Event]) -> dict[str, Client]:
    clients = {"anonymous": Client()}
    for person in PEOPLE[1:]:
        name = person.replace(" ", "-")
        if person == "site admin":
            user = User.objects.create_superuser(name, f"{name}@example.org", "pw")
        else:
            user = User.objects.create_user(name, f"{name}@example.org", "pw")
            # Team members are not `is_staff`: their role lets them in.
            User.objects.filter(pk=user.pk).update(is_staff=person == "staff only")
        if person in ROLES:
            add_member(events[OWN], user, person, by="command line")
        client = Client()
        client.force_login(user)
        clients[person] = client
    return clients


def _ask(client: Client, method: str, url: str, data: dict[str, str] | None) -> Any:
    return client.post(url, data or {}) if method == "POST" else client.get(url)


def _staff_patterns() -> dict[str, URLPattern]:
    return {
        pattern.name: pattern
        for pattern in web_urls.urlpatterns
        if isinstance(pattern, URLPattern)
        and pattern.callback.__module__.startswith("confsched.web.staff.")
        and pattern.name
    }


def test_every_staff_url_is_in_the_table() -> None:
    assert set(_staff_patterns()) == set(WEB) | set(NOT_STAFF)
    from confsched.api.api import api

    operations = {p.name for p in api.urls[0] if getattr(p, "name", None)}
    assert operations == API_PUBLIC | set(API_STAFF)
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in ADMIN_APPS:
            continue
        assert isinstance(model_admin, EventScoped), model  # every event's screen is scoped
        prefix = f"{model._meta.app_label}_{model._meta.model_name}_"
        names = {p.name.removeprefix(prefix) for p in model_admin.get_urls() if p.name}
        assert names <= ADMIN_KINDS, (model, names - ADMIN_KINDS)


def _web_cells(clients: dict[str, Client]) -> list[Cell]:
    cells = []
    for name, asks in WEB.items():
        for slug in (OWN, OTHER):
            kwargs = {"event": slug}
            if "<str:key>" in str(_staff_patterns()[name].pattern):
                kwargs["key"] = KEYS.get(name, SESSION)
            url = reverse(f"web:{name}", kwargs=kwargs)
            for method, data, need, allowed in asks:
                for person, client in clients.items():
                    if person == "anonymous":
                        want = 302
                    else:
                        want = allowed if need in rights(person, slug) else 404
                    got = _ask(client, method, url, data)
                    cells.append(
                        Cell(person, method, url, want, got.status_code, got.get("Location", ""))
                    )
    return cells


def test_every_web_staff_page_for_every_person(events: dict[str, Event]) -> None:
    cells = _web_cells(_clients(events))
    assert len(cells) == 2 * len(PEOPLE) * sum(len(asks) for asks in WEB.values())
    wrong = [cell for cell in cells if cell.got != cell.status]
    assert wrong == []
    for cell in cells:
        if cell.person == "anonymous":  # the log-in page, coming back here after
            assert cell.location.startswith("/accounts/login/?next=/"), cell
    reached = [c for c in cells if c.got < 400 and c.person != "anonymous" and c.status == 404]
    assert reached == []


def _admin_objects(events: dict[str, Event]) -> dict[tuple[str, str], Any]:
    """(model name, event slug) -> one row of that model in that event."""
    rows = {}
    for model in admin.site._registry:
        if model._meta.app_label not in ADMIN_APPS:
            continue
        for slug, event in events.items():
            rows[model._meta.model_name, slug] = (
                event if model is Event else model.objects.filter(event=event).first()
            )
            assert rows[model._meta.model_name, slug] is not None, (model, slug)
    return rows


def _admin_want(person: str, model: str, kind: str, slug: str) -> int:
    if person in ("anonymous", "attendee", "checkin"):
        return 302  # the admin's log-in page, as for anyone who is not an organizer
    anywhere = rights(person, OWN) | rights(person, OTHER)
    held = rights(person, slug)
    writable = model not in HISTORY_MODELS
    if kind == "changelist":
        return 200 if READ in anywhere else 403
    if kind == "add":
        if model == "event":
            return 200 if person == "site admin" else 403  # a new event has no team yet
        return 200 if writable and PROGRAMME in anywhere else 403
    if kind == "import":
        return 200 if PROGRAMME in held else 404
    if kind == "history":
        return 200 if READ in held else 302
    # Django asks the right on the row when the person sees it; on a row they do not see it
    # asks the right on any row, then redirects to the index as for a deleted row.
    need = {"change": READ, "change-post": PROGRAMME, "delete": PROGRAMME}[kind]
    if kind == "delete" and model == "event":
        need = TEAM
    allowed = writable or kind == "change"
    if READ in held:
        return 200 if allowed and need in held else 403
    return 302 if allowed and need in anywhere else 403


def test_every_admin_page_for_every_person(events: dict[str, Event]) -> None:
    clients = _clients(events)
    rows = _admin_objects(events)
    cells = []
    for (model, slug), row in sorted(rows.items()):
        base = _admin_base(model)
        urls = {
            "changelist": base,
            "add": f"{base}add/",
            "change": f"{base}{row.pk}/change/",
            "history": f"{base}{row.pk}/history/",
            "delete": f"{base}{row.pk}/delete/",
            "change-post": f"{base}{row.pk}/change/",
        }
        if model == "event":
            urls["import"] = f"{base}{row.pk}/import/"
        for kind, url in urls.items():
            if kind in ("changelist", "add") and slug == OTHER:
                continue  # not per event
            for person, client in clients.items():
                method = "POST" if kind == "change-post" else "GET"
                got = _ask(client, method, url, {})
                want = _admin_want(person, model, kind, slug)
                cells.append(Cell(person, method, url, want, got.status_code))
    assert [cell for cell in cells if cell.got != cell.status] == []
    assert len(cells) == len(PEOPLE) * (len(rows) // 2 * 10 + 2)


def test_admin_lists_show_only_the_persons_events(events: dict[str, Event]) -> None:
    clients = _clients(events)
    rows = _admin_objects(events)
    for person in ("viewer", "editor", "owner", "site admin"):
        for model in sorted({model for model, _ in rows}):
            response = clients[person].get(_admin_base(model))
            shown = {getattr(row, "event_id", row.pk) for row in response.context["cl"].queryset}
            mine = {events[OWN].pk} if person != "site admin" else {e.pk for e in events.values()}
            assert shown == mine, (person, model)


def test_the_admin_index_lists_only_what_each_person_may_see(events: dict[str, Event]) -> None:
    clients = _clients(events)
    listed = {}
    for person, client in clients.items():
        response = client.get("/admin/")
        if response.status_code != 200:
            listed[person] = response.status_code
            continue
        listed[person] = sorted(
            f"{app['app_label']}.{model['object_name']}"
            for app in response.context["app_list"]
            for model in app["models"]
        )
    programme = sorted(
        [
            f"programme.{name}"
            for name in ("Event", "Room", "Track", "Level", "Session", "Speaker")
            + ("ScheduleVersion",)
        ]
        + ["teams.TeamChange"]
    )
    assert listed == {
        "anonymous": 302,
        "attendee": 302,
        "staff only": [],  # in, for Django's own screens its permissions open; no event's
        "owner": programme,
        "editor": programme,
        "viewer": programme,
        "checkin": 302,
        "site admin": sorted(
            [
                *programme,
                "auth.Group",
                "auth.User",
                "axes.AccessAttempt",
                "axes.AccessFailureLog",
                "axes.AccessLog",
                # The task queue (search by meaning's embeddings): site administrators only.
                "django_tasks_database.DBTaskResult",
            ]
        ),  # fmt: skip
    }


def test_choices_offer_only_the_persons_events(events: dict[str, Event]) -> None:
    clients = _clients(events)
    html = clients["editor"].get("/admin/programme/session/add/").content.decode()
    assert f">{events[OWN].name}</option>" in html
    assert events[OTHER].name not in html
    assert "owner-of-other-event" not in html


def test_a_list_mixing_events_never_writes_to_one_only_read(events: dict[str, Event]) -> None:
    from confsched.programme.models import Room

    user = User.objects.create_user("mixed", "mixed@example.org", "pw")
    add_member(events[OWN], user, "editor", by="command line")
    add_member(events[OTHER], user, "viewer", by="command line")
    client = Client()
    client.force_login(user)
    mine, theirs = (Room.objects.get(event=events[slug]) for slug in (OWN, OTHER))
    page = client.get(f"/admin/programme/room/{theirs.pk}/change/").content.decode()
    assert 'name="_save"' not in page  # read only
    refused = client.post(f"/admin/programme/room/{theirs.pk}/change/", {"name": "Mine now"})
    assert refused.status_code == 403
    # The list shows both events' rooms; the other's editable columns are read only, and
    # values posted for them anyway are ignored while the person's own row is saved.
    listed = client.get("/admin/programme/room/")
    assert listed.status_code == 200
    disabled = re.findall(
        r'<input [^>]*name="form-(\d)-(\w+)"[^>]* disabled', listed.content.decode()
    )
    rows = {str(index): room for index, room in enumerate(listed.context["cl"].result_list)}
    assert sorted((rows[i].event.slug, name) for i, name in disabled) == [
        (OTHER, "capacity"), (OTHER, "position"),
    ]  # fmt: skip
    data = {"form-TOTAL_FORMS": "2", "form-INITIAL_FORMS": "2", "_save": "Save"}
    for index, room in rows.items():
        data |= {f"form-{index}-id": str(room.pk), f"form-{index}-position": "9",
                 f"form-{index}-capacity": "50"}  # fmt: skip
    assert client.post("/admin/programme/room/", data).status_code == 302
    assert Room.objects.get(pk=mine.pk).capacity == 50
    assert (Room.objects.get(pk=theirs.pk).position, Room.objects.get(pk=theirs.pk).capacity) == (
        theirs.position, theirs.capacity,
    )  # fmt: skip


def test_the_import_body_limit_opens_only_to_who_may_import(
    events: dict[str, Event], settings: Any
) -> None:
    settings.CONFSCHED_MAX_REQUEST_BYTES = 1000
    settings.CONFSCHED_MAX_IMPORT_BYTES = 100_000
    clients = _clients(events)
    body = b"x" * 5000
    got = {}
    for slug in (OWN, OTHER):
        url = f"/admin/programme/event/{events[slug].pk}/import/"
        for person, client in clients.items():
            response = client.post(url, body, content_type="application/octet-stream")
            got[person, slug] = response.status_code
    # 413 unless the person may import into that event; they get the form's refusal (400).
    assert got == {
        (person, slug): 400 if PROGRAMME in rights(person, slug) else 413
        for person in PEOPLE
        for slug in (OWN, OTHER)
    }


def test_the_event_page_offers_import_and_team_only_to_who_may(events: dict[str, Event]) -> None:
    clients = _clients(events)
    url = f"/admin/programme/event/{events[OWN].pk}/change/"
    offered = {}
    for person in ("viewer", "editor", "owner", "site admin"):
        html = clients[person].get(url).content.decode()
        offered[person] = [label for label in ("Import a programme", ">Team<") if label in html]
    assert offered == {
        "viewer": [],
        "editor": ["Import a programme"],
        "owner": ["Import a programme", ">Team<"],
        "site admin": ["Import a programme", ">Team<"],
    }


def test_the_speaker_search_finds_only_the_persons_events(events: dict[str, Event]) -> None:
    from confsched.programme.models import Speaker

    clients = _clients(events)
    url = (
        "/admin/autocomplete/?app_label=programme&model_name=sessionspeaker"
        "&field_name=speaker&term=Person"
    )
    found = {}
    for person in ("anonymous", "attendee", "checkin", "viewer", "editor", "site admin"):
        response = clients[person].get(url)
        found[person] = (
            sorted(int(row["id"]) for row in response.json()["results"])
            if response.status_code == 200
            else response.status_code
        )
    own = sorted(Speaker.objects.filter(event=events[OWN]).values_list("pk", flat=True))
    assert found == {
        "anonymous": 302,
        "attendee": 302,
        "checkin": 302,
        "viewer": own,
        "editor": own,
        "site admin": sorted(Speaker.objects.values_list("pk", flat=True)),
    }


def test_team_members_log_in_to_the_admin_without_is_staff(events: dict[str, Event]) -> None:
    said = {}
    for role in ("viewer", "checkin"):
        user = User.objects.create_user(f"{role}-x", f"{role}-x@example.org", "a long password 9")
        add_member(events[OWN], user, role, by="command line")
        response = Client().post(
            "/admin/login/?next=/admin/",
            {"username": user.username, "password": "a long password 9", "next": "/admin/"},
        )
        said[role] = (response.status_code, response.get("Location", ""))
    assert said == {"viewer": (302, "/admin/"), "checkin": (200, "")}
