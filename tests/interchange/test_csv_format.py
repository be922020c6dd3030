"""The CSV format: the documented template, spreadsheet dialects, every refusal, the writer, round trips."""

from __future__ import annotations

import csv
import dataclasses
import io
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from confsched.core.errors import ParseError
from confsched.interchange.csv.read import (
    COLUMNS,
    DESCRIPTION,
    FORMAT_NAME,
    looks_like,
    parse,
    split_speaker,
)
from confsched.interchange.csv.write import render
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.sched.read import parse_sched_pages
from tests.conftest import ROOT, demo_files

PARIS = ZoneInfo("Europe/Paris")
TEMPLATE = ROOT / "docs" / "csv-template.csv"
HEADER = (
    "key,title,kind,starts_at,ends_at,timezone,room,track,level,language,speakers,abstract,slides,"
    "links,seats"
)
# The template shows every column but links and seats (each column but title and starts_at is
# optional).
TEMPLATE_HEADER = HEADER.removesuffix(",links,seats")
TIME_HINT = "(expected e.g. 2026-04-07T11:00 or 2026-04-07 11:00+02:00)"


def parse_text(text: str, **kwargs: Any) -> Programme:
    return parse(text.encode("utf-8"), source="sessions.csv", **kwargs)


def refusal(text: str | bytes, **kwargs: Any) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(ParseError) as caught:
        parse(data, source="sessions.csv", **kwargs)
    return str(caught.value)


def sessions_view(programme: Programme) -> list[tuple[Any, ...]]:
    """What a round trip keeps: the published sessions, speakers by name and company."""
    speakers = {speaker.key: speaker for speaker in programme.speakers}
    return sorted(
        (
            session.key,
            session.title,
            session.kind,
            session.starts_at,
            session.ends_at,
            session.room,
            session.track,
            session.level,
            session.language,
            session.abstract,
            session.has_slides,
            tuple(
                (
                    speakers[billing.speaker_key].name,
                    billing.affiliation or speakers[billing.speaker_key].company,
                )
                for billing in session.speakers
            ),
        )
        for session in programme.sessions
        if session.starts_at and not session.is_cancelled and not session.needs_review
    )


def test_public_names() -> None:
    assert FORMAT_NAME == "csv"
    assert "CSV" in DESCRIPTION
    assert ",".join(COLUMNS) == HEADER


# --- the template ---------------------------------------------------------------------------


def test_template_is_a_header_and_two_rows_with_bom_and_crlf() -> None:
    data = TEMPLATE.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf" + TEMPLATE_HEADER.encode() + b"\r\n")
    records = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert len(records) == 3
    assert looks_like(data.decode("utf-8-sig"))


def test_template_parses_to_the_documented_sessions() -> None:
    programme = parse(TEMPLATE.read_bytes(), source="csv-template.csv")
    assert programme.sessions == [
        Session(
            key="opening-keynote",
            title="Opening keynote",
            kind="Keynote",
            abstract=(
                "Where open-source AI is going, and what it needs from us.\n\nA second "
                'paragraph: a value in double quotes may hold commas, "quotes" and new lines.'
            ),
            starts_at=datetime(2026, 4, 7, 9, 0, tzinfo=PARIS),
            ends_at=datetime(2026, 4, 7, 9, 45, tzinfo=PARIS),
            room="Grand Amphithéâtre",
            level="Any",
            language="en",
            has_slides=True,
            speakers=(SessionSpeaker("zoe-martin", "Inria"),),
        ),
        Session(
            key="compilers-for-everyone-2026-04-07-1000",  # no key: title and local start
            title="Compilers for everyone",
            kind="Talk",
            abstract="A tour of a small compiler, from parsing to code generation.",
            starts_at=datetime(2026, 4, 7, 8, 0, tzinfo=UTC),
            ends_at=datetime(2026, 4, 7, 8, 30, tzinfo=UTC),
            room="Room B",
            track="Compilers",
            level="Intermediate",
            language="fr",
            speakers=(
                SessionSpeaker("ada-lovelace", "Analytical Engines"),
                SessionSpeaker("alan-turing"),
            ),
        ),
    ]
    assert programme.speakers == [
        Speaker(key="zoe-martin", name="Zoë Martin", company="Inria"),
        Speaker(key="ada-lovelace", name="Ada Lovelace", company="Analytical Engines"),
        Speaker(key="alan-turing", name="Alan Turing"),
    ]
    assert programme.timezone == "Europe/Paris"
    assert programme.rooms == ["Grand Amphithéâtre", "Room B"]
    assert (programme.start_date, programme.end_date) == (date(2026, 4, 7), date(2026, 4, 7))
    assert (programme.warnings, programme.notes) == ([], [])


