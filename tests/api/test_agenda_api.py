"""The attendee's agenda in the JSON API (the feed token is the credential) and the sessions'
seats."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda import reservations
from confsched.agenda.models import ReminderSetting, Reservation
from confsched.agenda.services import agenda_links, star_session
from confsched.programme.models import Event, Session
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
API = f"/api/v1/events/{DEMO_SLUG}"


@pytest.fixture(autouse=True)
def _before_the_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("confsched.core.clock.now", lambda: datetime(2026, 4, 1, tzinfo=UTC))


def test_the_agenda_lists_stars_seats_and_waitlist_places(
    client: Client, demo_event: Event
) -> None:
    workshop = Session.objects.get(event=demo_event, key=TORCHJD)
    reservations.set_seats(workshop, 1)
    ada, bob = User.objects.create_user("ada"), User.objects.create_user("bob")
    reservations.reserve(ada, workshop)
    reservations.reserve(bob, workshop)
    star_session(bob, Session.objects.get(event=demo_event, key=HELION))
    ReminderSetting.objects.create(user=bob, event=demo_event, minutes=10)
    response = client.get(f"{API}/agenda/{agenda_links(bob, demo_event).feed_token}")
    assert response.json() == {
        "starred": [HELION],
        "reservations": [
            {"session": TORCHJD, "status": "waitlisted", "position": 1, "code": None,
             "checked_in_at": None},
        ],
        "reminder_minutes": 10,
    }  # fmt: skip
    assert (response["Cache-Control"], response["Referrer-Policy"]) == (
        "private, no-store", "no-referrer",
    )  # fmt: skip
    mine = client.get(f"{API}/agenda/{agenda_links(ada, demo_event).feed_token}").json()
    assert mine["reservations"][0]["code"] == Reservation.objects.get(user=ada).code


def test_a_wrong_token_finds_nothing(client: Client, demo_event: Event) -> None:
    response = client.get(f"{API}/agenda/not-a-token")
    assert (response.status_code, response.json()) == (
        404, {"detail": "no such agenda (the token is the feed address's last part)"},
    )  # fmt: skip


def test_sessions_carry_their_seats(client: Client, demo_event: Event) -> None:
    reservations.set_seats(Session.objects.get(event=demo_event, key=TORCHJD), 30)
    taking = client.get(f"{API}/sessions/{TORCHJD}").json()
    open_entry = client.get(f"{API}/sessions/{HELION}").json()
    assert (taking["seats"], taking["reservations_close_at"]) == (30, taking["starts_at"])
    assert (open_entry["seats"], open_entry["reservations_close_at"]) == (None, None)
