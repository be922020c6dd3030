"""The Atom feeds' ids and authors (issue 29, item 12): an entry's id is the same whatever Host
the feed was fetched through, so a reader never sees an entry twice, and every entry has an
author, the event."""

from __future__ import annotations

from dataclasses import replace

import pytest
from defusedxml import ElementTree
from django.test import Client

from confsched.agenda.models import AgendaLinks
from confsched.interchange.programme import Programme
from confsched.programme.models import Event
from confsched.programme.services import load_programme
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
ATOM = "{http://www.w3.org/2005/Atom}"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HOSTS = ("localhost", "127.0.0.1", "127.0.0.1:8000", "[::1]")


@pytest.fixture
def two_versions(demo_event: Event, demo_programme: Programme) -> Event:
    moved = [
        replace(s, room="Master Stage") if s.key == TORCHJD else s for s in demo_programme.sessions
    ]
    load_programme(demo_event, replace(demo_programme, sessions=moved))
    return demo_event


def _ids(client: Client, path: str, host: str) -> list[str]:
    root = ElementTree.fromstring(client.get(path, HTTP_HOST=host).content)
    return [root.findtext(f"{ATOM}id")] + [
        e.findtext(f"{ATOM}id") for e in root.findall(f"{ATOM}entry")
    ]


def test_ids_are_the_same_through_every_host(client: Client, two_versions: Event) -> None:
    ids = {host: _ids(client, f"{BASE}changes.atom", host) for host in HOSTS}
    assert ids["localhost"] == [
        "urn:uuid:814aee81-a7a5-565b-9b49-77ea46f6dbf8",
        "urn:uuid:668eafab-e71d-5bf1-82cb-8b1378bf2ce2",
        "urn:uuid:ff3405f7-0bfa-5090-a20f-7e041115b907",
    ]
    assert all(found == ids["localhost"] for found in ids.values())


def test_with_the_sites_domain_ids_are_tag_uris_in_it(
    client: Client, two_versions: Event, settings: object
) -> None:
    settings.CONFSCHED_BASE_URL = "https://schedule.example.org"  # type: ignore[attr-defined]
    tag = f"tag:schedule.example.org,2026:{DEMO_SLUG}:"
    assert {host: _ids(client, f"{BASE}changes.atom", host) for host in HOSTS[:2]} == {
        host: [f"{tag}feed", f"{tag}v2", f"{tag}v1"] for host in HOSTS[:2]
    }


def test_an_address_is_no_tag_authority(
    client: Client, two_versions: Event, settings: object
) -> None:
    """RFC 4151: a tag's authority is a domain name; `serve` sets an address and a port."""
    settings.CONFSCHED_BASE_URL = "http://127.0.0.1:8000"  # type: ignore[attr-defined]
    assert _ids(client, f"{BASE}changes.atom", "localhost")[2] == (
        "urn:uuid:ff3405f7-0bfa-5090-a20f-7e041115b907"
    )


def test_every_entry_has_the_event_as_author(client: Client, two_versions: Event) -> None:
    root = ElementTree.fromstring(client.get(f"{BASE}changes.atom").content)
    authors = [
        (author.findtext(f"{ATOM}name"), author.findtext(f"{ATOM}uri"))
        for author in root.findall(f"{ATOM}entry/{ATOM}author")
    ]
    assert authors == [("PyTorch Conference Europe 2026", f"http://testserver{BASE}")] * 2
    assert root.findtext(f"{ATOM}author/{ATOM}name") == "PyTorch Conference Europe 2026"


def test_the_alert_feeds_ids_are_its_own_and_host_free(
    client: Client, two_versions: Event, django_user_model
) -> None:  # noqa: ANN001
    ada = django_user_model.objects.create_user("ada", "ada@example.org", "pw")
    links = AgendaLinks.objects.create(user=ada, event=two_versions)
    path = f"{BASE}alerts/{links.feed_token}.atom"
    ids = {host: _ids(client, path, host) for host in HOSTS[:2]}
    assert ids["localhost"] == ids["127.0.0.1"]
    assert ids["localhost"][0].startswith("urn:uuid:")
    assert set(ids["localhost"]).isdisjoint(_ids(client, f"{BASE}changes.atom", "localhost"))
