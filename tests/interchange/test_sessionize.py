"""The Sessionize view/All reader: the two real exports in ../shared, hand-built files, refusals."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from confsched.core.errors import ParseError
from confsched.interchange.programme import Session, SessionSpeaker, Speaker
from confsched.interchange.sessionize.read import (
    DESCRIPTION,
    FORMAT_NAME,
    LIST_SHAPE_CARRIES,
    looks_like,
    parse,
)
from confsched.interchange.sessionize.sessions import split_tag_line
from tests.conftest import ROOT, demo_files

NEW_YORK = ZoneInfo("America/New_York")
DEMO_ABSTRACT = (
    "Usually, you would find a session description here. But, this is not a real session "
    "submission, so description is missing. Ha!"
)


@pytest.fixture
def samples(shared_dir: Path) -> Path:
    return shared_dir / "formats" / "samples" / "sessionize"


def read(path: Path, **kwargs: Any) -> Any:
    return parse(path.read_bytes(), source=path.name, **kwargs)


def test_public_names() -> None:
    assert FORMAT_NAME == "sessionize-json"
    assert "view/All" in DESCRIPTION


# --- the demo export (times in UTC) ----------------------------------------------------------


@pytest.mark.shared
def test_demo_event_facts(samples: Path) -> None:
    programme = read(samples / "sessionize-demo_All.json")
    assert len(programme.sessions) == 11
    assert len(programme.speakers) == 10
    assert programme.rooms == ["Green Room", "Yellow Room", "Restaurant"]
    # Times end in "Z": the file says nothing of the event's zone.
    assert programme.timezone == ""
    assert (programme.start_date, programme.end_date) == (date(2017, 5, 27), date(2017, 5, 28))
    assert programme.name == ""
    assert programme.warnings == []
    assert programme.notes == []
    assert [session.kind for session in programme.sessions].count("Service") == 1
    assert all(session.starts_at is not None for session in programme.sessions)


@pytest.mark.shared
def test_demo_times_are_utc_and_no_zone_is_taken_when_none_is_needed(samples: Path) -> None:
    with_default = read(samples / "sessionize-demo_All.json", default_timezone="Europe/Zagreb")
    assert with_default.timezone == ""
    first = with_default.session("14022")
    assert first.starts_at == datetime(2017, 5, 27, 9, 0, tzinfo=UTC)
    assert first.starts_at.utcoffset() == timedelta(0)


@pytest.mark.shared
def test_demo_session_every_field(samples: Path) -> None:
    programme = read(samples / "sessionize-demo_All.json")
    assert programme.session("14022") == Session(
        key="14022",
        title="Aiden's Session",
        kind="Session",
        abstract=DEMO_ABSTRACT,
        starts_at=datetime(2017, 5, 27, 9, 0, tzinfo=UTC),
        ends_at=datetime(2017, 5, 27, 10, 0, tzinfo=UTC),
        room="Green Room",
        track="Technical",
        level="Intermediate",
        language="Italian",
        speakers=(SessionSpeaker("00000000-0000-0000-0000-000000000004"),),
    )
    assert programme.session("14019") == Session(
        key="14019",
        title="Jackson's Session",
        kind="Lightning talk",
        abstract=DEMO_ABSTRACT,
        starts_at=datetime(2017, 5, 27, 10, 15, tzinfo=UTC),
        ends_at=datetime(2017, 5, 27, 11, 15, tzinfo=UTC),
        room="Yellow Room",
        track="Business",
        level="Advanced",
        language="English",
        speakers=(SessionSpeaker("00000000-0000-0000-0000-000000000001"),),
    )


@pytest.mark.shared
def test_demo_service_session_is_kept_with_kind_service(samples: Path) -> None:
    programme = read(samples / "sessionize-demo_All.json")
    assert programme.session("f91513e5-6e73-4910-9ee5-070a6ab04035") == Session(
        key="f91513e5-6e73-4910-9ee5-070a6ab04035",
        title="Lunch",
        kind="Service",
        abstract="Fooooood!",
        starts_at=datetime(2017, 5, 27, 12, 30, tzinfo=UTC),
        ends_at=datetime(2017, 5, 27, 13, 30, tzinfo=UTC),
        room="Restaurant",
    )


@pytest.mark.shared
def test_demo_speakers(samples: Path) -> None:
    programme = read(samples / "sessionize-demo_All.json")
    assert programme.speaker("00000000-0000-0000-0000-000000000006") == Speaker(
        key="00000000-0000-0000-0000-000000000006",
        name="Liam Test",
        position="Tester",
        company="Sessionize",  # "Tester @ Sessionize"
        bio=(
            "Total web enthusiast. Unable to type with boxing gloves on. Future teen idol. "
            "Avid internet trailblazer. Amateur bacon buff."
        ),
        avatar_url=(
            "https://sessionize.com/image?f=e937838c895a3e172c20895fd27fc380,400,400,True,"
            "False,test6.jpg"
        ),
    )
    # Neither "at" nor a job title before a single comma: the tag line stays the position.
    assert programme.speaker("00000000-0000-0000-0000-000000000003").position == "ABC, DEF, GHI"
    assert programme.speaker("00000000-0000-0000-0000-000000000000").position == "CEO / Contoso"
    assert programme.speaker("00000000-0000-0000-0000-000000000000").company == ""
    assert [speaker.name for speaker in programme.speakers[:3]] == [
        "Aiden Test",
        "Ava Test",
        "Emma Test",
    ]


# --- Orlando Code Camp 2020 (BOM, naive local times) ------------------------------------------


@pytest.mark.shared
def test_orlando_starts_with_a_bom_and_is_read(samples: Path) -> None:
    data = (samples / "orlando-codecamp-2020_All.json").read_bytes()
    assert data[:3] == b"\xef\xbb\xbf"
    programme = parse(data, source="orlando.json", default_timezone="America/New_York")
    assert len(programme.sessions) == 99
    assert len(programme.speakers) == 84


@pytest.mark.shared
def test_orlando_naive_times_are_refused_without_a_zone(samples: Path) -> None:
    with pytest.raises(ParseError) as caught:
        read(samples / "orlando-codecamp-2020_All.json")
    assert str(caught.value) == (
        "orlando-codecamp-2020_All.json: the times have no UTC offset "
        "(sessions[0].startsAt is '2020-03-28T08:00:00') and a Sessionize export names no "
        "time zone; give the event's time zone with --timezone, e.g. --timezone America/New_York"
    )


@pytest.mark.shared
def test_orlando_naive_times_are_read_in_the_default_zone(samples: Path) -> None:
    programme = read(
        samples / "orlando-codecamp-2020_All.json", default_timezone="America/New_York"
    )
    assert programme.timezone == "America/New_York"
    keynote = programme.session("7b3d6b07-294f-4319-8234-aae9701d98b5")
    assert keynote.starts_at == datetime(2020, 3, 28, 8, 0, tzinfo=NEW_YORK)
    # Daylight saving time began on 8 March 2020.
    assert keynote.starts_at.utcoffset() == timedelta(hours=-4)
    assert (programme.start_date, programme.end_date) == (date(2020, 3, 28), date(2020, 3, 28))
    assert programme.notes == [
        "orlando-codecamp-2020_All.json: times have no UTC offset; read as local times in "
        "America/New_York"
    ]
    assert programme.warnings == []


@pytest.mark.shared
def test_orlando_scheduled_and_service_sessions(samples: Path) -> None:
    programme = read(
        samples / "orlando-codecamp-2020_All.json", default_timezone="America/New_York"
    )
    service = [session for session in programme.sessions if session.kind == "Service"]
    assert len(service) == 12
    assert [session.title for session in service[:5]] == [
        "Keynote",
        "IoT Hands On Sessions",
        "IoT Hands On Sessions",
        "IoT Hands On Sessions",
        "Lunch",
    ]
    assert all(session.abstract == "" and session.speakers == () for session in service)
    talks = [session for session in programme.sessions if session.kind != "Service"]
    assert len(talks) == 87
    assert {session.kind for session in talks} == {"Session", "Lightning talk"}
    assert all(session.starts_at is not None for session in programme.sessions)
    assert not any(session.needs_review or session.is_cancelled for session in programme.sessions)
    assert programme.session("7b3d6b07-294f-4319-8234-aae9701d98b5") == Session(
        key="7b3d6b07-294f-4319-8234-aae9701d98b5",
        title="Keynote",
        kind="Service",
        starts_at=datetime(2020, 3, 28, 8, 0, tzinfo=NEW_YORK),
        ends_at=datetime(2020, 3, 28, 9, 0, tzinfo=NEW_YORK),
        room="Room 1",
    )


@pytest.mark.shared
def test_orlando_rooms_in_sessionize_order(samples: Path) -> None:
    programme = read(
        samples / "orlando-codecamp-2020_All.json", default_timezone="America/New_York"
    )
    assert programme.rooms == [
        "Room 1", "Room 2", "Room 3", "Room 4", "Room 5", "Room 6", "Room 7", "Room 8",
        "Room 9", "Room 10", "Room 11", "Room 12", "IoT Room", "Auditorium",
    ]  # fmt: skip


@pytest.mark.shared
def test_orlando_session_every_field(samples: Path) -> None:
    programme = read(
        samples / "orlando-codecamp-2020_All.json", default_timezone="America/New_York"
    )
    # "Category" is this event's name for tracks.
    assert programme.session("170740") == Session(
        key="170740",
        title="Secure IoT with Microsoft Sphere",
        kind="Session",
        abstract=(
            "Learn how Azure Sphere addresses the seven common attack vectors of IoT devices. "
            "Security is foundational to connected IoT experiences. Don't trust your brand to "
            "single line-of-defense and second-best solutions. Takeaways: Azure Sphere overview "
            "Background on Sphere's security, based on years of Microsoft experience and "
            "research. How Azure Sphere promotes security with crossover MCUs The Sphere secured "
            "OS Turnkey cloud security service, guarding every Azure Sphere device End-to-end IoT "
            "security that responds to emerging threats\u2014so you don't have to."
        ),
        starts_at=datetime(2020, 3, 28, 9, 0, tzinfo=NEW_YORK),
        ends_at=datetime(2020, 3, 28, 9, 45, tzinfo=NEW_YORK),
        room="Room 10",
        track="Security",
        level="Intermediate",
        speakers=(SessionSpeaker("a267f80e-7e23-468c-99db-1037d3e8b7ca"),),
    )
    speaker = programme.speaker("a267f80e-7e23-468c-99db-1037d3e8b7ca")
    assert (speaker.name, speaker.position, speaker.company) == (
        "Michael Ritchie",
        "Founder",
        "Germinal",
    )
    assert speaker.avatar_url == (
        "https://sessionize.com/image?f=bc1c084b07d327d588f07e84d21c9482,400,400,1,0,"
        "8ea2ff22-7774-4ac2-9728-6b91ab8aba88.jpg"
    )
    assert speaker.bio.startswith("Michael W. Ritchie is a 25 year veteran")
    assert speaker.bio.endswith("and overgrown Boy Scout (Scoutmaster).")


@pytest.mark.shared
def test_orlando_two_speakers_crlf_text_and_categories(samples: Path) -> None:
    programme = read(
        samples / "orlando-codecamp-2020_All.json", default_timezone="America/New_York"
    )
    session = programme.session("175952")
    assert session.title == "How to get a job as a developer"
    assert session.speakers == (
        SessionSpeaker("8ea5bf02-5bb1-4ed9-b96e-d7af16a97164"),
        SessionSpeaker("06ddde83-866e-42b7-962e-cd04c3435eed"),
    )
    assert (session.kind, session.level, session.track) == (
        "Session",
        "Introductory and overview",
        "",
    )
    assert session.room == "Room 7"
    assert session.abstract.startswith(
        "The tech industry is both wonderfully accessible and needlessly obtuse to break into. "
    )
    assert "\r" not in session.abstract
    assert session.abstract.count("\n\n") == 2
    edwin = programme.speaker("06ddde83-866e-42b7-962e-cd04c3435eed")
    assert (edwin.name, edwin.position, edwin.company) == ("Edwin Otero", "Front-end Developer", "")
    # The bio ended with "\r\n" in the file.
    assert edwin.bio.endswith("and the co-host on the Tech Jr podcast.")
    assert not any("\r" in session.abstract for session in programme.sessions)


@pytest.mark.shared
def test_orlando_tag_lines(samples: Path) -> None:
    programme = read(
        samples / "orlando-codecamp-2020_All.json", default_timezone="America/New_York"
    )
    by_name = {speaker.name: (speaker.position, speaker.company) for speaker in programme.speakers}
    assert by_name["Brian Dunnington"] == ("Senior Developer", "Microsoft")
    assert by_name["Andrew Kozlik"] == ("Co-Founder and CEO", "RecipeBox")
    assert by_name["Steve Lorello"] == ("Developer Advocate", "Nexmo")  # "At"
    assert by_name["Darius Liktorius"] == ("Solution Architect", "NetCorp")  # own name dropped
    assert by_name["Usha Suryadevara"] == ("Director of Development", "InfoTech")
    assert by_name["Ashley Grant"] == ("Microsoft MVP, Aurelia Ninja", "")
    assert by_name["Jason Farrell"] == ("West Monroe Partners, Principle Consultant", "")
    assert by_name["Chris DeMars"] == (
        "Front-End Developer at Tuft & Needle | Microsoft MVP | Google Developer Expert",
        "",
    )
    assert sum(1 for _, company in by_name.values() if company) == 21


@pytest.mark.parametrize(
    ("tag_line", "expected"),
    [
        ("Senior Developer at Microsoft", ("Senior Developer", "Microsoft")),
        ("Tester @ Sessionize", ("Tester", "Sessionize")),
        ("Founder, Germinal", ("Founder", "Germinal")),
        ("Architect, Computer Enterprises Inc", ("Architect", "Computer Enterprises Inc")),
        ("Product Designer", ("Product Designer", "")),
        ("Software Developer, Microsoft MVP", ("Software Developer, Microsoft MVP", "")),
        (
            "Design Interactive, Senior Software Engineer",
            ("Design Interactive, Senior Software Engineer", ""),
        ),
        ("Azure, Data Platform and BI Architect", ("Azure, Data Platform and BI Architect", "")),
        ("Designer, Instructor, Cat Lady", ("Designer, Instructor, Cat Lady", "")),
        (
            "Scrum Master at Clearly Agile, Tampa FL",
            ("Scrum Master at Clearly Agile, Tampa FL", ""),
        ),
        (
            "Data Scientist at Paylocity. Co-organizer of the Meetup",
            ("Data Scientist at Paylocity. Co-organizer of the Meetup", ""),
        ),
        ("Microsoft MVP; Director at ScholarRx", ("Microsoft MVP; Director at ScholarRx", "")),
        ("@matsubonsai", ("@matsubonsai", "")),
        ("  Database   Engineer ", ("Database Engineer", "")),
        ("", ("", "")),
    ],
)
def test_tag_line_rule(tag_line: str, expected: tuple[str, str]) -> None:
    assert split_tag_line(tag_line) == expected


def test_tag_line_drops_the_speakers_own_name() -> None:
    assert split_tag_line("Ada Lovelace, Analyst at Engines", "Ada Lovelace") == (
        "Analyst",
        "Engines",
    )


# --- hand-built exports ----------------------------------------------------------------------


def export(sessions: list[dict[str, Any]] | None = None, **top: Any) -> dict[str, Any]:
    """A small valid view/All export; `sessions` replaces the single default session."""
    doc: dict[str, Any] = {
        "sessions": sessions
        if sessions is not None
        else [session_entry("1", startsAt="2026-06-02T10:00:00Z", endsAt="2026-06-02T10:30:00Z")],
        "speakers": [
            {
                "id": "sp-1",
                "firstName": "Ada",
                "lastName": "Lovelace",
                "fullName": "Ada Lovelace",
                "bio": "Wrote the first program.",
                "tagLine": "Analyst at Analytical Engines",
                "profilePicture": "https://example.org/ada.jpg",
                "isTopSpeaker": False,
                "links": [],
                "sessions": [1],
                "categoryItems": [],
                "questionAnswers": [],
            },
            {
                "id": "sp-2",
                "firstName": "Alan",
                "lastName": "Turing",
                "fullName": None,
                "bio": None,
                "tagLine": None,
                "profilePicture": None,
            },
        ],
        "questions": [],
        "categories": [
            {
                "id": 10,
                "title": "Tracks",
                "sort": 1,
                "items": [
                    {"id": 101, "name": "Compilers", "sort": 2},
                    {"id": 102, "name": "Data", "sort": 1},
                ],
            },
            {"id": 11, "title": "Talk type", "sort": 0, "items": [{"id": 111, "name": "Talk"}]},
            {"id": 12, "title": "Sponsors", "sort": 2, "items": [{"id": 121, "name": "Gold"}]},
            {"id": 13, "title": "Topic", "sort": 3, "items": [{"id": 131, "name": "AI"}]},
        ],
        "rooms": [
            {"id": 7, "name": "Main Hall", "sort": 2},
            {"id": 5, "name": "Room A", "sort": 0},
            {"id": 6, "name": "Room B", "sort": 1},
        ],
    }
    doc.update(top)
    return doc


def session_entry(key: str, **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": key,
        "title": f"Session {key}",
        "description": None,
        "startsAt": None,
        "endsAt": None,
        "isServiceSession": False,
        "isPlenumSession": False,
        "speakers": [],
        "categoryItems": [],
        "questionAnswers": [],
        "roomId": None,
    }
    entry.update(fields)
    return entry


def dump(doc: Any) -> bytes:
    return json.dumps(doc, indent=2).encode()


def parse_doc(doc: Any, **kwargs: Any) -> Any:
    return parse(dump(doc), source="all.json", **kwargs)


def test_rooms_follow_sort_not_file_order() -> None:
    assert parse_doc(export()).rooms == ["Room A", "Room B", "Main Hall"]


def test_category_titles_choose_the_facet() -> None:
    entry = session_entry(
        "1",
        startsAt="2026-06-02T10:00:00+02:00",
        endsAt="2026-06-02T10:30:00+02:00",
        categoryItems=[101, 111, 121, 131],
        roomId=7,
        speakers=["sp-1", "sp-2"],
        description="Line one.\r\nLine two.\r\n",
    )
    programme = parse_doc(export([entry]))
    assert programme.sessions == [
        Session(
            key="1",
            title="Session 1",
            kind="Talk",
            abstract="Line one.\nLine two.",
            starts_at=datetime(2026, 6, 2, 8, 0, tzinfo=UTC),
            ends_at=datetime(2026, 6, 2, 8, 30, tzinfo=UTC),
            room="Main Hall",
            track="Compilers",
            speakers=(SessionSpeaker("sp-1"), SessionSpeaker("sp-2")),
        )
    ]
    assert programme.sessions[0].starts_at.utcoffset() == timedelta(hours=2)
    assert programme.notes == [
        "all.json: category 'Sponsors' is not read: it names no track, format, level or language",
        "all.json: category 'Topic' is not read: 'Tracks' gives the track",
    ]
    assert programme.speakers == [
        Speaker(
            key="sp-1",
            name="Ada Lovelace",
            position="Analyst",
            company="Analytical Engines",
            bio="Wrote the first program.",
            avatar_url="https://example.org/ada.jpg",
        ),
        Speaker(key="sp-2", name="Alan Turing"),  # fullName null: first and last name
    ]


def test_several_items_of_one_category_keep_the_first_by_sort() -> None:
    entry = session_entry("1", categoryItems=[101, 102], startsAt="2026-06-02T10:00:00Z")
    programme = parse_doc(export([entry]))
    assert programme.sessions[0].track == "Data"
    assert programme.warnings == [
        "all.json: sessions[0] 'Session 1' has several track values ('Data', 'Compilers'); "
        "kept 'Data'"
    ]


def test_unknown_category_item_is_a_warning() -> None:
    entry = session_entry("1", categoryItems=[999], startsAt="2026-06-02T10:00:00Z")
    programme = parse_doc(export([entry]))
    assert programme.sessions[0].track == ""
    assert programme.warnings == [
        "all.json: sessions[0].categoryItems[0] 999 is not an item of any category the file "
        "defines; ignored"
    ]


def test_unscheduled_session_is_kept_for_review() -> None:
    entry = session_entry("42", roomId=5, endsAt="2026-06-02T10:30:00Z")
    session = parse_doc(export([entry])).sessions[0]
    assert session == Session(
        key="42",
        title="Session 42",
        room="Room A",
        needs_review=True,
        review_note="Sessionize gives it no start time (startsAt is null): schedule it.",
    )


def test_service_session_kind_comes_from_a_format_category_when_given() -> None:
    entry = session_entry(
        "b", isServiceSession=True, categoryItems=[111], startsAt="2026-06-02T12:00:00Z"
    )
    assert parse_doc(export([entry])).sessions[0].kind == "Talk"


def test_status() -> None:
    sessions = [
        session_entry("1", status="Accepted", startsAt="2026-06-02T10:00:00Z"),
        session_entry("2", status="Declined", startsAt="2026-06-02T10:00:00Z"),
        session_entry("3", status="Nominated", startsAt="2026-06-02T10:00:00Z"),
    ]
    one, two, three = parse_doc(export(sessions)).sessions
    assert (one.is_cancelled, one.needs_review) == (False, False)
    assert (two.is_cancelled, two.needs_review) == (True, False)
    assert (three.is_cancelled, three.needs_review) == (False, True)
    assert three.review_note == "Its Sessionize status is 'Nominated', not Accepted."


def test_numeric_ids_and_speaker_objects_are_accepted() -> None:
    entry = session_entry(17, speakers=[{"id": "sp-2", "name": "Alan Turing"}], roomId="6")
    session = parse_doc(export([entry])).sessions[0]
    assert (session.key, session.room, session.speakers) == (
        "17",
        "Room B",
        (SessionSpeaker("sp-2"),),
    )


def test_naive_times_mixed_with_offsets() -> None:
    sessions = [
        session_entry("1", startsAt="2026-03-29T09:00:00", endsAt="2026-03-29T09:30:00"),
        session_entry("2", startsAt="2026-03-29T07:00:00Z"),
    ]
    programme = parse_doc(export(sessions), default_timezone="Europe/Paris")
    assert programme.timezone == "Europe/Paris"
    first, second = programme.sessions
    assert first.starts_at == datetime(2026, 3, 29, 7, 0, tzinfo=UTC)  # CEST since 02:00
    assert second.starts_at == datetime(2026, 3, 29, 7, 0, tzinfo=UTC)
    assert second.ends_at is None


def test_naive_time_the_clocks_skip_moves_forward_with_a_warning() -> None:
    entry = session_entry("1", startsAt="2026-03-29T02:30:00", endsAt="2026-03-29T03:30:00")
    programme = parse_doc(export([entry]), default_timezone="Europe/Paris")
    session = programme.sessions[0]
    assert session.starts_at == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert session.ends_at == session.starts_at  # 03:30 CEST
    assert programme.warnings == [
        "all.json: sessions[0].startsAt '2026-03-29T02:30:00' does not exist in Europe/Paris "
        "(the clocks skip it); read as 03:30"
    ]


# --- refusals -------------------------------------------------------------------------------

EXPECTED_SHAPES = (
    "expected view/All (an object with 'sessions', 'speakers', 'categories' and 'rooms'), "
    "view/Sessions (a list of groups with 'groupName' and 'sessions') or view/GridSmart (a "
    "list of days with 'date', 'rooms' and 'timeSlots')"
)


def refusal(data: bytes, **kwargs: Any) -> str:
    with pytest.raises(ParseError) as caught:
        parse(data, source="all.json", **kwargs)
    return str(caught.value)


def test_invalid_json_names_line_and_column() -> None:
    data = b'{\n  "sessions": [\n    {"id": 1,}\n  ]\n}\n'
    with pytest.raises(ParseError) as caught:
        parse(data, source="all.json")
    assert caught.value.line == 3
    assert str(caught.value) == (
        "all.json, line 3: not valid JSON: Expecting property name enclosed in double quotes "
        "(column 14)"
    )


def test_invalid_json_after_a_bom_counts_columns_without_it() -> None:
    assert refusal(b"\xef\xbb\xbf{,}") == (
        "all.json, line 1: not valid JSON: Expecting property name enclosed in double quotes "
        "(column 2)"
    )


def test_not_utf8() -> None:
    assert refusal(b'{"sessions": [],\n "x": "caf\xe9"}') == (
        "all.json, line 2: not UTF-8 text (byte 27 cannot be decoded); a Sessionize export "
        "must be UTF-8"
    )


def test_top_level_list() -> None:
    assert refusal(b"[1, 2]") == (
        "all.json: not a Sessionize export: the top level is a list of values starting with a "
        f"number; {EXPECTED_SHAPES}"
    )
    assert refusal(dump([{"schedule": {}}])) == (
        "all.json: not a Sessionize export: the top level is a list of objects with no "
        f"'sessions', 'rooms' or 'timeSlots'; {EXPECTED_SHAPES}"
    )


def test_empty_list_is_refused_as_holding_no_sessions() -> None:
    assert refusal(b"[]") == (
        "all.json: the export is an empty list: it holds no sessions (Sessionize's "
        "view/GridSmart stays [] until the schedule is published)"
    )


def test_top_level_string() -> None:
    assert refusal(b'"sessions"') == (
        f"all.json: not a Sessionize export: the top level is a string; {EXPECTED_SHAPES}"
    )


def test_other_json_object_names_what_it_holds() -> None:
    data = dump({"$schema": "schema.json", "schedule": {"version": "1"}})
    assert refusal(data) == (
        "all.json: not a Sessionize export: the top-level object holds '$schema', 'schedule' "
        f"but no 'sessions' or 'speakers' or 'rooms'; {EXPECTED_SHAPES}"
    )


def test_sessions_not_a_list() -> None:
    assert (
        refusal(dump(export(sessions={}))) == "all.json: 'sessions' is an object; expected a list"
    )


def test_unparseable_start_names_the_json_path() -> None:
    sessions = [
        session_entry(str(n), startsAt="2026-06-02T10:00:00Z", endsAt="2026-06-02T10:30:00Z")
        for n in range(13)
    ]
    sessions[12]["startsAt"] = "2026-06-31T10:00:00Z"
    assert refusal(dump(export(sessions))) == (
        "all.json: sessions[12].startsAt '2026-06-31T10:00:00Z' is not a date-time (expected "
        "ISO 8601 such as 2020-03-28T08:00:00 or 2017-05-27T09:00:00Z)"
    )
    sessions[12]["startsAt"] = "10:00"
    assert refusal(dump(export(sessions))) == (
        "all.json: sessions[12].startsAt '10:00' is not a date-time (expected ISO 8601 such as "
        "2020-03-28T08:00:00 or 2017-05-27T09:00:00Z)"
    )
    sessions[12]["startsAt"] = 1780394400
    assert refusal(dump(export(sessions))) == (
        "all.json: sessions[12].startsAt 1780394400 is not a date-time (expected ISO 8601 such "
        "as 2020-03-28T08:00:00 or 2017-05-27T09:00:00Z)"
    )


def test_unparseable_end() -> None:
    entry = session_entry("1", startsAt="2026-06-02T10:00:00Z", endsAt="soon")
    assert refusal(dump(export([entry]))) == (
        "all.json: sessions[0].endsAt 'soon' is not a date-time (expected ISO 8601 such as "
        "2020-03-28T08:00:00 or 2017-05-27T09:00:00Z)"
    )


def test_end_before_start() -> None:
    entry = session_entry("1", startsAt="2026-06-02T10:00:00Z", endsAt="2026-06-02T09:00:00Z")
    assert refusal(dump(export([entry]))) == (
        "all.json: sessions[0].endsAt '2026-06-02T09:00:00Z' is before sessions[0].startsAt "
        "'2026-06-02T10:00:00Z'"
    )


def test_undefined_room() -> None:
    sessions = [session_entry("1"), session_entry("2", roomId=999)]
    assert refusal(dump(export(sessions))) == (
        "all.json: sessions[1].roomId 999 is not one of the rooms the file defines"
    )


def test_undefined_speaker() -> None:
    sessions = [session_entry("1", speakers=["sp-1", "sp-404"])]
    assert refusal(dump(export(sessions))) == (
        "all.json: sessions[0].speakers[1] 'sp-404' is not one of the speakers the file defines"
    )


def test_duplicate_session_id() -> None:
    sessions = [session_entry("1"), session_entry("2"), session_entry("1")]
    assert refusal(dump(export(sessions))) == (
        "all.json: sessions[2].id '1' is also the id of sessions[0]; session ids must be unique"
    )


def test_session_without_title_or_id() -> None:
    entry = session_entry("1")
    del entry["title"]
    assert refusal(dump(export([entry]))) == (
        "all.json: sessions[0].title is null; expected the session's title"
    )
    assert refusal(dump(export([session_entry(None)]))) == (
        "all.json: sessions[0].id is null; expected an id (a string or a number)"
    )
    assert refusal(dump(export(["talk"]))) == (
        "all.json: sessions[0] is a string; expected an object"
    )


def test_naive_times_without_zone_and_with_a_bad_zone() -> None:
    entry = session_entry("1", startsAt="2026-06-02T10:00:00")
    assert refusal(dump(export([entry]))) == (
        "all.json: the times have no UTC offset (sessions[0].startsAt is '2026-06-02T10:00:00') "
        "and a Sessionize export names no time zone; give the event's time zone with "
        "--timezone, e.g. --timezone America/New_York"
    )
    assert refusal(dump(export([entry])), default_timezone="Mars/Olympus") == (
        "all.json: the times have no UTC offset and the time zone given cannot read them: "
        "unknown time zone 'Mars/Olympus': give an IANA name such as Europe/Paris"
    )


# --- sniffing -------------------------------------------------------------------------------


def head_of(data: bytes) -> str:
    return data[:200_000].decode("utf-8", errors="replace").lstrip("\ufeff")


@pytest.mark.shared
def test_looks_like_real_files(shared_dir: Path) -> None:
    samples = shared_dir / "formats" / "samples"
    assert looks_like(head_of((samples / "sessionize/orlando-codecamp-2020_All.json").read_bytes()))
    assert looks_like(head_of((samples / "sessionize/sessionize-demo_All.json").read_bytes()))
    for other in (
        "c3voc-json/pretalx-democon.json",
        "c3voc-json/frab-camp2019.json",
        "frab-xml/giggity_debconf23.xml",
        "ics/giggity_linux_conf_au_2020.ics",
    ):
        assert not looks_like(head_of((samples / other).read_bytes())), other


def test_looks_like_hand_built_and_other_text() -> None:
    assert looks_like(dump(export()).decode())
    # No sessions: still recognised by Sessionize's speaker keys ("categoryItems").
    assert looks_like(dump(export(sessions=[])).decode())
    # Nothing only Sessionize writes: not claimed.
    assert not looks_like('{"sessions": [], "speakers": [], "rooms": []}')
    sched_text = demo_files()[0][1].decode("utf-8")
    assert not looks_like(sched_text)
    assert not looks_like((ROOT / "docs" / "csv-template.csv").read_text("utf-8-sig"))
    assert not looks_like(dump([{"groupName": "All", "sessions": []}]).decode())
    assert not looks_like('{"schedule": {"conference": {"days": []}}, "sessions": []}')


# --- hardening: the audit's crash inputs, ranges, zones, JSON types ------------------------


@pytest.mark.shared
@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "repro_bigint.json",
            "repro_bigint.json: not a Sessionize export: a number in it is too long (Exceeds "
            "the limit (4300 digits) for integer string conversion: value has 5000 digits; use "
            "sys.set_int_max_str_digits() to increase the limit)",
        ),
        (
            "repro_deep.json",
            "repro_deep.json: not a Sessionize export: its JSON is nested too deeply",
        ),
        (
            "repro_overflow_year1.json",
            "repro_overflow_year1.json: sessions[0].startsAt '0001-01-01T00:00:00' is out of "
            "range: a time must fall between 0001-01-02 and 9999-12-30 (UTC)",
        ),
    ],
)
def test_audit_crash_inputs_are_refused(shared_dir: Path, name: str, message: str) -> None:
    path = shared_dir / "audit" / "importer-crashes" / "sessionize-json" / name
    with pytest.raises(ParseError) as caught:
        parse(path.read_bytes(), source=name, default_timezone="Europe/Paris")
    assert str(caught.value) == message


RANGE = "is out of range: a time must fall between 0001-01-02 and 9999-12-30 (UTC)"


@pytest.mark.parametrize(
    ("starts_at", "zone", "message"),
    [
        ("9999-12-31T23:59:00-23:59", "", f"sessions[0].startsAt '9999-12-31T23:59:00-23:59' {RANGE}"),
        ("0001-01-01T00:00:00+23:59", "", f"sessions[0].startsAt '0001-01-01T00:00:00+23:59' {RANGE}"),
        ("9999-12-31 10:00:00", "Pacific/Kiritimati", f"sessions[0].startsAt '9999-12-31 10:00:00' {RANGE}"),
        ("9999-12-30T00:00:01Z", "", f"sessions[0].startsAt '9999-12-30T00:00:01Z' {RANGE}"),
    ],
)  # fmt: skip
def test_times_near_the_ends_of_the_calendar_are_refused(
    starts_at: str, zone: str, message: str
) -> None:
    entry = session_entry("1", startsAt=starts_at)
    assert refusal(dump(export([entry])), default_timezone=zone) == f"all.json: {message}"


def test_an_end_out_of_range_is_named() -> None:
    entry = session_entry("1", startsAt="2026-06-02T10:00:00Z", endsAt="9999-12-31T23:00:00Z")
    assert refusal(dump(export([entry]))) == (
        f"all.json: sessions[0].endsAt '9999-12-31T23:00:00Z' {RANGE}"
    )


def test_times_at_the_ends_of_the_range_are_read() -> None:
    entry = session_entry("1", startsAt="0001-01-02T00:00:00Z", endsAt="9999-12-30T00:00:00Z")
    session = parse_doc(export([entry])).sessions[0]
    assert (session.starts_at, session.ends_at) == (
        datetime(1, 1, 2, tzinfo=UTC),
        datetime(9999, 12, 30, tzinfo=UTC),
    )


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Europe", "'Europe'"),
        ("Etc", "'Etc'"),
        ("A" * 300, "'" + "A" * 64 + "…'"),
        ("a/" * 300 + "b", "'" + "a/" * 32 + "…'"),
        ("../../etc/passwd", "'../../etc/passwd'"),
    ],
)
def test_zone_names_that_are_not_iana_zones_are_refused(zone: str, shown: str) -> None:
    entry = session_entry("1", startsAt="2026-06-02T10:00:00")
    assert refusal(dump(export([entry])), default_timezone=zone) == (
        "all.json: the times have no UTC offset and the time zone given cannot read them: "
        f"unknown time zone {shown}: give an IANA name such as Europe/Paris"
    )


def test_wrong_json_types_name_the_path() -> None:
    doc = export()
    doc["categories"][1]["items"] = "Talk"
    assert refusal(dump(doc)) == "all.json: categories[1].items is a string; expected a list"
    entry = session_entry("1", speakers={"id": "sp-1"})
    assert refusal(dump(export([entry]))) == (
        "all.json: sessions[0].speakers is an object; expected a list of speaker ids"
    )
    assert refusal(dump(export(rooms=[12]))) == (
        "all.json: rooms[0] is a number; expected an object"
    )
    entry = session_entry("1", categoryItems=[[101]])
    assert refusal(dump(export([entry]))) == (
        "all.json: sessions[0].categoryItems[0] is a list; expected an id (a string or a number)"
    )
    assert refusal(dump(export([session_entry("1", roomId=1.5)]))) == (
        "all.json: sessions[0].roomId is a number; expected an id (a string or a number)"
    )


# --- the track category, however the question is put ---------------------------------------


@pytest.mark.parametrize(
    ("title", "facet"),
    [
        ("Track", "track"),
        ("Tracks", "track"),
        ("Track / Topic", "track"),
        ("Which track?", "track"),
        ("Conference track", "track"),
        ("Thema/Track", "track"),
        ("Parcours", "track"),
        ("Stream", "track"),
        ("THÉMATIQUE", "track"),
        ("Catégorie", "track"),
        ("Topic", "track"),
        ("Session format", "kind"),
        ("Talk type", "kind"),
        ("Track type", "kind"),  # equally sure words: the last one, the head noun
        ("Track level", "level"),
        ("Niveau", "level"),
        ("Difficulty", "level"),
        ("Sprache", "language"),
        ("Language of the talk", "language"),
        ("Sponsors", ""),
        ("Streaming", ""),  # whole words only: not a stream of talks
    ],
)
def test_category_title_words_choose_the_facet(title: str, facet: str) -> None:
    doc = export([session_entry("1", categoryItems=[201], startsAt="2026-06-02T10:00:00Z")])
    doc["categories"] = [{"id": 20, "title": title, "items": [{"id": 201, "name": "X"}]}]
    session = parse_doc(doc).sessions[0]
    values = {
        "kind": session.kind,
        "track": session.track,
        "level": session.level,
        "language": session.language,
    }
    assert values == {name: "X" if name == facet else "" for name in values}


def test_the_surest_track_title_wins_then_sort() -> None:
    doc = export([session_entry("1", categoryItems=[1, 2, 3, 4, 5], startsAt=None)])
    doc["categories"] = [
        {"id": 20, "title": "Topic", "sort": 0, "items": [{"id": 1, "name": "AI"}]},
        {"id": 21, "title": "Category", "sort": 1, "items": [{"id": 2, "name": "Web"}]},
        {"id": 22, "title": "Tracks", "sort": 4, "items": [{"id": 3, "name": "Compilers"}]},
        {"id": 23, "title": "Which track?", "sort": 3, "items": [{"id": 4, "name": "Data"}]},
        {"id": 24, "title": "Stream", "sort": 2, "items": [{"id": 5, "name": "Main"}]},
    ]
    programme = parse_doc(doc)
    assert programme.sessions[0].track == "Data"
    assert programme.notes == [
        "all.json: category 'Topic' is not read: 'Which track?' gives the track",
        "all.json: category 'Category' is not read: 'Which track?' gives the track",
        "all.json: category 'Stream' is not read: 'Which track?' gives the track",
        "all.json: category 'Tracks' is not read: 'Which track?' gives the track",
    ]


# --- view/Sessions and view/GridSmart ---------------------------------------------------------


def listed_session(key: str, **fields: Any) -> dict[str, Any]:
    """A session as view/Sessions and view/GridSmart write it."""
    entry: dict[str, Any] = {
        "id": key,
        "title": f"Session {key}",
        "description": None,
        "startsAt": None,
        "endsAt": None,
        "isServiceSession": False,
        "isPlenumSession": False,
        "speakers": [],
        "categories": [],
        "roomId": None,
        "room": None,
        "liveUrl": None,
        "recordingUrl": None,
        "status": "Accepted",
        "isInformed": True,
        "isConfirmed": True,
    }
    entry.update(fields)
    return entry


TRACK = {"id": 10, "name": "Which track?", "sort": 1}
FORMAT = {"id": 11, "name": "Session format", "sort": 0}
COMPILERS_TALK = listed_session(
    "101",
    title="Compilers for everyone",
    description="A tour of the passes.\r\n",
    startsAt="2026-06-02T10:00:00",
    endsAt="2026-06-02T10:45:00",
    speakers=[{"id": "sp-1", "name": "Ada Lovelace"}],
    categories=[
        {**TRACK, "categoryItems": [{"id": 101, "name": "Compilers"}]},
        {**FORMAT, "categoryItems": [{"id": 111, "name": "Talk"}]},
    ],
    roomId=5,
    room="Room A",
)
LUNCH = listed_session(
    "0d5c7a52-3f55-4c43-9d0e-5e2a1b0c7f11",
    title="Lunch",
    startsAt="2026-06-02T12:00:00",
    endsAt="2026-06-02T13:00:00",
    isServiceSession=True,
    isPlenumSession=True,
    roomId=7,
    room="Main Hall",
    status=None,
)
DATA_TALK = listed_session(
    "102",
    title="Data at rest",
    speakers=[{"id": "sp-2", "name": "Alan Turing"}, {"id": "sp-1", "name": "Ada Lovelace"}],
    categories=[{**TRACK, "categoryItems": [{"id": 102, "name": "Data"}]}],
    status="Waitlisted",
)
PARIS = ZoneInfo("Europe/Paris")
EXPECTED_LISTED = [
    Session(
        key="101",
        title="Compilers for everyone",
        kind="Talk",
        abstract="A tour of the passes.",
        starts_at=datetime(2026, 6, 2, 10, 0, tzinfo=PARIS),
        ends_at=datetime(2026, 6, 2, 10, 45, tzinfo=PARIS),
        room="Room A",
        track="Compilers",
        speakers=(SessionSpeaker("sp-1"),),
    ),
    Session(
        key="0d5c7a52-3f55-4c43-9d0e-5e2a1b0c7f11",
        title="Lunch",
        kind="Service",
        starts_at=datetime(2026, 6, 2, 12, 0, tzinfo=PARIS),
        ends_at=datetime(2026, 6, 2, 13, 0, tzinfo=PARIS),
        room="Main Hall",
    ),
    Session(
        key="102",
        title="Data at rest",
        track="Data",
        speakers=(SessionSpeaker("sp-2"), SessionSpeaker("sp-1")),
        needs_review=True,
        review_note=(
            "Sessionize gives it no start time (startsAt is null): schedule it. "
            "Its Sessionize status is 'Waitlisted', not Accepted."
        ),
    ),
]


def test_view_sessions_export_is_read() -> None:
    doc = [
        {
            "groupId": None,
            "groupName": "All",
            "sessions": [COMPILERS_TALK, LUNCH, DATA_TALK],
            "isDefault": True,
        }
    ]
    programme = parse(dump(doc), source="sessions.json", default_timezone="Europe/Paris")
    assert programme.sessions == EXPECTED_LISTED
    # No tag lines, bios or photos here: a re-import keeps those of an earlier view/All.
    assert programme.carries == LIST_SHAPE_CARRIES
    assert "speaker.bio" not in LIST_SHAPE_CARRIES
    assert programme.speakers == [
        Speaker(key="sp-1", name="Ada Lovelace"),
        Speaker(key="sp-2", name="Alan Turing"),
    ]
    assert programme.rooms == ["Room A", "Main Hall"]
    assert programme.timezone == "Europe/Paris"
    assert (programme.start_date, programme.end_date) == (date(2026, 6, 2), date(2026, 6, 2))
    assert programme.warnings == []
    assert programme.notes == [
        "sessions.json: times have no UTC offset; read as local times in Europe/Paris"
    ]


def test_view_sessions_grouped_by_track_reads_each_session_once() -> None:
    both = {
        **COMPILERS_TALK,
        "categories": [
            {
                **TRACK,
                "categoryItems": [{"id": 102, "name": "Data"}, {"id": 101, "name": "Compilers"}],
            }
        ],
    }
    doc = [
        {"groupId": 102, "groupName": "Data", "sessions": [both, DATA_TALK], "isDefault": False},
        {"groupId": 101, "groupName": "Compilers", "sessions": [both], "isDefault": False},
    ]
    programme = parse(dump(doc), source="sessions.json", default_timezone="Europe/Paris")
    assert [(session.key, session.track) for session in programme.sessions] == [
        ("101", "Data"),
        ("102", "Data"),
    ]
    # Said once, though the session is written twice.
    assert programme.warnings == [
        "sessions.json: [0].sessions[0] 'Compilers for everyone' has several track values "
        "('Data', 'Compilers'); kept 'Data'"
    ]


def grid_day(
    date_text: str, rooms: list[dict[str, Any]], slots: list[dict[str, Any]]
) -> dict[str, Any]:
    return {"date": date_text, "isDefault": False, "rooms": rooms, "timeSlots": slots}


def grid_room(room_id: int, name: str, sessions: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": room_id, "name": name, "sessions": sessions, "hasOnlyPlenumSessions": False}


def grid_slot(start: str, *cells: tuple[int, str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "slotStart": start,
        "rooms": [
            {"id": room_id, "name": name, "session": session, "index": index}
            for index, (room_id, name, session) in enumerate(cells)
        ],
    }


def test_view_gridsmart_export_is_read() -> None:
    keynote = listed_session(
        "100",
        title="Keynote",
        startsAt="2026-06-03T07:00:00Z",
        endsAt="2026-06-03T08:00:00Z",
        isPlenumSession=True,
        speakers=[{"id": "sp-3", "name": "Grace Hopper"}],
        roomId=7,
        room="Main Hall",
    )
    utc_talk = {
        **COMPILERS_TALK,
        "startsAt": "2026-06-02T08:00:00Z",
        "endsAt": "2026-06-02T08:45:00Z",
    }
    utc_lunch = {**LUNCH, "startsAt": "2026-06-02T10:00:00Z", "endsAt": "2026-06-02T11:00:00Z"}
    doc = [
        grid_day(
            "2026-06-02T00:00:00",
            [grid_room(5, "Room A", [utc_talk]), grid_room(7, "Main Hall", [utc_lunch])],
            [
                grid_slot("08:00:00", (5, "Room A", utc_talk)),
                grid_slot("10:00:00", (7, "Main Hall", utc_lunch)),
            ],
        ),
        grid_day(
            "2026-06-03T00:00:00",
            [grid_room(7, "Main Hall", [keynote]), grid_room(6, "Room B", [])],
            [grid_slot("07:00:00", (7, "Main Hall", keynote))],
        ),
    ]
    programme = parse(dump(doc), source="grid.json", default_timezone="Europe/Paris")
    assert programme.sessions == [
        Session(
            key="101",
            title="Compilers for everyone",
            kind="Talk",
            abstract="A tour of the passes.",
            starts_at=datetime(2026, 6, 2, 8, 0, tzinfo=UTC),
            ends_at=datetime(2026, 6, 2, 8, 45, tzinfo=UTC),
            room="Room A",
            track="Compilers",
            speakers=(SessionSpeaker("sp-1"),),
        ),
        Session(
            key="0d5c7a52-3f55-4c43-9d0e-5e2a1b0c7f11",
            title="Lunch",
            kind="Service",
            starts_at=datetime(2026, 6, 2, 10, 0, tzinfo=UTC),
            ends_at=datetime(2026, 6, 2, 11, 0, tzinfo=UTC),
            room="Main Hall",
        ),
        Session(
            key="100",
            title="Keynote",
            starts_at=datetime(2026, 6, 3, 7, 0, tzinfo=UTC),
            ends_at=datetime(2026, 6, 3, 8, 0, tzinfo=UTC),
            room="Main Hall",
            speakers=(SessionSpeaker("sp-3"),),
        ),
    ]
    assert programme.rooms == ["Room A", "Main Hall", "Room B"]
    assert programme.speakers == [
        Speaker(key="sp-1", name="Ada Lovelace"),
        Speaker(key="sp-3", name="Grace Hopper"),
    ]
    assert programme.timezone == ""  # every time has its offset
    assert (programme.start_date, programme.end_date) == (date(2026, 6, 2), date(2026, 6, 3))
    assert programme.warnings == []
    assert programme.notes == []


def test_gridsmart_copies_of_a_session_must_agree() -> None:
    renamed = {**LUNCH, "title": "Long lunch"}
    doc = [
        grid_day(
            "2026-06-02T00:00:00",
            [grid_room(7, "Main Hall", [LUNCH])],
            [grid_slot("12:00:00", (7, "Main Hall", renamed))],
        )
    ]
    assert refusal(dump(doc), default_timezone="Europe/Paris") == (
        "all.json: [0].timeSlots[0].rooms[0].session.id '0d5c7a52-3f55-4c43-9d0e-5e2a1b0c7f11' "
        "is also the id of [0].rooms[0].sessions[0], whose title differs; copies of one session "
        "must agree"
    )


def test_list_shapes_name_the_json_path_of_a_wrong_type() -> None:
    broken = {**COMPILERS_TALK, "categories": [{**TRACK, "categoryItems": ["Compilers"]}]}
    assert refusal(dump([{"groupId": 1, "groupName": "All", "sessions": [broken]}])) == (
        "all.json: [0].sessions[0].categories[0].categoryItems[0] is a string; expected an object"
    )
    assert refusal(dump([{"groupId": 1, "groupName": "All", "sessions": {}}])) == (
        "all.json: [0].sessions is an object; expected a list of sessions"
    )
    assert refusal(dump([{"groupName": "All"}])) == (
        "all.json: [0] has no 'sessions'; a view/Sessions export is a list of groups, each with "
        "'groupName' and 'sessions'"
    )
    speakerless = {**COMPILERS_TALK, "speakers": ["sp-1"]}
    assert refusal(dump([{"groupId": 1, "groupName": "All", "sessions": [speakerless]}])) == (
        "all.json: [0].sessions[0].speakers[0] is a string; expected an object"
    )
    day = grid_day("2026-06-02T00:00:00", [], [{"slotStart": "10:00:00", "rooms": {}}])
    assert refusal(dump([day])) == "all.json: [0].timeSlots[0].rooms is an object; expected a list"
    assert refusal(dump([day | {"timeSlots": []}, "2026-06-03"])) == (
        "all.json: [1] is a string; expected an object"
    )
    day = grid_day(
        "2026-06-02T00:00:00", [grid_room(5, "Room A", [{**LUNCH, "startsAt": "noon"}])], []
    )
    assert refusal(dump([day])) == (
        "all.json: [0].rooms[0].sessions[0].startsAt 'noon' is not a date-time (expected ISO "
        "8601 such as 2020-03-28T08:00:00 or 2017-05-27T09:00:00Z)"
    )


def test_list_shapes_are_recognised() -> None:
    from confsched.interchange.formats import detect_format

    sessions_view = dump([{"groupId": None, "groupName": "All", "sessions": [LUNCH]}])
    grid_view = dump([grid_day("2026-06-02T00:00:00", [grid_room(7, "Main Hall", [LUNCH])], [])])
    empty_grid_day = dump([grid_day("2026-06-02T00:00:00", [], [])])
    for data in (sessions_view, grid_view, empty_grid_day):
        assert looks_like(data.decode())
        assert detect_format("export.json", data).name == "sessionize-json"
    # Only the start of a big export reaches the sniffer: the first day's keys suffice.
    assert looks_like(grid_view.decode()[:200])
    assert not looks_like("[]")
    assert not looks_like(dump([{"date": "2026-06-02", "rooms": []}]).decode())
    assert not looks_like(dump([{"id": 1, "title": "A list of other things"}]).decode())
