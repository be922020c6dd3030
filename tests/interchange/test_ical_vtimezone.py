"""Issue 29 item 8: every calendar's VTIMEZONE holds for every date.

vobject (and Radicale, built on it) keeps the first VTIMEZONE it reads for a TZID and applies it
to every calendar it reads after it in the same process. A block bounded to one calendar's
years put another calendar's sessions an hour off (79 of frab-camp2019's 79 when 38C3's
calendar, also Europe/Berlin, was read first).
"""

from __future__ import annotations

import dataclasses
import io
import zoneinfo
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import vobject
from dateutil import tz

from confsched.interchange.formats import parse_files
from confsched.interchange.ical.vtimezone import vtimezone
from confsched.interchange.ical.write import render_ical
from confsched.interchange.programme import Programme, Session
from tests.conftest import demo_files

DOMAIN = "confsched.example"
# Samples whose times carry no offset are read in the zone their organizers would give.
ZONES = {
    "mttcrsp-fosdem_2007.xml": "Europe/Brussels",
    "orlando-codecamp-2020_All.json": "America/New_York",
}


def programme(zone: str, *starts: datetime) -> Programme:
    return Programme(
        name=f"{zone} {starts[0].year}",
        timezone=zone,
        sessions=[
            Session(
                key=f"s{number}",
                title=f"Session {number}",
                room="Room 1",
                starts_at=start,
                ends_at=start + timedelta(minutes=45),
            )
            for number, start in enumerate(starts)
        ],
    )


# One zone in several years, each calendar on its own side of a change of offset; the rule
# that moves a change to the Friday before a Sunday (Jerusalem), past midnight (Santiago) or
# before it (Nuuk); the southern hemisphere.
MADE = [
    programme("Europe/Berlin", datetime(2019, 8, 21, 10, tzinfo=UTC)),
    programme("Europe/Berlin", datetime(2024, 12, 27, 10, tzinfo=UTC)),
    programme("Europe/Berlin", datetime(2031, 7, 1, 8, tzinfo=UTC)),
    programme("Europe/Berlin", datetime(2007, 2, 24, 9, tzinfo=UTC)),
    programme("America/New_York", datetime(2020, 3, 7, 15, tzinfo=UTC)),
    programme("America/New_York", datetime(2026, 3, 9, 15, tzinfo=UTC)),
    programme("Australia/Sydney", datetime(2020, 1, 14, 23, tzinfo=UTC)),
    programme("Australia/Sydney", datetime(2026, 7, 1, 1, tzinfo=UTC)),
    programme("Asia/Jerusalem", datetime(2025, 3, 28, 9, tzinfo=UTC)),
    programme("Asia/Jerusalem", datetime(2012, 3, 28, 9, tzinfo=UTC)),
    programme("America/Santiago", datetime(2030, 9, 8, 15, tzinfo=UTC)),
    programme("America/Santiago", datetime(2019, 1, 8, 15, tzinfo=UTC)),
    programme("America/Nuuk", datetime(2028, 3, 26, 12, tzinfo=UTC)),
    programme("America/Nuuk", datetime(2015, 12, 1, 12, tzinfo=UTC)),
]


def instants(calendars: list[tuple[Programme, bytes]]) -> tuple[int, list[str]]:
    """Every event of `calendars` read in this one process, in their order: how many, and
    those whose start or end is not their session's."""
    count, wrong = 0, []
    for made, data in calendars:
        sessions = {f"{session.key}@{DOMAIN}": session for session in made.sessions}
        for event in vobject.readOne(data.decode()).vevent_list:
            session = sessions[event.uid.value]
            assert session.starts_at is not None
            count += 1
            if (event.dtstart.value, event.dtend.value) != (
                session.starts_at,
                session.ends_at or session.starts_at,
            ):
                wrong.append(f"{made.name}: {event.uid.value} at {event.dtstart.value}")
    return count, wrong


def render(made: Programme) -> bytes:
    return render_ical(made, uid_domain=DOMAIN, calendar_name=made.name)


