"""At the size the product exists for: every page, export and API list of an event with 5,000
sessions and 7,000 speakers answers on SQLite and on PostgreSQL alike.

SQLite refuses an expression more than 1,000 levels deep, which a prefetch of thousands of ids
used to build; PostgreSQL has no such limit, so both engines are exercised by CI.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Session, SessionSpeaker, Speaker
from confsched.programme.services import create_event, load_programme

pytestmark = pytest.mark.django_db

SLUG = "big"
PAGES = [
    "",
    "grid/",
    "?q=person&level=advanced",
    "?room=room-3&track=track-2",
    "speakers/",
    "sessions/s4999/",
    "speakers/p6999/",
    "changes/",
    "changes.atom",
]
EXPORTS = ["xml", "json", "xcal", "csv", "ics"]
API = ["events/big/sessions?page=3", "events/big/speakers", "events/big/changes"]


@pytest.fixture
def big_event():  # noqa: ANN201 - pytest fixture
    event = create_event(slug=SLUG, name="Big", timezone="Europe/Brussels")
    load_programme(event, synthetic_programme(5000, rooms=40, people=7000))
    return event


def test_every_page_export_and_api_list_answers_at_5000_sessions_and_7000_speakers(
    client: Client, big_event
) -> None:
    assert (
        Session.objects.filter(event=big_event).count(),
        Speaker.objects.filter(event=big_event).count(),
        SessionSpeaker.objects.filter(session__event=big_event).count(),
    ) == (5000, 7000, 10000)
    statuses = {page: client.get(f"/{SLUG}/{page}").status_code for page in PAGES}
    statuses |= {ext: client.get(f"/{SLUG}/schedule.{ext}").status_code for ext in EXPORTS}
    statuses |= {url: client.get(f"/api/v1/{url}").status_code for url in API}
    assert statuses == dict.fromkeys([*PAGES, *EXPORTS, *API], 200)


def test_the_json_export_holds_every_session_and_speaker_at_scale(
    client: Client, big_event
) -> None:
    document = json.loads(client.get(f"/{SLUG}/schedule.json").content)
    events = [
        event
        for day in document["schedule"]["conference"]["days"]
        for room in day["rooms"].values()
        for event in room
    ]
    people = {person["name"] for event in events for person in event["persons"]}
    assert (len(events), len(people)) == (5000, 7000)
