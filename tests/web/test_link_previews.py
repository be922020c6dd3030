"""Open Graph and Twitter card tags on the schedule, session and speaker pages."""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, date, datetime
from html import unescape
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.programme.models import Event, Session
from confsched.web.templatetags.link_previews import (
    event_dates,
    event_description,
    session_description,
    session_when,
    speaker_description,
)
from tests.conftest import DEMO_SLUG

BASE = f"/{DEMO_SLUG}/"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
EVENT = "PyTorch Conference Europe 2026"


def _preview(html: str) -> dict[str, str]:
    """The preview tags of the page's <head>, by property or name; each must appear once."""
    head = html[: html.index("</head>")]
    found = re.findall(
        r'<meta (?:property|name)="((?:og|twitter):[a-z_]+)" content="([^"]*)">', head
    )
    tags = {name: unescape(content) for name, content in found}
    assert len(tags) == len(found), f"a tag appears twice: {found}"
    return tags


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["", "grid/", "speakers/", "?track=training-systems"])
def test_schedule_pages_carry_the_events_tags(client: Client, demo_event, page: str) -> None:
    assert _preview(_get(client, BASE + page)) == {
        "og:type": "website",
        "og:site_name": EVENT,
        "og:title": EVENT,
        "og:description": "Schedule · 7–8 April 2026 · Paris, France",
        "og:url": f"http://testserver{BASE}{page}",
        "twitter:card": "summary",
    }


@pytest.mark.django_db
def test_a_session_page_names_time_in_the_events_zone_room_and_speakers(
    client: Client, demo_event
) -> None:
    url = f"{BASE}sessions/{HELION}/"
    expected = {
        "og:type": "website",
        "og:site_name": EVENT,
        "og:title": "Helion 1.0: A High-Level DSL for Performance Portable Kernels",
        "og:description": "Tuesday 7 April 2026, 11:00–11:25 CEST · Master Stage · Oguz Ulgen (Meta)",
        "og:url": f"http://testserver{url}",
        "twitter:card": "summary",
    }
    assert _preview(_get(client, url)) == expected
    # A viewer reading in New York sees their times on the page, but the preview keeps Paris.
    html = _get(client, url + "?tz=America/New_York")
    assert ">Tuesday 7 April 2026, 05:00</time>" in html
    assert _preview(html) == expected | {"og:url": f"http://testserver{url}?tz=America/New_York"}


@pytest.mark.django_db
def test_a_lightning_talk_is_titled_with_its_kind_and_lists_every_speaker(
    client: Client, demo_event
) -> None:
    url = f"{BASE}sessions/lightning-talk-torchjd-jacobian-descent-in-pytorch/"
    tags = _preview(_get(client, url))
    assert tags["og:title"] == "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"
    assert tags["og:description"] == (
        "Tuesday 7 April 2026, 11:45–11:55 CEST · Founders Cafe · "
        "Pierre Quinton (EPFL), Valérian Rey (Simplex Lab)"
    )


@pytest.mark.django_db
def test_a_speaker_page_names_company_and_session_count(client: Client, demo_event) -> None:
    speaker = Session.objects.get(key=HELION).speaker_links.get().speaker
    url = speaker.get_absolute_url()
    role = ", ".join(part for part in (speaker.position, speaker.company) if part)
    assert _preview(_get(client, url)) == {
        "og:type": "profile",
        "og:site_name": EVENT,
        "og:title": "Oguz Ulgen",
        "og:description": f"{role} · 1 session at {EVENT}",
        "og:url": f"http://testserver{url}",
        "twitter:card": "summary",
    }
    assert "Meta" in role


@pytest.mark.django_db
def test_previews_are_the_same_for_every_person(client: Client, demo_event) -> None:
    url = f"{BASE}sessions/{HELION}/"
    anonymous = _preview(_get(client, url))
    client.force_login(User.objects.create_user("ada", "ada@example.org", "x" * 20))
    client.post(f"{url}star", {"starred": "1"})
    assert _preview(_get(client, url)) == anonymous