def test_line_numbers_count_the_lines_of_a_quoted_abstract() -> None:
    # The first row's abstract spans lines 2-4, so the second row starts on line 5.
    data = TEMPLATE.read_bytes().replace(b"2026-04-07T10:30+02:00", b"2026-04-07T09:30+02:00")
    with pytest.raises(ParseError) as caught:
        parse(data, source="csv-template.csv")
    assert str(caught.value) == (
        "csv-template.csv, line 5: ends_at '2026-04-07T09:30+02:00' is before starts_at "
        "'2026-04-07T10:00+02:00'"
    )
    assert caught.value.line == 5


# --- dialects -------------------------------------------------------------------------------

ROWS = [
    ["title", "starts_at", "ends_at", "room", "speakers", "abstract", "slides"],
    ["Ouverture", "2026-04-07 09:00", "2026-04-07 09:30", "Salle 1", "Zoë Martin (Inria)",
     "Bienvenue; café, croissants.\nDeuxième ligne \"citée\".", "yes"],
    ["Clôture", "2026-04-07T17:00+02:00", "", "Salle 1", "", "", "no"],
]  # fmt: skip


def sheet(*, delimiter: str = ",", newline: str = "\r\n", bom: bool = False) -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator=newline).writerows(ROWS)
    return (("\ufeff" if bom else "") + out.getvalue()).encode("utf-8")


def expected_sheet_sessions() -> list[Session]:
    return [
        Session(
            key="ouverture-2026-04-07-0900",
            title="Ouverture",
            abstract='Bienvenue; café, croissants.\nDeuxième ligne "citée".',
            starts_at=datetime(2026, 4, 7, 9, 0, tzinfo=PARIS),
            ends_at=datetime(2026, 4, 7, 9, 30, tzinfo=PARIS),
            room="Salle 1",
            has_slides=True,
            speakers=(SessionSpeaker("zoe-martin", "Inria"),),
        ),
        Session(
            key="cloture-2026-04-07-1700",
            title="Clôture",
            starts_at=datetime(2026, 4, 7, 17, 0, tzinfo=PARIS),
            room="Salle 1",
        ),
    ]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
@pytest.mark.parametrize("newline", ["\r\n", "\n"])
@pytest.mark.parametrize("bom", [False, True])
def test_delimiters_line_ends_and_bom(delimiter: str, newline: str, bom: bool) -> None:
    data = sheet(delimiter=delimiter, newline=newline, bom=bom)
    assert (data[:3] == b"\xef\xbb\xbf") is bom
    programme = parse(data, source="sessions.csv", default_timezone="Europe/Paris")
    assert programme.sessions == expected_sheet_sessions()
    assert programme.timezone == "Europe/Paris"  # the naive times needed it
    assert looks_like(data.decode("utf-8-sig"))


def test_semicolon_file_as_a_european_spreadsheet_writes_it() -> None:
    text = (
        "\ufefftitle;starts_at;ends_at;room;speakers;abstract\r\n"
        "Ouverture;2026-04-07 09:00;2026-04-07 09:30;Salle 1;Zoë Martin (Inria);Café, croissants\r\n"
        'Atelier;2026-04-07 10:00;2026-04-07 12:00;Salle 2;;"Deux lignes;\r\nici"\r\n'
    )
    programme = parse_text(text, default_timezone="Europe/Paris")
    assert [(s.title, s.room, s.abstract) for s in programme.sessions] == [
        ("Ouverture", "Salle 1", "Café, croissants"),
        ("Atelier", "Salle 2", "Deux lignes;\nici"),
    ]
    assert programme.sessions[1].ends_at == datetime(2026, 4, 7, 12, 0, tzinfo=PARIS)


