"""Issue 29 items 9 and 14: the calendar exports as Giggity reads them (tests/interchange/
giggity.py, shaped like its parser).

Before: Giggity dropped the 18 sessions without a room (and the programme without a venue) of
the shared samples' .ics ("Invalid event, some attributes are missing": no LOCATION), listed a
cancelled session as any other (it ignores STATUS), and read the xCal dialect's times as
floating, in the phone's zone: 1,592 of the 2,249 sessions shifted on a phone set to UTC.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from confsched.interchange.formats import parse_files
from confsched.interchange.ical.read import parse as parse_ical
from confsched.interchange.ical.write import render_ical
from confsched.interchange.ical.xcal_read import parse as parse_xcal
from confsched.interchange.ical.xcal_write import render, render_pentabarf
from confsched.interchange.programme import Programme, Session
from tests.conftest import demo_files
from tests.interchange.giggity import Read, read_ical, read_xcal

DOMAIN = "confsched.example"
CEST = timezone(timedelta(hours=2))
ZONES = {
    "mttcrsp-fosdem_2007.xml": "Europe/Brussels",
    "orlando-codecamp-2020_All.json": "America/New_York",
}
PHONES = [ZoneInfo("UTC"), ZoneInfo("America/Los_Angeles"), ZoneInfo("Asia/Tokyo")]


def programme(location: str = "") -> Programme:
    """A talk in a room, one without a room (and no venue), one cancelled, in Paris."""
    start = datetime(2026, 6, 2, 10, 0, tzinfo=CEST)
    return Programme(
        name="Small Conf",
        timezone="Europe/Paris",
        location=location,
        sessions=[
            Session(
                key="in-a-room",
                title="In a room",
                kind="Keynote",
                room="Room 1",
                starts_at=start,
                ends_at=start + timedelta(minutes=30),
            ),
            Session(
                key="no-room",
                title="Somewhere",
                starts_at=start + timedelta(hours=1),
                ends_at=start + timedelta(hours=2),
            ),
            Session(
                key="called-off",
                title="Called off",
                kind="Workshop",
                room="Room 2",
                is_cancelled=True,
                starts_at=start + timedelta(hours=3),
                ends_at=start + timedelta(hours=4),
            ),
        ],
    )


def ics(made: Programme) -> bytes:
    return render_ical(made, uid_domain=DOMAIN, calendar_name=made.name)


def xcal(made: Programme) -> bytes:
    return render_pentabarf(made, slug="small", uid_domain=DOMAIN)


def as_giggity_shows(read: Read) -> list[tuple[str, str, datetime, datetime]]:
    return [
        (item.title, item.location, item.starts_at.astimezone(UTC), item.ends_at.astimezone(UTC))
        for item in read.items
    ]


@pytest.mark.parametrize("phone", PHONES, ids=str)
@pytest.mark.parametrize("form", ["ics", "xcal"])
def test_giggity_lists_every_session_at_its_time_and_a_cancelled_one_as_cancelled(
    form: str, phone: ZoneInfo
) -> None:
    data = ics(programme()) if form == "ics" else xcal(programme())
    read = (read_ical if form == "ics" else read_xcal)(data, phone_zone=phone)
    assert read.dropped == [] and read.unparsed == 0
    assert as_giggity_shows(read) == [
        ("Keynote: In a room", "Room 1", datetime(2026, 6, 2, 8, tzinfo=UTC),
         datetime(2026, 6, 2, 8, 30, tzinfo=UTC)),
        # iCalendar: the calendar's name; the dialect: the room alone, empty (as frab's).
        ("Somewhere", "Small Conf" if form == "ics" else "", datetime(2026, 6, 2, 9, tzinfo=UTC),
         datetime(2026, 6, 2, 10, tzinfo=UTC)),
        ("Cancelled: Workshop: Called off", "Room 2", datetime(2026, 6, 2, 11, tzinfo=UTC),
         datetime(2026, 6, 2, 12, tzinfo=UTC)),
    ]  # fmt: skip


def test_the_ics_always_has_a_location_and_the_xcal_names_the_zone() -> None:
    calendar = ics(programme()).decode().replace("\r\n ", "")
    assert calendar.count("BEGIN:VEVENT") == calendar.count("\r\nLOCATION:") == 3
    assert "\r\nLOCATION:Small Conf\r\n" in calendar  # no room, no venue: the calendar's name
    assert "SUMMARY:Cancelled: Workshop: Called off\r\n" in calendar
    assert "STATUS:CANCELLED" in calendar
    dialect = xcal(programme()).decode()
    assert '<dtstart tzid="Europe/Paris">20260602T100000</dtstart>' in dialect
    assert '<dtend tzid="Europe/Paris">20260602T103000</dtend>' in dialect
    # Without a zone, UTC with a "Z": no zone to name.
    utc = xcal(dataclasses.replace(programme(), timezone="")).decode()
    assert "<dtstart>20260602T080000Z</dtstart>" in utc and "tzid" not in utc


@pytest.mark.parametrize("form", ["ics", "xcal", "rfc6321"])
def test_confsched_reads_its_own_cancelled_session_back_under_its_title(form: str) -> None:
    made = programme()
    if form == "ics":
        back = parse_ical(ics(made), source="x.ics")
    elif form == "xcal":
        back = parse_xcal(xcal(made), source="x.xcal")
    else:
        back = parse_xcal(render(made, slug="small", uid_domain=DOMAIN), source="x.xcal")
    sessions = {session.title: session for session in back.sessions}
    assert sorted(sessions) == ["Called off", "In a room", "Somewhere"]
    assert {title: session.room for title, session in sessions.items()} == {
        "Called off": "Room 2",
        "In a room": "Room 1",
        "Somewhere": "",
    }
    assert sessions["Called off"].kind == "Workshop"
    assert sessions["Called off"].is_cancelled
    assert not sessions["In a room"].is_cancelled
    assert sessions["Called off"].starts_at == datetime(2026, 6, 2, 11, tzinfo=UTC)


def test_the_dialects_tzid_wins_over_x_wr_timezone_when_read() -> None:
    written = xcal(programme()).replace(
        b"<x-wr-timezone>Europe/Paris</x-wr-timezone>",
        b"<x-wr-timezone>Asia/Tokyo</x-wr-timezone>",
    )
    back = parse_xcal(written, source="x.xcal")
    assert {s.title: s.starts_at for s in back.sessions}["In a room"] == datetime(
        2026, 6, 2, 8, tzinfo=UTC
    )


@pytest.mark.shared
@pytest.mark.parametrize("form", ["ics", "xcal"])
def test_giggity_reads_every_session_of_the_demo_and_the_shared_samples(
    form: str, shared_dir: Path
) -> None:
    programmes = [
        parse_files([(path.name, path.read_bytes())], default_timezone=ZONES.get(path.name, ""))
        for path in sorted((shared_dir / "formats" / "samples").glob("*/*"))
    ]
    programmes.append(dataclasses.replace(parse_files(demo_files()), timezone="Europe/Paris"))
    written = shifted = 0
    dropped: list[list[str]] = []
    for made in programmes:
        wanted = {
            f"{session.key}@{DOMAIN}": session
            for session in made.sessions
            if session.starts_at is not None and not session.needs_review
        }
        written += len(wanted)
        data = ics(made) if form == "ics" else xcal(made)
        read = (read_ical if form == "ics" else read_xcal)(data, phone_zone=ZoneInfo("UTC"))
        dropped += read.dropped
        for item in read.items:
            session = wanted[item.uid]
            shifted += (item.starts_at, item.ends_at) != (
                session.starts_at,
                session.ends_at or session.starts_at,
            )
    assert (written, dropped, shifted) == (2249, [], 0)
