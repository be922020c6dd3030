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
from confsched.interchange.sessionize import (
    DESCRIPTION,
    FORMAT_NAME,
    looks_like,
    parse,
    split_tag_line,
)
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
        "at column 14"
    )


def test_invalid_json_after_a_bom_counts_columns_without_it() -> None:
    assert refusal(b"\xef\xbb\xbf{,}") == (
        "all.json, line 1: not valid JSON: Expecting property name enclosed in double quotes "
        "at column 2"
    )


def test_not_utf8() -> None:
    assert refusal(b'{"sessions": [],\n "x": "caf\xe9"}') == (
        "all.json, line 2: not UTF-8 text (byte 27 cannot be decoded); a Sessionize export is UTF-8"
    )


def test_top_level_list() -> None:
    assert refusal(b"[1, 2]") == (
        "all.json: not a Sessionize export: the top level is a list; expected a Sessionize "
        "view/All export: an object with 'sessions', 'speakers', 'categories' and 'rooms'"
    )


def test_view_sessions_export_is_named() -> None:
    data = dump([{"groupId": None, "groupName": "All", "sessions": []}])
    assert refusal(data) == (
        "all.json: this is Sessionize's view/Sessions export (a list of session groups), which "
        "has no rooms or speaker details; export view/All instead"
    )


def test_top_level_string() -> None:
    assert refusal(b'"sessions"') == (
        "all.json: not a Sessionize export: the top level is a string; expected a Sessionize "
        "view/All export: an object with 'sessions', 'speakers', 'categories' and 'rooms'"
    )


def test_other_json_object_names_what_it_holds() -> None:
    data = dump({"$schema": "schema.json", "schedule": {"version": "1"}})
    assert refusal(data) == (
        "all.json: not a Sessionize export: the top-level object holds '$schema', 'schedule' "
        "but no 'sessions' or 'speakers' or 'rooms'; expected a Sessionize view/All export: "
        "an object with 'sessions', 'speakers', 'categories' and 'rooms'"
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
        "all.json: the times have no UTC offset and the time zone given, 'Mars/Olympus', is "
        "not an IANA time zone (e.g. America/New_York, Europe/Paris)"
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
