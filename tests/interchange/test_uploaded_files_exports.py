"""Issue 31: what speakers upload, in the exports. Slides a speaker uploaded are a link as
before and also an attachment (frab's schedule.xml `<attachments>`, the c3voc JSONs'
`attachments`), as frab lists its uploads; the person's picture is the c3voc `avatar`. The
exports validate, Giggity's frab reader still finds the slides (it reads only `<link>`), and
our own readers take the pair as one link that is an attachment: the round trip is equal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import xmlschema
from defusedxml.ElementTree import fromstring

from confsched.interchange import programme as pm
from confsched.interchange.formats import parse_files
from confsched.interchange.programme_json import programme_from_json, programme_to_json
from confsched.programme.models import Event, Session, Speaker
from confsched.programme.services import render_export, set_session_links, snapshot
from confsched.speakers.models import SpeakerPhoto
from tests.interchange.giggity import read_pentabarf
from tests.interchange.schemas import schema_errors, schema_validator

pytestmark = pytest.mark.django_db

BASE = "https://schedule.example.org"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
SLIDES = f"{BASE}/media/slides/0123456789abcdef0123.pdf"
JPEG = "photos/fedcba9876543210fedc.jpg"
AVATAR = f"{BASE}/media/{JPEG}"
CODE = "https://code.example.org/helion"


@pytest.fixture
def uploaded(demo_event: Event) -> Event:
    """HELION's speaker with a photo, and its uploaded slides before a link they typed."""
    from confsched.programme.services import set_speaker_fields

    session = Session.objects.get(event=demo_event, key=HELION)
    speaker: Speaker = session.speaker_links.get().speaker
    SpeakerPhoto.objects.create(
        speaker=speaker, original="photos/00000000000000000001.jpg", jpeg=JPEG,
        squares={"48": "photos/00000000000000000048.webp"}, width=400, height=400,
        uploaded_by="oguz",
    )  # fmt: skip
    set_speaker_fields(speaker, {"avatar_url": AVATAR}, by="oguz")
    set_session_links(
        session,
        [pm.SessionLink(SLIDES, "helion.pdf", pm.SLIDES), pm.SessionLink(CODE, "Code", pm.LINK)],
        by="oguz",
    )
    return demo_event


def test_the_snapshot_marks_uploaded_slides_as_an_attachment(uploaded: Event) -> None:
    session = next(s for s in snapshot(uploaded).sessions if s.key == HELION)
    assert [(link.url, link.title, link.kind, link.is_attachment) for link in session.links] == [
        (SLIDES, "helion.pdf", "slides", True),
        (CODE, "Code", "link", False),
    ]


def test_frab_xml_lists_the_slides_as_a_link_and_an_attachment(
    uploaded: Event, shared_dir: Path
) -> None:
    data = render_export(uploaded, "xml", base_url=f"{BASE}/")
    xmlschema.XMLSchema(str(shared_dir / "formats" / "schedule.xml.xsd")).validate(data.decode())
    event = next(
        e for e in fromstring(data).iter("event") if e.findtext("title").startswith("Helion")
    )
    links = [(e.get("href"), e.get("type"), e.text) for e in event.find("links")]
    assert links == [(SLIDES, "slides", "helion.pdf"), (CODE, "web", "Code")]
    attachments = [(e.get("href"), e.get("type"), e.text) for e in event.find("attachments")]
    assert attachments == [(SLIDES, "slides", "helion.pdf")]
    # Only sessions with uploaded files have <attachments>.
    assert [
        e.findtext("title")
        for e in fromstring(data).iter("event")
        if e.find("attachments") is not None
    ] == ["Helion 1.0: A High-Level DSL for Performance Portable Kernels"]


def test_giggity_reads_the_slides_once_and_the_speaker_by_name(uploaded: Event) -> None:
    items = read_pentabarf(render_export(uploaded, "xml", base_url=f"{BASE}/"))
    helion = next(item for item in items if item.title.startswith("Helion"))
    # Giggity reads no <attachments> and no picture of a person: the link carries the slides.
    assert (helion.speakers, helion.links) == (
        ["Oguz Ulgen"],
        [(SLIDES, "helion.pdf"), (CODE, "Code")],
    )


def test_c3voc_json_carries_the_attachment_and_the_persons_avatar(
    uploaded: Event, shared_dir: Path
) -> None:
    data = render_export(uploaded, "json", base_url=f"{BASE}/")
    assert schema_errors(schema_validator(shared_dir, "schema.json"), data) == []
    events = [
        event
        for day in json.loads(data)["schedule"]["conference"]["days"]
        for room in day["rooms"].values()
        for event in room
    ]
    helion = next(event for event in events if event["title"].startswith("Helion"))
    assert helion["links"] == [
        {"type": "slides", "title": "helion.pdf", "url": SLIDES},
        {"type": "web", "title": "Code", "url": CODE},
    ]
    assert helion["attachments"] == [{"type": "slides", "title": "helion.pdf", "url": SLIDES}]
    assert [(p["name"], p.get("avatar")) for p in helion["persons"]] == [("Oguz Ulgen", AVATAR)]
    assert [event["title"] for event in events if "attachments" in event] == [helion["title"]]


def test_schedule2_carries_the_attachment(uploaded: Event, shared_dir: Path) -> None:
    data = render_export(uploaded, "schedule2", base_url=f"{BASE}/")
    assert schema_errors(schema_validator(shared_dir, "schema2.json", fractions=False), data) == []
    events = json.loads(data)["schedule"]["events"]
    helion = next(event for event in events if event["title"].startswith("Helion"))
    assert helion["attachments"] == [{"type": "SLIDES", "title": "helion.pdf", "url": SLIDES}]
    assert [event["title"] for event in events if "attachments" in event] == [helion["title"]]


@pytest.mark.parametrize(
    ("extension", "name"),
    [("xml", "schedule.xml"), ("json", "schedule.json"), ("schedule2", "schedule2.json")],
)
def test_our_readers_take_the_pair_as_one_link_that_is_an_attachment(
    uploaded: Event, extension: str, name: str
) -> None:
    ours = snapshot(uploaded)
    read = parse_files([(name, render_export(uploaded, extension, base_url=f"{BASE}/"))])
    helion = next(s for s in read.sessions if s.key == HELION or s.title.startswith("Helion"))
    assert [(link.url, link.title, link.kind, link.is_attachment) for link in helion.links] == [
        (SLIDES, "helion.pdf", "slides", True),
        (CODE, "Code", "link", False),
    ]
    assert helion.links == next(s for s in ours.sessions if s.key == HELION).links


def test_a_versions_programme_keeps_which_links_are_attachments(uploaded: Event) -> None:
    programme = snapshot(uploaded)
    kept = programme_from_json(programme_to_json(programme))
    helion = next(s for s in kept.sessions if s.key == HELION)
    assert [link.is_attachment for link in helion.links] == [True, False]
    assert kept == programme
