"""The iCalendar reader: two real exports, confsched's own feed read back, every refusal."""

from __future__ import annotations

import dataclasses
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from confsched.core.errors import ParseError
from confsched.interchange.ical import descriptions as ical_descriptions
from confsched.interchange.ical import lines as ical_lines
from confsched.interchange.ical.descriptions import split_description
from confsched.interchange.ical.read import (
    DESCRIPTION,
    FORMAT_NAME,
    looks_like,
    parse,
)
from confsched.interchange.ical.write import render_ical
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.sched.read import parse_sched_pages
from tests.conftest import demo_files

SCHED = "sched-jococruise_FullSchedule2019.ics"
LCA = "giggity_linux_conf_au_2020.ics"
BRISBANE = ZoneInfo("Australia/Brisbane")


def read_sample(shared_dir: Path, name: str) -> Programme:
    return parse((shared_dir / "formats" / "samples" / "ics" / name).read_bytes(), source=name)


def ics(body: str, *, head: str = "") -> bytes:
    """A calendar around `body` (VEVENTs), CRLF as RFC 5545 asks; `head` adds calendar lines.

    Line 1 is BEGIN:VCALENDAR, 2 VERSION, 3 PRODID, then `head`, then `body`.
    """
    text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//test//EN\n" + head + body
    return (text + "END:VCALENDAR\n").replace("\n", "\r\n").encode()


def event(*lines: str) -> str:
    return "BEGIN:VEVENT\n" + "".join(f"{line}\n" for line in lines) + "END:VEVENT\n"


def refusal(data: bytes, **kwargs: str) -> str:
    with pytest.raises(ParseError) as caught:
        parse(data, source="x.ics", **kwargs)
    return str(caught.value)


def speaker_names(programme: Programme, session: Session) -> list[tuple[str, str]]:
    return [
        (programme.speaker(link.speaker_key).name, link.affiliation) for link in session.speakers
    ]


def test_module_constants() -> None:
    assert FORMAT_NAME == "ical"
    assert (
        DESCRIPTION
        == "iCalendar (.ics): Sched's all.ics export, other tools' feeds, confsched's own"
    )


# Sched's all.ics (JoCo Cruise)


@pytest.mark.shared
def test_sched_export_calendar(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, SCHED)
    assert len(programme.sessions) == 395
    assert len({session.key for session in programme.sessions}) == 395
    # Named 2019, held in January 2020: the name is kept as written, the dates come from events.
    assert programme.name == "jococruise2019"
    assert programme.timezone == "UTC"
    assert (programme.start_date, programme.end_date) == (date(2020, 1, 9), date(2020, 1, 16))
    assert programme.location == ""
    # Sched's export names nobody: no speakers line, no ATTENDEE, no ORGANIZER.
    assert programme.speakers == []
    assert all(session.speakers == () for session in programme.sessions)
    assert all(session.kind == "" for session in programme.sessions)
    assert not any(session.needs_review or session.is_cancelled for session in programme.sessions)
    assert programme.warnings == []
    assert programme.notes == [f"{SCHED}: time zone UTC from X-WR-TIMEZONE"]
    # Empty CATEGORIES on 104 events: no track, never a track named "".
    tracks = Counter(session.track for session in programme.sessions)
    assert tracks[""] == 104
    assert tracks["SHADOW CRUISE"] == 153
    assert tracks["GAMING"] == 46
    assert len(tracks) == 11
    assert sum(1 for session in programme.sessions if not session.room) == 1


@pytest.mark.shared
def test_sched_export_theme_day_event(shared_dir: Path) -> None:
    session = read_sample(shared_dir, SCHED).session("aee4abeeae49e68a25b7d746f7aa7a89")
    assert session.title == "Theme: Welcome, New Monkeys!"  # "Theme" is no kind: kept whole
    assert session.kind == ""
    assert session.track == ""
    assert session.room == "Whole Ship"  # Sched wrote "Whole Ship\," (a venue without address)
    assert session.starts_at == datetime(2020, 1, 9, 12, 0, tzinfo=UTC)
    assert session.starts_at.utcoffset() == timedelta(0)
    assert session.ends_at == datetime(2020, 1, 10, 5, 0, tzinfo=UTC)
    assert session.ends_at - session.starts_at == timedelta(hours=17)
    assert session.abstract.startswith("We'll be holding events specifically designed to make")
    assert session.abstract.endswith("what a great decision they've made by joining us!")
    assert session.speakers == ()


@pytest.mark.shared
def test_sched_export_zero_length_event(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, SCHED)
    zero = [session.key for session in programme.sessions if session.starts_at == session.ends_at]
    assert zero == ["8b67a8298d2a24ce71d51acf1ab53e1e"]
    session = programme.session("8b67a8298d2a24ce71d51acf1ab53e1e")
    assert session.title == "Boarding Begins (Approximately)"
    assert session.room == ""  # LOCATION: with nothing after it
    assert session.track == ""
    assert session.starts_at == session.ends_at == datetime(2020, 1, 9, 16, 0, tzinfo=UTC)
    assert session.abstract.startswith("Public boarding of the Oosterdam will begin at")
    assert session.abstract.endswith("officially clear the ship for boarding.")


@pytest.mark.shared
def test_sched_export_eighteen_hour_event(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, SCHED)
    longest = max(programme.sessions, key=lambda session: session.ends_at - session.starts_at)
    assert longest.key == "bbcf0f4341946094c8c52098620383e2"
    assert longest.title == "Port of Call - San Juan"
    assert longest.room == "San Juan, Puerto Rico"
    assert longest.starts_at == datetime(2020, 1, 13, 11, 0, tzinfo=UTC)
    assert longest.ends_at == datetime(2020, 1, 14, 5, 0, tzinfo=UTC)
    assert longest.ends_at - longest.starts_at == timedelta(hours=18)
    assert longest.abstract == ""  # DESCRIPTION: empty


@pytest.mark.shared
def test_sched_export_event_with_track_and_entities(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, SCHED)
    session = programme.session("1127d54372322e6c031eb3516b6c14e7")
    assert (session.title, session.kind, session.track) == (
        "Cardboard Concierge Hours",
        "",
        "GAMING",
    )
    assert session.room == "Upper Main Dining Room, Deck 3, Aft"
    assert session.starts_at == datetime(2020, 1, 9, 19, 0, tzinfo=UTC)
    assert session.ends_at == datetime(2020, 1, 9, 20, 30, tzinfo=UTC)
    assert session.abstract.startswith("The Game library is open 24 hours and is self-service.")
    assert session.abstract.endswith("assistance and advice on all things tabletop.")
    # Sched escapes summaries as HTML: "Q&amp;A" is "Q&A".
    tarot = programme.session("3a6b41c8f9587ef79c6f6a6e0e924d70")
    assert tarot.title == "Tarot Readings and Q&A"
    assert tarot.track == "SHADOW CRUISE"
    assert programme.session("f733928bf372244b2916c19832f667b7").track == "Q&A / PANEL"


# linux.conf.au 2020 (Symposion, via Giggity's test data)


