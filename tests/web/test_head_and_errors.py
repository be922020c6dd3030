"""HEAD wherever GET works; 404 and 500 pages in the site's layout; JSON errors under /api/."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from django.test import Client, RequestFactory

from confsched.web.site.views import server_error
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PAGES = [
    BASE, f"{BASE}grid/", f"{BASE}?room=founders-cafe", f"{BASE}sessions/{TORCHJD}/",
    f"{BASE}speakers/", f"{BASE}speakers/valerian-rey/", f"{BASE}now/", f"{BASE}search/",
    f"{BASE}changes/", f"{BASE}changes.atom", f"{BASE}zones/", f"{BASE}plan/",
    f"{BASE}schedule.ics", f"{BASE}schedule.xml", f"{BASE}schedule.json", f"{BASE}schedule.csv",
    f"{BASE}schedule2.json", f"{BASE}sessions/{TORCHJD}/calendar.ics",
    f"{BASE}manifest.webmanifest", f"{BASE}sw.js", f"{BASE}version.json", f"{BASE}print/",
    f"{BASE}embed/", f"{BASE}agenda/", f"{BASE}agenda/favourites/", "/about/", "/favicon.ico",
    "/api/v1/", f"/api/v1/events/{DEMO_SLUG}", f"/api/v1/events/{DEMO_SLUG}/sessions",
    f"/api/v1/events/{DEMO_SLUG}/sessions/{TORCHJD}", f"/api/v1/events/{DEMO_SLUG}/speakers",
    f"/api/v1/events/{DEMO_SLUG}/versions", "/api/v1/openapi.json", "/nowhere/",
    f"{BASE}sessions/nope/", "/api/v1/nope",
]  # fmt: skip
COMPARED = ("Content-Type", "Content-Length", "ETag", "Cache-Control", "Location")


@pytest.mark.parametrize("url", PAGES)
def test_head_answers_as_get_without_a_body(demo_event, url: str) -> None:  # noqa: ANN001
    client = Client()
    got = client.get(url, HTTP_ACCEPT_ENCODING="identity")
    head = client.head(url, HTTP_ACCEPT_ENCODING="identity")
    assert head.status_code == got.status_code != 405
    assert {name: head.get(name) for name in COMPARED if name != "ETag"} == {
        name: got.get(name) for name in COMPARED if name != "ETag"
    }
    assert head.content == b""


def test_an_unknown_page_of_an_event_is_a_404_in_its_layout(demo_event) -> None:  # noqa: ANN001
    response = Client().get(f"{BASE}sessions/nope/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "<h1>Not found</h1>" in page
    assert f"There is no page at {BASE}sessions/nope/." in page
    assert '<p class="event-name"><a href="/pytorch-conference-europe-2026/">' in page
    assert f'<a href="{BASE}search/">Search its sessions</a>' in page


def test_an_unknown_address_is_a_404_in_the_site_layout(db) -> None:  # noqa: ANN001
    response = Client().get("/no-such-event/at/all/")
    page = response.content.decode()
    assert response.status_code == 404
    assert '<a href="/">Every event on this site</a>' in page
    assert 'class="site-header site-header-plain"' in page


def test_an_unknown_api_path_answers_json(db) -> None:  # noqa: ANN001
    response = Client().get("/api/v1/nope")
    assert (response.status_code, response["Content-Type"]) == (404, "application/json")
    assert json.loads(response.content) == {"detail": "There is no API operation at /api/v1/nope."}


def test_a_fault_is_a_500_page_in_the_site_layout(db) -> None:  # noqa: ANN001
    request = RequestFactory().get(f"{BASE}grid/")
    try:
        raise ValueError("a defect")
    except ValueError:
        response = server_error(request)
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in response.content.decode()


def test_a_database_that_cannot_be_reached_is_a_503_with_retry_after(db) -> None:  # noqa: ANN001
    request = RequestFactory().get(f"{BASE}grid/")
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        response = server_error(request)
    assert (response.status_code, response["Retry-After"]) == (503, "30")
    assert "<h1>Back in a moment</h1>" in response.content.decode()
    api = RequestFactory().get("/api/v1/events")
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        response = server_error(api)
    assert (response.status_code, json.loads(response.content)) == (
        503,
        {"detail": "The schedule's database cannot be reached right now. Please try again in "
         "half a minute."},
    )  # fmt: skip
