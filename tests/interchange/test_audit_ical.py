"""The audit's crash inputs for the iCalendar, xCal and Sched-page readers (issue 7, items 5
and 6), read as `confsched import --timezone Europe/Paris` reads them: each ends in a parsed
programme or in a ParseError naming the place, never in a traceback or minutes of CPU.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from confsched.core.errors import ParseError
from confsched.interchange.ical import read as ical_reader
from confsched.interchange.ical import xcal_read as xcal
from confsched.interchange.programme import Programme, Session
from confsched.interchange.sched.read import parse_sched_pages

PARIS = ZoneInfo("Europe/Paris")
UNTITLED = "an event with no UID and no SUMMARY: no title, shown as 'Untitled event'"


def audit_file(shared_dir: Path, folder: str, name: str) -> tuple[str, bytes]:
    path = shared_dir / "audit" / "importer-crashes" / folder / name
    return name, path.read_bytes()


def read_ical(shared_dir: Path, name: str) -> Programme:
    name, data = audit_file(shared_dir, "ical", name)
    return ical_reader.parse(data, source=name, default_timezone="Europe/Paris")


def refusal(parse, data: bytes, name: str) -> str:  # noqa: ANN001
    with pytest.raises(ParseError) as caught:
        parse(data, source=name, default_timezone="Europe/Paris")
    return str(caught.value)


def untitled(key: str) -> Session:
    return Session(key=key, title="Untitled event")


# iCalendar


@pytest.mark.shared
def test_value_parameter_the_library_trips_over_is_a_warning(shared_dir: Path) -> None:
    # "BEGIN:VEVENT\rD;D=;VALUE=,:": VALUE=, is a list, on which the library calls .upper()
    # (AttributeError in parameter.py). In a file with LF line ends a bare CR is content
    # (issue 14, item 7), so the BEGIN line names no VEVENT and the file is refused; with the
    # CR as a line end the property is a warning.
    name, data = audit_file(
        shared_dir,
        "ical",
        "min_AttributeError_interchange_ical_reader.py_L124_parameter.py_L212.ics",
    )
    assert refusal(ical_reader.parse, data, name) == (
        f"{name}, line 5: END:VEVENT does not close BEGIN:VEVENT\rD;D=;VALUE=,: of line 4"
    )
    programme = ical_reader.parse(
        data.replace(b"\r", b"\n"), source=name, default_timezone="Europe/Paris"
    )
    assert programme.sessions == [untitled("untitled-event"), untitled("untitled-event-2")]
    assert programme.warnings == [
        f"{name}, line 5: an event with no UID and no SUMMARY: 'D;D=;VALUE=,:' ignored: the "
        "iCalendar library cannot read it (AttributeError: 'list' object has no attribute "
        "'upper')",
        f"{name}, line 2: {UNTITLED}",
        f"{name}, line 4: {UNTITLED}",
        f"{name}, line 4: an event with no UID and no SUMMARY repeats the identity of another "
        "event; kept as untitled-event-2",
    ]


@pytest.mark.shared
def test_binary_tzid_of_an_unused_vtimezone_is_never_read(shared_dir: Path) -> None:
    # "TZID;VALUE=BINARY;G=:" made the library's zone cache call .strip() on bytes.
    name = "min_AttributeError_interchange_ical_reader.py_L124_tzp.py_L140.ics"
    programme = read_ical(shared_dir, name)
    assert programme.sessions == [untitled("untitled-event")]
    assert programme.warnings == [f"{name}, line 5: {UNTITLED}"]


@pytest.mark.shared
def test_long_tzid_never_reaches_the_file_system(shared_dir: Path) -> None:
    # DTEND;TZID=AAAA… (300 characters): the library opened tzdata/zoneinfo/AAAA… (OSError).
    # The event has no DTSTART: it is kept unscheduled, its DTEND unused.
    name = "min_OSError_interchange_ical_reader.py_L124_pathlib.py_L1044.ics"
    programme = read_ical(shared_dir, name)
    assert programme.sessions == [untitled("untitled-event")]
    assert programme.warnings == [f"{name}, line 2: {UNTITLED}"]


@pytest.mark.shared
def test_long_x_wr_timezone_is_ignored_with_a_warning(shared_dir: Path) -> None:
    name = "min_OSError_interchange_ical_reader.py_L577_pathlib.py_L1044.ics"
    programme = read_ical(shared_dir, name)
    assert programme.sessions == []
    assert programme.timezone == ""
    assert programme.warnings == [
        f"{name}: X-WR-TIMEZONE ignored: unknown time zone '{'TCUT' + 'UTCU' + 'TCU' * 18 + 'TC'}…': "
        "give an IANA name such as Europe/Paris",
        f"{name}: the calendar has no events",
    ]


@pytest.mark.shared
def test_nested_zone_name_is_ignored_and_floating_times_use_the_default(
    shared_dir: Path,
) -> None:
    # X-WR-TIMEZONE:a/a/…/b (300 levels): ZoneInfo recursed through importlib.
    name = "repro_RecursionError_zone_a_slash_x300.ics"
    programme = read_ical(shared_dir, name)
    assert programme.sessions == [
        Session(
            key="1",
            title="t",
            starts_at=datetime(2026, 4, 7, 10, 0, tzinfo=PARIS),
            ends_at=datetime(2026, 4, 7, 10, 0, tzinfo=PARIS),
        )
    ]
    assert programme.timezone == ""
    assert programme.warnings == [
        f"{name}: X-WR-TIMEZONE ignored: unknown time zone '{'a/' * 32}…': give an IANA name "
        "such as Europe/Paris"
    ]
    assert programme.notes == [f"{name}: floating times read in Europe/Paris"]


@pytest.mark.shared
def test_duration_past_the_year_9999_is_refused_naming_the_event(shared_dir: Path) -> None:
    name, data = audit_file(
        shared_dir,
        "ical",
        "min_OverflowError_interchange_ical_reader.py_L530_ical_reader.py_L530.ics",
    )
    assert refusal(ical_reader.parse, data, name) == (
        f"{name}, line 4: an event with no UID and no SUMMARY: 'DTSTART;T=:20200114T163500' "
        "plus 'DURATION:P9999999D' falls outside the dates confsched can show in every time "
        "zone (0001-01-02 to 9999-12-30, UTC)"
    )


@pytest.mark.shared
def test_2500_events_sharing_one_uid_each_get_a_key(shared_dir: Path) -> None:
    # 2,500 copies of one event: each copy used to probe "-2", "-3" … up to its own number.
    name = "dup_uid_2500.ics"
    programme = read_ical(shared_dir, name)
    assert [session.key for session in programme.sessions] == ["same@x"] + [
        f"same@x-{number}" for number in range(2, 2501)
    ]
    assert len(programme.warnings) == 2499
    assert programme.warnings[0] == (
        f"{name}, line 9: event 'same@x' ('t') repeats the identity of another event; kept "
        "as same@x-2"
    )
    assert programme.warnings[-1] == (
        f"{name}, line 12499: event 'same@x' ('t') repeats the identity of another event; "
        "kept as same@x-2500"
    )


# xCal


@pytest.mark.shared
def test_xcal_with_an_unknown_encoding_is_refused(shared_dir: Path) -> None:
    name, data = audit_file(shared_dir, "xcal", "min_LookupError_interchange_xcal.py_L187.xcal")
    assert data == b"<?xml version='' encoding='e'?>"
    assert refusal(xcal.parse, data, name) == (
        f"{name}: the XML declares the encoding 'e', which confsched does not know; save the "
        "file as UTF-8"
    )


@pytest.mark.shared
def test_xcal_with_a_long_x_wr_timezone_reads_its_event(shared_dir: Path) -> None:
    name, data = audit_file(shared_dir, "xcal", "min_OSError_interchange_ical_reader.py_L577.xcal")
    programme = xcal.parse(data, source=name, default_timezone="Europe/Paris")
    assert programme.sessions == [
        Session(
            key="untitled-event-2023-09-10-1100",
            title="Untitled event",
            starts_at=datetime(2023, 9, 10, 11, 0, tzinfo=PARIS),
            ends_at=datetime(2023, 9, 10, 11, 20, tzinfo=PARIS),
        )
    ]
    assert programme.warnings == [
        f"{name}: X-WR-TIMEZONE ignored: unknown time zone '{'A' * 64}…': give an IANA name "
        "such as Europe/Paris",
        f"{name}: {UNTITLED}",
    ]


# Sched pages


@pytest.mark.shared
def test_sched_page_with_40000_spaces_is_read_whole(shared_dir: Path) -> None:
    # A session page with a run of 40,000 spaces in its abstract: "\s*Read More →\s*$" retried
    # at every one of them (18 s); plain string checks read the line once.
    name, data = audit_file(shared_dir, "sched-pages", "redos_40000_spaces.txt")
    text = data.decode()
    programme = parse_sched_pages([(name, data)])
    (session,) = programme.sessions
    assert session.key == "sched-page-5e0061328317"
    assert session.title == f"Untitled session page ({name})"
    assert session.needs_review is True
    paragraphs = session.abstract.split("\n\n")
    assert len(paragraphs) == 3
    assert paragraphs[1] == text.splitlines()[4].strip()
    assert paragraphs[1].count(" " * 40000) == 1
    assert paragraphs[2].endswith("contributing to project Brainwave...")  # "Read More →" gone
    assert len(session.abstract) == 41481
    assert programme.warnings == []