@pytest.mark.shared
def test_lca_calendar(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, LCA)
    assert len(programme.sessions) == 262
    assert len({session.key for session in programme.sessions}) == 262
    assert programme.name == ""  # only X-WR-CALDESC, which is a description
    assert programme.timezone == "Australia/Brisbane"
    assert (programme.start_date, programme.end_date) == (date(2020, 1, 12), date(2020, 1, 17))
    assert len(programme.speakers) == 151
    assert Counter(len(session.speakers) for session in programme.sessions) == {1: 190, 0: 72}
    assert Counter(session.kind for session in programme.sessions) == {"": 258, "Keynote": 4}
    assert sum(1 for session in programme.sessions if not session.room) == 17  # no LOCATION
    assert programme.warnings == []
    # No abstract keeps a tag: the HTML ones became text.
    assert [session.key for session in programme.sessions if "<p>" in session.abstract] == []


@pytest.mark.shared
def test_lca_tzid_without_vtimezone_is_read_as_iana_zone(shared_dir: Path) -> None:
    data = (shared_dir / "formats" / "samples" / "ics" / LCA).read_bytes()
    assert b"BEGIN:VTIMEZONE" not in data
    assert b"DTSTART;TZID=Australia/Brisbane;VALUE=DATE-TIME:20200116T091000" in data
    programme = parse(data, source=LCA)
    for session in programme.sessions:
        assert session.starts_at.tzinfo == BRISBANE
        assert session.starts_at.utcoffset() == timedelta(hours=10)


@pytest.mark.shared
def test_lca_keynote(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, LCA)
    session = programme.session("85@lca2020.linux.org.au")
    assert session.title == "Who cares about Democracy?"
    assert session.kind == "Keynote"
    assert session.track == ""
    assert session.room == "Arena"
    assert session.starts_at == datetime(2020, 1, 15, 23, 10, tzinfo=UTC)  # 09:10 in Brisbane
    assert session.ends_at == datetime(2020, 1, 16, 0, 10, tzinfo=UTC)
    assert session.abstract.startswith("I'll begin with analysis of the Swiss e-voting system")
    assert session.abstract.endswith("between elections - suggestions welcome.")
    assert "\n\nAustralia, once a leader" in session.abstract
    assert speaker_names(programme, session) == [("A/Prof Vanessa Teague", "")]
    assert session.speakers == (SessionSpeaker("a-prof-vanessa-teague"),)
    assert programme.speaker("a-prof-vanessa-teague") == Speaker(
        key="a-prof-vanessa-teague", name="A/Prof Vanessa Teague"
    )


@pytest.mark.shared
def test_lca_html_description_becomes_text(shared_dir: Path) -> None:
    session = read_sample(shared_dir, LCA).session("201@lca2020.linux.org.au")
    assert session.title == "Main Conference: plenary"
    assert session.kind == ""
    assert session.room == "Room 5"
    assert session.starts_at == datetime(2020, 1, 13, 21, 0, tzinfo=UTC)
    assert session.ends_at == datetime(2020, 1, 13, 23, 0, tzinfo=UTC)
    # The relative link is made absolute against the event's URL (http://lca2020.linux.org.au).
    assert session.abstract == (
        "Women of Open Technology Breakfast "
        "(http://lca2020.linux.org.au/programme/events/#woot-breakfast), Presented by ThoughtWorks"
        "\n\nOnly for attendees with a ticket."
        "\n\nGold Coast Convention and Exhibition Centre, Room 5"
    )
    assert session.speakers == ()


@pytest.mark.shared
def test_lca_plain_text_with_an_inline_tag_keeps_its_paragraphs(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, LCA)
    session = programme.session("158@lca2020.linux.org.au")  # "… a container <strike>of …"
    assert speaker_names(programme, session) == [("James", "")]
    assert session.abstract.startswith("Sometimes evil conglomerates, large companies")
    assert "their laptop.\n\nSure, not trusting someone else's computer" in session.abstract
    assert session.abstract.endswith(
        "trapped in a container of emotions, these are the things that make you have a hard "
        "time when they’re done right."
    )


@pytest.mark.shared
def test_lca_events_without_location(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, LCA)
    session = programme.session("235@lca2020.linux.org.au")
    assert (session.title, session.room, session.abstract) == (
        "Main Conference: plenary",
        "",
        "Registration Open",
    )
    assert session.starts_at == datetime(2020, 1, 13, 8, 0, tzinfo=BRISBANE)
    lunch = programme.session("129@lca2020.linux.org.au")
    assert lunch.room == ""
    assert lunch.abstract == (
        "Lunch (uncatered)\n\nLinux Australia Annual General Meeting Part 2 - 12:40 Room 6"
    )
    # "<p>Early Registration<p>": an unclosed paragraph is still a paragraph.
    assert programme.session("234@lca2020.linux.org.au").abstract == (
        "Early Registration\n\nPlease go to the Rego Desk on Ground Floor."
    )


@pytest.mark.shared
def test_lca_speaker_line_is_singular_and_single_newline(shared_dir: Path) -> None:
    programme = read_sample(shared_dir, LCA)
    session = programme.session("94@lca2020.linux.org.au")  # "Speaker: Joel Addison\nOpening…"
    assert session.title == "Wednesday Welcome"
    assert speaker_names(programme, session) == [("Joel Addison", "")]
    assert session.abstract == "Opening Remarks and Housekeeping"
    assert session.ends_at - session.starts_at == timedelta(minutes=10)


# Round trip through confsched's own feed


@pytest.fixture(scope="module")
def demo() -> Programme:
    return dataclasses.replace(
        parse_sched_pages(demo_files()), timezone="Europe/Paris", location="Paris, France"
    )


def signature(programme: Programme) -> dict[str, tuple]:
    return {
        session.key: (
            session.title,
            session.kind,
            session.starts_at,
            session.ends_at,
            session.room,
            session.track,
            session.abstract,
            session.is_cancelled,
            tuple(speaker_names(programme, session)),
            tuple(link.speaker_key for link in session.speakers),
        )
        for session in programme.sessions
        if session.starts_at is not None
    }


def test_round_trip_through_render_ical(demo: Programme) -> None:
    data = render_ical(demo, uid_domain="x.confsched", calendar_name="PyTorch Conference EU")
    back = parse(data, source="demo.ics", uid_domain="x.confsched", location="Paris, France")
    assert len(back.sessions) == 28
    assert signature(back) == signature(demo)
    torchjd = back.session("lightning-talk-torchjd-jacobian-descent-in-pytorch")
    assert torchjd.kind == "Lightning Talk"
    assert torchjd.title == "TorchJD: Jacobian Descent in PyTorch"
    assert torchjd.room == "Founders Cafe"
    assert torchjd.track == "Training Systems"
    assert torchjd.starts_at == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
    assert torchjd.starts_at.tzinfo.key == "Europe/Paris"  # type: ignore[union-attr]  # ZoneInfo
    assert speaker_names(back, torchjd) == [
        ("Pierre Quinton", "EPFL"),
        ("Valérian Rey", "Simplex Lab"),
    ]
    assert back.name == "PyTorch Conference EU"
    assert back.timezone == "Europe/Paris"
    assert back.location == "Paris, France"
    assert (back.start_date, back.end_date) == (date(2026, 4, 7), date(2026, 4, 7))
    assert back.warnings == []


def test_round_trip_without_uid_domain_keeps_the_domain() -> None:
    programme = Programme(
        sessions=[Session(key="k", title="T", starts_at=datetime(2026, 1, 1, 9, tzinfo=UTC))]
    )
    data = render_ical(programme, uid_domain="x.confsched", calendar_name="C")
    assert parse(data, source="c.ics").sessions[0].key == "k@x.confsched"
    assert (
        parse(data, source="c.ics", uid_domain="other.example").sessions[0].key == "k@x.confsched"
    )
    assert parse(data, source="c.ics", uid_domain="x.confsched").sessions[0].key == "k"


