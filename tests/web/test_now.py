"""The now-and-next page: per room what runs and what comes next, before, during and after."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from confsched.core import clock
from confsched.interchange.programme import Programme
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Session
from confsched.programme.services import create_event, load_programme
from confsched.web.venue.now_board import Entry, duration_words, rooms_now_and_next
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

NOW_URL = f"/{DEMO_SLUG}/now/"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
LAST = "optimizing-pytorch-on-cpu-gpu-coherent-platforms"  # Founders Cafe 16:40-17:05, the last


def _at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(clock, "now", lambda: moment)


def _paris(day: int, hour: int, minute: int = 0) -> datetime:
    """A moment in April 2026 given in Paris time (CEST, UTC+2)."""
    return datetime(2026, 4, day, hour - 2, minute, tzinfo=UTC)


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _rooms(html: str) -> list[str]:
    """Each room's box as the text a person reads."""
    return [_text(box) for box in re.findall(r'<li class="now-room">(.*?)</li>', html, re.S)]


def _notice(html: str) -> str:
    found = re.search(r'<p class="now-notice[^"]*">(.*?)</p>', html, re.S)
    return _text(found.group(1)) if found else ""


def _get(client: Client, url: str = NOW_URL) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


FORECASTING = "Why Your Forecasting Transformer Isn’t Working (And How To Fix It in Python)"
TOKEN_SLICE = "The Token Slice: Implementing Preemptive Scheduling Via Chunked Decoding"
CODING_AGENTS = "Coding Agents for Compiler Construction: Beyond the AI Assistant Paradigm"
EMBEDDING = "Training Embedding Model Resiliently for Multimodal Model Inference Routing"
MCU = "Flexible Deployment of PyTorch Models on MCU-Class Devices Using ExecuTorch"
HELION_TITLE = "Helion 1.0: A High-Level DSL for Performance Portable Kernels"
TOUR = "Tour De Force: LLM Inference Optimization From Simple To Sophisticated"


def test_during_the_event_each_room_shows_what_runs_and_what_is_next(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, _paris(7, 11, 5))
    html = _get(client)
    assert _text(re.search(r'<p class="now-as-of">(.*?)</p>', html, re.S).group(1)) == (
        "As of Tuesday 7 April, 11:05 ."
    )
    assert _notice(html) == ""
    assert _rooms(html) == [
        f"Central Room Now {FORECASTING} Lightning Talk · 11:00 – 11:10 · 5 min left "
        f"Rosheen Naeem Next {TOKEN_SLICE} 14:15 · in 3 h 10 min Maroon Ayoub, Kellen Swain",
        f"Founders Cafe Next {CODING_AGENTS} Lightning Talk · 11:30 · in 25 min "
        "Reza Rahimi, Stefan Krassin",
        f"Junior Stage Now {EMBEDDING} Lightning Talk · 11:00 – 11:10 · 5 min left "
        f"Huamin Chen, Haichen Zhang Next {MCU} Lightning Talk · 11:15 · in 10 min "
        "Robert Kalmar, Martin Pavella",
        f"Master Stage Now {HELION_TITLE} 11:00 – 11:25 · 20 min left Oguz Ulgen "
        f"Next {TOUR} 11:30 · in 25 min Christin Pohl",
    ]
    # The countdowns carry their moment, for now.js to count on from.
    assert (
        '<strong class="now-countdown" data-countdown="left" '
        'data-at="2026-04-07T11:25:00+02:00">20 min left</strong>'
    ) in html
    assert f'<a href="/{DEMO_SLUG}/sessions/{HELION}/">{HELION_TITLE}</a>' in html


def test_times_are_in_the_viewers_zone(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, _paris(7, 11, 5))
    html = _get(client, NOW_URL + "?tz=America/New_York")
    assert _rooms(html)[3] == (
        f"Master Stage Now {HELION_TITLE} 05:00 – 05:25 · 20 min left Oguz Ulgen "
        f"Next {TOUR} 05:30 · in 25 min Christin Pohl"
    )
    assert 'As of <time datetime="2026-04-07T05:05:00-04:00">Tuesday 7 April, 05:05</time>' in html


