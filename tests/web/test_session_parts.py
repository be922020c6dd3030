"""A change of one session re-renders that session's card, not every card (stencils.kept_parts).

Cards are kept under a digest of everything they show: a rename renders that session's card
again and finds the others, a speaker's rename renders the cards of all their sessions, each
zone and language has cards of its own, and an old card is never served after a change.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client
from django.utils import timezone

from confsched.programme.models import Event, Session, SessionSpeaker, Speaker
from confsched.web.site.stencils import forget_local_stencils
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')


def _touch(event: Event) -> None:
    """What the admin does after saving a row of the event: its version moves."""
    Event.objects.filter(pk=event.pk).update(updated_at=timezone.now())


def _rename(event: Event, key: str, title: str) -> None:
    session = Session.objects.get(event=event, key=key)
    session.title = title
    session.save()
    _touch(event)


def _html(client: Client, path: str, **headers: str) -> str:
    response = client.get(BASE + path, headers=headers)
    assert response.status_code == 200
    return TOKEN.sub(r'\1…"', response.content.decode())


def _published(event: Event) -> int:
    return Session.objects.filter(event=event).published().count()


@pytest.mark.parametrize("path", ["", "grid/"])
def test_a_rename_renders_that_sessions_card_and_stars_only(
    client: Client, demo_event, renders: Counter[str], path: str
) -> None:
    _html(client, path)
    assert renders["confsched/_card.html"] == _published(demo_event) == 28
    renders.clear()
    _rename(demo_event, TORCHJD, "Jacobians, renamed")
    html = _html(client, path)
    # Its card, and its star unstarred and starred (the star names the title).
    assert (renders["confsched/_card.html"], renders["confsched/_star.html"]) == (1, 2)
    assert ("Jacobians, renamed" in html, "TorchJD: Jacobian" in html) == (True, False)


def test_a_new_version_reads_one_session_whole_and_a_server_start_finds_the_shared_parts(
    client: Client, demo_event, renders: Counter[str], django_assert_num_queries, settings,
    tmp_path,
) -> None:  # fmt: skip
    # A cache shared between processes (Redis in production; here one on disk).
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path),
        }
    }
    _html(client, "")
    _rename(demo_event, TORCHJD, "Jacobians, renamed")
    # The event, the outline journal's steps (none: this write moved the version without
    # one), the outline (speakers' places, the speakers, the rooms, tracks and levels, then the
    # sessions), the renamed session whole and its speakers.
    with django_assert_num_queries(8):
        _html(client, "")
    _rename(demo_event, TORCHJD, "Jacobians, renamed again")
    forget_local_stencils()  # a server start: this process keeps nothing
    renders.clear()
    html = _html(client, "")
    assert renders["confsched/_card.html"] == 1
    assert ("Jacobians, renamed again" in html, "Jacobians, renamed<" in html) == (True, False)


def test_a_speakers_rename_renders_the_cards_of_all_their_sessions(
    client: Client, demo_event, renders: Counter[str]
) -> None:
    speaker = (
        Speaker.objects.filter(event=demo_event, session_links__session__key=TORCHJD)
        .order_by("key")
        .first()
    )
    assert speaker is not None
    other = Session.objects.filter(event=demo_event).published().exclude(key=TORCHJD).first()
    assert other is not None
    SessionSpeaker.objects.create(session=other, speaker=speaker, position=9)
    _touch(demo_event)
    old = speaker.name
    _html(client, "")
    renders.clear()
    speaker.name = "Renamed Speaker"
    speaker.save()
    _touch(demo_event)
    html = _html(client, "")
    assert renders["confsched/_card.html"] == 2
    assert (html.count("Renamed Speaker"), html.count(old)) == (2, 0)


def test_each_zone_and_language_has_cards_of_its_own(demo_event, renders: Counter[str]) -> None:
    Event.objects.filter(pk=demo_event.pk).update(languages="en, fr")
    views = {
        "en": ("", {}),
        "tz": ("?tz=America/New_York", {}),
        "fr": ("", {"Accept_Language": "fr"}),
    }
    # A new visitor each time: a page in another zone leaves a cookie that keeps it.
    pages = {name: _html(Client(), path, **headers) for name, (path, headers) in views.items()}
    assert renders["confsched/_card.html"] == 3 * 28
    renders.clear()
    again = {name: _html(Client(), path, **headers) for name, (path, headers) in views.items()}
    assert renders["confsched/_card.html"] == 0
    assert again == pages
    # The first sessions (11:00 in Paris) at 5:00 in New York; "Niveau" only in French.
    assert ('datetime="2026-04-07T11:00:00+02:00">11:00' in pages["en"]) is True
    assert ('datetime="2026-04-07T05:00:00-04:00">05:00' in pages["tz"]) is True
    assert ("Niveau" in pages["fr"], "Niveau" in pages["en"]) == (True, False)


@pytest.mark.parametrize(
    "path", ["", "grid/", "?tz=Asia/Tokyo", "?q=torch", f"sessions/{TORCHJD}/"]
)
def test_after_changes_a_stenciled_page_is_the_page_a_fresh_render_gives(
    client: Client, demo_event, settings, path: str
) -> None:
    _html(client, path)  # cards and stars kept before the change
    _rename(demo_event, TORCHJD, "Jacobians, renamed")
    speaker = Speaker.objects.filter(event=demo_event, session_links__session__key=TORCHJD).first()
    assert speaker is not None
    speaker.name = "Renamed Speaker"
    speaker.save()
    _touch(demo_event)
    built = _html(client, path)
    settings.CONFSCHED_PAGE_STENCILS = False
    fresh = _html(client, path)
    assert built == fresh
    assert ("Jacobians, renamed" in fresh, "TorchJD: Jacobian" in fresh) == (True, False)
    assert "Renamed Speaker" in fresh


def test_an_old_card_is_never_served_after_a_change_nor_after_a_server_start(
    client: Client, demo_event
) -> None:
    for path in ("", "grid/"):
        _html(client, path)
    for number in range(3):
        _rename(demo_event, TORCHJD, f"Jacobians, take {number}")
        if number == 2:
            forget_local_stencils()
        for path in ("", "grid/", "?q=jacobians"):
            html = _html(client, path)
            titles = re.findall(r"Jacobians, take \d", html)
            assert set(titles) == {f"Jacobians, take {number}"}
            assert "TorchJD: Jacobian" not in html


@pytest.mark.parametrize("key", ["plain-key", "a b é:@!$&'()*+,;=~%", "日本"])
def test_session_addresses_from_one_pattern_are_what_reverse_gives(demo_event, rf, key) -> None:
    from django.urls import reverse

    from confsched.web.site.fragments import session_urls

    request = rf.get("/")
    url_for = session_urls("web:session", demo_event, request.build_absolute_uri)
    expected = request.build_absolute_uri(
        reverse("web:session", kwargs={"event": demo_event.slug, "key": key})
    )
    assert url_for(key) == expected
    assert expected.startswith("http://testserver/pytorch-conference-europe-2026/sessions/")
