"""The JSON API: same filters and answers as the pages, paginated, documented by OpenAPI."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from confsched import __version__
from confsched.programme.models import ScheduleVersion, Session
from confsched.programme.services import create_event, load_programme, release_draft, start_draft
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
    load_programme(demo_event, edited, source="import: /srv/imports/secret/schedule.xml")
    versions = client.get(f"{API}/versions").json()
    # 28 of the 29 sessions: the untitled session page waits for review.
    assert [(v["number"], v["summary"], len(v["changes"])) for v in versions["items"]] == [
        (2, "1 new room", 1),
        (1, "28 added", 28),
    ]
    # As the public change log says it: no folder of the server's, no file name.
    assert versions["items"][0]["source"] == "imported"
    changes = client.get(f"{API}/changes?page_size=1").json()
    assert changes["count"] == 29
    assert {k: changes["items"][0][k] for k in ("version", "session_key", "kind", "description")} == {
        "version": 2, "session_key": TORCHJD, "kind": "moved", "description": "moved from Founders Cafe to Master Stage",
    }  # fmt: skip


def test_versions_say_a_release_s_name_and_link_their_page(client: Client, demo_event) -> None:
    draft = start_draft(demo_event)
    Session.objects.filter(event=draft, key=TORCHJD).update(title="Jacobian descent, renamed")
    release_draft(demo_event, name="Final programme", editor="boss")
    versions = client.get(f"{API}/versions").json()["items"]
    assert [(v["number"], v["name"], v["url"]) for v in versions] == [
        (2, "Final programme", f"http://testserver/{DEMO_SLUG}/v/2/"),
        (1, "", f"http://testserver/{DEMO_SLUG}/v/1/"),
    ]
    released = ScheduleVersion.objects.get(event=demo_event, number=2)
    assert versions[0]["created_at"] == (
        released.created_at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    )
    # Who released it is the team's to know (the admin's history), not this public API's.
    assert set(versions[0]) == {
        "number",
        "name",
        "created_at",
        "url",
        "source",
        "summary",
        "changes",
    }
    assert [(c["version"], c["version_name"], c["kind"]) for c in versions[0]["changes"]] == [
        (2, "Final programme", "retitled")
    ]
    changes = client.get(f"{API}/changes").json()["items"]
    assert [(c["version"], c["version_name"]) for c in changes[:2]] == [
        (2, "Final programme"), (1, ""),
    ]  # fmt: skip


def test_unknown_things_are_404_with_a_reason(client: Client, demo_event) -> None:
    response = client.get("/api/v1/events/nope/sessions")
    assert (response.status_code, response.json()) == (404, {"detail": "no event 'nope'"})
    response = client.get(f"{API}/sessions/nope")
    assert (response.status_code, response.json()) == (404, {"detail": "no session 'nope'"})


def test_openapi_document_and_docs_page(client: Client) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    assert spec["info"]["title"] == "confsched API"
    assert sorted(spec["paths"]) == [
        "/api/v1/",
        "/api/v1/events",
        "/api/v1/events/{slug}",
        "/api/v1/events/{slug}/agenda/{token}",
        "/api/v1/events/{slug}/changes",
        "/api/v1/events/{slug}/levels",
        "/api/v1/events/{slug}/plan",
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


ZONE_HINT = ": give an IANA name such as Europe/Paris"


@pytest.mark.parametrize(
    ("tz", "shown"),
    [
        ("Europe", "'Europe'"),  # a folder of the tz database, not a zone
        ("Etc", "'Etc'"),
        ("A" * 300, "'" + "A" * 64 + "…'"),
        ("a/" * 300 + "b", "'" + "a/" * 32 + "…'"),
    ],
)
def test_an_unknown_time_zone_is_refused_naming_it(
    client: Client, demo_event, tz: str, shown: str
) -> None:
    """422, as the OpenAPI document's list of zones says (it was a 400 the document did not
    foresee)."""
    response = client.get(f"{API}/sessions", {"tz": tz})
    assert (response.status_code, response.json()) == (
        422,
        {"detail": f"query parameter 'tz': unknown time zone {shown}{ZONE_HINT}"},
    )


def test_the_index_names_the_api_and_links_everything(client: Client) -> None:
    response = client.get("/api/v1/")
    root = "http://testserver/api/v1/"
    event = root + "events/{slug}"
    assert (response.status_code, response.json()) == (
        200,
        {
            "name": "confsched API",
            "version": "1",
            "confsched_version": __version__,
            "links": {
                "docs": root + "docs",
                "openapi": root + "openapi.json",
                "events": root + "events",
                "event": event,
                "sessions": event + "/sessions",
                "speakers": event + "/speakers",
                "rooms": event + "/rooms",
                "tracks": event + "/tracks",
                "levels": event + "/levels",
                "versions": event + "/versions",
                "changes": event + "/changes",
            },
        },
    )


SESSION_PARAMETERS = "date, level, page, page_size, q, room, slides, track, tz"


@pytest.mark.parametrize(
    ("path", "query", "detail"),
    [
        (
            "/sessions",
            "limit=5",
            f"unknown query parameter 'limit': this operation takes {SESSION_PARAMETERS}",
        ),
        (
            "/sessions",
            "page=2&offset=3&limit=5",
            "unknown query parameters 'offset', 'limit': this operation takes "
            + SESSION_PARAMETERS,
        ),
        (
            "/speakers",
            "sort=name",
            "unknown query parameter 'sort': this operation takes page, page_size, q",
        ),
        (
            "/rooms",
            "page=1",
            "unknown query parameter 'page': this operation takes no query parameters",
        ),
        ("", "tz=UTC", "unknown query parameter 'tz': this operation takes no query parameters"),
    ],
)
def test_unknown_query_parameters_are_422_naming_them(
    client: Client, demo_event, path: str, query: str, detail: str
) -> None:
    response = client.get(f"{API}{path}?{query}")
    assert (response.status_code, response.json()) == (422, {"detail": detail})


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("page=0", "query parameter 'page': Input should be greater than or equal to 1"),
        ("page=-1", "query parameter 'page': Input should be greater than or equal to 1"),
        ("page_size=0", "query parameter 'page_size': Input should be greater than or equal to 1"),
        (
            "page_size=501",
            "query parameter 'page_size': Input should be less than or equal to 500",
        ),
        (
            "page=two",
            "query parameter 'page': Input should be a valid integer, "
            "unable to parse string as an integer",
        ),
        (
            "date=2026-04-07&date=7.4.2026",
            "query parameter 'date': Input should be a valid date or datetime, input is too short",
        ),
        ("slides=maybe", "query parameter 'slides': Input should be 'yes' or 'no'"),
    ],
)
def test_values_the_api_does_not_take_are_422(
    client: Client, demo_event, query: str, detail: str
) -> None:
    response = client.get(f"{API}/sessions?{query}")
    assert (response.status_code, response.json()) == (422, {"detail": detail})


def test_a_page_past_the_last_is_404_and_page_one_always_exists(client: Client, db) -> None:
    create_event(slug="empty", name="Empty", timezone="UTC")
    empty = client.get("/api/v1/events/empty/versions")
    assert (empty.status_code, empty.json()) == (200, {"items": [], "count": 0})
    past = client.get("/api/v1/events/empty/versions?page=2")
    assert (past.status_code, past.json()) == (
        404,
        {"detail": "no page 2: 0 items make 1 page of 100"},
    )


def test_the_last_page_is_200_and_the_next_is_404(client: Client, demo_event) -> None:
    last = client.get(f"{API}/sessions?page_size=10&page=3")
    assert (last.status_code, len(last.json()["items"])) == (200, 8)
    past = client.get(f"{API}/sessions?page_size=10&page=4")
    assert (past.status_code, past.json()) == (
        404,
        {"detail": "no page 4: 28 items make 3 pages of 10"},
    )


ERRORS = {"400", "404", "422"}


@pytest.mark.parametrize(
    ("path", "statuses"),
    [
        ("/api/v1/", {"200", "422"}),
        ("/api/v1/events", {"200", "404", "422"}),
        ("/api/v1/events/{slug}", {"200", "404", "422"}),
        ("/api/v1/events/{slug}/sessions", {"200", "400", "404", "422"}),
        ("/api/v1/events/{slug}/sessions/{key}", {"200", "404", "422"}),
        ("/api/v1/events/{slug}/speakers", {"200", "404", "422"}),
        ("/api/v1/events/{slug}/speakers/{key}", {"200", "404", "422"}),
        ("/api/v1/events/{slug}/rooms", {"200", "404", "422"}),
        ("/api/v1/events/{slug}/tracks", {"200", "404", "422"}),
        ("/api/v1/events/{slug}/levels", {"200", "404", "422"}),
        ("/api/v1/events/{slug}/versions", {"200", "404", "422"}),
        ("/api/v1/events/{slug}/changes", {"200", "404", "422"}),
    ],
)
def test_the_openapi_document_lists_every_status_with_its_body(
    client: Client, path: str, statuses: set[str]
) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    responses = spec["paths"][path]["get"]["responses"]
    assert set(responses) == statuses
    assert {
        status: responses[status]["content"]["application/json"]["schema"]
        for status in statuses & ERRORS
    } == {status: {"$ref": "#/components/schemas/ErrorOut"} for status in statuses & ERRORS}
    assert spec["components"]["schemas"]["ErrorOut"]["properties"] == {
        "detail": {"title": "Detail", "type": "string"}
    }


def test_the_openapi_document_states_the_page_limits(client: Client) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    parameters = spec["paths"]["/api/v1/events"]["get"]["parameters"]
    assert {
        p["name"]: (p["schema"].get("minimum"), p["schema"].get("maximum")) for p in parameters
    } == {
        "page": (1, None),
        "page_size": (1, 500),
    }


def test_many_bad_values_make_a_short_answer(client: Client, demo_event) -> None:
    query = "&".join(f"date=day-{n}" for n in range(40))
    response = client.get(f"{API}/sessions?{query}")
    problem = "query parameter 'date': Input should be a valid date or datetime, input is too short"
    assert (response.status_code, response.json()) == (
        422,
        {"detail": "; ".join([problem] * 5 + ["and 35 more"])},
    )


def test_a_page_number_too_long_to_be_a_number_is_422(client: Client, demo_event) -> None:
    response = client.get(f"{API}/sessions?page={'9' * 5000}")
    assert (response.status_code, response.json()) == (
        422,
        {
            "detail": "query parameter 'page': Unable to parse input string as an integer, "
            "exceeded maximum size"
        },
    )
