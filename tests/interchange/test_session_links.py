"""Session links (slides, recordings, other pages) in every format that carries them: what each
reader takes, what each writer writes, the round trips, and the refusals."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import xmlschema

from confsched.core.errors import ParseError
from confsched.interchange.c3voc import read as c3voc_json
from confsched.interchange.c3voc import schedule2_read as c3voc_schedule2
from confsched.interchange.c3voc import write as c3voc_json_write
from confsched.interchange.csv import read as csv_format
from confsched.interchange.csv import write as csv_format_write
from confsched.interchange.formats import (
    CALENDAR_FIELDS,
    CSV_FIELDS,
    FRAB_FIELDS,
    SESSIONIZE_FIELDS,
)
from confsched.interchange.frab import read as frab_xml
from confsched.interchange.frab import write as frab_xml_write
from confsched.interchange.ical import xcal_write as xcal_write
from confsched.interchange.ical.write import render_ical
from confsched.interchange.links import link_kind
from confsched.interchange.programme import EVERY_FIELD, Programme, Session, SessionLink
from confsched.interchange.sched.read import parse_sched_pages
from tests.conftest import demo_files
from tests.interchange.test_c3voc_json import schema_errors

CEST = timezone(timedelta(hours=2))
AT_TEN = datetime(2026, 4, 7, 10, 0, tzinfo=CEST)
DECK = SessionLink(url="https://speakerdeck.com/ada/engines", title="Engines deck", kind="slides")
VIDEO = SessionLink(url="https://youtu.be/abc123", title="Recording", kind="video")
REPO = SessionLink(url="https://github.com/ada/engines", kind="link")


def programme_with(*links: SessionLink) -> Programme:
    return Programme(
        name="Links Con",
        timezone="Europe/Paris",
        sessions=[
            Session(
                key="a", title="Engines", kind="Talk", room="Hall", starts_at=AT_TEN,
                ends_at=AT_TEN + timedelta(minutes=30), links=links,
            )
        ],
    )  # fmt: skip


# --- the hub --------------------------------------------------------------------------------


def test_a_slides_link_means_the_session_has_slides() -> None:
    assert Session(key="a", title="A", links=(DECK,)).has_slides is True
    assert Session(key="a", title="A", links=(VIDEO, REPO)).has_slides is False
    assert Session(key="a", title="A", has_slides=True).has_slides is True  # Sched's flag alone


def test_a_link_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError) as error:
        SessionLink(url="https://x.org/", kind="paper")
    assert str(error.value) == (
        "link 'https://x.org/': kind 'paper' is not one of ('slides', 'video', 'link')"
    )


def test_formats_say_whether_they_carry_links() -> None:
    assert ("links" in FRAB_FIELDS, "links" in CSV_FIELDS) == (True, True)
    assert ("links" in CALENDAR_FIELDS, "links" in SESSIONIZE_FIELDS) == (False, False)
    assert "has_slides" not in FRAB_FIELDS  # frab says "slides" only through a slides link


# --- telling a link's kind ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "title", "declared", "is_attachment", "kind"),
    [
        ("https://x.org/a", "", "slides", False, "slides"),
        ("https://x.org/a", "", "SLIDES", False, "slides"),  # schedule2 writes upper case
        ("https://x.org/a", "", "media", False, "video"),
        ("https://x.org/a", "Slides", "paper", False, "link"),  # a declared type wins
        ("https://youtu.be/a", "", "web", False, "link"),
        ("https://x.org/a", "Slides (PDF)", "", False, "slides"),
        ("https://x.org/a", "Folien", "", False, "slides"),
        ("https://x.org/a", "Recording of the talk", "", False, "video"),
        ("https://www.slideshare.net/ada/engines", "", "", False, "slides"),
        ("https://docs.google.com/presentation/d/1x/edit", "", "", False, "slides"),
        ("https://docs.google.com/document/d/1x/edit", "", "", False, "link"),
        ("https://x.org/talk.pptx", "", "", False, "slides"),
        ("https://www.youtube.com/watch?v=a", "", "", False, "video"),
        ("https://media.ccc.de/v/38c3-1", "", "", False, "video"),
        ("https://x.org/talk.webm", "", "", False, "video"),
        ("https://x.org/paper.pdf", "", "", False, "link"),
        ("https://x.org/paper.pdf", "", "", True, "slides"),  # what speakers upload
        ("https://x.org/notes.txt", "Notes", "", True, "link"),
        ("http://[", "", "", False, "link"),  # broken: the database check drops it
        ("https://slideshare.net.evil.example/a", "", "", False, "link"),
    ],
)
def test_link_kind(url: str, title: str, declared: str, is_attachment: bool, kind: str) -> None:
    assert link_kind(url, title, declared=declared, is_attachment=is_attachment) == kind


# --- frab schedule.xml ----------------------------------------------------------------------


def frab_event(inner: str, *, base_url: str = "") -> bytes:
    conference = "<title>Links Con</title><time_zone_name>Europe/Paris</time_zone_name>"
    if base_url:
        conference += f"<base_url>{base_url}</base_url>"
    return (
        f'<?xml version="1.0"?><schedule><conference>{conference}</conference>'
        '<day index="1" date="2026-04-07"><room name="Hall"><event id="7">'
        "<title>Engines</title><date>2026-04-07T10:00:00+02:00</date><duration>00:30</duration>"
        f"{inner}</event></room></day></schedule>"
    ).encode()


def test_frab_reads_links_then_attachments() -> None:
    data = frab_event(
        '<links><link href="https://youtu.be/abc123">Recording</link>'
        '<link href="https://github.com/ada/engines">https://github.com/ada/engines</link>'
        '<link href="https://x.org/a" type="slides">Deck</link></links>'
        '<attachments><attachment href="/media/lc/engines.pdf">Engines</attachment>'
        "</attachments>",
        base_url="https://pretalx.example/lc/",
    )
    programme = frab_xml.parse(data, source="schedule.xml")
    (session,) = programme.sessions
    assert session.links == (
        VIDEO,
        REPO,  # the text only repeats the address: no title
        SessionLink(url="https://x.org/a", title="Deck", kind="slides"),
        SessionLink(
            url="https://pretalx.example/media/lc/engines.pdf", title="Engines", kind="slides"
        ),
    )
    assert session.has_slides is True
    assert programme.warnings == []


def test_frab_leaves_out_links_without_an_address_with_a_warning() -> None:
    data = frab_event(
        "<links><link>Slides soon</link><link>https://x.org/t</link></links>"
        "<attachments><attachment/></attachments>"
    )
    programme = frab_xml.parse(data, source="schedule.xml")
    assert programme.sessions[0].links == (SessionLink(url="https://x.org/t"),)
    assert programme.warnings == [
        "2 links without an href left out (first: schedule/day[1]/room[1]/event[1]/links/link[1])"
    ]


def test_frab_keeps_a_relative_href_as_written_without_a_base_url() -> None:
    programme = frab_xml.parse(
        frab_event('<attachments><attachment href="/media/x.pdf"/></attachments>'),
        source="schedule.xml",
    )
    # validate_programme drops it later: it is not a web address.
    assert programme.sessions[0].links == (SessionLink(url="/media/x.pdf", kind="slides"),)


def test_frab_writes_links_with_their_c3voc_types(shared_dir: Path) -> None:
    data = frab_xml_write.render(programme_with(DECK, VIDEO, REPO), slug="links-con")
    text = data.decode()
    start = text.index("<links>")
    assert text[start : text.index("</links>") + 8] == (
        "<links>\n"
        '          <link href="https://speakerdeck.com/ada/engines" type="slides">Engines deck</link>\n'
        '          <link href="https://youtu.be/abc123" type="media">Recording</link>\n'
        '          <link href="https://github.com/ada/engines" type="web">'
        "https://github.com/ada/engines</link>\n"
        "        </links>"
    )
    schema = xmlschema.XMLSchema(str(shared_dir / "formats" / "schedule.xml.xsd"))
    assert list(schema.iter_errors(data.decode())) == []
    assert frab_xml.parse(data, source="out.xml").sessions[0].links == (DECK, VIDEO, REPO)


def test_frab_writes_no_links_element_for_a_session_without_links() -> None:
    assert b"<links" not in frab_xml_write.render(programme_with(), slug="links-con")


# --- c3voc schedule.json --------------------------------------------------------------------


def c3voc_document(event: dict, *, base_url: str | None = None) -> bytes:
    body = {
        "title": "Links Con",
        "time_zone_name": "Europe/Paris",
        "days": [
            {
                "date": "2026-04-07",
                "rooms": {
                    "Hall": [
                        {
                            "guid": "7",
                            "title": "Engines",
                            "date": "2026-04-07T10:00:00+02:00",
                            "duration": "00:30",
                            **event,
                        }
                    ]
                },
            }
        ],
    }
    schedule: dict = {"conference": body}
    if base_url is not None:
        schedule["base_url"] = base_url
    return json.dumps({"schedule": schedule}).encode()


def test_c3voc_json_reads_links_and_attachments() -> None:
    data = c3voc_document(
        {
            "links": [
                {"url": "https://youtu.be/abc123", "title": "Recording"},
                "https://github.com/ada/engines",
                {"url": "https://x.org/d", "title": "https://x.org/d", "type": "slides"},
            ],
            "attachments": [{"url": "/media/lc/engines.pdf", "title": "Engines"}],
        },
        base_url="https://pretalx.example/lc/",
    )
    programme = c3voc_json.parse(data, source="schedule.json")
    assert programme.sessions[0].links == (
        VIDEO,
        REPO,
        SessionLink(url="https://x.org/d", kind="slides"),
        SessionLink(
            url="https://pretalx.example/media/lc/engines.pdf", title="Engines", kind="slides"
        ),
    )
    assert programme.warnings == []


def test_c3voc_json_leaves_out_links_without_a_url_with_a_warning() -> None:
    data = c3voc_document({"links": [{"title": "Soon"}, {"url": ""}, "https://x.org/t"]})
    programme = c3voc_json.parse(data, source="schedule.json")
    assert programme.sessions[0].links == (SessionLink(url="https://x.org/t"),)
    assert programme.warnings == [
        '2 links without a url left out (first: schedule.conference.days[0].rooms["Hall"][0]'
        ".links[0])"
    ]


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            {"links": {"url": "https://x.org/"}},
            'schedule.json: schedule.conference.days[0].rooms["Hall"][0].links is an object; '
            "expected an array",
        ),
        (
            {"attachments": [3]},
            'schedule.json: schedule.conference.days[0].rooms["Hall"][0].attachments[0] is the '
            "number 3; expected a link object with a url, or an address",
        ),
        (
            {"links": [{"url": ["https://x.org/"]}]},
            'schedule.json: schedule.conference.days[0].rooms["Hall"][0].links[0].url is an '
            "array (of 1 items); expected a string",
        ),
        (
            {"links": [{"url": "https://x.org/", "title": {"en": "Deck"}}]},
            'schedule.json: schedule.conference.days[0].rooms["Hall"][0].links[0].title is an '
            "object; expected a string",
        ),
    ],
)
def test_c3voc_json_refuses_malformed_links(event: dict, message: str) -> None:
    with pytest.raises(ParseError) as error:
        c3voc_json.parse(c3voc_document(event), source="schedule.json")
    assert str(error.value) == message


def test_c3voc_json_writes_references_that_validate(shared_dir: Path) -> None:
    data = c3voc_json_write.render(programme_with(DECK, VIDEO, REPO), slug="links-con")
    (event,) = json.loads(data)["schedule"]["conference"]["days"][0]["rooms"]["Hall"]
    assert event["links"] == [
        {"type": "slides", "title": "Engines deck", "url": "https://speakerdeck.com/ada/engines"},
        {"type": "media", "title": "Recording", "url": "https://youtu.be/abc123"},
        {"type": "web", "url": "https://github.com/ada/engines"},
    ]
    assert schema_errors(shared_dir, data) == []
    assert c3voc_json.parse(data, source="out.json").sessions[0].links == (DECK, VIDEO, REPO)


# --- c3voc schedule2 ------------------------------------------------------------------------


def schedule2_document(event: dict, **conference: object) -> bytes:
    body = {"title": "Links Con", "time_zone_name": "Europe/Paris", **conference}
    return json.dumps(
        {
            "schedule": {
                "conference": body,
                "events": [
                    {
                        "guid": "7",
                        "title": "Engines",
                        "start": "2026-04-07T10:00:00+02:00",
                        "end": "2026-04-07T10:30:00+02:00",
                        **event,
                    }
                ],
            }
        }
    ).encode()


def test_schedule2_reads_upper_case_types_and_relative_urls() -> None:
    data = schedule2_document(
        {
            "links": [{"url": "https://x.org/r", "title": "Talk", "type": "MEDIA"}],
            "attachments": [{"url": "/media/deck.key", "title": "Deck", "type": "SLIDES"}],
        },
        url="https://pretalx.example/lc/",
    )
    programme = c3voc_schedule2.parse(data, source="schedule2.json")
    assert programme.sessions[0].links == (
        SessionLink(url="https://x.org/r", title="Talk", kind="video"),
        SessionLink(url="https://pretalx.example/media/deck.key", title="Deck", kind="slides"),
    )
    assert programme.sessions[0].has_slides is True


def test_schedule2_warns_of_links_without_a_url() -> None:
    data = schedule2_document({"attachments": [{"title": "Deck"}]})
    programme = c3voc_schedule2.parse(data, source="schedule2.json")
    assert (programme.sessions[0].links, programme.warnings) == (
        (),
        ["1 link without a url left out (first: schedule.events[0].attachments[0])"],
    )


def test_schedule2_refuses_a_link_that_is_not_an_object() -> None:
    with pytest.raises(ParseError) as error:
        c3voc_schedule2.parse(schedule2_document({"links": [True]}), source="schedule2.json")
    assert str(error.value) == (
        "schedule2.json: schedule.events[0].links[0] is true; expected a link object with a url, "
        "or an address"
    )


# --- CSV ------------------------------------------------------------------------------------


def csv_rows(links: str, *, slides: str = "no") -> bytes:
    cell = '"' + links.replace('"', '""') + '"'
    return f"title,starts_at,timezone,slides,links\nEngines,2026-04-07 10:00,Europe/Paris,{slides},{cell}\n".encode()


def test_csv_reads_links_with_and_without_their_kind() -> None:
    programme = csv_format.parse(
        csv_rows(
            "Slides: Engines deck https://speakerdeck.com/ada/engines; https://youtu.be/abc123;"
            " VIDEO: https://x.org/v\nLink: Slides are elsewhere https://x.org/s;"
            " Notes;draft https://x.org/n"
        ),
        source="sessions.csv",
    )
    (session,) = programme.sessions
    assert session.links == (
        DECK,
        SessionLink(url="https://youtu.be/abc123", kind="video"),  # told by its address
        SessionLink(url="https://x.org/v", kind="video"),
        SessionLink(url="https://x.org/s", title="Slides are elsewhere", kind="link"),
        SessionLink(url="https://x.org/n", title="Notes;draft", kind="link"),
    )
    assert session.has_slides is True  # the slides link says yes, whatever the column says


@pytest.mark.parametrize(
    ("links", "message"),
    [
        (
            "Slides: soon",
            "sessions.csv, line 2: links: 'Slides: soon' does not end with a web address "
            "(http:// or https://); write each link as [Slides: ][title ]address, separated by '; '",
        ),
        (
            "https://x.org/a; Deck ftp://x.org/deck.pdf",
            "sessions.csv, line 2: links: 'Deck ftp://x.org/deck.pdf' does not end with a web "
            "address (http:// or https://); write each link as [Slides: ][title ]address, "
            "separated by '; '",
        ),
        (
            "Deck https://x.org/a extra words",
            "sessions.csv, line 2: links: 'Deck https://x.org/a extra words' does not end with a "
            "web address (http:// or https://); write each link as [Slides: ][title ]address, "
            "separated by '; '",
        ),
    ],
)
def test_csv_refuses_a_link_without_an_address_at_its_end(links: str, message: str) -> None:
    with pytest.raises(ParseError) as error:
        csv_format.parse(csv_rows(links), source="sessions.csv")
    assert str(error.value) == message


def test_csv_refusal_of_a_long_link_is_cut_short() -> None:
    with pytest.raises(ParseError) as error:
        csv_format.parse(csv_rows("x" * 200), source="sessions.csv")
    assert str(error.value).startswith(f"sessions.csv, line 2: links: '{'x' * 80}…' does not end")


def test_csv_writes_each_links_kind_and_reads_it_back() -> None:
    odd = SessionLink(url="https://x.org/o", title="Part 1; part 2;", kind="slides")
    data = csv_format_write.render(programme_with(DECK, VIDEO, REPO, odd), slug="links-con")
    row = data.decode("utf-8-sig").split("\r\n")[1]
    assert row == (
        "a,Engines,Talk,2026-04-07T10:00+02:00,2026-04-07T10:30+02:00,Europe/Paris,Hall,,,,,,yes,"
        '"Slides: Engines deck https://speakerdeck.com/ada/engines; Video: Recording '
        "https://youtu.be/abc123; Link: https://github.com/ada/engines; Slides: Part 1, part 2, "
        'https://x.org/o",'
    )
    back = csv_format.parse(data, source="export.csv").sessions[0]
    assert back.links == (
        DECK,
        VIDEO,
        REPO,
        SessionLink(url=odd.url, title="Part 1, part 2,", kind="slides"),
    )


# --- calendars ------------------------------------------------------------------------------


def test_ical_attaches_each_link() -> None:
    text = render_ical(
        programme_with(DECK, VIDEO), uid_domain="links-con.confsched", calendar_name="Links Con"
    ).decode()
    assert [line for line in text.split("\r\n") if line.startswith("ATTACH")] == [
        "ATTACH:https://speakerdeck.com/ada/engines",
        "ATTACH:https://youtu.be/abc123",
    ]


def test_xcal_attaches_each_link() -> None:
    text = xcal_write.render(programme_with(DECK, VIDEO), slug="links-con").decode()
    assert text.count("<attach>") == 2
    assert "<attach>\n            <uri>https://youtu.be/abc123</uri>\n          </attach>" in text


# --- Sched pages ----------------------------------------------------------------------------


def test_sched_pages_carry_every_field_but_links() -> None:
    programme = parse_sched_pages(demo_files())
    assert programme.carries == EVERY_FIELD - {"links"}
    assert [s for s in programme.sessions if s.links] == []
    assert sum(s.has_slides for s in programme.sessions) == 2  # "Slides Attached Yes"