def test_round_trip_affiliation_with_commas_and_parentheses() -> None:
    programme = Programme(
        speakers=[Speaker("ada", "Ada Lovelace"), Speaker("alan", "Alan Turing", company="NPL")],
        sessions=[
            Session(
                key="s",
                title="Workshop: Engines",
                starts_at=datetime(2026, 6, 2, 8, 0, tzinfo=UTC),
                ends_at=datetime(2026, 6, 2, 9, 0, tzinfo=UTC),
                abstract="First line.\n\nSecond; with, punctuation \\ and a backslash.",
                speakers=(
                    SessionSpeaker("ada", "Royal Society (London), UK"),
                    SessionSpeaker("alan"),
                ),
            )
        ],
    )
    back = parse(
        render_ical(programme, uid_domain="d", calendar_name="C"), source="c.ics", uid_domain="d"
    )
    session = back.session("s")
    # "Workshop: Engines" is a title; a kind is only split off when it is one of KINDS.
    assert (session.kind, session.title) == ("Workshop", "Engines")
    assert session.abstract == "First line.\n\nSecond; with, punctuation \\ and a backslash."
    # render_ical bills a speaker without an affiliation under their company.
    assert speaker_names(back, session) == [
        ("Ada Lovelace", "Royal Society (London), UK"),
        ("Alan Turing", "NPL"),
    ]
    assert session.speakers == (
        SessionSpeaker("ada-lovelace", "Royal Society (London), UK"),
        SessionSpeaker("alan-turing", "NPL"),
    )
    assert back.speaker("alan-turing") == Speaker("alan-turing", "Alan Turing", company="NPL")


# Recognising the format


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("BEGIN:VCALENDAR\r\nVERSION:2.0", True),
        ("\ufeff \r\n\tbegin:vcalendar\nVERSION:2.0", True),
        ("BEGIN:VCARD\r\nVERSION:4.0", False),
        ('<?xml version="1.0"?><icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0">', False),
        ('<?xml version="1.0"?><schedule><version>1</version></schedule>', False),
        ('{"schedule": {"version": "1"}}', False),
        ("title,start,end\nKeynote,09:00,10:00", False),
        ("Tuesday April 7, 2026 11:00 - 11:10 CEST\nBEGIN:VCALENDAR", False),
        ("", False),
    ],
)
def test_looks_like(head: str, expected: bool) -> None:
    assert looks_like(head) is expected


# Times and zones


def test_tzid_without_vtimezone_is_an_iana_name() -> None:
    data = ics(
        event("UID:a", "SUMMARY:A", "DTSTART;TZID=America/New_York:20260310T090000")
        + event("UID:b", "SUMMARY:B", "DTSTART;TZID=America/New_York:20260311T090000")
        + event("UID:c", "SUMMARY:C", "DTSTART;TZID=Europe/Paris:20260312T090000")
    )
    programme = parse(data, source="x.ics")
    first = programme.session("a")
    assert first.starts_at == datetime(2026, 3, 10, 13, 0, tzinfo=UTC)  # EDT from 8 March
    assert first.starts_at.tzinfo == ZoneInfo("America/New_York")
    assert first.ends_at == first.starts_at  # no DTEND, no DURATION: zero length
    # No X-WR-TIMEZONE: the most common TZID of the events.
    assert programme.timezone == "America/New_York"
    assert programme.notes == [
        "x.ics: time zone America/New_York, the most common TZID of the events"
    ]


def test_invalid_x_wr_timezone_falls_back_to_the_events_tzid() -> None:
    data = ics(
        event("UID:a", "SUMMARY:A", "DTSTART;TZID=Europe/Paris:20260310T090000"),
        head="X-WR-TIMEZONE:Central European Time\n",
    )
    assert parse(data, source="x.ics").timezone == "Europe/Paris"


def test_vtimezone_with_a_custom_tzid() -> None:
    data = ics(
        "BEGIN:VTIMEZONE\nTZID:Conference Time\nBEGIN:STANDARD\nDTSTART:19700101T000000\n"
        "TZOFFSETFROM:+0300\nTZOFFSETTO:+0300\nTZNAME:CT\nEND:STANDARD\nEND:VTIMEZONE\n"
        + event(
            "UID:a", "SUMMARY:A", "DTSTART;TZID=Conference Time:20260310T090000", "DURATION:PT45M"
        )
    )
    programme = parse(data, source="x.ics")
    session = programme.session("a")
    assert session.starts_at == datetime(2026, 3, 10, 6, 0, tzinfo=UTC)
    assert session.starts_at.utcoffset() == timedelta(hours=3)
    assert session.ends_at == datetime(2026, 3, 10, 6, 45, tzinfo=UTC)
    assert programme.timezone == ""  # not an IANA name


def test_floating_times_use_default_timezone() -> None:
    data = ics(event("UID:a", "SUMMARY:A", "DTSTART:20260407T094500", "DTEND:20260407T103000"))
    programme = parse(data, source="x.ics", default_timezone="Europe/Paris")
    session = programme.session("a")
    assert session.starts_at == datetime(2026, 4, 7, 7, 45, tzinfo=UTC)
    assert session.starts_at.tzinfo == ZoneInfo("Europe/Paris")
    assert session.ends_at == datetime(2026, 4, 7, 8, 30, tzinfo=UTC)
    assert programme.timezone == ""  # the caller's default is not the calendar's declaration
    assert programme.notes == ["x.ics: floating times read in Europe/Paris"]


def test_floating_times_prefer_the_calendars_x_wr_timezone() -> None:
    data = ics(
        event("UID:a", "SUMMARY:A", "DTSTART:20260407T094500"),
        head="X-WR-TIMEZONE:Asia/Tokyo\n",
    )
    programme = parse(data, source="x.ics", default_timezone="Europe/Paris")
    assert programme.session("a").starts_at == datetime(2026, 4, 7, 0, 45, tzinfo=UTC)
    assert programme.timezone == "Asia/Tokyo"


def test_utc_times_stay_utc_whatever_the_default() -> None:
    data = ics(event("UID:a", "SUMMARY:A", "DTSTART:20260407T094500Z", "DURATION:PT1H30M"))
    session = parse(data, source="x.ics", default_timezone="Asia/Tokyo").session("a")
    assert session.starts_at == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
    assert session.starts_at.utcoffset() == timedelta(0)
    assert session.ends_at == datetime(2026, 4, 7, 11, 15, tzinfo=UTC)


def test_all_day_events_are_kept_unscheduled_for_review() -> None:
    data = ics(
        event(
            "UID:day", "SUMMARY:Sprints", "DTSTART;VALUE=DATE:20260409", "DTEND;VALUE=DATE:20260411"
        )
        + event("UID:one", "SUMMARY:Party", "DTSTART;VALUE=DATE:20260408")
    )
    programme = parse(data, source="x.ics")
    sprints = programme.session("day")
    assert (sprints.starts_at, sprints.ends_at, sprints.needs_review) == (None, None, True)
    assert sprints.review_note == (
        "x.ics, line 4: an all-day event (2026-04-09 to 2026-04-10) with no time of day; "
        "kept unscheduled: give it a time, or leave it off the grid"
    )
    assert programme.session("one").review_note == (
        "x.ics, line 10: an all-day event (2026-04-08) with no time of day; "
        "kept unscheduled: give it a time, or leave it off the grid"
    )
    assert (programme.start_date, programme.end_date) == (None, None)


