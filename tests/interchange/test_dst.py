"""Durations across a change of clocks, and local times the clocks skip, in every reader
(issue 14, item 11). Paris springs forward at 02:00 on 2026-03-29 (to 03:00) and falls back
at 03:00 on 2026-10-25 (to 02:00). A duration is real time: two hours from 01:30 end two
hours later, whatever the wall clock shows."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from confsched.interchange.c3voc import read as c3voc_json
from confsched.interchange.c3voc import schedule2_read as c3voc_schedule2
from confsched.interchange.csv import read as csv_format
from confsched.interchange.frab import read as frab_xml
from confsched.interchange.ical import read as ical_reader
from confsched.interchange.programme import Programme, Session
from confsched.interchange.sessionize import read as sessionize
from confsched.interchange.zones import plus_duration, wall_time

PARIS = ZoneInfo("Europe/Paris")
SPRING, AUTUMN = "2026-03-29", "2026-10-25"


def real_length(session: Session) -> timedelta:
    assert session.starts_at is not None and session.ends_at is not None
    return session.ends_at.astimezone(UTC) - session.starts_at.astimezone(UTC)


def utc(session: Session) -> tuple[datetime | None, datetime | None]:
    return (
        session.starts_at.astimezone(UTC) if session.starts_at else None,
        session.ends_at.astimezone(UTC) if session.ends_at else None,
    )


# The shared helpers


def test_plus_duration_adds_real_time() -> None:
    start = datetime(2026, 3, 29, 1, 30, tzinfo=PARIS)
    assert plus_duration(start, timedelta(hours=2)) == datetime(2026, 3, 29, 4, 30, tzinfo=PARIS)
    start = datetime(2026, 10, 25, 1, 30, tzinfo=PARIS)
    end = plus_duration(start, timedelta(hours=2))
    assert end.astimezone(UTC) == datetime(2026, 10, 25, 1, 30, tzinfo=UTC)  # 02:30 CET


def test_plus_duration_into_the_repeated_hour_still_ends_after_it_starts() -> None:
    # 02:45 CEST plus 30 minutes is 02:15 CET: a wall clock that went back.
    start = datetime(2026, 10, 25, 2, 45, tzinfo=PARIS)
    end = plus_duration(start, timedelta(minutes=30))
    assert end == datetime(2026, 10, 25, 1, 15, tzinfo=UTC)
    assert end > start


def test_wall_time_moves_a_skipped_time_forward() -> None:
    assert wall_time(datetime(2026, 3, 29, 2, 30), PARIS) == (  # noqa: DTZ001 - a wall time
        datetime(2026, 3, 29, 3, 30, tzinfo=PARIS),
        True,
    )
    assert wall_time(datetime(2026, 3, 29, 1, 30), PARIS) == (  # noqa: DTZ001 - a wall time
        datetime(2026, 3, 29, 1, 30, tzinfo=PARIS),
        False,
    )


# iCalendar


def ics(*events: str) -> bytes:
    body = "".join(f"BEGIN:VEVENT\n{event}END:VEVENT\n" for event in events)
    text = f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//t//EN\n{body}END:VCALENDAR\n"
    return text.replace("\n", "\r\n").encode()


@pytest.mark.parametrize("day", [SPRING, AUTUMN])
def test_ical_duration_from_0130_lasts_two_real_hours(day: str) -> None:
    stamp = day.replace("-", "")
    data = ics(f"UID:a\nSUMMARY:Night\nDTSTART;TZID=Europe/Paris:{stamp}T013000\nDURATION:PT2H\n")
    programme = ical_reader.parse(data, source="x.ics")
    session = programme.session("a")
    assert real_length(session) == timedelta(hours=2)  # was 1 hour in spring, 3 in autumn
    assert programme.warnings == []


def test_ical_floating_time_with_a_duration_lasts_its_real_length() -> None:
    data = ics("UID:a\nSUMMARY:Night\nDTSTART:20260329T013000\nDURATION:PT2H\n")
    session = ical_reader.parse(data, source="x.ics", default_timezone="Europe/Paris").session("a")
    assert utc(session) == (
        datetime(2026, 3, 29, 0, 30, tzinfo=UTC),
        datetime(2026, 3, 29, 2, 30, tzinfo=UTC),
    )


def test_ical_duration_of_a_day_is_a_calendar_day() -> None:
    # RFC 5545 3.3.6: a day is nominal; 09:00 plus P1D is 09:00 the next day, 23 real hours.
    data = ics("UID:a\nSUMMARY:Hack\nDTSTART;TZID=Europe/Paris:20260328T090000\nDURATION:P1D\n")
    session = ical_reader.parse(data, source="x.ics").session("a")
    assert session.ends_at == datetime(2026, 3, 29, 9, 0, tzinfo=PARIS)
    assert real_length(session) == timedelta(hours=23)


def test_ical_time_the_clocks_skip_is_warned_about() -> None:
    data = ics("UID:a\nSUMMARY:Gap\nDTSTART;TZID=Europe/Paris:20260329T023000\nDURATION:PT1H\n")
    programme = ical_reader.parse(data, source="x.ics")
    session = programme.session("a")
    assert utc(session) == (
        datetime(2026, 3, 29, 1, 30, tzinfo=UTC),
        datetime(2026, 3, 29, 2, 30, tzinfo=UTC),
    )
    assert programme.warnings == [
        "x.ics, line 7: event 'a' ('Gap'): 'DTSTART;TZID=Europe/Paris:20260329T023000' does not "
        "exist in Europe/Paris (the clocks skip it); read as 03:30"
    ]


# frab XML


def frab(events: str, *, day: str = SPRING) -> bytes:
    return (
        "<schedule><conference><title>C</title><time_zone_name>Europe/Paris</time_zone_name>"
        f'</conference><day index="1" date="{day}"><room name="Hall">{events}</room></day>'
        "</schedule>"
    ).encode()


@pytest.mark.parametrize("day", [SPRING, AUTUMN])
def test_frab_duration_from_0130_lasts_two_real_hours(day: str) -> None:
    data = frab(
        '<event guid="a"><title>Night</title><start>01:30</start><duration>02:00</duration>'
        "</event>",
        day=day,
    )
    programme = frab_xml.parse(data, source="s.xml")
    assert real_length(programme.session("a")) == timedelta(hours=2)
    assert programme.warnings == []


def test_frab_time_the_clocks_skip_is_warned_about() -> None:
    data = frab(
        '<event guid="a"><title>Gap</title><start>02:30</start><duration>01:00</duration></event>'
    )
    programme = frab_xml.parse(data, source="s.xml")
    assert utc(programme.session("a")) == (
        datetime(2026, 3, 29, 1, 30, tzinfo=UTC),
        datetime(2026, 3, 29, 2, 30, tzinfo=UTC),
    )
    assert programme.warnings == [
        "schedule/day[1]/room[1]/event[1]/start: '02:30' does not exist in Europe/Paris (the "
        "clocks skip it); read as 03:30"
    ]


# c3voc schedule.json (v1) and schedule2


def v1(event: dict) -> bytes:
    day = {"index": 1, "date": SPRING, "rooms": {"Hall": [event]}}
    conference = {"title": "C", "time_zone_name": "Europe/Paris", "days": [day]}
    return json.dumps({"schedule": {"conference": conference}}).encode()


def test_c3voc_duration_from_a_local_0130_lasts_two_real_hours() -> None:
    data = v1({"guid": "a", "title": "Night", "date": "2026-03-29T01:30:00", "duration": "02:00"})
    programme = c3voc_json.parse(data, source="s.json")
    assert real_length(programme.session("a")) == timedelta(hours=2)
    assert programme.warnings == []


def test_c3voc_time_the_clocks_skip_is_warned_about() -> None:
    data = v1({"guid": "a", "title": "Gap", "date": "2026-03-29T02:30:00", "duration": "01:00"})
    programme = c3voc_json.parse(data, source="s.json")
    assert utc(programme.session("a"))[0] == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert programme.warnings == [
        "schedule.conference.days[0].rooms[\"Hall\"][0].date '2026-03-29T02:30:00' does not "
        "exist in Europe/Paris (the clocks skip it); read as 03:30"
    ]


def schedule2(event: dict) -> bytes:
    conference = {"title": "C", "time_zone_name": "Europe/Paris"}
    return json.dumps({"schedule": {"conference": conference, "events": [event]}}).encode()


@pytest.mark.parametrize("day", [SPRING, AUTUMN])
def test_schedule2_duration_from_a_local_start_lasts_its_real_length(day: str) -> None:
    data = schedule2({"guid": "a", "title": "Night", "start": f"{day}T01:30", "duration": "PT2H"})
    programme = c3voc_schedule2.parse(data, source="s2.json")
    assert real_length(programme.session("a")) == timedelta(hours=2)
    assert programme.warnings == []


def test_schedule2_time_the_clocks_skip_is_warned_about() -> None:
    data = schedule2({"guid": "a", "title": "Gap", "start": f"{SPRING}T02:30", "duration": "PT1H"})
    programme = c3voc_schedule2.parse(data, source="s2.json")
    assert utc(programme.session("a"))[0] == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert programme.warnings == [
        "schedule.events[0].start '2026-03-29T02:30' does not exist in Europe/Paris (the clocks "
        "skip it); read as 03:30"
    ]


# CSV and Sessionize warned already; they now share the helper and say the same.


def test_csv_and_sessionize_still_warn_about_skipped_times() -> None:
    csv_programme: Programme = csv_format.parse(
        b"key,title,starts_at\na,Gap,2026-03-29 02:30\n",
        source="s.csv",
        default_timezone="Europe/Paris",
    )
    assert csv_programme.warnings == [
        "s.csv, line 2: starts_at '2026-03-29 02:30' does not exist in Europe/Paris (the clocks "
        "skip it); read as 03:30"
    ]
    document = {
        "sessions": [
            {"id": "1", "title": "Gap", "startsAt": "2026-03-29T02:30:00",
             "endsAt": "2026-03-29T04:00:00", "speakers": [], "categoryItems": [],
             "roomId": None},
        ],
        "speakers": [], "rooms": [], "categories": [],
    }  # fmt: skip
    programme = sessionize.parse(
        json.dumps(document).encode(), source="s.json", default_timezone="Europe/Paris"
    )
    assert programme.warnings == [
        "s.json: sessions[0].startsAt '2026-03-29T02:30:00' does not exist in Europe/Paris (the "
        "clocks skip it); read as 03:30"
    ]
