"""The installable app: manifest, the event's service worker, the version it polls."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings
from django.urls import set_script_prefix

from confsched.programme.models import Event, ScheduleVersion
from confsched.search.words import STOP_WORDS
from confsched.web.venue.offline import short_name
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"


def test_manifest_names_the_event_and_is_scoped_to_it(client: Client, demo_event) -> None:
    response = client.get(BASE + "manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert response["Cache-Control"] == "no-cache"
    assert json.loads(response.content) == {
        "name": "PyTorch Conference Europe 2026",
        "short_name": "PyTorch",
        "id": BASE,
        "start_url": BASE,
        "scope": BASE,
        "display": "standalone",
        "theme_color": "#5b1a99",
        "background_color": "#ffffff",
        "icons": [
            {"src": "/static/confsched/icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": "/static/confsched/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/confsched/icon-512.png", "sizes": "512x512", "type": "image/png"},
        ],
    }
    again = client.get(BASE + "manifest.webmanifest", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_manifest_and_worker_follow_a_path_prefix(demo_event) -> None:
    # What the WSGI handler does for a site served under /conf (the test client does not).
    client = Client(SCRIPT_NAME="/conf")
    set_script_prefix("/conf/")
    try:
        manifest = json.loads(client.get(BASE + "manifest.webmanifest").content)
        worker = client.get(BASE + "sw.js").content.decode()
    finally:
        set_script_prefix("/")
    assert (manifest["start_url"], manifest["scope"]) == (f"/conf{BASE}", f"/conf{BASE}")
    config = json.loads(re.search(r"var CONFIG = (\{.*?\n\});", worker, re.S).group(1))
    assert config["scope"] == f"/conf{BASE}"
    assert config["version"] == f"/conf{BASE}version.json"


@pytest.mark.parametrize(
    ("name", "short"),
    [
        ("PyTorch Conference Europe 2026", "PyTorch"),
        ("PyCon DE 2026", "PyCon DE"),
        ("DjangoCon", "DjangoCon"),
        ("Supercalifragilistic Days", "Supercalifra"),
    ],
)
def test_short_name_fits_under_an_icon(name: str, short: str) -> None:
    assert short_name(name) == short


def test_worker_is_served_from_the_event_path_uncached(client: Client, demo_event) -> None:
    response = client.get(BASE + "sw.js")
    body = response.content.decode()
    config = json.loads(re.search(r"var CONFIG = (\{.*?\n\});", body, re.S).group(1))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert "Service-Worker-Allowed" not in response
    assert config["scope"] == BASE
    # Not the agenda: it is no-store (secret addresses); its copy without them is asked for
    # apart once the person opens it online.
    assert config["pages"] == [BASE, BASE + "grid/", BASE + "speakers/"]
    assert (config["agenda"], config["search"]) == (BASE + "agenda/", BASE + "search/")
    # Searched offline as the server searches by words: the same stop words, as many results.
    assert config["stopWords"] == sorted(STOP_WORDS)
    assert ("the" in config["stopWords"], "pytorch" in config["stopWords"]) == (True, False)
    assert config["resultsShown"] == 20
    assert config["timeZone"] == "Europe/Paris"
    assert (config["data"], config["speakers"]) == (BASE + "schedule.json", BASE + "speakers/")
    assert config["staticFiles"] == [
        "/static/confsched/app.css",
        "/static/confsched/app.js",
        "/static/confsched/offline.js",
        "/static/confsched/icon.svg",
        "/static/django_htmx/htmx-2.min.js",
    ]
    assert config["cache"].startswith(f"confsched:{DEMO_SLUG}:")
    assert config["skip"] == [
        BASE + "sw.js", BASE + "manifest.webmanifest", BASE + "version.json", BASE + "embed/"
    ]  # fmt: skip


def test_version_names_the_latest_schedule_version(client: Client, demo_event) -> None:
    demo_event.refresh_from_db()
    latest = ScheduleVersion.objects.filter(event=demo_event).order_by("-number").first()
    response = client.get(BASE + "version.json")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-cache"
    assert response["Vary"] == "Cookie"
    assert json.loads(response.content) == {
        "event": DEMO_SLUG,
        "version": latest.number,
        "updated_at": demo_event.updated_at.isoformat(),
        "account": "visitor",
    }
    assert client.get(BASE + "version.json", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    Event.objects.filter(pk=demo_event.pk).update(name="Renamed")  # auto_now moves updated_at
    demo_event.save()
    changed = client.get(BASE + "version.json", HTTP_IF_NONE_MATCH=response["ETag"])
    assert changed.status_code == 200


@pytest.mark.parametrize("path", ["manifest.webmanifest", "sw.js", "version.json"])
def test_offline_files_of_an_unknown_event_are_404(client: Client, db, path: str) -> None:
    assert client.get(f"/no-such-event/{path}").status_code == 404


def test_every_event_page_links_the_manifest_and_the_worker(client: Client, demo_event) -> None:
    html = client.get(BASE).content.decode()
    assert (
        f'<link rel="manifest" href="{BASE}manifest.webmanifest" '
        f'data-service-worker="{BASE}sw.js" data-scope="{BASE}">'
    ) in html
    assert '<script src="/static/confsched/offline.js" defer></script>' in html


@override_settings(CONFSCHED_PAGE_STENCILS=False)
def test_version_of_an_event_without_versions_is_zero(client: Client, db) -> None:
    from confsched.programme.services import create_event

    create_event(slug="empty", name="Empty", timezone="UTC")
    assert json.loads(client.get("/empty/version.json").content)["version"] == 0


def _account(client: Client) -> str:
    return json.loads(client.get(BASE + "version.json").content)["account"]


def test_version_names_the_account_apart_without_saying_who(demo_event) -> None:
    """The worker keeps each person's copy under this marker: one per account, the same in
    every session of it, "visitor" for anyone not signed in, and nothing secret in it."""
    from django.contrib.auth.models import User

    alice = User.objects.create_user("alice", password="pw-alice-1234")
    bob = User.objects.create_user("bob", password="pw-bob-1234")
    first, second, other, visitor = Client(), Client(), Client(), Client()
    first.force_login(alice)
    second.force_login(alice)
    other.force_login(bob)
    markers = [_account(c) for c in (first, second, other, visitor)]
    assert markers[0] == markers[1]
    assert len({markers[0], markers[2], markers[3]}) == 3
    assert markers[3] == "visitor"
    assert re.fullmatch(r"a[0-9a-f]{24}", markers[0])
    session_key = first.cookies["sessionid"].value
    assert "alice" not in markers[0] and session_key[:8] not in markers[0]


def test_version_etag_differs_per_account(client: Client, demo_event) -> None:
    """A browser revalidating version.json after a log-in never gets the visitor's answer."""
    from django.contrib.auth.models import User

    visitor = client.get(BASE + "version.json")
    client.force_login(User.objects.create_user("alice", password="pw-alice-1234"))
    signed_in = client.get(BASE + "version.json", HTTP_IF_NONE_MATCH=visitor["ETag"])
    assert signed_in.status_code == 200
    assert json.loads(signed_in.content)["account"].startswith("a")


def test_log_out_tells_the_browser_to_drop_the_offline_copy_and_kept_stars(
    client: Client, demo_event
) -> None:
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("alice", password="pw-alice-1234"))
    response = client.post("/accounts/logout/", {"next": BASE})
    assert (response.status_code, response["Location"]) == (302, BASE)
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert _account(client) == "visitor"