def test_header_names_are_lenient_and_unknown_columns_ignored() -> None:
    text = (
        "Title, Starts at ,notes,ENDS-AT,Speaker email,\n"
        "Talk,2026-04-07T10:00Z,remember the cables,2026-04-07T10:30Z,ada@example.org,\n"
    )
    programme = parse_text(text)
    assert programme.sessions == [
        Session(
            key="talk-2026-04-07-1000",
            title="Talk",
            starts_at=datetime(2026, 4, 7, 10, 0, tzinfo=UTC),
            ends_at=datetime(2026, 4, 7, 10, 30, tzinfo=UTC),
        )
    ]
    assert programme.notes == ["sessions.csv: columns ignored: 'notes', 'Speaker email'"]
    assert programme.timezone == ""


def test_blank_rows_short_rows_and_trailing_empty_cells() -> None:
    text = "\n\ntitle,starts_at,room\nA,2026-04-07T10:00Z\n,,\n\nB,2026-04-07T11:00Z,R,,,\n"
    programme = parse_text(text)
    assert [(s.title, s.room) for s in programme.sessions] == [("A", ""), ("B", "R")]
    # Leading blank lines still count: the header is on line 3 here.
    assert refusal("\n\ntitle,starts_at\n,2026-04-07T10:00Z\n") == (
        "sessions.csv, line 4: title is empty; every session needs a title"
    )


def test_empty_start_keeps_the_session_unscheduled() -> None:
    programme = parse_text("title,starts_at,room\nCafé & Croissants,,Hall\n")
    assert programme.sessions == [
        Session(key="cafe-croissants", title="Café & Croissants", room="Hall")
    ]
    assert (programme.start_date, programme.end_date) == (None, None)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-04-07T11:00", datetime(2026, 4, 7, 11, 0, tzinfo=PARIS)),
        ("2026-04-07 11:00", datetime(2026, 4, 7, 11, 0, tzinfo=PARIS)),
        ("2026-04-07 9:05", datetime(2026, 4, 7, 9, 5, tzinfo=PARIS)),
        ("2026-04-07t11:00:30", datetime(2026, 4, 7, 11, 0, 30, tzinfo=PARIS)),
        ("2026-04-07 11:00+02:00", datetime(2026, 4, 7, 9, 0, tzinfo=UTC)),
        ("2026-04-07 11:00 +0100", datetime(2026, 4, 7, 10, 0, tzinfo=UTC)),
        ("2026-04-07T11:00-05", datetime(2026, 4, 7, 16, 0, tzinfo=UTC)),
        ("2026-04-07T11:00Z", datetime(2026, 4, 7, 11, 0, tzinfo=UTC)),
        ("2026-04-07T11:00:00.5+02:00", datetime(2026, 4, 7, 9, 0, 0, 500000, tzinfo=UTC)),
    ],
)
def test_time_forms(value: str, expected: datetime) -> None:
    programme = parse_text(f"title,starts_at\nT,{value}\n", default_timezone="Europe/Paris")
    assert programme.sessions[0].starts_at == expected


def test_offsets_need_no_zone_and_take_none() -> None:
    programme = parse_text(
        "title,starts_at\nT,2026-04-07T11:00+02:00\n", default_timezone="Asia/Tokyo"
    )
    assert programme.timezone == ""
    assert programme.sessions[0].starts_at.utcoffset().total_seconds() == 7200


def test_timezone_column() -> None:
    text = (
        "title,starts_at,timezone\n"
        "Naive,2026-04-07 11:00,America/New_York\n"
        "Offset wins,2026-04-07 11:00+01:00,America/New_York\n"
        "Default,2026-04-07 11:00,\n"
        "Other zone,2026-04-07 11:00,Asia/Tokyo\n"
    )
    programme = parse_text(text, default_timezone="Europe/Paris")
    assert [s.starts_at for s in programme.sessions] == [
        datetime(2026, 4, 7, 15, 0, tzinfo=UTC),
        datetime(2026, 4, 7, 10, 0, tzinfo=UTC),
        datetime(2026, 4, 7, 9, 0, tzinfo=UTC),
        datetime(2026, 4, 7, 2, 0, tzinfo=UTC),
    ]
    assert programme.timezone == "America/New_York"
    assert programme.warnings == [
        "sessions.csv: rows name several time zones (America/New_York, Asia/Tokyo); "
        "the programme's zone is America/New_York"
    ]


