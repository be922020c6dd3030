"""GET /api/v1/events/{slug}/plan: the planner as an API operation."""

from __future__ import annotations

import pytest

from tests.conftest import DEMO_SLUG
from tests.web.test_plan_page import TRAINING_PLAN

URL = f"/api/v1/events/{DEMO_SLUG}/plan"


@pytest.mark.django_db
def test_plan_api_track(client, demo_event) -> None:  # noqa: ANN001
    response = client.get(URL, {"track": "training-systems"})
    assert response.status_code == 200
    body = response.json()
    assert [s["key"] for s in body["sessions"]] == TRAINING_PLAN
    assert [s["weight"] for s in body["sessions"]] == [3, 3, 3, 3, 3]
    assert body["total"] == 15
    assert body["walk_minutes"] == 0
    assert body["must_clashes"] == []
    assert body["sessions"][0] == {
        "key": TRAINING_PLAN[0],
        "title": "Training Embedding Model Resiliently for Multimodal Model Inference Routing",
        "starts_at": "2026-04-07T11:00:00+02:00",
        "ends_at": "2026-04-07T11:10:00+02:00",
        "room": "junior-stage",
        "weight": 3,
    }


@pytest.mark.django_db
def test_plan_api_walk_overrides_event(client, demo_event) -> None:  # noqa: ANN001
    body = client.get(URL, {"track": "training-systems", "walk": "60"}).json()
    assert [s["key"] for s in body["sessions"]] == [
        TRAINING_PLAN[0],
        TRAINING_PLAN[3],
        TRAINING_PLAN[4],
    ]
    assert body["walk_minutes"] == 60


@pytest.mark.django_db
def test_plan_api_must_see_clash_named(client, demo_event) -> None:  # noqa: ANN001
    from confsched.programme.models import Session

    first = Session.objects.get(key=TRAINING_PLAN[0])
    other = (
        Session.objects.filter(event=demo_event, starts_at=first.starts_at)
        .exclude(pk=first.pk)
        .order_by("key")
        .first()
    )
    body = client.get(URL, {"must": [TRAINING_PLAN[0], other.key]}).json()
    assert len(body["sessions"]) == 1
    # Both start at 11:00; the one that ends first is planned (ties go to the earlier end).
    assert other.key == "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
    assert [s["key"] for s in body["sessions"]] == [TRAINING_PLAN[0]]
    assert body["must_clashes"] == [[TRAINING_PLAN[0], other.key]]


@pytest.mark.django_db
def test_plan_api_unknown_event_404(client, demo_event) -> None:  # noqa: ANN001
    response = client.get("/api/v1/events/nope/plan")
    assert response.status_code == 404
    assert response.json() == {"detail": "no event 'nope'"}


@pytest.mark.django_db
def test_plan_api_unknown_track_level_and_session_404(client, demo_event) -> None:  # noqa: ANN001
    """Not found, as an unknown session is: a valid value by the schema, naming nothing here."""
    response = client.get(URL, {"track": "zzz", "level": "expert", "must": "ghost"})
    assert response.status_code == 404
    assert response.json() == {
        "detail": "query parameter 'track': no such track 'zzz'; "
        "query parameter 'level': no such level 'expert'; "
        "query parameter 'must': no session 'ghost'"
    }


@pytest.mark.django_db
def test_plan_api_negative_walk_422(client, demo_event) -> None:  # noqa: ANN001
    response = client.get(URL, {"walk": "-1"})
    assert response.status_code == 422
    assert response.json() == {
        "detail": "query parameter 'walk': Input should be greater than or equal to 0"
    }


@pytest.mark.django_db
def test_plan_api_unknown_parameter_422(client, demo_event) -> None:  # noqa: ANN001
    response = client.get(URL, {"tracks": "training-systems"})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("unknown query parameter 'tracks'")
