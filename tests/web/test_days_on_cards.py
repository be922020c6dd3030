"""Lists that can span days say each session's day (issue 29, item 2): a speaker's sessions
and a session page's related cards. The schedule's own lists sit under day headings and do
not repeat it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client

from confsched.programme.link_models import SessionSpeaker
from confsched.programme.models import Session, Speaker
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"


def _whens(html: str) -> list[str]:
    """Each card's time line as read: tags dropped, spaces folded."""
    spans = re.findall(
        r'<span class="when">(.*?)</span>\s*(?:<span class="room">|</p>)', html, re.S
    )
    return [" ".join(re.sub(r"<[^>]+>", "", span).split()) for span in spans]


def _speaker_on_two_days() -> Speaker:
    """Valérian Rey on his lightning talk and, the next day, on Helion 1.0."""
    speaker = Speaker.objects.get(key="valerian-rey")
    helion = Session.objects.get(key=HELION)
    Session.objects.filter(pk=helion.pk).update(
        starts_at=helion.starts_at + timedelta(days=1), ends_at=helion.ends_at + timedelta(days=1)
    )
    SessionSpeaker.objects.create(session=helion, speaker=speaker, position=1)
    return speaker


def test_a_speakers_sessions_on_two_days_each_say_their_day(client: Client, demo_event) -> None:
    _speaker_on_two_days()
    html = client.get(f"{BASE}speakers/valerian-rey/").content.decode()
    assert _whens(html) == ["Tue 7 Apr, 11:45–11:55", "Wed 8 Apr, 11:00–11:25"]


def test_the_schedule_list_keeps_its_cards_without_the_day(client: Client, demo_event) -> None:
    html = client.get(BASE).content.decode()
    assert 'class="card-day"' not in html
    assert _whens(html)[0] == "11:00–11:10"


def test_a_session_pages_related_cards_say_their_day(client: Client, demo_event) -> None:
    html = client.get(f"{BASE}sessions/{HELION}/").content.decode()
    whens = _whens(html)
    assert len(whens) >= 1
    assert [when[:11] for when in whens] == ["Tue 7 Apr, "] * len(whens)