def test_a_room_with_nothing_more_today_says_so(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, _paris(7, 16, 50))
    assert _rooms(_get(client)) == [
        "Founders Cafe Now Optimizing PyTorch on CPU-GPU Coherent Platforms 16:40 – 17:05 · "
        "15 min left Matthias Jouanneaux Nothing next in this room for the next few hours.",
        "Junior Stage Now Securing Agentic AI With PyTorch: Threat Modeling & LLM Red Teaming in "
        "Practice 16:40 – 17:05 · 15 min left Valeri Milke "
        "Nothing next in this room for the next few hours.",
    ]


def test_before_the_event_the_first_session_of_each_room(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, datetime(2026, 4, 1, 10, tzinfo=UTC))
    html = _get(client)
    assert _notice(html) == (
        "The event has not started yet. It opens on Tuesday 7 April at 11:00 . "
        "The first session in each room:"
    )
    assert _rooms(html) == [
        f"Central Room Next {FORECASTING} Lightning Talk · Tue 7 Apr, 11:00 · in 5 days "
        "Rosheen Naeem",
        f"Founders Cafe Next {CODING_AGENTS} Lightning Talk · Tue 7 Apr, 11:30 · in 5 days "
        "Reza Rahimi, Stefan Krassin",
        f"Junior Stage Next {EMBEDDING} Lightning Talk · Tue 7 Apr, 11:00 · in 5 days "
        "Huamin Chen, Haichen Zhang",
        f"Master Stage Next {HELION_TITLE} Tue 7 Apr, 11:00 · in 5 days Oguz Ulgen",
    ]


def _with_last_session_moved(programme: Programme, starts_at: datetime) -> Programme:
    sessions = [
        replace(s, starts_at=starts_at, ends_at=starts_at + timedelta(minutes=25))
        if s.key == LAST
        else s
        for s in programme.sessions
    ]
    return replace(programme, sessions=sessions)