# Other mappings


def test_event_fields_and_status() -> None:
    data = ics(
        event(
            "UID:talk-1@conf.example",
            "SUMMARY:lightning talk: Small Things",
            "DTSTART:20260407T094500Z",
            "DTEND:20260407T095500Z",
            "LOCATION:Room A, Lyon, France",
            "CATEGORIES:,Compilers,Other",
            "STATUS:CANCELLED",
            "DESCRIPTION:Speakers: Ada Lovelace (Analytical Engines), Alan Turing\\n\\nAbstract\\, here.",
        )
        + event(
            "UID:talk-2@conf.example",
            "SUMMARY:Theme: Not A Kind",
            "DTSTART:20260407T100000Z",
            "LOCATION:Lyon, France",
            "CATEGORIES:",
            "CATEGORIES:Second Line",
        ),
        head="X-WR-CALNAME:Small Conf\n",
    )
    programme = parse(data, source="x.ics", uid_domain="conf.example", location="Lyon, France")
    first = programme.session("talk-1")
    assert (first.kind, first.title) == ("Lightning Talk", "Small Things")
    assert first.room == "Room A"
    assert first.track == "Compilers"
    assert first.is_cancelled is True
    assert first.abstract == "Abstract, here."
    assert first.speakers == (
        SessionSpeaker("ada-lovelace", "Analytical Engines"),
        SessionSpeaker("alan-turing"),
    )
    second = programme.session("talk-2")
    assert (second.kind, second.title) == ("", "Theme: Not A Kind")
    assert second.room == ""  # only the event's location
    assert second.track == "Second Line"
    assert second.is_cancelled is False
    assert programme.name == "Small Conf"
    assert [speaker.key for speaker in programme.speakers] == ["ada-lovelace", "alan-turing"]


def test_event_without_uid_gets_a_key_from_summary_and_start_in_the_files_zone() -> None:
    # The start in the zone of the calendar (here its one TZID), however it is written
    # (identity.derived_key).
    data = ics(
        event("SUMMARY:Coffee & Cake", "DTSTART;TZID=Europe/Paris:20260407T103000")
        + event("SUMMARY:Coffee & Cake", "DTSTART;VALUE=DATE:20260408")
        + event("DTSTART:20260407T120000Z")
    )
    programme = parse(data, source="x.ics")
    assert [session.key for session in programme.sessions] == [
        "coffee-cake-2026-04-07-1030",
        "coffee-cake-2026-04-08",
        "untitled-event-2026-04-07-1400",
    ]
    assert programme.sessions[2].title == "Untitled event"
    assert programme.warnings == [
        "x.ics, line 12: an event with no UID and no SUMMARY: no title, shown as 'Untitled event'"
    ]


def test_repeated_uid_and_recurrence_are_flagged() -> None:
    data = ics(
        event(
            "UID:a", "SUMMARY:Daily standup", "DTSTART:20260407T080000Z", "RRULE:FREQ=DAILY;COUNT=3"
        )
        + event("UID:a", "SUMMARY:Standup moved", "DTSTART:20260408T090000Z")
    )
    programme = parse(data, source="x.ics")
    assert [session.key for session in programme.sessions] == ["a", "a-2"]
    assert programme.session("a-2").title == "Standup moved"
    assert programme.warnings == [
        "x.ics, line 4: event 'a' ('Daily standup') repeats (RRULE/RDATE); only its first "
        "occurrence is read",
        "x.ics, line 10: event 'a' ('Standup moved') repeats the identity of another event; "
        "kept as a-2",
    ]


def test_unreadable_properties_that_do_not_matter_are_warnings() -> None:
    data = ics(
        event(
            "UID:a",
            "SUMMARY:A",
            "DTSTART:20260407T094500Z",
            "LAST-MODIFIED:yesterday",
            "SEQUENCE:two",
        )
    )
    programme = parse(data, source="x.ics")
    assert programme.session("a").starts_at == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
    assert programme.warnings == [
        "x.ics, line 8: event 'a' ('A'): 'LAST-MODIFIED:yesterday' ignored: Expected datetime, "
        "date, or time. Got: 'yesterday'",
        "x.ics, line 9: event 'a' ('A'): 'SEQUENCE:two' ignored: Expected int, got: two",
    ]


def test_empty_calendar_is_an_empty_programme() -> None:
    programme = parse(ics(""), source="x.ics")
    assert programme.sessions == []
    assert programme.warnings == ["x.ics: the calendar has no events"]


@pytest.mark.parametrize("newline", ["\r\n", "\n", "\r"])
def test_line_endings_and_folding(newline: str) -> None:
    text = (
        "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:a\nSUMMARY:A long title that goes o\n"
        " n and on\nDESCRIPTION:Folded with a\n\ttab and a space:\n  two.\nDTSTART:20260407T0\n"
        " 94500Z\nEND:VEVENT\nEND:VCALENDAR"
    )
    session = parse(text.replace("\n", newline).encode(), source="x.ics").session("a")
    assert session.title == "A long title that goes on and on"
    assert session.abstract == "Folded with atab and a space: two."
    assert session.starts_at == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)


def test_blank_lines_and_spaces_before_the_calendar() -> None:
    data = b"\r\n \r\n  " + ics(event("UID:a", "SUMMARY:A", "DTSTART:20260407T094500Z"))
    assert parse(data, source="x.ics").session("a").title == "A"
    assert refusal(data.replace(b"SUMMARY:A", b"SUMMARY A")) == (
        "x.ics, line 8: 'SUMMARY A' is not an iCalendar content line (NAME:value or "
        "NAME;PARAM=value:value); a line continuing the one before must start with a space "
        "(folding, RFC 5545 3.1)"
    )


def test_str_input_and_byte_order_mark() -> None:
    data = "\ufeff" + ics(event("UID:a", "SUMMARY:Ünïcode", "DTSTART:20260407T094500Z")).decode()
    assert parse(data, source="x.ics").session("a").title == "Ünïcode"
    assert parse(data.encode(), source="x.ics").session("a").title == "Ünïcode"


# Descriptions


def test_speakers_line_rules() -> None:
    assert split_description("Speakers: Ada (Royal Society (UK), London), Alan\n\nAbstract") == (
        [("Ada", "Royal Society (UK), London"), ("Alan", "")],
        "Abstract",
    )
    assert split_description("Speaker: Grace Hopper\nNanoseconds.") == (
        [("Grace Hopper", "")],
        "Nanoseconds.",
    )
    assert split_description("Speakers: Ada") == ([("Ada", "")], "")
    # Only a first line counts; "Speakers" further down is part of the abstract.
    assert split_description("Intro.\nSpeakers: Ada") == ([], "Intro.\nSpeakers: Ada")
    assert split_description("  \r\nPlain text,\r\nkept <as-is> & unescaped &amp; \r\n") == (
        [],
        "Plain text,\nkept <as-is> & unescaped &amp;",
    )