def test_a_local_time_the_clocks_skip_is_moved_forward_with_a_warning() -> None:
    programme = parse_text("title,starts_at\nT,2026-03-29 02:30\n", default_timezone="Europe/Paris")
    assert programme.sessions[0].starts_at == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert programme.sessions[0].starts_at.strftime("%H:%M%z") == "03:30+0200"
    assert programme.warnings == [
        "sessions.csv, line 2: starts_at '2026-03-29 02:30' does not exist in Europe/Paris "
        "(the clocks skip it); read as 03:30"
    ]


@pytest.mark.parametrize(
    ("cell", "expected"),
    [("yes", True), ("Y", True), ("TRUE", True), ("1", True), ("no", False), ("", False),
     ("0", False), ("false", False), ("N", False)],
)  # fmt: skip
def test_slides_values(cell: str, expected: bool) -> None:
    programme = parse_text(f"title,starts_at,slides\nT,,{cell}\n")
    assert programme.sessions[0].has_slides is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ada Lovelace (Analytical Engines)", ("Ada Lovelace", "Analytical Engines")),
        ("Ana Silva (Instituto (Lisboa))", ("Ana Silva", "Instituto (Lisboa)")),
        ("Jean (Johnny) Doe", ("Jean (Johnny) Doe", "")),
        ("Prince (The Artist) ()", ("Prince (The Artist)", "")),
        ("Alan Turing", ("Alan Turing", "")),
        ("Broken (paren))", ("Broken (paren))", "")),
    ],
)
def test_split_speaker(text: str, expected: tuple[str, str]) -> None:
    assert split_speaker(text) == expected


def test_speakers_are_merged_by_slug_of_name() -> None:
    text = (
        "title,starts_at,speakers\n"
        "One,,Zoe Martin (Inria); Bob;; Bob\n"
        "Two,,Zoë   Martin (Other); Bob (Acme)\n"
    )
    programme = parse_text(text)
    one, two = programme.sessions
    assert one.speakers == (SessionSpeaker("zoe-martin", "Inria"), SessionSpeaker("bob"))
    assert two.speakers == (SessionSpeaker("zoe-martin", "Other"), SessionSpeaker("bob", "Acme"))
    assert programme.speakers == [
        Speaker(key="zoe-martin", name="Zoe Martin", company="Inria"),
        Speaker(key="bob", name="Bob", company="Acme"),
    ]
    assert programme.warnings == [
        "sessions.csv, line 3: speaker 'Zoë Martin' has the same key as 'Zoe Martin' (line 2); "
        "taken as one person"
    ]


def test_formula_guard_is_dropped_on_reading() -> None:
    text = "title,starts_at,kind,abstract\n'=SUM(A1),,'hello,''Tis the season\n"
    session = parse_text(text).sessions[0]
    assert (session.title, session.kind, session.abstract) == (
        "=SUM(A1)",
        "'hello",
        "'Tis the season",
    )


# --- looks_like ---------------------------------------------------------------------------


