"""The feedback pages are valid HTML (the W3C Nu checker) with each id once: for a visitor, a
signed-in attendee (empty form, saved feedback, an error), an organizer and a speaker."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda import feedback
from confsched.core import clock
from confsched.programme.models import Event, Session, Speaker
from tests.conftest import DEMO_SLUG
from tests.teams import on_team
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
PAGE = f"/{DEMO_SLUG}/sessions/{TORCHJD}/feedback/"


def _client(name: str, *, role: str = "") -> Client:
    user = User.objects.create_user(name, f"{name}@example.org", "a fine password 7")
    if role:
        on_team(user, role)
    client = Client()
    client.force_login(user)
    return client


def _html(response) -> str:  # noqa: ANN001 - a test client response
    return response.content.decode()


def test_the_feedback_pages_are_valid_html(
    client: Client, demo_event: Event, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _checker()
    pages = {}
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 7, 9, 0, tzinfo=UTC))
    ada = _client("ada")
    pages["not yet open"] = _html(ada.get(PAGE))
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 7, 12, 0, tzinfo=UTC))
    pages["visitor"] = _html(client.get(PAGE))
    pages["empty form"] = _html(ada.get(PAGE))
    error = ada.post(PAGE, {"rating": "9", "comment": "<b>bold</b> & more"})
    assert error.status_code == 400
    pages["form with an error"] = _html(error)
    assert ada.post(PAGE, {"rating": "4", "comment": "Line one\nLine two"}).status_code == 302
    pages["saved"] = _html(ada.get(PAGE))
    helion = Session.objects.select_related("event").get(event=demo_event, key=HELION)
    for name, rating in (("bo", 2), ("cy", 5)):
        user = User.objects.create_user(name, f"{name}@example.org", "x")
        feedback.give_feedback(user, helion, rating=rating, comment=f"From {name}")
    staff = _client("boss", role="editor")
    staff.post(f"/{DEMO_SLUG}/feedback/speakers/valerian-rey/link")
    pages["organizers"] = _html(staff.get(f"/{DEMO_SLUG}/feedback/"))
    token = feedback.speaker_link(Speaker.objects.get(event=demo_event, key="valerian-rey")).token
    pages["speaker"] = _html(client.get(f"/{DEMO_SLUG}/feedback/speaker/{token}/"))
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 20, 12, 0, tzinfo=UTC))
    pages["closed"] = _html(ada.get(PAGE))
    session_page = _html(client.get(f"/{DEMO_SLUG}/sessions/{TORCHJD}/"))
    assert ">Rate this session</a>" in session_page
    pages["session page"] = session_page
    duplicates = {kind: _duplicate_ids(html) for kind, html in pages.items()}
    assert {kind: found for kind, found in duplicates.items() if found} == {}
    assert _errors(pages, tmp_path) == []