def test_html_to_text() -> None:
    markup = (
        "<h2>Title</h2><p>Intro &amp; more,\n   spread over lines</p>\n<ul><li>one</li>"
        '<li>two <a href="/x">link</a></li></ul><p>After<br>break '
        '<a href="https://e.org/">https://e.org/</a> <a href="#top">top</a></p>'
        "<script>alert(1)</script><pre>keep\n  this</pre>"
    )
    assert ical_descriptions._html_to_text(markup, base_url="https://base.example/event/1") == (
        "Title\n\nIntro & more, spread over lines\n\n- one\n- two link (https://base.example/x)"
        "\n\nAfter\nbreak https://e.org/ top\n\nkeep\nthis"
    )
    # Without an absolute base, the link is kept as written.
    assert ical_descriptions._html_to_text('<a href="/x">link</a>') == "link (/x)"
    # HTML with a speakers paragraph: converted first, then the speakers line is read.
    assert split_description("<p>Speakers: Ada (X)</p><p>Body</p>") == ([("Ada", "X")], "Body")
    # A plain speakers line, then an HTML abstract: the line is read before HTML collapses it.
    assert split_description("Speakers: Ada (X)\nOne <b>two</b>\n<p>Three</p>") == (
        [("Ada", "X")],
        "One two\n\nThree",
    )
    # A speakers line, then plain text with an inline tag: the newlines still count.
    assert split_description("Speaker: Ada\nOne <em>two</em>.\n\nThree &amp; four.") == (
        [("Ada", "")],
        "One two.\n\nThree & four.",
    )


# Refusals


def test_refuses_what_is_not_icalendar() -> None:
    assert refusal(b"\n\nhello\nBEGIN:VCALENDAR\n") == (
        "x.ics, line 3: not iCalendar: expected the file to start with BEGIN:VCALENDAR, "
        "but it starts with 'hello'"
    )
    assert refusal(b"  \n") == (
        "x.ics: not iCalendar: expected the file to start with BEGIN:VCALENDAR, but it is empty"
    )
    assert refusal(b'<?xml version="1.0"?><icalendar/>') == (
        "x.ics, line 1: not iCalendar: expected the file to start with BEGIN:VCALENDAR, "
        "but it starts with '<?xml version=\"1.0\"?><icalendar/>'"
    )


def test_refuses_a_line_that_is_no_content_line() -> None:
    data = ics(event("UID:a", "DESCRIPTION:First line", "and a second line not folded"))
    assert refusal(data) == (
        "x.ics, line 7: 'and a second line not folded' is not an iCalendar content line "
        "(NAME:value or NAME;PARAM=value:value); a line continuing the one before must start "
        "with a space (folding, RFC 5545 3.1)"
    )
    assert refusal(ics("VERSION\n")) == (
        "x.ics, line 4: 'VERSION' is not an iCalendar content line (NAME:value or "
        "NAME;PARAM=value:value); a line continuing the one before must start with a space "
        "(folding, RFC 5545 3.1)"
    )


def test_refuses_unbalanced_begin_and_end() -> None:
    assert refusal(ics("BEGIN:VEVENT\nUID:a\nBEGIN:VALARM\nEND:VEVENT\n")) == (
        "x.ics, line 7: END:VEVENT does not close BEGIN:VALARM of line 6"
    )
    cut = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:Cut sh"
    assert refusal(cut) == (
        "x.ics, line 3: BEGIN:VEVENT is never closed by END:VEVENT; the file looks cut short"
    )
    assert refusal(ics("") + b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n") == (
        "x.ics, line 5: 'BEGIN:VCALENDAR' comes after END:VCALENDAR; expected one calendar per "
        "file and nothing after it"
    )


def test_refuses_an_unreadable_dtstart() -> None:
    data = ics(event("UID:a@x", "SUMMARY:Talk", "DTSTART:2026-04-07 09:45"))
    assert refusal(data) == (
        "x.ics, line 7: event 'a@x' ('Talk'): 'DTSTART:2026-04-07 09:45' cannot be read; "
        "expected a date-time such as 20260407T094500 (local, with TZID) or 20260407T074500Z "
        "(UTC), or a date such as 20260407"
    )
    no_uid = ics(event("SUMMARY:Talk", "DTSTART:20260407T250000Z"))
    assert refusal(no_uid) == (
        "x.ics, line 6: event 'Talk' (no UID): 'DTSTART:20260407T250000Z' cannot be read; "
        "expected a date-time such as 20260407T094500 (local, with TZID) or 20260407T074500Z "
        "(UTC), or a date such as 20260407"
    )


def test_refuses_a_repeated_dtstart() -> None:
    data = ics(event("UID:a", "DTSTART:20260407T094500Z", "DTSTART:20260408T094500Z"))
    assert refusal(data) == "x.ics, line 6: event 'a': DTSTART is given 2 times; expected one"


def test_refuses_an_unreadable_dtend_or_duration() -> None:
    assert refusal(ics(event("UID:a", "DTSTART:20260407T094500Z", "DTEND:soon"))) == (
        "x.ics, line 7: event 'a': 'DTEND:soon' cannot be read; expected a date-time such as "
        "20260407T094500 (local, with TZID) or 20260407T074500Z (UTC), or a date such as 20260407"
    )
    assert refusal(ics(event("UID:a", "DTSTART:20260407T094500Z", "DURATION:an hour"))) == (
        "x.ics, line 7: event 'a': 'DURATION:an hour' cannot be read; expected a duration such "
        "as PT45M or PT1H30M"
    )
    assert refusal(
        ics(event("UID:a", "DTSTART:20260407T094500Z", "DTEND;VALUE=DATE:20260408"))
    ) == (
        "x.ics, line 7: event 'a': 'DTEND;VALUE=DATE:20260408' is a date but DTSTART is a "
        "date-time; expected both to be date-times"
    )


def test_refuses_an_event_that_ends_before_it_starts() -> None:
    data = ics(event("UID:a", "DTSTART:20260407T094500Z", "DTEND:20260407T084500Z"))
    assert refusal(data) == (
        "x.ics, line 7: event 'a': it ends (DTEND:20260407T084500Z) before it starts "
        "(DTSTART:20260407T094500Z)"
    )


def test_refuses_an_unknown_tzid_without_vtimezone() -> None:
    data = ics(event("UID:a", "SUMMARY:Talk", "DTSTART;TZID=Mars/Olympus_Mons:20260407T094500"))
    assert refusal(data) == (
        "x.ics, line 7: event 'a' ('Talk'): 'DTSTART;TZID=Mars/Olympus_Mons:20260407T094500': "
        "TZID 'Mars/Olympus_Mons' is neither an IANA time zone name nor defined by a VTIMEZONE "
        "in the file"
    )


def test_refuses_floating_times_without_a_zone() -> None:
    data = ics(event("UID:a", "SUMMARY:Talk", "DTSTART:20260407T094500"))
    message = (
        "x.ics, line 7: the file has naive local times with no time zone (event 'a' ('Talk'): "
        "'DTSTART:20260407T094500' has neither a TZID nor a trailing Z) and no X-WR-TIMEZONE; "
        "give the zone with --timezone (an IANA name such as Europe/Paris), or add "
        "X-WR-TIMEZONE to the calendar"
    )
    assert refusal(data) == message
    # An X-WR-TIMEZONE that is no IANA name does not count as a zone.
    assert refusal(data.replace(b"PRODID", b"X-WR-TIMEZONE:Paris\r\nPRODID")) == message.replace(
        "line 7", "line 8"
    )


def test_refuses_an_unknown_default_timezone() -> None:
    data = ics(event("UID:a", "DTSTART:20260407T094500Z"))
    assert refusal(data, default_timezone="CEST") == (
        "x.ics: the time zone given for floating times, 'CEST', is not an IANA time zone name "
        "such as Europe/Paris"
    )