def test_overnight_it_names_when_the_programme_continues(
    client: Client, demo_event, demo_programme: Programme, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_programme(demo_event, _with_last_session_moved(demo_programme, _paris(8, 9, 30)))
    _at(monkeypatch, _paris(7, 21))
    html = _get(client)
    assert _notice(html) == (
        "Nothing is running now. The programme continues on Wednesday 8 April at 09:30 . "
        "The first session in each room:"
    )
    assert _rooms(html) == [
        "Founders Cafe Next Optimizing PyTorch on CPU-GPU Coherent Platforms "
        "Wed 8 Apr, 09:30 · in 12 h 30 min Matthias Jouanneaux"
    ]


def test_after_the_event_it_says_it_is_over(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, _paris(7, 17, 5))  # the last sessions end at 17:05
    html = _get(client)
    assert _notice(html) == "The event is over. Thank you for coming. See the whole schedule ."
    assert f'<a href="/{DEMO_SLUG}/">See the whole schedule</a>' in html
    assert _rooms(html) == []


def test_an_event_without_published_sessions_says_so(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    create_event(slug="empty", name="Empty", timezone="Europe/Paris")
    _at(monkeypatch, _paris(7, 11))
    html = _get(client, "/empty/now/")
    assert _notice(html) == "No sessions are published yet. See the schedule ."
    assert _rooms(html) == []


def test_cancelled_sessions_are_not_running(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    Session.objects.filter(key=HELION).update(is_cancelled=True)
    _at(monkeypatch, _paris(7, 11, 5))
    assert _rooms(_get(client))[3] == f"Master Stage Next {TOUR} 11:30 · in 25 min Christin Pohl"


def test_the_page_is_fresh_for_half_a_minute_shared_for_visitors_private_for_people(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, _paris(7, 11, 5))
    response = client.get(NOW_URL)
    assert response["Cache-Control"] == "public, max-age=30"
    assert response["Vary"] == "Cookie, HX-Request, Accept-Encoding"
    client.force_login(User.objects.create_user("ada"))
    # Theirs (their name): never stored, as every page of a signed-in person.
    assert client.get(NOW_URL)["Cache-Control"] == "private, no-store"


def test_now_js_is_loaded_on_this_page_only(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, _paris(7, 11, 5))
    script = '<script src="/static/confsched/now.js" defer></script>'
    assert _get(client).count(script) == 1
    assert script not in _get(client, f"/{DEMO_SLUG}/")


def test_unknown_event_is_404_and_a_bad_zone_400(client: Client, demo_event) -> None:
    assert client.get("/no-such-event/now/").status_code == 404
    response = client.get(NOW_URL + "?tz=Mars/Olympus")
    assert response.status_code == 400
    assert (
        "Unknown time zone &#x27;Mars/Olympus&#x27;: give an IANA name such as Europe/Paris."
        in (response.content.decode())
    )


def test_post_is_refused(client: Client, demo_event) -> None:
    assert client.post(NOW_URL).status_code == 405


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_the_board_costs_the_same_for_a_small_and_a_large_event(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    for slug, size in (("small", 20), ("large", 1000)):
        load_programme(
            create_event(slug=slug, name=slug, timezone="Europe/Paris"),
            synthetic_programme(size, rooms=5, days=2),
        )
    _at(monkeypatch, datetime(2026, 4, 7, 7, 10, tzinfo=UTC))  # the first slot runs
    # event + the sessions in the window (room joined) + their speakers + the announcements
    # (read once per process and announcements' stamp)
    assert _queries(client, "/small/now/") == 4
    assert _queries(client, "/large/now/") == 4
    # Within the same minute the board is kept, the announcements too: only the event is read.
    assert _queries(client, "/large/now/") == 1


def test_a_new_schedule_version_is_shown_within_the_same_minute(
    client: Client, demo_event, demo_programme: Programme, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, _paris(7, 16, 50))
    assert _get(client).count("Optimizing PyTorch on CPU-GPU Coherent Platforms") == 1
    load_programme(demo_event, _with_last_session_moved(demo_programme, _paris(8, 9, 30)))
    assert _get(client).count("Optimizing PyTorch on CPU-GPU Coherent Platforms") == 0


def test_duration_words() -> None:
    assert [
        duration_words(timedelta(seconds=s))
        for s in (0, 59, 60, 119, 59 * 60, 3600, 3900, 23 * 3600 + 59 * 60, 86400, 3 * 86400 + 5)
    ] == [
        "less than a minute", "less than a minute", "1 min", "1 min", "59 min", "1 h",
        "1 h 5 min", "23 h 59 min", "1 day", "3 days",
    ]  # fmt: skip


def _entry(title: str, room: str, start: int, end: int | None) -> Entry:
    base = datetime(2026, 4, 7, 9, tzinfo=UTC)
    return Entry(
        title=title, kind="", url=f"/{title}/", starts_at=base + timedelta(minutes=start),
        ends_at=None if end is None else base + timedelta(minutes=end), speakers=(), room=room,
    )  # fmt: skip


def test_rooms_now_and_next_edges() -> None:
    double = [_entry("a", "A", 0, 30), _entry("b", "A", 10, 40), _entry("c", "A", 50, 60)]
    zero = _entry("z", "B", 20, None)  # no length: never running, but it can be next
    ended = _entry("e", "C", 0, 5)
    rooms = rooms_now_and_next([*double, zero, ended], now=datetime(2026, 4, 7, 9, 15, tzinfo=UTC))
    assert [
        (r.room, [e.title for e in r.current], r.upcoming and r.upcoming.title) for r in rooms
    ] == [
        ("A", ["a", "b"], "c"),
        ("B", [], "z"),
    ]
    # At a session's end it is no longer running; at its start it is.
    at_end = rooms_now_and_next(double, now=datetime(2026, 4, 7, 9, 30, tzinfo=UTC))
    assert [e.title for e in at_end[0].current] == ["b"]


def test_sessions_without_a_room_come_last_under_other_places(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    Session.objects.filter(key=HELION).update(room=None)
    _at(monkeypatch, _paris(7, 11, 5))
    rooms = _rooms(_get(client))
    assert [room.split(" Now ")[0].split(" Next ")[0] for room in rooms] == [
        "Central Room", "Founders Cafe", "Junior Stage", "Master Stage", "Other places",
    ]  # fmt: skip
    assert rooms[4] == (
        f"Other places Now {HELION_TITLE} 11:00 – 11:25 · 20 min left Oguz Ulgen "
        "Nothing next in this room for the next few hours."
    )
