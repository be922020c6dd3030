"""Visitors who have not signed up download their starred sessions as an .ics file."""

from __future__ import annotations

import re

import pytest
import vobject
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
DOWNLOAD = f"{BASE}agenda.ics"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
LINK = f'<a class="button-link" href="{DOWNLOAD}" download>Download my agenda (.ics)</a>'
NOTHING = (
    "No starred sessions of PyTorch Conference Europe 2026 to download: star sessions on the "
    "schedule first (they are kept in this browser until you sign up)."
)


def _star(client: Client, key: str, *, on: bool = True) -> None:
    response = client.post(f"{BASE}sessions/{key}/star", {"starred": "1" if on else "0"})
    assert response.status_code == 302


def _summaries(body: bytes) -> list[str]:
    calendar = vobject.readOne(body.decode())
    return sorted(event.summary.value for event in calendar.vevent_list)


def test_a_visitor_downloads_their_stars_as_an_attachment(client: Client, demo_event) -> None:
    _star(client, TORCHJD)
    _star(client, HELION)
    assert LINK in client.get(BASE + "agenda/").content.decode()
    response = client.get(DOWNLOAD)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == (f'attachment; filename="{DEMO_SLUG}-my-agenda.ics"')
    assert _summaries(response.content) == [
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels",
        "Lightning Talk: TorchJD: Jacobian Descent in PyTorch",
    ]
    calendar = vobject.readOne(response.content.decode())
    assert calendar.contents["x-wr-calname"][0].value == "PyTorch Conference Europe 2026: my agenda"


def test_the_download_is_private_and_never_cached(client: Client, demo_event) -> None:
    _star(client, TORCHJD)
    response = client.get(DOWNLOAD)
    assert response["Cache-Control"] == "private, no-store"
    assert "Cookie" in [part.strip() for part in response["Vary"].split(",")]
    assert response["X-Robots-Tag"] == "noindex"


def test_the_download_follows_the_stars(client: Client, demo_event) -> None:
    _star(client, TORCHJD)
    _star(client, HELION)
    _star(client, HELION, on=False)
    assert _summaries(client.get(DOWNLOAD).content) == [
        "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"
    ]


def test_without_stars_it_says_what_to_do(client: Client, demo_event) -> None:
    html = client.get(BASE + "agenda/").content.decode()
    assert LINK not in html
    response = client.get(DOWNLOAD)
    assert response.status_code == 404
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == NOTHING
    assert response["Cache-Control"] == "private, no-store"


def test_one_visitors_stars_are_not_anothers(client: Client, demo_event) -> None:
    _star(client, TORCHJD)
    other = Client()
    response = other.get(DOWNLOAD)
    assert (response.status_code, response.content.decode()) == (404, NOTHING)


def test_signed_in_people_keep_their_feed_and_may_download_too(client: Client, demo_event) -> None:
    client.force_login(User.objects.create_user("ada", "ada@example.org", "x" * 20))
    _star(client, HELION)
    html = client.get(BASE + "agenda/").content.decode()
    assert LINK not in html
    assert re.search(r'<a class="button-link" href="webcal://[^"]+">Subscribe \(webcal\)</a>', html)
    assert _summaries(client.get(DOWNLOAD).content) == [
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels"
    ]


def test_stars_of_another_event_are_not_downloaded(client: Client, demo_event) -> None:
    from confsched.programme.services import create_event

    _star(client, HELION)
    create_event(slug="other", name="Other", timezone="Europe/Paris")
    response = client.get("/other/agenda.ics")
    assert response.status_code == 404
    assert response.content.decode().startswith("No starred sessions of Other to download")


def test_unknown_event_and_post_are_refused(client: Client, demo_event) -> None:
    assert client.get("/no-such-event/agenda.ics").status_code == 404
    assert client.post(DOWNLOAD).status_code == 405
