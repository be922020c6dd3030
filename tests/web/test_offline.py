"""The installable app: manifest, the event's service worker, the version it polls."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings
from django.urls import set_script_prefix

from confsched.programme.models import Event, ScheduleVersion
from confsched.web.views_offline import short_name
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
    assert config["pages"] == [BASE, BASE + "grid/", BASE + "speakers/", BASE + "agenda/"]
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
    assert response["Cache-Control"] == "no-cache"
    assert json.loads(response.content) == {
        "event": DEMO_SLUG,
        "version": latest.number,
        "updated_at": demo_event.updated_at.isoformat(),
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