# Real files in the wild: bytes, line ends, speakers (issue 7, item 12)


def test_lines_that_are_not_utf8_are_read_as_windows_1252_with_a_warning() -> None:
    data = ics(
        event(
            "UID:a",
            "SUMMARY:Café crème",
            "DESCRIPTION:“Quoted” – fine",
            "LOCATION:Salle Ü",
            "DTSTART:20260407T094500Z",
        )
    )
    data = data.replace("Café crème".encode(), "Café crème".encode("cp1252"))
    data = data.replace("“Quoted” – fine".encode(), "“Quoted” – fine".encode("cp1252"))
    programme = parse(data, source="x.ics")
    session = programme.session("a")
    assert (session.title, session.abstract, session.room) == (
        "Café crème",
        "“Quoted” – fine",
        "Salle Ü",  # still UTF-8: each line is decoded on its own
    )
    assert programme.warnings == [
        "x.ics, line 6: 2 lines are not UTF-8 (RFC 5545 3.1.4), this one first; read as "
        "Windows-1252: check their accented letters"
    ]


def test_a_byte_windows_1252_leaves_unassigned_is_read_as_latin_1() -> None:
    data = ics(event("UID:a", "SUMMARY:Odd", "DTSTART:20260407T094500Z")).replace(
        b"SUMMARY:Odd", b"SUMMARY:Odd \x81 byte"
    )
    programme = parse(data, source="x.ics")
    assert programme.session("a").title == "Odd \x81 byte"
    assert programme.warnings == [
        "x.ics, line 6: the line is not UTF-8 (RFC 5545 3.1.4); read as Windows-1252: check "
        "its accented letters"
    ]


def test_a_fold_inside_a_utf8_character_is_undone_before_decoding() -> None:
    # RFC 5545 folds at 75 octets, so a writer may split "é" (C3 A9) or an emoji (4 octets).
    data = ics(event("UID:a", "SUMMARY:Café 🎉 time", "DTSTART:20260407T094500Z"))
    data = data.replace("Café".encode(), b"Caf\xc3\r\n \xa9").replace(
        "🎉".encode(), b"\xf0\x9f\r\n\t\x8e\x89"
    )
    programme = parse(data, source="x.ics")
    assert programme.session("a").title == "Café 🎉 time"
    assert programme.warnings == []


def test_bare_cr_line_ends_are_read_with_a_warning() -> None:
    # A file without LF (classic Mac OS) ends its lines with CR.
    data = ics(event("UID:a", "SUMMARY:A", "DTSTART:20260407T094500Z", "DURATION:PT30M"))
    programme = parse(data.replace(b"\r\n", b"\r"), source="x.ics")
    session = programme.session("a")
    assert session.title == "A"
    assert session.ends_at - session.starts_at == timedelta(minutes=30)
    assert programme.warnings == [
        "x.ics, line 1: 10 lines end with a bare CR (a carriage return without a line feed), "
        "this one first; read as line ends; RFC 5545 ends lines with CRLF"
    ]


def test_a_bare_cr_before_each_crlf_of_a_folded_description_is_read() -> None:
    # A conference system's feed: "\r\r\n" after each folded line, its line breaks written as
    # a literal "\n" at the start of the continuation. Giggity reads it; it was refused.
    data = ics(
        event(
            "UID:a",
            "SUMMARY:Keynote",
            "DTSTART:20260407T094500Z",
            "DESCRIPTION:Speakers: Ada Lovelace\r",
            " \\n\\nEngines that weave\r",
            " \\nalgebraic patterns.\r",
            "LOCATION:Hall A\r",
        )
    )
    assert b"Lovelace\r\r\n \\n\\nEngines" in data
    programme = parse(data, source="x.ics")
    session = programme.session("a")
    assert (session.title, session.room) == ("Keynote", "Hall A")
    assert session.abstract == "Engines that weave\nalgebraic patterns."
    assert speaker_names(programme, session) == [("Ada Lovelace", "")]
    assert programme.warnings == []


def test_a_bare_cr_inside_a_value_is_content() -> None:
    data = ics(event("UID:a", "SUMMARY:A", "DTSTART:20260407T094500Z", "DESCRIPTION:One\rTwo"))
    programme = parse(data, source="x.ics")
    assert programme.session("a").abstract == "One\nTwo"
    assert programme.warnings == []


def test_attendees_are_speakers_after_the_description() -> None:
    data = ics(
        event(
            "UID:a",
            "SUMMARY:Engines",
            "DTSTART:20260407T094500Z",
            "DESCRIPTION:Speakers: Ada Lovelace (Analytical Engines)\\n\\nAbstract.",
            "ATTENDEE;CN=Ada Lovelace;ROLE=REQ-PARTICIPANT:mailto:ada@example.org",
            'ATTENDEE;CN="Turing, Alan";ROLE=CHAIR;PARTSTAT=ACCEPTED:mailto:alan@example.org',
            "ATTENDEE;CN=Grace   Hopper:mailto:grace@example.org",
            "ATTENDEE;CN=Room 101;CUTYPE=ROOM:mailto:room101@example.org",
            "ATTENDEE;CN=Projector;CUTYPE=RESOURCE:mailto:av@example.org",
            "ATTENDEE;CN=Ann Observer;ROLE=NON-PARTICIPANT:mailto:ann@example.org",
            "ATTENDEE;ROLE=REQ-PARTICIPANT:mailto:nameless@example.org",
        )
    )
    programme = parse(data, source="x.ics")
    session = programme.session("a")
    assert session.abstract == "Abstract."
    assert session.speakers == (
        SessionSpeaker("ada-lovelace", "Analytical Engines"),
        SessionSpeaker("turing-alan"),
        SessionSpeaker("grace-hopper"),
    )
    # The addresses are not kept anywhere.
    assert programme.speakers == [
        Speaker("ada-lovelace", "Ada Lovelace", company="Analytical Engines"),
        Speaker("turing-alan", "Turing, Alan"),
        Speaker("grace-hopper", "Grace Hopper"),
    ]
    assert programme.warnings == []