def test_looks_like() -> None:
    assert looks_like("title,starts_at\n")
    assert looks_like('"Title";"Starts at";"Room"\r\nx;y;z')
    assert not looks_like("title,room,ends_at\nA,B,C\n")  # no starts_at
    assert not looks_like("room\ntitle,starts_at\n")  # not the first line
    assert not looks_like("The title, and starts_at, are here\n")
    assert not looks_like('{"sessions": [], "title": "x", "starts_at": "y"}')
    assert not looks_like("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert not looks_like(demo_files()[0][1].decode("utf-8"))
    assert not looks_like('<?xml version="1.0"?>\n<schedule>')
    assert not looks_like("")


# --- refusals -------------------------------------------------------------------------------


def test_refuses_an_empty_file() -> None:
    message = (
        "sessions.csv: the file is empty; expected a header row naming the columns (key, title, "
        "kind, starts_at, ends_at, timezone, room, track, level, language, speakers, abstract, "
        "slides, links, seats) and one row per session"
    )
    assert refusal(b"") == message
    assert refusal(b"\xef\xbb\xbf\r\n\r\n") == message


def test_refuses_missing_required_columns() -> None:
    assert refusal("name,start\nA,B\n") == (
        "sessions.csv, line 1: the header row has no 'title' and no 'starts_at' column (it names "
        "'name', 'start'); the first line must name the columns, at least title and starts_at"
    )
    assert refusal("title;room\nA;B\n") == (
        "sessions.csv, line 1: the header row has no 'starts_at' column (it names 'title', "
        "'room'); the first line must name the columns, at least title and starts_at"
    )


def test_refuses_a_column_named_twice() -> None:
    assert refusal("title,starts_at,Title\n") == (
        "sessions.csv, line 1: column 'title' appears twice in the header (columns 1 and 3)"
    )


def test_refuses_a_row_with_more_cells_than_the_header() -> None:
    assert refusal("title,starts_at\nHello, world,2026-04-07T10:00Z\n") == (
        "sessions.csv, line 2: 3 cells but the header has 2 columns; a value holding the "
        "delimiter must be in double quotes"
    )


def test_refuses_bad_quoting() -> None:
    assert refusal('title,starts_at\nA,2026-04-07T10:00Z\n"B,2026-04-07T11:00Z\nC,\n') == (
        "sessions.csv, line 3: badly quoted value (unexpected end of data): a value in double "
        "quotes must end with a double quote, and a double quote inside it is written twice "
        '("")'
    )
    assert refusal('title;starts_at\n"A" and B;2026-04-07T10:00Z\n') == (
        "sessions.csv, line 2: badly quoted value (';' expected after '\"'): a value in double "
        "quotes must end with a double quote, and a double quote inside it is written twice "
        '("")'
    )


def test_refuses_an_empty_title() -> None:
    assert refusal("title,starts_at,room\n,2026-04-07T10:00Z,Hall\n") == (
        "sessions.csv, line 2: title is empty; every session needs a title"
    )


def test_refuses_a_start_that_is_no_date_time_naming_its_line() -> None:
    text = (
        "title,starts_at,abstract\n"
        "One,2026-04-07 09:00,\n"
        'Two,2026-04-07 10:00,"three\nline\nabstract"\n'
        "Three,2026-04-07 11:00,\n"
        "Four,2026-13-01 10:00,\n"
    )
    assert refusal(text, default_timezone="Europe/Paris") == (
        f"sessions.csv, line 7: starts_at '2026-13-01 10:00' is not a date-time {TIME_HINT}"
    )


def test_a_refused_row_spanning_lines_is_named_by_its_first_line() -> None:
    text = 'title,abstract,starts_at\nOne,"a\nb\nc",2026-04-07 9h\n'
    assert refusal(text, default_timezone="Europe/Paris") == (
        f"sessions.csv, line 2: starts_at '2026-04-07 9h' is not a date-time {TIME_HINT}"
    )


@pytest.mark.parametrize(
    "value", ["2026-04-07", "07/04/2026 10:00", "10:00", "tomorrow", "2026-04-07 25:00"]
)
def test_refuses_other_non_date_times(value: str) -> None:
    assert refusal(f"title,starts_at\nT,{value}\n", default_timezone="Europe/Paris") == (
        f"sessions.csv, line 2: starts_at {value!r} is not a date-time {TIME_HINT}"
    )


def test_refuses_bad_ends() -> None:
    assert refusal("title,starts_at,ends_at\nT,2026-04-07T10:00Z,later\n") == (
        f"sessions.csv, line 2: ends_at 'later' is not a date-time {TIME_HINT}"
    )
    assert refusal("title,starts_at,ends_at\nT,2026-04-07T10:00Z,2026-04-07T09:59Z\n") == (
        "sessions.csv, line 2: ends_at '2026-04-07T09:59Z' is before starts_at '2026-04-07T10:00Z'"
    )
    assert refusal("title,starts_at,ends_at\nT,,2026-04-07T10:00Z\n") == (
        "sessions.csv, line 2: ends_at '2026-04-07T10:00Z' is given but starts_at is empty"
    )


def test_refuses_naive_times_without_a_zone() -> None:
    assert refusal("title,starts_at\nT,2026-04-07T10:00Z\nU,2026-04-07 10:00\n") == (
        "sessions.csv, line 3: starts_at '2026-04-07 10:00' has no UTC offset and no time zone "
        "is given for it; write the offset (2026-04-07 11:00+02:00), fill the timezone column "
        "(e.g. Europe/Paris) or import with --timezone"
    )


def test_refuses_unknown_zones() -> None:
    assert refusal("title,starts_at,timezone\nT,2026-04-07 10:00,Europe/Pari\n") == (
        "sessions.csv, line 2: timezone: unknown time zone 'Europe/Pari': give an IANA name "
        "such as Europe/Paris"
    )
    assert refusal("title,starts_at\nT,2026-04-07 10:00\n", default_timezone="Mars/Olympus") == (
        "sessions.csv, line 2: starts_at '2026-04-07 10:00' has no UTC offset and the time zone "
        "given cannot read it: unknown time zone 'Mars/Olympus': give an IANA name such as "
        "Europe/Paris"
    )


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Europe", "'Europe'"),
        ("Etc", "'Etc'"),
        ("A" * 300, "'" + "A" * 64 + "…'"),
        ("a/" * 300 + "b", "'" + "a/" * 32 + "…'"),
        ("../../etc/passwd", "'../../etc/passwd'"),
        ("/etc/localtime", "'/etc/localtime'"),
    ],
)
def test_refuses_zone_names_that_are_not_iana_zones(zone: str, shown: str) -> None:
    """Folders, paths and absurd lengths never reach the file system (they used to crash)."""
    message = f"unknown time zone {shown}: give an IANA name such as Europe/Paris"
    assert refusal(f"title,starts_at,timezone\nT,2026-04-07 10:00,{zone}\n") == (
        f"sessions.csv, line 2: timezone: {message}"
    )
    assert refusal("title,starts_at\nT,2026-04-07 10:00\n", default_timezone=zone) == (
        "sessions.csv, line 2: starts_at '2026-04-07 10:00' has no UTC offset and the time zone "
        f"given cannot read it: {message}"
    )


