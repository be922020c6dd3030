"""The door pages and the insight's reservations table are valid HTML to the W3C Nu checker,
with no id twice: the index, a session's door page before and after each kind of answer,
the htmx answer, and the insight page."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.checkin import admit_walk_in
from confsched.agenda.reservations import reserve, set_seats
from confsched.core import clock
from confsched.programme.models import Event, Session
from tests.conftest import DEMO_SLUG
from tests.teams import on_team
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors

pytestmark = pytest.mark.django_db

HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"
DOOR = f"/{DEMO_SLUG}/sessions/{HELION}/checkin/"
ANNOUNCEMENTS = f"/{DEMO_SLUG}/team/announcements/"


def test_checkin_pages_are_valid_html(
    client: Client, demo_event: Event, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks,  # noqa: ANN001 - a pytest-django fixture
) -> None:  # fmt: skip
    _checker()
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 7, 8, 0, tzinfo=UTC))
    helion = Session.objects.get(event=demo_event, key=HELION)
    set_seats(helion, 2)
    code = reserve(User.objects.create_user("ada", password="pw", first_name="Ada"), helion)
    admit_walk_in(Session.objects.get(event=demo_event, key=TOUR))  # open entry, counted
    # Editors hold check-in and read insight: one account for the door pages and insight.
    client.force_login(on_team(User.objects.create_user("door", password="pw"), "editor"))
    # Live at the venue: a room marked full and an announcement made (their stamps move once
    # the writes commit).
    with django_capture_on_commit_callbacks(execute=True):
        live = {
            "room marked full": client.post(
                f"/{DEMO_SLUG}/rooms/master-stage/status/", {"state": "full"}, follow=True
            ),
            "announced": client.post(
                ANNOUNCEMENTS,
                {
                    "action": "announce",
                    "text_en": "Doors open at 9:15.",
                    "link": f"/{DEMO_SLUG}/now/",
                },
                follow=True,
            ),  # fmt: skip
        }
    pages = {
        **live,
        "index": client.get(f"/{DEMO_SLUG}/checkin/"),
        "door": client.get(DOOR),
        "welcome": client.post(DOOR, {"code": code.reservation.code}, follow=True),
        "already": client.post(DOOR, {"code": code.reservation.code}, follow=True),
        "not on the list": client.post(DOOR, {"code": "<b>nope</b>"}, follow=True),
        "walk-in, now full": client.post(DOOR, {"walk_in": "1"}, follow=True),
        "no seat": client.post(DOOR, {"walk_in": "1"}, follow=True),
        "open entry": client.get(f"/{DEMO_SLUG}/sessions/{TOUR}/checkin/"),
        "insight": client.get(f"/{DEMO_SLUG}/insight/"),
        "now, a room full and a banner": client.get(f"/{DEMO_SLUG}/now/"),
        "list with a banner": client.get(f"/{DEMO_SLUG}/"),
    }
    refused = client.post(
        ANNOUNCEMENTS, {"action": "announce", "text_en": "Hi", "link": "http://example.org/"}
    )
    assert refused.status_code == 400
    assert {kind: response.status_code for kind, response in pages.items()} == dict.fromkeys(
        pages, 200
    )
    html = {kind: response.content.decode() for kind, response in pages.items()}
    html["announcement refused"] = refused.content.decode()
    assert 'class="room-full"' in html["now, a room full and a banner"]
    assert "Doors open at 9:15." in html["list with a banner"]
    # The htmx answer is a fragment: checked inside a page's body, as htmx puts it there.
    fragment = client.post(DOOR, {"code": "7KQ2MXR9VB"}, headers={"HX-Request": "true"})
    html["htmx answer"] = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>answer</title></head>'
        f'<body><div id="checkin-result" role="status">{fragment.content.decode()}</div></body>'
        "</html>"
    )
    duplicates = {kind: _duplicate_ids(page) for kind, page in html.items()}
    assert {kind: found for kind, found in duplicates.items() if found} == {}
    assert _errors(html, tmp_path) == []