@pytest.mark.parametrize("order", ["as listed", "reversed"])
def test_vobject_reads_every_calendar_in_one_process_at_its_sessions_times(
    order: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # vobject's registry of zones by TZID starts empty, as in a fresh process.
    monkeypatch.setattr(vobject.icalendar, "__tzidMap", {})
    calendars = [(made, render(made)) for made in MADE]
    if order == "reversed":
        calendars.reverse()
    assert instants(calendars) == (len(MADE), [])


@pytest.mark.shared
@pytest.mark.parametrize("order", ["as listed", "reversed"])
def test_vobject_reads_the_demo_and_every_shared_sample_in_one_process(
    order: str, shared_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vobject.icalendar, "__tzidMap", {})
    programmes = [
        parse_files([(path.name, path.read_bytes())], default_timezone=ZONES.get(path.name, ""))
        for path in sorted((shared_dir / "formats" / "samples").glob("*/*"))
    ]
    programmes.append(dataclasses.replace(parse_files(demo_files()), timezone="Europe/Paris"))
    programmes = [
        dataclasses.replace(
            made, sessions=[session for session in made.sessions if not session.needs_review]
        )
        for made in programmes
    ]
    calendars = [(made, render(made)) for made in programmes]
    if order == "reversed":
        calendars.reverse()
    expected = sum(
        len({session.key for session in made.sessions if session.starts_at is not None})
        for made in programmes
    )
    # Two calendars in Europe/Berlin, 2019 (frab-camp2019) and 2024 (38C3), among 2,249 events.
    assert instants(calendars) == (expected, [])
    assert expected == 2249


def test_one_zone_gets_the_same_block_whatever_the_years() -> None:
    blocks = {
        render(made).split(b"BEGIN:VTIMEZONE")[1].split(b"END:VTIMEZONE")[0]
        for made in MADE
        if made.timezone == "Europe/Berlin"
    }
    assert len(blocks) == 1
    block = blocks.pop().decode()
    assert "only works" not in block
    assert "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3" in block.replace("\r\n ", "")
    assert "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10" in block.replace("\r\n ", "")


@pytest.mark.parametrize(
    ("zone", "rule"),
    [
        ("Europe/Paris", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"),
        ("America/New_York", "FREQ=YEARLY;BYDAY=2SU;BYMONTH=3"),
        ("Australia/Sydney", "FREQ=YEARLY;BYDAY=1SU;BYMONTH=10"),
        ("Asia/Jerusalem", "FREQ=YEARLY;BYDAY=FR;BYMONTHDAY=23,24,25,26,27,28,29;BYMONTH=3"),
        ("America/Santiago", "FREQ=YEARLY;BYDAY=SU;BYMONTHDAY=2,3,4,5,6,7,8;BYMONTH=9"),
        ("America/Nuuk", "FREQ=YEARLY;BYDAY=SA;BYMONTHDAY=24,25,26,27,28,29,30;BYMONTH=3"),
        ("Asia/Kolkata", ""),
    ],
)
def test_the_block_gives_the_zones_offset_from_1990_to_2100(zone: str, rule: str) -> None:
    """Read by dateutil (vobject's reader of VTIMEZONEs), at noon UTC every third day."""
    block = vtimezone(zoneinfo.ZoneInfo(zone))
    assert block is not None
    text = block.to_ical().decode()
    if rule:
        assert f"RRULE:{rule}" in text.replace("\r\n ", "")
    else:
        assert "RRULE" not in text
    read = tz.tzical(io.StringIO(f"BEGIN:VCALENDAR\r\n{text}END:VCALENDAR\r\n")).get()
    wrong = []
    moment = datetime(1990, 1, 1, 12, tzinfo=UTC)
    while moment.year <= 2100:  # noqa: PLR2004
        expected = moment.astimezone(zoneinfo.ZoneInfo(zone))
        if moment.astimezone(read).utcoffset() != expected.utcoffset():
            wrong.append(expected.isoformat())
        moment += timedelta(days=3)
    assert wrong == []


def test_a_session_before_1970_moves_the_blocks_start_back() -> None:
    old = render(programme("Europe/Paris", datetime(1962, 5, 3, 12, tzinfo=UTC)))
    assert b"DTSTART:19620101T000000" in old
    assert vobject.readOne(old.decode()).vevent.dtstart.value == datetime(
        1962, 5, 3, 12, tzinfo=UTC
    )