RANGE = "is out of range: a time must fall between 0001-01-02 and 9999-12-30 (UTC)"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("T,0001-01-01 00:00,", f"starts_at '0001-01-01 00:00' {RANGE}"),
        ("T,0001-01-01T00:00+23:59,", f"starts_at '0001-01-01T00:00+23:59' {RANGE}"),
        ("T,9999-12-31T23:59-23:59,", f"starts_at '9999-12-31T23:59-23:59' {RANGE}"),
        ("T,9999-12-30T00:00:01Z,", f"starts_at '9999-12-30T00:00:01Z' {RANGE}"),
        ("T,2026-04-07 10:00,9999-12-31 10:00", f"ends_at '9999-12-31 10:00' {RANGE}"),
    ],
)
def test_refuses_times_near_the_ends_of_the_calendar(row: str, message: str) -> None:
    text = f"title,starts_at,ends_at\n{row}\n"
    assert refusal(text, default_timezone="Europe/Paris") == f"sessions.csv, line 2: {message}"


def test_times_at_the_ends_of_the_range_are_read() -> None:
    programme = parse_text("title,starts_at,ends_at\nT,0001-01-02T00:00Z,9999-12-30T00:00Z\n")
    session = programme.sessions[0]
    assert (session.starts_at, session.ends_at) == (
        datetime(1, 1, 2, tzinfo=UTC),
        datetime(9999, 12, 30, tzinfo=UTC),
    )
    assert (programme.start_date, programme.end_date) == (date(1, 1, 2), date(1, 1, 2))


AUDIT_OUTCOMES = {
    "min_IsADirectoryError_interchange_csv_format.py_L317.csv": (
        "line 2: timezone: unknown time zone 'Europe': give an IANA name such as Europe/Paris"
    ),
    "min_OSError_interchange_csv_format.py_L317.csv": (
        "line 2: timezone: unknown time zone 'One of DebConf\u2019s recurring activities is the "
        "Key Signing Party. \u2026': give an IANA name such as Europe/Paris"
    ),
    "min_OverflowError_interchange_csv_format.py_L353.csv": (
        f"line 2: starts_at '0001-01-01T0:00' {RANGE}"
    ),
}


@pytest.mark.shared
@pytest.mark.parametrize("name", sorted(AUDIT_OUTCOMES))
def test_audit_crash_inputs_are_refused_naming_the_line(shared_dir: Path, name: str) -> None:
    path = shared_dir / "audit" / "importer-crashes" / "csv" / name
    with pytest.raises(ParseError) as caught:
        parse(path.read_bytes(), source=name, default_timezone="Europe/Paris")
    assert str(caught.value) == f"{name}, {AUDIT_OUTCOMES[name]}"


