"""The pages that show seats are valid HTML to the W3C Nu checker, with no id twice: the list,
grid and session page with their seat controls (free, full, held, waitlisted), the seat page
in each state, the agenda with seats, the organizer's overview and a session's list."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.reservations import reserve, set_seats
from confsched.core import clock
from confsched.programme.models import Event, Session
from tests.conftest import DEMO_SLUG
from tests.teams import on_team
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"


def _client(name: str, *, staff: bool = False) -> Client:
    client = Client()
    user = User.objects.get_or_create(username=name)[0]
    client.force_login(on_team(user, "editor") if staff else user)
    return client


def test_seat_pages_are_valid_html(
    client: Client, demo_event: Event, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _checker()
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 1, tzinfo=UTC))
    full = Session.objects.get(event=demo_event, key=TORCHJD)
    set_seats(full, 1)
    set_seats(Session.objects.get(event=demo_event, key=HELION), 20)
    reserve(User.objects.create_user("ada"), full)
    reserve(User.objects.create_user("bob"), full)
    ada, bob, boss = _client("ada"), _client("bob"), _client("boss", staff=True)
    pages = {
        "list, visitor": client.get(BASE),
        "grid, visitor": client.get(BASE + "grid/"),
        "list, seat held": ada.get(BASE),
        "session, waitlisted": bob.get(f"{BASE}sessions/{TORCHJD}/"),
        "seat page, held": ada.get(f"{BASE}sessions/{TORCHJD}/seat/"),
        "seat page, waitlisted": bob.get(f"{BASE}sessions/{TORCHJD}/seat/"),
        "seat page, visitor": client.get(f"{BASE}sessions/{HELION}/seat/"),
        "agenda with seats": bob.get(BASE + "agenda/"),
        "seats overview": boss.get(BASE + "seats/"),
        "a session's list": boss.get(f"{BASE}sessions/{TORCHJD}/reservations/"),
        "a session's list, refused": boss.post(
            f"{BASE}sessions/{TORCHJD}/reservations/", {"action": "seats", "seats": "x"}
        ),
    }
    statuses = {kind: response.status_code for kind, response in pages.items()}
    assert statuses == dict.fromkeys(pages, 200) | {"a session's list, refused": 400}
    html = {kind: response.content.decode() for kind, response in pages.items()}
    duplicates = {kind: _duplicate_ids(page) for kind, page in html.items()}
    assert {kind: found for kind, found in duplicates.items() if found} == {}
    assert _errors(html, tmp_path) == []
