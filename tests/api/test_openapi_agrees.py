"""The OpenAPI document says what the API answers: a value it refuses is one the schema refuses."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

SESSIONS = f"/api/v1/events/{DEMO_SLUG}/sessions"
PLAN = f"/api/v1/events/{DEMO_SLUG}/plan"


def _parameter(path: str, name: str) -> dict:
    schema = json.loads(Client().get("/api/v1/openapi.json").content)
    operation = schema["paths"][path.replace(DEMO_SLUG, "{slug}")]["get"]
    return next(p["schema"] for p in operation["parameters"] if p["name"] == name)


def test_the_zones_the_api_takes_are_listed_in_its_schema(demo_event) -> None:  # noqa: ANN001
    zones = _parameter(SESSIONS, "tz")["enum"]
    assert zones[:3] == ["", "Africa/Abidjan", "Africa/Accra"]
    assert {"Europe/Paris", "UTC", "America/New_York"} <= set(zones)
    assert "Nowhere/Atlantis" not in zones


def test_a_zone_outside_the_schema_is_refused_as_the_schema_says(demo_event) -> None:  # noqa: ANN001
    response = Client().get(SESSIONS, {"tz": "Nowhere/Atlantis"})
    assert response.status_code == 422
    assert "query parameter 'tz'" in json.loads(response.content)["detail"]
    assert Client().get(SESSIONS, {"tz": "America/New_York"}).status_code == 200


@pytest.mark.parametrize("name", ["must", "track", "level"])
def test_an_empty_plan_value_is_refused_by_the_schema(demo_event, name: str) -> None:  # noqa: ANN001
    assert _parameter(PLAN, name)["items"] == {"minLength": 1, "type": "string"}
    assert Client().get(PLAN, {name: ""}).status_code == 422


def test_versions_and_changes_answer_what_their_schemas_say(demo_event) -> None:  # noqa: ANN001
    schema = json.loads(Client().get("/api/v1/openapi.json").content)["components"]["schemas"]
    version = Client().get(f"/api/v1/events/{DEMO_SLUG}/versions").json()["items"][0]
    assert set(version) == set(schema["VersionOut"]["properties"])
    assert set(schema["VersionOut"]["required"]) == set(version)
    assert set(version["changes"][0]) == set(schema["ChangeOut"]["required"])
    assert (version["name"], schema["VersionOut"]["properties"]["name"]["type"]) == ("", "string")
    assert "by" not in schema["VersionOut"]["properties"]  # who released it: the admin's, not here