@pytest.mark.shared
def test_audit_room_longer_than_its_column_is_read_here_and_fitted_before_the_database(
    shared_dir: Path,
) -> None:
    """The CSV reader keeps the value; validate_programme fits it to the column (services)."""
    path = shared_dir / "audit" / "importer-crashes" / "csv" / "load" / "repro_room_201_chars.csv"
    programme = parse(path.read_bytes(), source=path.name, default_timezone="Europe/Paris")
    assert [(session.title, session.room) for session in programme.sessions] == [
        ("Talk", "R" * 201)
    ]
    assert programme.rooms == ["R" * 201]


def test_refuses_slides_other_than_yes_or_no() -> None:
    assert refusal("title,starts_at,slides\nT,,maybe\n") == (
        "sessions.csv, line 2: slides 'maybe' is not yes or no"
    )


def test_refuses_a_speaker_without_a_name() -> None:
    assert refusal("title,starts_at,speakers\nT,,Ada; (Acme)\n") == (
        "sessions.csv, line 2: speakers: '(Acme)' has no name before the parentheses"
    )


def test_refuses_duplicate_keys() -> None:
    assert refusal("key,title,starts_at\nk,A,\n,B,\nk,C,\n") == (
        "sessions.csv, line 4: key 'k' is also the key of line 2; give each session its own key"
    )
    # Two rows with one title and one start get one fallback key.
    assert refusal("title,starts_at\nBreak,2026-04-07T10:00Z\nBreak,2026-04-07T10:00Z\n") == (
        "sessions.csv, line 3: key 'break-2026-04-07-1000' is also the key of line 2; give each "
        "session its own key"
    )


def test_refuses_text_that_is_not_utf8() -> None:
    assert refusal(b"title,starts_at\nCaf\xe9,2026-04-07T10:00Z\n") == (
        "sessions.csv, line 2: not UTF-8 text (byte 19 cannot be decoded); save the sheet as "
        "'CSV UTF-8' (Excel) or with the character set 'Unicode (UTF-8)' (LibreOffice)"
    )


# --- render ---------------------------------------------------------------------------------


def small_programme() -> Programme:
    at_ten = datetime(2026, 6, 2, 10, 0, tzinfo=PARIS)
    return Programme(
        name="Small Conf",
        timezone="Europe/Paris",
        speakers=[
            Speaker(key="ada", name="Ada Lovelace", company="Analytical Engines"),
            Speaker(key="x", name="Smith; Jones"),
            Speaker(key="p", name="Prince (The Artist)"),
        ],
        sessions=[
            Session(
                key="b",
                title="=1+1",
                kind="Talk",
                abstract='- first point\nSecond line, with "quotes".',
                starts_at=datetime(2026, 6, 2, 8, 0, tzinfo=UTC),  # 10:00 in Paris
                ends_at=datetime(2026, 6, 2, 8, 30, 15, tzinfo=UTC),
                room="Room 1",
                speakers=(
                    SessionSpeaker("ada", "Royal Society"),
                    SessionSpeaker("x"),
                    SessionSpeaker("p"),
                ),
                has_slides=True,
            ),
            Session(key="0", title="Later", starts_at=datetime(2026, 6, 2, 11, 0, tzinfo=PARIS)),
            Session(key="a", title="Opening", starts_at=at_ten, language="fr"),
            Session(key="c", title="Cancelled", starts_at=at_ten, is_cancelled=True),
            Session(key="d", title="Review", starts_at=at_ten, needs_review=True),
            Session(key="e", title="Unscheduled"),
        ],
    )


def test_render_exact_bytes() -> None:
    assert render(small_programme(), slug="small").decode("utf-8") == (
        "\ufeff" + HEADER + "\r\n"
        "a,Opening,,2026-06-02T10:00+02:00,,Europe/Paris,,,,fr,,,no,,\r\n"
        "b,'=1+1,Talk,2026-06-02T10:00+02:00,2026-06-02T10:30:15+02:00,Europe/Paris,Room 1,,,,"
        '"Ada Lovelace (Royal Society); Smith, Jones; Prince (The Artist) ()",'
        '"\'- first point\nSecond line, with ""quotes"".",yes,,\r\n'
        "0,Later,,2026-06-02T11:00+02:00,,Europe/Paris,,,,,,,no,,\r\n"
    )


def test_render_reads_back() -> None:
    back = parse(render(small_programme(), slug="small"), source="export.csv")
    assert [s.key for s in back.sessions] == ["a", "b", "0"]
    b = back.session("b")
    assert (b.title, b.abstract) == ("=1+1", '- first point\nSecond line, with "quotes".')
    assert [(back.speaker(s.speaker_key).name, s.affiliation) for s in b.speakers] == [
        ("Ada Lovelace", "Royal Society"),
        ("Smith, Jones", ""),  # ";" separates speakers, so it is written ","
        ("Prince (The Artist)", ""),
    ]
    assert back.timezone == "Europe/Paris"


