"""Open Graph and Twitter card tags on the schedule, session and speaker pages."""

from __future__ import annotations

import io
import re
import zoneinfo
from datetime import UTC, date, datetime
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image

from confsched.programme.models import Event, Session
from confsched.web.sessions.og_image import Card, font_file, load_font, render_card, wrapped
from confsched.web.sessions.templatetags.link_previews import (
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
EVENT_ALT = f"{EVENT}. 7–8 April 2026 · Paris, France. Schedule"


def _image(path: str, alt: str) -> dict[str, str]:
    """The generated card's tags (web/sessions/cards.py)."""
    return {
        "og:image": f"http://testserver{path}",
        "og:image:type": "image/png",
        "og:image:width": "1200",
        "og:image:height": "630",
        "og:image:alt": alt,
        "twitter:card": "summary_large_image",
    }


def _preview(html: str) -> dict[str, str]:
    """The preview tags of the page's <head>, by property or name; each must appear once."""
    head = html[: html.index("</head>")]
    found = re.findall(
        r'<meta (?:property|name)="((?:og|twitter):[a-z_:]+)" content="([^"]*)">', head
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
    } | _image(f"{BASE}card.png", EVENT_ALT)


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
    } | _image(
        f"{url}card.png",
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels. Oguz Ulgen. "
        f"Tuesday 7 April 2026, 11:00–11:25 CEST · Master Stage. {EVENT}",
    )
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
    } | _image(f"{BASE}card.png", EVENT_ALT)
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


@pytest.mark.django_db
def test_the_cards_are_pngs_of_the_open_graph_size(client: Client, demo_event) -> None:
    for path in (f"{BASE}card.png", f"{BASE}sessions/{HELION}/card.png"):
        response = client.get(path)
        assert (response.status_code, response["Content-Type"]) == (200, "image/png")
        image = Image.open(io.BytesIO(response.content))
        image.load()  # decodes every pixel: a truncated PNG fails here
        assert (image.format, image.size, image.mode) == ("PNG", (1200, 630), "RGB")
        again = client.get(path, headers={"If-None-Match": response["ETag"]})
        assert again.status_code == 304
        assert "public" in response["Cache-Control"]
    assert client.get(f"{BASE}sessions/no-such-talk/card.png").status_code == 404


@pytest.mark.django_db
def test_a_card_is_drawn_once_per_schedule_version(client: Client, demo_event, monkeypatch) -> None:
    from confsched.web.sessions import cards as views_cards

    drawn = []
    real = views_cards.render_card
    monkeypatch.setattr(views_cards, "render_card", lambda card: drawn.append(card) or real(card))
    first = client.get(f"{BASE}sessions/{HELION}/card.png").content
    assert client.get(f"{BASE}sessions/{HELION}/card.png").content == first
    assert [card.title for card in drawn] == [
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels"
    ]
    Session.objects.filter(key=HELION).update(title="Helion 2.0")
    Event.objects.filter(pk=demo_event.pk).update(
        updated_at=demo_event.updated_at.replace(year=2027)
    )
    client.get(f"{BASE}sessions/{HELION}/card.png")
    assert [card.title for card in drawn][-1] == "Helion 2.0"


def test_a_card_draws_long_and_wide_text_within_the_image() -> None:
    card = Card(
        kicker="日本語のカンファレンス " * 5,
        title="Größenänderungsüberprüfungsverfahren " * 12 + "🚀",
        people=", ".join(f"Speaker Number {n}" for n in range(40)),
        footer="Tuesday 7 April 2026, 11:00–11:25 CEST · " + "Room " * 50,
    )
    image = Image.open(io.BytesIO(render_card(card)))
    image.load()
    assert image.size == (1200, 630)
    assert len(card.alt) == 420 and card.alt.endswith("…")


def test_wrapped_cuts_a_word_wider_than_the_line_and_marks_what_is_left_out() -> None:
    font = load_font(40, bold=True)
    lines = wrapped("x" * 200 + " tail", font, width=300, max_lines=2)
    assert len(lines) == 2
    assert all(font.getlength(line) <= 300 for line in lines)
    assert lines[1].endswith("…")
    assert wrapped("short words", font, width=1000, max_lines=3) == ["short words"]


def test_the_font_is_dejavu_where_the_system_has_it() -> None:
    if not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").is_file():
        pytest.skip("no DejaVu on this system: Pillow's default font is used")
    assert Path(font_file(bold=False)).name == "DejaVuSans.ttf"
    assert Path(font_file(bold=True)).name == "DejaVuSans-Bold.ttf"
