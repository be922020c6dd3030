"""Cached session cards never show a programme older than the database."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.programme.models import Session
from confsched.programme.services import load_programme
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def test_a_reimport_shows_at_once_on_cached_pages(
    client: Client, demo_event, demo_programme
) -> None:
    assert "TorchJD: Jacobian Descent in PyTorch" in client.get(f"/{DEMO_SLUG}/").content.decode()
    changed = replace(demo_programme)
    changed.sessions = [
        replace(s, title="TorchJD 2: Jacobians Everywhere") if s.key == TORCHJD else s
        for s in demo_programme.sessions
    ]
    load_programme(demo_event, changed)
    html = client.get(f"/{DEMO_SLUG}/").content.decode()
    assert "TorchJD 2: Jacobians Everywhere" in html
    assert "TorchJD: Jacobian Descent in PyTorch" not in html


def test_an_admin_edit_shows_at_once_on_cached_pages(client: Client, demo_event) -> None:
    client.get(f"/{DEMO_SLUG}/grid/")  # fills the cache
    session = Session.objects.get(key=TORCHJD)
    admin = User.objects.create_superuser("organizer", "o@example.org", "a-long-password-1")
    staff = Client()
    staff.force_login(admin)
    response = staff.post(
        f"/admin/programme/session/{session.pk}/change/",
        {
            "event": demo_event.pk,
            "kind": "Lightning Talk",
            "title": "Jacobian Descent, Renamed",
            "abstract": session.abstract,
            "starts_at_0": "2026-04-07",
            "starts_at_1": "11:45:00",
            "ends_at_0": "2026-04-07",
            "ends_at_1": "11:55:00",
            "room": session.room_id,
            "track": session.track_id,
            "level": session.level_id,
            "review_note": "",
            "speaker_links-TOTAL_FORMS": "0",
            "speaker_links-INITIAL_FORMS": "0",
            "speaker_links-MIN_NUM_FORMS": "0",
            "speaker_links-MAX_NUM_FORMS": "1000",
            "links-TOTAL_FORMS": "0",
            "links-INITIAL_FORMS": "0",
            "links-MIN_NUM_FORMS": "0",
            "links-MAX_NUM_FORMS": "1000",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    html = client.get(f"/{DEMO_SLUG}/grid/").content.decode()
    assert "Jacobian Descent, Renamed" in html


def test_a_card_says_likely_full_when_told_and_is_kept_apart_from_the_plain_one(
    demo_event,
) -> None:
    from zoneinfo import ZoneInfo

    from confsched.web.site.fragments import attach_cards

    paris = ZoneInfo("Europe/Paris")
    plain = Session.objects.get(key=TORCHJD)
    attach_cards([plain], event=demo_event, zone=paris, heading=3)  # cached first
    full = Session.objects.get(key=TORCHJD)
    full.is_likely_full = True
    attach_cards([full], event=demo_event, zone=paris, heading=3)
    again = Session.objects.get(key=TORCHJD)
    attach_cards([again], event=demo_event, zone=paris, heading=3)
    tag = '<span class="tag tag-full">Likely full</span>'
    assert (tag in plain.card, tag in full.card, tag in again.card) == (False, True, False)