@pytest.mark.parametrize(
    ("description", "speakers", "abstract"),
    [
        ("Referenten: Ada Lovelace (Uni Wien), Alan Turing\nText.", [("Ada Lovelace", "Uni Wien"), ("Alan Turing", "")], "Text."),
        ("Referent:innen: Ada Lovelace\nText.", [("Ada Lovelace", "")], "Text."),
        ("Sprecher: Ada Lovelace\nText.", [("Ada Lovelace", "")], "Text."),
        ("Vortragende: Ada Lovelace, Alan Turing\nText.", [("Ada Lovelace", ""), ("Alan Turing", "")], "Text."),
        ("Intervenants : Ada Lovelace (Inria), Alan Turing\nTexte.", [("Ada Lovelace", "Inria"), ("Alan Turing", "")], "Texte."),
        ("Intervenant(e)s\u00a0: Ada Lovelace\nTexte.", [("Ada Lovelace", "")], "Texte."),
        ("Conférencière : Ada Lovelace\nTexte.", [("Ada Lovelace", "")], "Texte."),
        ("Orateurs: Ada Lovelace\nTexte.", [("Ada Lovelace", "")], "Texte."),
        ("Ponentes: Ada Lovelace (UPM), Alan Turing\nTexto.", [("Ada Lovelace", "UPM"), ("Alan Turing", "")], "Texto."),
        ("Oradores: Ada Lovelace\nTexto.", [("Ada Lovelace", "")], "Texto."),
        ("Relatori: Ada Lovelace, Alan Turing\nTesto.", [("Ada Lovelace", ""), ("Alan Turing", "")], "Testo."),
        ("Relatore: Ada Lovelace\nTesto.", [("Ada Lovelace", "")], "Testo."),
        ("Sprekers: Ada Lovelace (TU Delft)\nTekst.", [("Ada Lovelace", "TU Delft")], "Tekst."),
        ("Palestrantes: Ada Lovelace, Alan Turing\nTexto.", [("Ada Lovelace", ""), ("Alan Turing", "")], "Texto."),
        ("SPEAKERS: Ada Lovelace\nText.", [("Ada Lovelace", "")], "Text."),
        ("Speaker(s): Ada Lovelace\nText.", [("Ada Lovelace", "")], "Text."),
        ("登壇者：山田 太郎\n本文。", [("山田 太郎", "")], "本文。"),
        # Not a label: a word that only starts like one, or a label further down.
        ("Sprechstunde: jeden Montag\nText.", [], "Sprechstunde: jeden Montag\nText."),
        ("Intro.\nReferenten: Ada", [], "Intro.\nReferenten: Ada"),
    ],
)  # fmt: skip
def test_speakers_line_labelled_in_other_languages(
    description: str, speakers: list[tuple[str, str]], abstract: str
) -> None:
    assert split_description(description) == (speakers, abstract)


def test_speaker_labels_are_one_table() -> None:
    assert set(ical_descriptions.SPEAKER_LABELS) >= {"en", "de", "fr", "es", "it", "nl", "pt"}
    assert "Referenten" in ical_descriptions.SPEAKER_LABELS["de"]
    assert "Intervenants" in ical_descriptions.SPEAKER_LABELS["fr"]
    assert "Palestrantes" in ical_descriptions.SPEAKER_LABELS["pt"]


def test_a_feed_in_german_gives_its_speakers() -> None:
    data = ics(
        event(
            "UID:a",
            "SUMMARY:Dampfmaschinen",
            "DTSTART;TZID=Europe/Berlin:20260407T094500",
            "DESCRIPTION:Referentinnen: Ada Lovelace (Royal Society)\\, Grace Hopper\\nÜber Maschinen.",
        )
    )
    programme = parse(data, source="x.ics")
    session = programme.session("a")
    assert session.abstract == "Über Maschinen."
    assert speaker_names(programme, session) == [
        ("Ada Lovelace", "Royal Society"),
        ("Grace Hopper", ""),
    ]


# Zone names from the file (issue 7, item 6)


@pytest.mark.parametrize(
    ("tzid", "shown"),
    [
        ("Europe", "Europe"),  # a folder of tzdata
        ("Etc", "Etc"),
        ("A" * 300, "A" * 64 + "…"),
        ("a/" * 300 + "b", "a/" * 32 + "…"),
        ("../../../../etc/passwd", "../../../../etc/passwd"),
        ("/usr/share/zoneinfo", "/usr/share/zoneinfo"),
    ],
)
def test_tzid_that_is_no_zone_is_refused_without_touching_the_file_system(
    tzid: str, shown: str
) -> None:
    data = ics(event("UID:a", f"DTSTART;TZID={tzid}:20260407T094500"))
    assert refusal(data) == (
        f"x.ics, line 6: event 'a': {ical_lines._snippet(f'DTSTART;TZID={tzid}:20260407T094500')!r}"
        f": TZID {shown!r} is neither an IANA time zone name nor defined by a VTIMEZONE in the "
        "file"
    )


@pytest.mark.parametrize("name", ["Europe", "Etc", "A" * 300, "a/" * 300 + "b", "/etc/passwd"])
def test_x_wr_timezone_that_is_no_zone_is_ignored_with_a_warning(name: str) -> None:
    data = ics(
        event("UID:a", "SUMMARY:A", "DTSTART:20260407T094500"), head=f"X-WR-TIMEZONE:{name}\n"
    )
    programme = parse(data, source="x.ics", default_timezone="Europe/Paris")
    assert programme.session("a").starts_at == datetime(2026, 4, 7, 7, 45, tzinfo=UTC)
    assert programme.timezone == ""
    shown = name if len(name) <= 64 else name[:64] + "…"
    assert programme.warnings == [
        f"x.ics: X-WR-TIMEZONE ignored: unknown time zone {shown!r}: give an IANA name such "
        "as Europe/Paris"
    ]


def test_windows_and_globally_unique_tzids_are_read_as_iana_zones() -> None:
    data = ics(
        event("UID:a", "DTSTART;TZID=W. Europe Standard Time:20260407T094500")
        + event(
            "UID:b", "DTSTART;TZID=/freeassociation.sourceforge.net/Europe/Berlin:20260407T094500"
        )
        + event("UID:c", "DTSTART;TZID=/Europe/Berlin/:20260407T094500")
    )
    programme = parse(data, source="x.ics")
    berlin = datetime(2026, 4, 7, 7, 45, tzinfo=UTC)
    assert [session.starts_at for session in programme.sessions] == [berlin, berlin, berlin]
    assert programme.session("a").starts_at.tzinfo == ZoneInfo("Europe/Berlin")
    assert programme.notes == [
        "x.ics: TZID 'W. Europe Standard Time' read as Europe/Berlin (a Windows zone name)",
        "x.ics: TZID '/freeassociation.sourceforge.net/Europe/Berlin' read as Europe/Berlin (a "
        "globally unique TZID, less its vendor prefix)",
    ]


def test_a_vtimezone_in_one_file_does_not_define_the_zone_of_the_next() -> None:
    # The icalendar package keeps every VTIMEZONE it parses in one cache for the whole process;
    # confsched never asks it, so a file cannot change how another one is read.
    vtimezone = (
        "BEGIN:VTIMEZONE\nTZID:Conference Time\nBEGIN:STANDARD\nDTSTART:19700101T000000\n"
        "TZOFFSETFROM:+0300\nTZOFFSETTO:+0300\nEND:STANDARD\nEND:VTIMEZONE\n"
    )
    uses_it = event("UID:a", "DTSTART;TZID=Conference Time:20260310T090000")
    assert parse(ics(vtimezone + uses_it), source="x.ics").session("a").starts_at == datetime(
        2026, 3, 10, 6, 0, tzinfo=UTC
    )
    assert refusal(ics(uses_it)) == (
        "x.ics, line 6: event 'a': 'DTSTART;TZID=Conference Time:20260310T090000': TZID "
        "'Conference Time' is neither an IANA time zone name nor defined by a VTIMEZONE in the "
        "file"
    )


def test_a_vtimezone_named_like_an_iana_zone_does_not_redefine_it() -> None:
    data = ics(
        "BEGIN:VTIMEZONE\nTZID:Europe/Paris\nBEGIN:STANDARD\nDTSTART:19700101T000000\n"
        "TZOFFSETFROM:+0900\nTZOFFSETTO:+0900\nEND:STANDARD\nEND:VTIMEZONE\n"
        + event("UID:a", "DTSTART;TZID=Europe/Paris:20260407T094500")
    )
    session = parse(data, source="x.ics").session("a")
    assert session.starts_at.tzinfo == ZoneInfo("Europe/Paris")
    assert session.starts_at.utcoffset() == timedelta(hours=2)


