"""The schedule.json reader and writer: the two real samples with exact values, every refusal
with its message, and the writer's output validated against voc/schedule's schema.json.

Expectations on the samples were read off the files by hand.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import uuid
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from confsched.core.errors import ParseError
from confsched.interchange.c3voc.read import (
    DESCRIPTION,
    FORMAT_NAME,
    looks_like,
    parse,
)
from confsched.interchange.c3voc.write import render
from confsched.interchange.html_text import html_to_text as _html_to_text
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.sched.read import parse_sched_pages
from tests.conftest import DEMO_SLUG, demo_files
from tests.interchange.schemas import schema_errors as errors_of
from tests.interchange.schemas import schema_validator

CEST = timezone(timedelta(hours=2))
CET = timezone(timedelta(hours=1))
DEMO_SITE = "https://confsched.example/"  # what writers take as base_url: the site's address
DEMO_BASE = "https://confsched.example/pytorch-conference-europe-2026/"  # the event's page


def sample(shared_dir: Path, name: str) -> bytes:
    return (shared_dir / "formats" / "samples" / "c3voc-json" / name).read_bytes()


def schema_errors(shared_dir: Path, data: bytes) -> list[str]:
    return errors_of(schema_validator(shared_dir, "schema.json"), data)


def document(*events: dict, room: str = "Saal 1", **conference: object) -> bytes:
    """A small schedule.json: one day, the events under one room."""
    body = {
        "acronym": "tiny",
        "title": "Tiny Con",
        "start": "2019-08-21",
        "end": "2019-08-21",
        "time_zone_name": "Europe/Berlin",
        "days": [
            {
                "index": 1,
                "date": "2019-08-21",
                "day_start": "2019-08-21T09:00:00+02:00",
                "day_end": "2019-08-22T04:00:00+02:00",
                "rooms": {room: list(events)},
            }
        ],
    }
    body.update(conference)
    return json.dumps({"schedule": {"version": "1", "conference": body}}).encode()


def event(number: int = 1, **changes: object) -> dict:
    base = {
        "guid": f"00000000-0000-4000-8000-{number:012d}",
        "id": number,
        "date": f"2019-08-21T{10 + number:02d}:00:00+02:00",
        "start": f"{10 + number:02d}:00",
        "duration": "00:30",
        "room": "Saal 1",
        "title": f"Talk {number}",
        "type": "lecture",
        "persons": [],
    }
    base.update(changes)
    return {name: value for name, value in base.items() if value is not ...}


def refusal(data: bytes, **kwargs: str) -> str:
    with pytest.raises(ParseError) as caught:
        parse(data, source="tiny.json", **kwargs)
    return str(caught.value)


def speakers_of(programme: Programme, key: str) -> list[tuple[str, str]]:
    return [
        (link.speaker_key, programme.speaker(link.speaker_key).name)
        for link in programme.session(key).speakers
    ]


# --- the pretalx sample ----------------------------------------------------------------------


@pytest.mark.shared
def test_pretalx_democon_programme(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "pretalx-democon.json"), source="democon.json")
    assert len(programme.sessions) == 36
    assert len(programme.speakers) == 27
    assert programme.name == "DemoCon"
    assert programme.timezone == "UTC"
    assert (programme.start_date, programme.end_date) == (date(2020, 12, 14), date(2020, 12, 16))
    assert programme.rooms == ["Gray Room", "Tan Room"]
    assert [s.room for s in programme.sessions].count("Tan Room") == 9
    assert {s.kind for s in programme.sessions} == {"Talk", "Workshop"}
    # Declared "UTC", written +01:00: the dates' offsets win, and a person is told.
    assert programme.warnings == [
        "conference.time_zone_name is 'UTC' but 36 event dates carry other offsets (+01:00); "
        "the times follow the dates' own offsets"
    ]
    assert programme.notes == []


@pytest.mark.shared
def test_pretalx_first_talk_every_field(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "pretalx-democon.json"), source="democon.json")
    session = programme.sessions[0]
    assert session.key == "8079583e-8321-506c-95af-fd2903a5f075"
    assert session.title == "Focused 5thgeneration hardware"
    assert session.kind == "Talk"
    assert session.track == "Phased"
    assert session.room == "Gray Room"
    assert session.language == "en"
    assert session.starts_at == datetime(2020, 12, 14, 8, 0, tzinfo=UTC)
    assert session.starts_at.utcoffset() == timedelta(hours=1)
    assert session.ends_at == datetime(2020, 12, 14, 8, 30, tzinfo=UTC)
    assert session.abstract == (
        "Brand back-end models!\n\n"
        "Station provide certain mean. Toward region beautiful language blood.\n"
        "Professional economic pattern a. Human plan institution thus."
    )
    assert speakers_of(programme, session.key) == [("NQTF8Y", "Brian Robinson")]
    assert programme.speaker("NQTF8Y").bio.startswith(
        "Break through direction. Power cultural most should.\nWhole party memory fire."
    )
    assert (session.level, session.has_slides, session.is_cancelled) == ("", False, False)


@pytest.mark.shared
def test_pretalx_workshop_with_two_speakers(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "pretalx-democon.json"), source="democon.json")
    session = programme.session("ba72da9d-a522-54f6-9301-4bf4f3446425")
    assert session.title == "Secured grid-enabled policy"
    assert (session.kind, session.track, session.room) == ("Workshop", "Horizontal", "Tan Room")
    assert session.starts_at == datetime(2020, 12, 14, 10, 30, tzinfo=UTC)
    assert session.ends_at == datetime(2020, 12, 14, 12, 0, tzinfo=UTC)
    assert session.abstract.startswith("Synergize efficient paradigms!\n\nAttack huge effect")
    assert speakers_of(programme, session.key) == [
        ("HGPC7S", "Amy Sanchez"),
        ("WRQGFG", "Teresa Terrell"),
    ]
    assert programme.speaker("HGPC7S").bio == (
        "It more start apply sing why group. Report air although church idea indeed of. "
        "World cut range party prepare special drive me.\n\n"
        "Moment not much tax wind. Sit method see protect.\n"
        "Least movie these analysis already. Them never half skill challenge set health."
    )
    # Curtis Andrews speaks five times and is one speaker.
    assert [s.title for s in programme.sessions if SessionSpeaker("FMXAED") in s.speakers] == [
        "Triple-buffered methodical superstructure",
        "Enhanced maximized middleware",
        "Advanced 24hour hub",
        "Cross-group dedicated success",
        "Seamless real-time installation",
    ]


# --- the frab sample -------------------------------------------------------------------------


@pytest.mark.shared
def test_frab_camp2019_programme(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "frab-camp2019.json"), source="camp2019.json")
    assert len(programme.sessions) == 79
    assert len(programme.speakers) == 90
    assert programme.name == "Chaos Communication Camp 2019"
    assert programme.timezone == "Europe/Berlin"
    assert (programme.start_date, programme.end_date) == (date(2019, 8, 21), date(2019, 8, 26))
    assert programme.rooms == ["Curie", "Meitner"]  # no conference.rooms: order of appearance
    assert sum(s.room == "Curie" for s in programme.sessions) == 41
    assert sum(s.language == "de" for s in programme.sessions) == 24
    assert (programme.warnings, programme.notes) == ([], [])


@pytest.mark.shared
def test_frab_talk_every_field(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "frab-camp2019.json"), source="camp2019.json")
    session = programme.session("24b58c74-2bba-412e-84ac-c206f714f0b7")
    assert session.title == "Hacking Containers and Kubernetes"  # trailing space dropped
    assert (session.kind, session.track, session.room) == ("lecture", "Security", "Curie")
    assert session.language == "en"
    assert session.starts_at == datetime(2019, 8, 21, 11, 0, tzinfo=UTC)
    assert session.ends_at == datetime(2019, 8, 21, 11, 45, tzinfo=UTC)
    assert session.abstract.startswith(
        "The talks shows the security model of Kubernetes and how to detect and fight security "
        "weaknesses with a few lines of scripting.\n\nHidden under the hood of Kubernetes"
    )
    assert "\r" not in session.abstract
    assert "cluster\n\nThe talk gives an overview" in session.abstract
    assert speakers_of(programme, session.key) == [("1382", "Thomas Fricke")]
    assert programme.speaker("1382").bio == ""


@pytest.mark.shared
def test_frab_html_show_past_midnight(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "frab-camp2019.json"), source="camp2019.json")
    session = programme.session("ed4b6c75-14f4-49fe-a11e-3762bd6b54e3")
    assert session.title == "Achtung, Datenpannen!"
    assert (session.kind, session.track, session.room) == ("lecture", "Entertainment", "Meitner")
    assert session.language == "de"
    assert session.starts_at == datetime(2019, 8, 22, 21, 0, tzinfo=UTC)
    assert session.ends_at == datetime(2019, 8, 22, 22, 30, tzinfo=UTC)  # 00:30 on the 23rd
    assert speakers_of(programme, session.key) == [
        ("4555", "Alvar C.H. Freude"),
        ("9127", "Stefan Brink"),
    ]
    paragraphs = session.abstract.split("\n\n")
    assert paragraphs[0].startswith("Eine Mischung aus einem Vortrag und einer Spiel- und")
    assert paragraphs[1].startswith("Bei Diskussionen über Datenschutz kommen technische")
    assert paragraphs[2] == (
        "Die große Datenschutz- und DSGVO-Show vermittelt auf spielerische Weise rechtliche, "
        "technische und praktische Hilfe rund um Datenschutz und die "
        "EU-Datenschutz-Grundverordnung."
    )
    assert paragraphs[3].splitlines()[:2] == [
        "- Welche Verschlüsselungs-Verfahren muss ein Datenverarbeiter verwenden, um kein "
        "Bußgeld zu riskieren?",
        "- Erfüllt ein verschlüsselter ZIP-Anhang in einer E-Mail die Anforderungen der DS-GVO "
        "auf „Sicherheit der Verarbeitung“?",
    ]
    assert len(paragraphs) == 6
    assert "<" not in session.abstract


@pytest.mark.shared
def test_frab_inline_links_keep_their_urls_and_line_breaks(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "frab-camp2019.json"), source="camp2019.json")
    spispy = programme.session("f7df9294-6e67-4def-bf45-441663d489f6")
    assert spispy.abstract.startswith(
        "spispy (https://github.com/osresearch/spispy) is an open source hardware tool"
    )
    megapixels = programme.session("f9196061-da41-448d-8e7a-da0a6f8ad63a")
    assert megapixels.abstract.endswith(
        "MegaPixels is developed by:\n"
        "Adam Harvey / https://ahprojects.com\n"
        "Jules LaPlace / https://asdf.us"
    )


@pytest.mark.shared
def test_frab_event_without_persons_or_text(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "frab-camp2019.json"), source="camp2019.json")
    session = programme.session("4263620e-f36f-4408-b702-01481e0efbd7")
    assert session.title == "Infrastructure Review"
    assert (session.speakers, session.abstract) == ((), "")
    assert session.starts_at == datetime(2019, 8, 25, 15, 0, tzinfo=UTC)


@pytest.mark.shared
def test_frab_equal_abstract_and_description_appear_once(shared_dir: Path) -> None:
    programme = parse(sample(shared_dir, "frab-camp2019.json"), source="camp2019.json")
    session = programme.session("a4e27089-dc12-4e83-93c9-8ac5cb8bad6e")
    assert session.abstract.count("We have learned that Math") == 1
    assert session.abstract.endswith("are not covered by patents any more.")


@pytest.mark.shared
def test_samples_parse_the_same_with_a_byte_order_mark(shared_dir: Path) -> None:
    for name in ("pretalx-democon.json", "frab-camp2019.json"):
        data = sample(shared_dir, name)
        assert not data.startswith(b"\xef\xbb\xbf")
        plain = parse(data, source=name)
        with_bom = parse(b"\xef\xbb\xbf" + data, source=name)
        assert with_bom.sessions == plain.sessions
        assert with_bom.speakers == plain.speakers


@pytest.mark.shared
def test_sample_keys_are_their_uuids(shared_dir: Path) -> None:
    for name in ("pretalx-democon.json", "frab-camp2019.json"):
        programme = parse(sample(shared_dir, name), source=name)
        for session in programme.sessions:
            assert str(uuid.UUID(session.key)) == session.key


# --- reading: leniency -----------------------------------------------------------------------


def test_bom_on_a_small_document() -> None:
    data = document(event(1))
    assert parse(b"\xef\xbb\xbf" + data, source="t").sessions == parse(data, source="t").sessions


def test_durations_in_every_written_form() -> None:
    programme = parse(
        document(
            event(1, duration="0:30"),
            event(2, duration="00:30"),
            event(3, duration="00:30:15"),
            event(4, duration="18:00"),
            event(5, duration="00:00"),
            event(6, duration=None),
        ),
        source="t",
    )
    lengths = [s.ends_at - s.starts_at if s.ends_at else None for s in programme.sessions]
    assert lengths == [
        timedelta(minutes=30),
        timedelta(minutes=30),
        timedelta(minutes=30, seconds=15),
        timedelta(hours=18),
        timedelta(0),
        None,
    ]


def test_end_wins_over_duration() -> None:
    programme = parse(
        document(event(1, duration="00:30", end="2019-08-21T12:00:00+02:00")), source="t"
    )
    assert programme.sessions[0].ends_at == datetime(2019, 8, 21, 10, 0, tzinfo=UTC)


def test_start_without_date_is_read_in_the_declared_zone_and_after_midnight_next_day() -> None:
    programme = parse(
        document(event(1, date=..., start="23:30"), event(2, date=..., start="01:15")),
        source="t",
    )
    first, second = programme.sessions
    assert first.starts_at == datetime(2019, 8, 21, 21, 30, tzinfo=UTC)
    assert first.starts_at.tzinfo.key == "Europe/Berlin"
    # 01:15 is before day_start (09:00): the night after the 21st.
    assert second.starts_at == datetime(2019, 8, 21, 23, 15, tzinfo=UTC)


def test_naive_dates_use_the_declared_zone() -> None:
    programme = parse(document(event(1, date="2019-08-21T11:00:00")), source="t")
    assert programme.sessions[0].starts_at == datetime(2019, 8, 21, 9, 0, tzinfo=UTC)


def test_naive_dates_without_a_zone_use_the_default_timezone() -> None:
    data = document(event(1, date="2019-12-21T11:00:00"), time_zone_name=None)
    programme = parse(data, source="t", default_timezone="Europe/Paris")
    assert programme.sessions[0].starts_at == datetime(2019, 12, 21, 10, 0, tzinfo=UTC)
    assert programme.timezone == ""


def test_invalid_declared_zone_is_ignored_with_a_warning() -> None:
    programme = parse(document(event(1), time_zone_name="Mars/Olympus"), source="t")
    assert programme.timezone == ""
    assert programme.warnings == [
        "conference.time_zone_name 'Mars/Olympus' is not an IANA time zone; ignored"
    ]
    assert programme.sessions[0].starts_at == datetime(2019, 8, 21, 9, 0, tzinfo=UTC)


def test_start_disagreeing_with_date_keeps_the_date() -> None:
    programme = parse(document(event(1, start="09:00")), source="t")
    assert programme.sessions[0].starts_at == datetime(2019, 8, 21, 9, 0, tzinfo=UTC)
    assert programme.warnings == [
        "schedule.conference.days[0].rooms[\"Saal 1\"][0]: start '09:00' disagrees with date "
        "'2019-08-21T11:00:00+02:00'; kept the date"
    ]


def test_session_keys_fall_back_to_id_then_slug_then_a_hash() -> None:
    programme = parse(
        document(
            event(1, guid=None),
            event(2, guid=..., id=..., slug="tiny-2-talk"),
            event(3, guid="", id=..., title="  Talk 3 "),
        ),
        source="t",
    )
    identity = "2019-08-21T13:00:00+02:00|Saal 1|Talk 3"
    assert [s.key for s in programme.sessions] == [
        "1",
        "tiny-2-talk",
        "c3voc-" + hashlib.sha256(identity.encode()).hexdigest()[:12],
    ]
    assert programme.notes == [
        "1 events have no guid; keyed by their date, room and title",
        "1 events have no guid; keyed by their id",
        "1 events have no guid; keyed by their slug",
    ]


def test_persons_keyed_by_guid_code_id_or_name() -> None:
    persons = [
        {"guid": "11111111-1111-4111-8111-111111111111", "name": "Grace Hopper", "id": 5},
        {"code": "ABC123", "name": "Ada Lovelace", "biography": "<p>Poet of <b>numbers</b>.</p>"},
        {"id": 42, "public_name": "Alan Turing", "name": "A. Turing"},
        {"name": "Édith Piaf", "avatar": "/media/piaf.png"},
        "Bare Name",
        {"id": 7},
    ]
    data = json.loads(document(event(1, persons=persons)))
    data["schedule"]["base_url"] = "https://pretalx.example/tiny/schedule/"
    programme = parse(json.dumps(data).encode(), source="t")
    assert [(s.key, s.name) for s in programme.speakers] == [
        ("11111111-1111-4111-8111-111111111111", "Grace Hopper"),
        ("ABC123", "Ada Lovelace"),
        ("42", "Alan Turing"),
        ("edith-piaf", "Édith Piaf"),
        ("bare-name", "Bare Name"),
    ]
    assert programme.speaker("ABC123").bio == "Poet of numbers."
    assert programme.speaker("edith-piaf").avatar_url == "https://pretalx.example/media/piaf.png"
    assert programme.warnings == [
        'schedule.conference.days[0].rooms["Saal 1"][0].persons[5]: a person without a name; '
        "left out"
    ]


def test_events_without_room_take_the_room_they_are_listed_under() -> None:
    programme = parse(
        document(event(1, room=None), event(2, room="Saal 2"), room="Saal 1"), source="t"
    )
    assert [s.room for s in programme.sessions] == ["Saal 1", "Saal 2"]
    assert programme.rooms == ["Saal 1", "Saal 2"]


def test_declared_rooms_give_the_order() -> None:
    programme = parse(
        document(
            event(1, room="Saal 1"),
            event(2, room="Annex"),
            rooms=[{"name": "Saal 2", "guid": "x"}, "Saal 1"],
        ),
        source="t",
    )
    assert programme.rooms == ["Saal 2", "Saal 1", "Annex"]


def test_conference_dates_fall_back_to_the_sessions_days() -> None:
    programme = parse(
        document(event(1), event(2, date="2019-08-22T01:00:00+02:00"), start=None, end="soon"),
        source="t",
    )
    assert (programme.start_date, programme.end_date) == (date(2019, 8, 21), date(2019, 8, 22))
    assert programme.warnings[-1] == (
        'conference.end is "soon", not a date; used the sessions\' days'
    )


def test_markdown_stays_and_entities_alone_are_not_html() -> None:
    markdown = "Intro with **bold** and [a link](https://x.example).\r\n\r\n- one\r\n- two &amp;"
    programme = parse(document(event(1, abstract=markdown, description=None)), source="t")
    assert programme.sessions[0].abstract == (
        "Intro with **bold** and [a link](https://x.example).\n\n- one\n- two &amp;"
    )


def test_html_to_text() -> None:
    assert _html_to_text(
        "<h2>Title</h2>\n<p>One &amp; <em>two</em>,\n  wrapped.</p><p>Three<br>four "
        '<a href="https://a.example/">https://a.example/</a> '
        '<a href="https://b.example/x">here</a></p>'
        "<ul>\n<li>first</li>\n<li>second</li>\n</ul><script>alert(1)</script><p>end</p>"
    ) == (
        "Title\n\nOne & two, wrapped.\n\nThree\nfour https://a.example/ "
        "here (https://b.example/x)\n\n- first\n- second\n\nend"
    )
    # Inline tags only: the text's own line breaks stay.
    assert _html_to_text('a\nb <a href="https://c.example">c.example</a>\n\nd') == (
        "a\nb https://c.example\n\nd"
    )


# --- reading: refusals -----------------------------------------------------------------------


def test_refuses_invalid_json_with_line_and_column() -> None:
    data = b'{\n  "schedule": {\n    "version": "1",,\n  }\n}'
    assert refusal(data) == (
        "tiny.json, line 3: not valid JSON: Expecting property name enclosed in double quotes "
        "(column 20)"
    )


def test_refuses_an_empty_file() -> None:
    assert refusal(b"") == "tiny.json, line 1: not valid JSON: Expecting value (column 1)"


def test_refuses_text_that_is_not_utf8() -> None:
    assert refusal(b'{"schedule":\n "caf\xe9"}') == (
        "tiny.json, line 2: not UTF-8 text (byte 18 cannot be decoded); a schedule.json must "
        "be UTF-8"
    )


def test_refuses_a_top_level_array() -> None:
    assert refusal(b"[1, 2, 3]") == (
        "tiny.json: not a schedule.json: the top level is an array (of 3 items), "
        'not an object with a "schedule" object'
    )


def test_refuses_sessionize_json_naming_its_keys() -> None:
    data = b'{"sessions": [], "speakers": [], "questions": [], "categories": [], "rooms": []}'
    assert refusal(data) == (
        'tiny.json: not a schedule.json: the top level has no "schedule" object; it holds the '
        'keys "sessions", "speakers", "questions", "categories", "rooms"'
    )
    assert refusal(b"{}") == (
        'tiny.json: not a schedule.json: the top level has no "schedule" object; '
        "it is an empty object"
    )


def test_refuses_a_schedule_that_is_not_an_object() -> None:
    assert refusal(b'{"schedule": "soon"}') == (
        'tiny.json: not a schedule.json: "schedule" is the string "soon", not an object with '
        'a "conference" object'
    )
    assert refusal(b'{"schedule": {"version": "1"}}') == (
        "tiny.json: schedule.conference is null; expected an object with the conference's "
        "title, time zone and days"
    )
    assert refusal(b'{"schedule": {"conference": {"days": {}}}}') == (
        "tiny.json: schedule.conference.days is an object; expected an array of days"
    )


def test_refuses_a_bad_date_with_its_path_and_value() -> None:
    data = document(event(1), event(2), event(3, date="2019-08-32T13:00:00+02:00"))
    assert refusal(data) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][2].date is '
        '"2019-08-32T13:00:00+02:00"; expected an ISO 8601 date and time such as '
        "2019-08-21T11:00:00+02:00"
    )


def test_refuses_a_bad_duration() -> None:
    data = document(event(1, duration="30 min"), room="Grüner Saal")
    assert refusal(data) == (
        'tiny.json: schedule.conference.days[0].rooms["Grüner Saal"][0].duration is '
        '"30 min"; expected H:MM, HH:MM or HH:MM:SS'
    )
    assert refusal(document(event(1, duration=30))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0].duration is 30; '
        "expected H:MM, HH:MM or HH:MM:SS"
    )


def test_refuses_a_missing_or_empty_title() -> None:
    assert refusal(document(event(1), event(2, title=...))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][1].title is missing; '
        "expected the event's title"
    )
    assert refusal(document(event(1, title="  "))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0].title is the string "  "; '
        "expected the event's title"
    )


def test_refuses_a_bad_start() -> None:
    assert refusal(document(event(1, start="25:00"))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0].start is "25:00"; '
        "expected a time of day as HH:MM"
    )


def test_refuses_an_event_without_any_time() -> None:
    assert refusal(document(event(1, date=..., start=...))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0] has no date and no start; '
        "expected date (an ISO 8601 date and time) or start (HH:MM)"
    )


def test_refuses_an_end_before_the_start() -> None:
    assert refusal(document(event(1, end="2019-08-21T10:00:00+02:00"))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0].end is '
        '"2019-08-21T10:00:00+02:00", before the event\'s start 2019-08-21T11:00:00+02:00; '
        "expected a later time"
    )


def test_refuses_naive_times_without_any_zone() -> None:
    data = document(event(1, date="2019-08-21T11:00:00"), time_zone_name=None)
    assert refusal(data) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0].date is '
        '"2019-08-21T11:00:00", a time without a UTC offset, and the file names no time zone '
        "(conference.time_zone_name); give one with --timezone, for example "
        "--timezone Europe/Berlin"
    )


def test_refuses_an_unknown_default_timezone() -> None:
    assert refusal(document(event(1)), default_timezone="Berlin") == (
        "tiny.json: --timezone: unknown time zone 'Berlin': give an IANA name such as Europe/Paris"
    )


def test_refuses_two_events_with_one_guid() -> None:
    data = document(event(1), event(2, guid="00000000-0000-4000-8000-000000000001"))
    assert refusal(data) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][1] has the key '
        "'00000000-0000-4000-8000-000000000001' of "
        'schedule.conference.days[0].rooms["Saal 1"][0]; expected each event to have its own '
        "guid"
    )


def test_a_date_without_time_takes_the_start() -> None:
    programme = parse(document(event(1, date="2019-08-21", start="11:00")), source="t")
    assert programme.sessions[0].starts_at == datetime(2019, 8, 21, 9, 0, tzinfo=UTC)
    assert refusal(document(event(1, date="2019-08-21", start=...))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0].date is "2019-08-21", a date '
        "without a time, and the event has no start; expected a date and time"
    )


def test_refuses_a_start_only_event_on_a_day_without_date() -> None:
    data = json.loads(document(event(1, date=...)))
    data["schedule"]["conference"]["days"][0]["date"] = "21.08.2019"
    assert refusal(json.dumps(data).encode()) == (
        'tiny.json: schedule.conference.days[0].date is "21.08.2019"; expected the day\'s date '
        'as YYYY-MM-DD, which schedule.conference.days[0].rooms["Saal 1"][0] needs as it has a '
        "start but no date"
    )


def test_refuses_days_and_rooms_of_the_wrong_shape() -> None:
    def with_days(days: object) -> bytes:
        return json.dumps({"schedule": {"conference": {"days": days}}}).encode()

    assert refusal(with_days([None])) == (
        "tiny.json: schedule.conference.days[0] is null; expected a day object"
    )
    assert refusal(with_days([{"rooms": []}])) == (
        "tiny.json: schedule.conference.days[0].rooms is an array (of 0 items); expected an "
        "object of room names to arrays of events"
    )
    assert refusal(with_days([{}, {"rooms": {"A": {"x": 1}}}])) == (
        'tiny.json: schedule.conference.days[1].rooms["A"] is an object; expected an array of '
        "events"
    )
    assert refusal(b"[" * 100_000) == (
        "tiny.json: not a schedule.json: its JSON is nested too deeply"
    )


def test_refuses_wrongly_typed_parts() -> None:
    assert refusal(document(event(1, persons={"name": "x"}))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0].persons is an object; '
        "expected an array"
    )
    assert refusal(document(event(1, track=["a"]))) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0].track is an array '
        "(of 1 items); expected a string"
    )
    assert refusal(document("not an event")) == (
        'tiny.json: schedule.conference.days[0].rooms["Saal 1"][0] is the string '
        '"not an event"; expected an event object'
    )


# --- reading: hostile input (issue 7) ----------------------------------------------------------

AUDIT = "audit/importer-crashes/c3voc-json"
TOO_LONG = (
    "not a schedule.json: a number in it is too long (Exceeds the limit (4300 digits) for "
    "integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to "
    "increase the limit)"
)
LONG_SHOWN = repr("A" * 64 + "…")


@pytest.mark.shared
@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "min_OverflowError_interchange_c3voc_json.py_L395.json",
            'schedule.conference.days[0].rooms["Curie"][1].duration is "2147483648:45", which '
            "from the start 2019-08-21T16:00:00+02:00 ends outside the years 1 to 9999",
        ),
        ("min_ValueError_interchange_c3voc_json.py_L201.json", TOO_LONG),
        ("repro_bigint.json", TOO_LONG),
        ("repro_deep.json", "not a schedule.json: its JSON is nested too deeply"),
        (
            "repro_overflow_year9999.json",
            'schedule.conference.days[0].rooms["R"][0].duration is "02:00", which from the '
            "start 9999-12-31T23:00:00+00:00 ends outside the years 1 to 9999",
        ),
    ],
)
def test_audit_inputs_that_are_refused(shared_dir: Path, name: str, message: str) -> None:
    data = (shared_dir / AUDIT / name).read_bytes()
    assert refusal(data, default_timezone="Europe/Paris") == f"tiny.json: {message}"


@pytest.mark.shared
@pytest.mark.parametrize(
    ("name", "shown", "count", "first_start"),
    [
        (
            "min_OSError_interchange_c3voc_json.py_L563.json",
            LONG_SHOWN,
            28,
            datetime(2026, 4, 7, 9, 0, tzinfo=UTC),
        ),
        ("repro_zone_directory.json", "'Europe'", 1, datetime(2020, 12, 14, 8, 0, tzinfo=UTC)),
        ("repro_zone_longname.json", LONG_SHOWN, 1, datetime(2020, 12, 14, 8, 0, tzinfo=UTC)),
    ],
)
def test_audit_inputs_with_zone_names_outside_the_tz_database_are_read(
    shared_dir: Path, name: str, shown: str, count: int, first_start: datetime
) -> None:
    data = (shared_dir / AUDIT / name).read_bytes()
    programme = parse(data, source=name, default_timezone="Europe/Paris")
    assert (programme.timezone, len(programme.sessions)) == ("", count)
    assert min(s.starts_at for s in programme.sessions) == first_start
    assert programme.warnings == [
        f"conference.time_zone_name {shown} is not an IANA time zone; ignored"
    ]


@pytest.mark.parametrize(
    ("zone", "shown"),
    [("Etc", "'Etc'"), ("a/" * 300 + "b", repr("a/" * 32 + "…")), ("/etc/passwd", "'/etc/passwd'")],
)
def test_zone_names_outside_the_tz_database(zone: str, shown: str) -> None:
    programme = parse(document(event(1), time_zone_name=zone), source="t")
    assert programme.warnings == [
        f"conference.time_zone_name {shown} is not an IANA time zone; ignored"
    ]
    assert refusal(document(event(1)), default_timezone=zone) == (
        f"tiny.json: --timezone: unknown time zone {shown}: give an IANA name such as Europe/Paris"
    )


FIRST = 'schedule.conference.days[0].rooms["Saal 1"][0]'


@pytest.mark.parametrize(
    ("zone", "changes", "day", "message"),
    [
        (
            "UTC",
            {"date": "0001-01-01T00:30:00+01:00"},
            {},
            f'{FIRST}.date is "0001-01-01T00:30:00+01:00", outside the years 1 to 9999 in UTC',
        ),
        (
            "Europe/Berlin",
            {"date": "9999-12-31T23:30:00+00:00", "start": "23:30"},
            {},
            f'{FIRST}.date is "9999-12-31T23:30:00+00:00", outside the years 1 to 9999 in '
            "Europe/Berlin",
        ),
        (
            "Europe/Berlin",
            {"date": "0001-01-01T00:05:00", "start": "00:05"},
            {},
            f'{FIRST}.date is "0001-01-01T00:05:00", outside the years 1 to 9999 in UTC',
        ),
        (
            "UTC",
            {"end": "9999-12-31T23:00:00-05:00"},
            {},
            f'{FIRST}.end is "9999-12-31T23:00:00-05:00", outside the years 1 to 9999 in UTC',
        ),
        (
            "UTC",
            {"date": ..., "start": "01:00"},
            {"date": "9999-12-31", "day_start": "9999-12-31T09:00:00+00:00"},
            f'{FIRST}.start is "01:00", after midnight of 9999-12-31: outside the years 1 to 9999',
        ),
        (
            "UTC",
            {"duration": "9" * 5000 + ":00"},
            {},
            f'{FIRST}.duration is "{"9" * 63}…, which from the start 2019-08-21T11:00:00+02:00 '
            "ends outside the years 1 to 9999",
        ),
    ],
)
def test_refuses_times_beyond_the_years_datetime_holds(
    zone: str, changes: dict, day: dict, message: str
) -> None:
    data = json.loads(document(event(1, **changes), time_zone_name=zone))
    data["schedule"]["conference"]["days"][0].update(day)
    assert refusal(json.dumps(data).encode()) == f"tiny.json: {message}"


def test_one_person_id_with_several_names_is_several_people() -> None:
    """A schedule merged from sub-schedules: id 42 is three people, code X1 two."""
    talks = [
        [{"id": 42, "public_name": "Ada Lovelace"}, {"code": "X1", "name": "Grace Hopper"}],
        [{"id": 42, "public_name": "Alan Turing"}, {"code": "X1", "name": "Barbara Liskov"}],
        [{"id": "42", "public_name": "ada lovelace"}, {"id": 42, "name": "Edsger Dijkstra"}],
    ]
    events = [event(n, persons=people) for n, people in enumerate(talks, start=1)]
    programme = parse(document(*events), source="t")
    assert [(s.key, s.name) for s in programme.speakers] == [
        ("42", "Ada Lovelace"),
        ("X1", "Grace Hopper"),
        ("42~alan-turing", "Alan Turing"),
        ("X1~barbara-liskov", "Barbara Liskov"),
        ("42~edsger-dijkstra", "Edsger Dijkstra"),
    ]
    assert [[link.speaker_key for link in s.speakers] for s in programme.sessions] == [
        ["42", "X1"],
        ["42~alan-turing", "X1~barbara-liskov"],
        ["42", "42~edsger-dijkstra"],
    ]
    assert programme.warnings == [
        "2 person ids name several people; keyed apart (e.g. person id 42 names 3 people: "
        "Ada Lovelace, Alan Turing, Edsger Dijkstra)"
    ]


def test_urls_that_cannot_be_parsed() -> None:
    persons = [{"name": "Ada", "avatar": "/m/ada.png"}, {"name": "Bob", "avatar": "http://[x"}]
    data = json.loads(document(event(1, persons=persons)))
    data["schedule"]["base_url"] = "http://["
    programme = parse(json.dumps(data).encode(), source="t")
    # a broken base_url is not used; a broken avatar is left out
    assert programme.speakers == [
        Speaker(key="ada", name="Ada", avatar_url="/m/ada.png"),
        Speaker(key="bob", name="Bob", avatar_url=""),
    ]
    data["schedule"]["base_url"] = "https://pretalx.example/tiny/"
    programme = parse(json.dumps(data).encode(), source="t")
    assert [s.avatar_url for s in programme.speakers] == ["https://pretalx.example/m/ada.png", ""]


def test_a_file_without_events_is_refused() -> None:
    assert refusal(document(days=[])) == (
        "tiny.json: no events: schedule.conference.days is empty; there is no programme to import"
    )
    data = json.loads(document())
    data["schedule"]["conference"]["days"].append({"date": "2019-08-22", "rooms": {"A": []}})
    assert refusal(json.dumps(data).encode()) == (
        "tiny.json: no events: the 2 days of schedule.conference.days list none under their "
        "rooms; there is no programme to import"
    )


def test_a_schedule2_document_is_refused_naming_its_reader() -> None:
    """schedule2: days without rooms, one flat events list (/work/shared/formats/schema2.json)."""
    conference = {
        "acronym": "tiny",
        "title": "Tiny Con",
        "start": "2019-08-21T09:00:00+02:00",
        "end": "2019-08-21T18:00:00+02:00",
        "days": [{"index": 1, "date": "2019-08-21", "start": "2019-08-21T09:00:00+02:00",
                  "end": "2019-08-21T18:00:00+02:00"}],
    }  # fmt: skip
    talk = {"guid": "00000000-0000-4000-8000-000000000001", "title": "Talk",
            "start": "2019-08-21T11:00:00+02:00", "end": "2019-08-21T11:30:00+02:00"}  # fmt: skip
    data = json.dumps({"schedule": {"version": "1", "conference": conference, "events": [talk]}})
    assert not looks_like(data)
    assert refusal(data.encode()) == (
        "tiny.json: no events under schedule.conference.days[].rooms; the events are in "
        "schedule.events, as in a c3voc schedule2 document: import it as c3voc-schedule2"
    )


# --- looks_like ------------------------------------------------------------------------------


@pytest.mark.shared
def test_looks_like_the_samples_and_nothing_else(shared_dir: Path) -> None:
    samples = shared_dir / "formats" / "samples"
    for path in sorted(samples.glob("*/*")):
        head = path.read_bytes()[:200_000].decode("utf-8", errors="replace").lstrip("\ufeff")
        assert looks_like(head) == (path.parent.name == "c3voc-json"), path.name


def test_looks_like_is_precise() -> None:
    assert looks_like(document(event(1)).decode())
    assert looks_like('\ufeff  {"$schema": "x", "schedule": {"version": "1", "conference": {')
    assert not looks_like(
        '{"sessions": [{"description": "our \\"schedule\\": {\\"conference\\": {"}]}'
    )
    assert not looks_like('[{"schedule": {"conference": {}}}]')
    assert not looks_like('<?xml version="1.0"?><schedule><conference>')
    assert not looks_like("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert not looks_like("title,start,end\nschedule,conference,x\n")
    assert not looks_like("\n".join(text.decode() for _, text in demo_files()))
    assert (FORMAT_NAME, "\n" in DESCRIPTION) == ("c3voc-json", False)


# --- writing ---------------------------------------------------------------------------------

ADA = "11111111-1111-4111-8111-111111111111"


def small_programme() -> Programme:
    return Programme(
        name="Small Conf",
        timezone="Europe/Paris",
        start_date=date(2026, 6, 1),
        end_date=date(2026, 6, 3),
        rooms=["Room 2", "Room 1"],
        speakers=[
            Speaker(
                key=ADA,
                name="Ada Lovelace",
                bio="Poet of numbers.",
                avatar_url="https://a.example/ada.png",
            ),
            Speaker(key="alan-turing", name="Alan Turing"),
            Speaker(key="4242", name="Grace Hopper"),
            Speaker(key="ABC123", name="Edsger Dijkstra"),
            Speaker(key="p7", name="Barbara Liskov"),
        ],
        sessions=[
            Session(
                key="talk-b",
                title="Second",
                kind="Talk",
                abstract="Para one.\n\nPara two.",
                starts_at=datetime(2026, 6, 2, 10, 0, tzinfo=CEST),
                ends_at=datetime(2026, 6, 2, 10, 30, tzinfo=CEST),
                room="Room 1",
                track="Compilers",
                language="en",
                level="Advanced",
                speakers=(SessionSpeaker(ADA, "Royal Society"), SessionSpeaker("alan-turing")),
            ),
            Session(
                key="22222222-2222-4222-8222-222222222222",
                title="Late night",
                starts_at=datetime(2026, 6, 1, 21, 30, tzinfo=UTC),  # 23:30 in Paris: June 1
                ends_at=datetime(2026, 6, 1, 23, 0, tzinfo=UTC),
                room="Room 2",
                speakers=(
                    SessionSpeaker("4242"),
                    SessionSpeaker("ABC123"),
                    SessionSpeaker("p7"),
                ),
            ),
            Session(
                key="after-midnight",
                title="Past midnight",
                starts_at=datetime(2026, 6, 1, 22, 30, tzinfo=UTC),  # 00:30 in Paris: June 2
            ),
            Session(
                key="cancelled",
                title="Gone",
                starts_at=datetime(2026, 6, 2, 9, 0, tzinfo=CEST),
                is_cancelled=True,
            ),
            Session(
                key="review",
                title="Unsure",
                starts_at=datetime(2026, 6, 2, 9, 0, tzinfo=CEST),
                needs_review=True,
            ),
            Session(key="unscheduled", title="Some day"),
        ],
    )


def written(programme: Programme, **kwargs: object) -> dict:
    kwargs.setdefault("slug", "small-conf")
    return json.loads(render(programme, **kwargs))


def events_of(document: dict) -> list[dict]:
    return [
        event
        for day in document["schedule"]["conference"]["days"]
        for events in day["rooms"].values()
        for event in events
    ]


@pytest.mark.shared
def test_small_programme_validates(shared_dir: Path) -> None:
    data = render(small_programme(), slug="small-conf", base_url="https://c.example/")
    assert schema_errors(shared_dir, data) == []
    assert schema_errors(shared_dir, render(small_programme(), slug="small-conf")) == []


@pytest.mark.shared
def test_the_validator_catches_what_it_should(shared_dir: Path) -> None:
    good = written(small_programme())
    bad = json.loads(json.dumps(good))
    first = bad["schedule"]["conference"]["days"][0]["rooms"]["Room 2"][0]
    first["date"] = "2026-06-01 23:30"
    first["url"] = "not a uri"
    first["guid"] = "talk-b"
    first["persons"][0]["public_name"] = "x"  # with its id: a FrabPerson and a PretalxPerson
    errors = schema_errors(shared_dir, json.dumps(bad).encode())
    assert len(errors) == 4, errors


def test_days_are_local_days_and_rooms_listed_every_day() -> None:
    conference = written(small_programme())["schedule"]["conference"]
    assert [(d["index"], d["date"], d["day_start"], d["day_end"]) for d in conference["days"]] == [
        (1, "2026-06-01", "2026-06-01T00:00:00+02:00", "2026-06-02T00:00:00+02:00"),
        (2, "2026-06-02", "2026-06-02T00:00:00+02:00", "2026-06-03T00:00:00+02:00"),
        (3, "2026-06-03", "2026-06-03T00:00:00+02:00", "2026-06-04T00:00:00+02:00"),
    ]
    titles = [
        {room: [e["title"] for e in events] for room, events in day["rooms"].items()}
        for day in conference["days"]
    ]
    assert titles == [
        {"Room 2": ["Late night"], "Room 1": []},
        {"Room 2": [], "Room 1": ["Second"], "": ["Past midnight"]},
        {"Room 2": [], "Room 1": []},
    ]
    assert (conference["start"], conference["end"], conference["daysCount"]) == (
        "2026-06-01",
        "2026-06-03",
        3,
    )
    assert conference["time_zone_name"] == "Europe/Paris"
    assert [room["name"] for room in conference["rooms"]] == ["Room 2", "Room 1"]
    assert conference["rooms"][0]["guid"] == str(
        uuid.uuid5(uuid.NAMESPACE_URL, "confsched:small-conf:room:Room 2")
    )
    assert conference["tracks"] == [{"name": "Compilers"}]
    assert conference["acronym"] == "small_conf"
    assert conference["timeslot_duration"] == "00:30"


def test_cancelled_review_and_unscheduled_sessions_are_left_out() -> None:
    titles = [event["title"] for event in events_of(written(small_programme()))]
    assert titles == ["Late night", "Second", "Past midnight"]


def test_event_fields() -> None:
    data = written(small_programme(), base_url="https://c.example")
    second = next(e for e in events_of(data) if e["title"] == "Second")
    guid = str(uuid.uuid5(uuid.NAMESPACE_URL, "confsched:small-conf:talk-b"))
    event_id = int.from_bytes(hashlib.sha256(b"talk-b").digest()[:4], "big") >> 1
    assert second == {
        "guid": guid,
        "id": event_id,
        "date": "2026-06-02T10:00:00+02:00",
        "start": "10:00",
        "duration": "00:30",
        "end": "2026-06-02T10:30:00+02:00",
        "room": "Room 1",
        "slug": f"small-conf-{event_id}-second",
        "url": "https://c.example/small-conf/sessions/talk-b/",
        "title": "Second",
        "subtitle": "",
        "track": "Compilers",
        "type": "Talk",
        "language": "en",
        "abstract": "Para one.\n\nPara two.",
        "description": "",
        "persons": [
            {
                "guid": ADA,
                "name": "Ada Lovelace",
                "public_name": "Ada Lovelace",
                "biography": "Poet of numbers.",
                "avatar": "https://a.example/ada.png",
            },
            # The key is the slug of the name: readers fall back to it, so no identity.
            {"name": "Alan Turing", "public_name": "Alan Turing", "biography": None},
        ],
        "links": [],
        "feedback_url": "https://c.example/small-conf/sessions/talk-b/feedback/",
    }
    assert data["schedule"]["base_url"] == "https://c.example/small-conf/"


def test_person_identities_and_uuid_keys() -> None:
    late = next(e for e in events_of(written(small_programme())) if e["title"] == "Late night")
    assert late["guid"] == "22222222-2222-4222-8222-222222222222"
    assert late["url"] == "urn:uuid:22222222-2222-4222-8222-222222222222"
    assert "feedback_url" not in late  # without a site, no form to point to
    assert (late["date"], late["duration"]) == ("2026-06-01T23:30:00+02:00", "01:30")
    assert (late["track"], late["language"], late["type"]) == (None, None, "")
    assert late["persons"] == [
        {"id": 4242, "name": "Grace Hopper", "biography": None},
        {
            "code": "ABC123",
            "name": "Edsger Dijkstra",
            "public_name": "Edsger Dijkstra",
            "biography": None,
        },
        {
            "guid": str(uuid.uuid5(uuid.NAMESPACE_URL, "confsched:small-conf:speaker:p7")),
            "name": "Barbara Liskov",
            "public_name": "Barbara Liskov",
            "biography": None,
        },
    ]


def test_output_is_deterministic_and_versioned_by_content() -> None:
    programme = small_programme()
    data = render(programme, slug="small-conf")
    assert render(programme, slug="small-conf", now=datetime(2030, 1, 1, tzinfo=UTC)) == data
    shuffled = dataclasses.replace(programme, sessions=programme.sessions[::-1])
    assert render(shuffled, slug="small-conf") == data
    text = data.decode()
    assert text.startswith('{\n  "$schema": "https://c3voc.de/schedule/schema.json",\n')
    version = json.loads(data)["schedule"]["version"]
    assert re.fullmatch(r"confsched-[0-9a-f]{16}", version)
    blank = text.replace(version, "", 1).encode()
    assert version == "confsched-" + hashlib.sha256(blank).hexdigest()[:16]
    renamed = dataclasses.replace(programme, name="Small Conf 2")
    assert json.loads(render(renamed, slug="small-conf"))["schedule"]["version"] != version


def test_non_ascii_is_written_as_is() -> None:
    programme = dataclasses.replace(small_programme(), name="Journées Café")
    assert "Journées Café".encode() in render(programme, slug="small-conf")


def test_without_a_zone_days_are_utc_days() -> None:
    programme = dataclasses.replace(small_programme(), timezone="", start_date=None, end_date=None)
    conference = written(programme)["schedule"]["conference"]
    assert "time_zone_name" not in conference
    assert [day["date"] for day in conference["days"]] == ["2026-06-01", "2026-06-02"]
    assert conference["days"][0]["day_start"] == "2026-06-01T00:00:00+00:00"
    late_day = conference["days"][0]["rooms"]
    assert [e["title"] for e in late_day["Room 2"]] == ["Late night"]
    assert [e["title"] for e in late_day[""]] == ["Past midnight"]  # 22:30 UTC stays on June 1


def test_zone_names_outside_the_schema_pattern_are_not_written() -> None:
    programme = dataclasses.replace(small_programme(), timezone="America/Argentina/Buenos_Aires")
    assert written(programme)["schedule"]["conference"]["time_zone_name"] == (
        "America/Argentina/Buenos_Aires"
    )
    programme = dataclasses.replace(small_programme(), timezone="Etc/GMT+1")
    assert "time_zone_name" not in written(programme)["schedule"]["conference"]


def test_acronyms_follow_the_schema_pattern() -> None:
    def acronym(slug: str) -> str:
        return written(small_programme(), slug=slug)["schedule"]["conference"]["acronym"]

    assert acronym("camp2019") == "camp2019"
    assert acronym("camp-2019-berlin") == "camp-2019-berlin"
    assert acronym("PyCon-DE") == "pycon_de"
    assert acronym("io") == "io__"


def test_render_refuses_an_empty_programme_and_an_unknown_zone() -> None:
    with pytest.raises(ValueError, match="no dates and no scheduled sessions"):
        render(Programme(name="Empty"), slug="empty")
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        render(dataclasses.replace(small_programme(), timezone="Mars/Olympus"), slug="x")


def test_small_programme_round_trip() -> None:
    programme = small_programme()
    again = parse(render(programme, slug="small-conf"), source="small.json")
    assert again.timezone == "Europe/Paris"
    assert again.rooms == ["Room 2", "Room 1"]
    assert (again.start_date, again.end_date) == (date(2026, 6, 1), date(2026, 6, 3))
    assert [s.key for s in again.sessions] == [
        "22222222-2222-4222-8222-222222222222",
        str(uuid.uuid5(uuid.NAMESPACE_URL, "confsched:small-conf:talk-b")),
        str(uuid.uuid5(uuid.NAMESPACE_URL, "confsched:small-conf:after-midnight")),
    ]
    second = again.sessions[1]
    original = programme.session("talk-b")
    assert second == dataclasses.replace(
        original,
        key=second.key,
        level="",  # not in the format
        speakers=(SessionSpeaker(ADA), SessionSpeaker("alan-turing")),  # nor affiliations
    )
    assert [s.key for s in again.speakers] == [
        "4242",
        "ABC123",
        str(uuid.uuid5(uuid.NAMESPACE_URL, "confsched:small-conf:speaker:p7")),
        ADA,
        "alan-turing",
    ]
    assert again.speaker(ADA) == programme.speaker(ADA)


# --- the demo programme and the samples, written and read back --------------------------------


@pytest.fixture(scope="module")
def demo() -> Programme:
    return dataclasses.replace(parse_sched_pages(demo_files()), timezone="Europe/Paris")


def test_demo_writes_its_28_scheduled_sessions(demo: Programme) -> None:
    data = json.loads(render(demo, slug=DEMO_SLUG, base_url=DEMO_SITE))
    events = events_of(data)
    assert len(events) == 28
    assert len({event["guid"] for event in events}) == 28
    assert [day["date"] for day in data["schedule"]["conference"]["days"]] == [
        "2026-04-07",
        "2026-04-08",
    ]
    torchjd = next(e for e in events if e["title"] == "TorchJD: Jacobian Descent in PyTorch")
    assert (torchjd["date"], torchjd["duration"], torchjd["room"]) == (
        "2026-04-07T11:45:00+02:00",
        "00:10",
        "Founders Cafe",
    )
    assert (
        torchjd["url"] == DEMO_BASE + "sessions/lightning-talk-torchjd-jacobian-descent-in-pytorch/"
    )
    assert [p["name"] for p in torchjd["persons"]] == ["Pierre Quinton", "Valérian Rey"]


@pytest.mark.shared
def test_demo_validates(shared_dir: Path, demo: Programme) -> None:
    assert schema_errors(shared_dir, render(demo, slug=DEMO_SLUG, base_url=DEMO_SITE)) == []
    assert schema_errors(shared_dir, render(demo, slug=DEMO_SLUG)) == []


def test_demo_round_trip(demo: Programme) -> None:
    again = parse(render(demo, slug=DEMO_SLUG, base_url=DEMO_SITE), source="demo.json")
    scheduled = [s for s in demo.sessions if s.starts_at and not s.needs_review]
    expected = {
        str(uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{DEMO_SLUG}:{s.key}")): dataclasses.replace(
            s,
            key=str(uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{DEMO_SLUG}:{s.key}")),
            level="",
            has_slides=False,
            speakers=tuple(SessionSpeaker(link.speaker_key) for link in s.speakers),
        )
        for s in scheduled
    }
    assert {s.key: s for s in again.sessions} == expected
    # Sched's speaker keys are the slugs of their names, which readers fall back to.
    assert {s.key: (s.name, s.bio) for s in again.speakers} == {
        s.key: (s.name, s.bio) for s in demo.speakers
    }


@pytest.mark.shared
@pytest.mark.parametrize("name", ["pretalx-democon.json", "frab-camp2019.json"])
def test_samples_rendered_validate_and_round_trip(shared_dir: Path, name: str) -> None:
    programme = parse(sample(shared_dir, name), source=name)
    data = render(programme, slug=name.split(".")[0], base_url="https://c.example/x/")
    assert schema_errors(shared_dir, data) == []
    again = parse(data, source="rendered.json")
    assert again.sessions == programme.sessions
    assert again.speakers == programme.speakers
    assert again.rooms == programme.rooms
    assert (again.name, again.timezone) == (programme.name, programme.timezone)
    assert (again.start_date, again.end_date) == (programme.start_date, programme.end_date)
    # The guids are the sample's own UUIDs, unchanged.
    original = {e["guid"] for e in events_of(json.loads(sample(shared_dir, name)))}
    assert {e["guid"] for e in events_of(json.loads(data))} == original
    assert render(again, slug=name.split(".")[0], base_url="https://c.example/x/") == data


@pytest.mark.shared
def test_pretalx_sample_validates_as_the_readme_says(shared_dir: Path) -> None:
    # The validator in this file accepts a real, valid export: it is not stricter than the schema.
    assert schema_errors(shared_dir, sample(shared_dir, "pretalx-democon.json")) == []