def test_render_depends_on_the_programme_only() -> None:
    plain = render(small_programme(), slug="small")
    assert plain == render(
        small_programme(),
        slug="other",
        base_url="https://confsched.example",
        now=datetime(2030, 1, 1, tzinfo=UTC),
    )


def test_render_without_zone_writes_utc() -> None:
    programme = dataclasses.replace(small_programme(), timezone="")
    lines = render(programme, slug="small").decode("utf-8-sig").split("\r\n")
    assert lines[1] == "a,Opening,,2026-06-02T08:00+00:00,,,,,,fr,,,no,,"
    assert parse(render(programme, slug="small"), source="export.csv").timezone == ""


def test_render_refuses_an_unknown_zone() -> None:
    with pytest.raises(
        ValueError, match="unknown time zone 'Europe/Atlantis'; expected an IANA name"
    ):
        render(dataclasses.replace(small_programme(), timezone="Europe/Atlantis"), slug="small")


def test_render_empty_programme_is_the_header() -> None:
    assert render(Programme(), slug="empty") == ("\ufeff" + HEADER + "\r\n").encode()


# --- round trips ----------------------------------------------------------------------------


def night_programme() -> Programme:
    return Programme(
        timezone="Europe/Paris",
        speakers=[
            Speaker(key="sp-1", name="Zoë Martin", company="Inria", bio="Kept out of the CSV."),
            Speaker(key="sp-2", name="Alan Turing"),
        ],
        sessions=[
            Session(
                key="late",
                title="Past midnight",
                kind="Party",
                starts_at=datetime(2026, 6, 2, 23, 30, tzinfo=PARIS),
                ends_at=datetime(2026, 6, 3, 0, 30, tzinfo=PARIS),
                room="Bar",
            ),
            Session(
                key="zero",
                title="Group photo",
                starts_at=datetime(2026, 6, 2, 12, 0, tzinfo=PARIS),
                ends_at=datetime(2026, 6, 2, 12, 0, tzinfo=PARIS),
            ),
            Session(
                key="talk 1/é",
                title='@everyone: formulas, commas; and "quotes"',
                kind="'Tis a talk",
                abstract='=HYPERLINK("x")\n\nSecond paragraph.\r\n- a list item',
                starts_at=datetime(2026, 6, 2, 7, 0, 30, tzinfo=UTC),
                ends_at=datetime(2026, 6, 2, 7, 45, 0, 500000, tzinfo=UTC),
                room="Room 1",
                track="Compilers",
                level="Advanced",
                language="de",
                has_slides=True,
                speakers=(SessionSpeaker("sp-1", "ENS"), SessionSpeaker("sp-2")),
            ),
            Session(key="open", title="No end", starts_at=datetime(2026, 6, 3, 9, 0, tzinfo=PARIS)),
        ],
    )


def test_round_trip_hand_built_programme() -> None:
    programme = night_programme()
    back = parse(render(programme, slug="night"), source="night.csv")
    expected = sessions_view(programme)
    # CRLF in a source abstract is read back as LF.
    expected = [row[:9] + (row[9].replace("\r\n", "\n"),) + row[10:] for row in expected]
    assert sessions_view(back) == expected
    assert len(back.sessions) == 4
    assert back.timezone == "Europe/Paris"
    # Times come back in the programme's zone.
    assert back.session("talk 1/é").starts_at.isoformat() == "2026-06-02T09:00:30+02:00"
    assert back.session("late").ends_at.isoformat() == "2026-06-03T00:30:00+02:00"


def test_round_trip_demo_programme() -> None:
    programme = dataclasses.replace(parse_sched_pages(demo_files()), timezone="Europe/Paris")
    back = parse(render(programme, slug="pytorch-eu"), source="demo.csv")
    assert len(back.sessions) == 28  # 29 sessions, one flagged for review
    assert sessions_view(back) == sessions_view(programme)
    assert back.timezone == "Europe/Paris"
    assert any("\n" in session.abstract for session in back.sessions)
    assert sum(session.has_slides for session in back.sessions) == 2