@pytest.mark.django_db
def test_imported_text_is_escaped_in_the_tags(client: Client, demo_event) -> None:
    Session.objects.filter(key=HELION).update(title='Quotes " and <tags> & more')
    Event.objects.filter(pk=demo_event.pk).update(location='Hall "A" <b>')
    html = _get(client, f"{BASE}sessions/{HELION}/")
    assert '<meta property="og:title" content="Quotes &quot; and &lt;tags&gt; &amp; more">' in html
    assert _preview(html)["og:site_name"] == EVENT


def test_event_dates() -> None:
    assert [
        event_dates(None, None),
        event_dates(None, date(2026, 4, 8)),
        event_dates(date(2026, 4, 7), None),
        event_dates(date(2026, 4, 7), date(2026, 4, 7)),
        event_dates(date(2026, 4, 7), date(2026, 4, 8)),
        event_dates(date(2026, 3, 30), date(2026, 4, 2)),
        event_dates(date(2026, 12, 30), date(2027, 1, 2)),
    ] == [
        "", "", "7 April 2026", "7 April 2026", "7–8 April 2026", "30 March – 2 April 2026",
        "30 December 2026 – 2 January 2027",
    ]  # fmt: skip


def _event(**fields: object) -> SimpleNamespace:
    values = {"name": "Conf", "start_date": None, "end_date": None, "location": ""} | fields
    zone = zoneinfo.ZoneInfo(str(values.pop("timezone", "Europe/Paris")))
    return SimpleNamespace(zone=zone, **values)


def test_event_description_leaves_out_what_is_unknown() -> None:
    assert event_description(_event()) == "Schedule"
    assert event_description(_event(location="Paris")) == "Schedule · Paris"
    assert event_description(_event(start_date=date(2026, 4, 7))) == "Schedule · 7 April 2026"


def _session(**fields: object) -> SimpleNamespace:
    links = fields.pop("links", [])
    values = {
        "starts_at": datetime(2026, 4, 7, 21, 30, tzinfo=UTC), "ends_at": None, "room": None,
        "is_cancelled": False,
    } | fields  # fmt: skip
    return SimpleNamespace(speaker_links=SimpleNamespace(all=lambda: links), **values)


def test_session_when_in_the_events_zone_across_midnight_and_without_zone_names() -> None:
    paris = _event()
    assert session_when(_session(), event=paris) == "Tuesday 7 April 2026, 23:30 CEST"
    late = _session(ends_at=datetime(2026, 4, 7, 22, 30, tzinfo=UTC))
    assert session_when(late, event=paris) == (
        "Tuesday 7 April 2026, 23:30 – Wednesday 8 April, 00:30 CEST"
    )
    # tzdata names no abbreviation for Dubai ("+04"): the offset is written instead.
    dubai = _event(timezone="Asia/Dubai")
    assert session_when(_session(), event=dubai) == "Wednesday 8 April 2026, 01:30 UTC+04:00"
    assert session_when(_session(starts_at=None), event=paris) == ""


def test_session_description_marks_cancelled_and_skips_what_is_missing() -> None:
    person = SimpleNamespace(speaker=SimpleNamespace(name="Ada"), company="")
    session = _session(is_cancelled=True, links=[person], room=SimpleNamespace(name="Hall"))
    assert session_description(session, event=_event()) == (
        "Cancelled · Tuesday 7 April 2026, 23:30 CEST · Hall · Ada"
    )
    assert session_description(_session(starts_at=None), event=_event()) == ""


def test_speaker_description_without_company_or_sessions() -> None:
    bare = SimpleNamespace(position="", company="")
    assert speaker_description(bare, event=_event(), session_count=0) == "Speaker at Conf"
    assert speaker_description(bare, event=_event(), session_count=2) == "2 sessions at Conf"
    role = SimpleNamespace(position="Engineer", company="")
    assert speaker_description(role, event=_event(), session_count=1) == (
        "Engineer · 1 session at Conf"
    )