def test_a_vtimezone_rule_that_fires_more_than_yearly_is_refused() -> None:
    # FREQ=SECONDLY from 1970: the zone would walk a billion changes for each time it converts.
    data = ics(
        "BEGIN:VTIMEZONE\nTZID:Busy\nBEGIN:STANDARD\nDTSTART:19700101T000000\n"
        "TZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nRRULE:FREQ=SECONDLY\nEND:STANDARD\nEND:VTIMEZONE\n"
        + event("UID:a", "DTSTART;TZID=Busy:20260407T094500")
    )
    assert refusal(data) == (
        "x.ics, line 15: event 'a': TZID 'Busy' is defined by the VTIMEZONE of line 4, which "
        "cannot be read: line 10: 'RRULE:FREQ=SECONDLY' is not a rule confsched reads in a "
        "VTIMEZONE: FREQ=YEARLY with one BYMONTH and one BYDAY (or up to seven BYMONTHDAY), as "
        "calendar programs write them"
    )


def test_a_vtimezone_with_an_unreadable_offset_is_refused_where_it_is_used() -> None:
    data = ics(
        "BEGIN:VTIMEZONE\nTZID:Odd;VALUE=BINARY\nBEGIN:STANDARD\nDTSTART:19700101T000000\n"
        "TZOFFSETFROM:+0100\nTZOFFSETTO:+2500\nEND:STANDARD\nEND:VTIMEZONE\n"
        + event("UID:a", "SUMMARY:A", "DTSTART;TZID=Odd:20260407T094500")
    )
    # An unreadable VTIMEZONE nobody uses is no matter.
    assert parse(data.replace(b"TZID=Odd", b"TZID=Europe/Rome"), source="x.ics").warnings == []
    data = data.replace(b"TZID:Odd;VALUE=BINARY", b"TZID:Odd")
    assert refusal(data) == (
        "x.ics, line 15: event 'a' ('A'): TZID 'Odd' is defined by the VTIMEZONE of line 4, which "
        "cannot be read: line 9: 'TZOFFSETTO:+2500': Offset must be less than 24 hours, was "
        "+2500"
    )


# The library's own exceptions and the limits of dates (issue 7, item 6)


def test_what_the_library_trips_over_names_the_line_property_and_event() -> None:
    data = ics(
        event(
            "UID:a",
            "SUMMARY;VALUE=BINARY:Hello",
            "DTSTART:20260407T094500Z",
            "X-ODD;VALUE=,:x",
            "CATEGORIES;VALUE=,:Talks",
        )
    )
    programme = parse(data, source="x.ics")
    session = programme.session("a")
    assert session.title == "Hello"  # the text is still read; only its type was wrong
    assert session.track == ""  # CATEGORIES could not be read
    assert programme.warnings == [
        "x.ics, line 6: event 'a' ('Hello'): 'SUMMARY;VALUE=BINARY:Hello' ignored: Not valid "
        "base 64 encoding.",
        "x.ics, line 8: event 'a' ('Hello'): 'X-ODD;VALUE=,:x' ignored: the iCalendar library "
        "cannot read it (AttributeError: 'list' object has no attribute 'upper')",
        "x.ics, line 9: event 'a' ('Hello'): 'CATEGORIES;VALUE=,:Talks' ignored: the iCalendar "
        "library cannot read it (AttributeError: 'list' object has no attribute 'upper')",
    ]
    # DTSTART is needed: what the library cannot read there refuses the file.
    assert refusal(ics(event("UID:a", "DTSTART;VALUE=,:20260407T094500Z"))) == (
        "x.ics, line 6: event 'a': 'DTSTART;VALUE=,:20260407T094500Z' cannot be read; expected "
        "a date-time such as 20260407T094500 (local, with TZID) or 20260407T074500Z (UTC), or a "
        "date such as 20260407"
    )


@pytest.mark.parametrize(
    ("lines", "line", "written"),
    [
        (["DTSTART:00010101T000000Z"], 6, "'DTSTART:00010101T000000Z'"),
        (["DTSTART;TZID=Europe/Paris:00010101T120000"], 6, "'DTSTART;TZID=Europe/Paris:00010101T120000'"),
        (["DTSTART:20260407T094500Z", "DTEND:99991231T000000Z"], 7, "'DTEND:99991231T000000Z'"),
        (["DTSTART:99991230T000000Z", "DURATION:P2D"], 7, "'DTSTART:99991230T000000Z' plus 'DURATION:P2D'"),
        (["DTSTART:20260407T094500Z", "DURATION:P9999999D"], 7, "'DTSTART:20260407T094500Z' plus 'DURATION:P9999999D'"),
        (["DTSTART;VALUE=DATE:00010101", "DTEND;VALUE=DATE:00010101"], 7, "'DTEND;VALUE=DATE:00010101'"),
        (["DTSTART;VALUE=DATE:99991231", "DURATION:P3D"], 7, "'DTSTART;VALUE=DATE:99991231' plus 'DURATION:P3D'"),
    ],
)  # fmt: skip
def test_times_at_the_limits_of_the_calendar_are_refused_naming_the_event(
    lines: list[str], line: int, written: str
) -> None:
    data = ics(event("UID:a", *lines))
    assert refusal(data) == (
        f"x.ics, line {line}: event 'a': {written} falls outside the dates confsched can show "
        "in every time zone (0001-01-02 to 9999-12-30, UTC)"
    )


def test_times_just_inside_the_limits_are_read() -> None:
    data = ics(
        event("UID:a", "DTSTART:00010102T000000Z", "DURATION:PT1H")
        + event("UID:b", "DTSTART:99991229T000000Z", "DTEND:99991230T000000Z")
    )
    programme = parse(data, source="x.ics")
    assert programme.session("a").starts_at == datetime(1, 1, 2, 0, 0, tzinfo=UTC)
    assert programme.session("b").ends_at == datetime(9999, 12, 30, 0, 0, tzinfo=UTC)


# Linear time (issue 7, item 5)


def test_copies_of_one_uid_each_get_a_key() -> None:
    # Identical copies: nothing tells them apart but their place, so the file's order decides.
    data = ics(event("UID:same", "SUMMARY:t", "DTSTART:20260407T094500Z") * 1000)
    programme = parse(data, source="x.ics")
    assert [session.key for session in programme.sessions] == ["same"] + [
        f"same-{number}" for number in range(2, 1001)
    ]


def test_a_uid_written_like_a_numbered_copy_keeps_keys_unique() -> None:
    data = ics(
        event("UID:a", "SUMMARY:First", "DTSTART:20260407T094500Z")
        + event("UID:a-2", "SUMMARY:Own UID", "DTSTART:20260407T094500Z")
        + event("UID:a", "SUMMARY:Copy", "DTSTART:20260407T094500Z")
        + event("UID:a", "SUMMARY:Copy again", "DTSTART:20260407T094500Z")
    )
    programme = parse(data, source="x.ics")
    # One start and no room: the copies of "a" are told apart by their titles' order.
    assert [(session.key, session.title) for session in programme.sessions] == [
        ("a-4", "First"),
        ("a-2", "Own UID"),
        ("a", "Copy"),
        ("a-3", "Copy again"),
    ]


def test_text_full_of_unclosed_tags_is_kept_as_text() -> None:
    # "<b " a hundred thousand times and no ">": each try at a tag now stops at the next "<".
    text = "Intro " + "<b " * 100_000
    assert split_description(text) == ([], text.strip())
