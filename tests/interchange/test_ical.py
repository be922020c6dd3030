"""The iCalendar feed, read back by vobject (an independent reader) and by icalendar itself."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
import vobject
from icalendar import Calendar

from confsched.interchange.formats import parse_files
from confsched.interchange.ical.write import FALLBACK_DTSTAMP, render_ical
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.sched.read import parse_sched_pages
from tests.conftest import demo_files

DOMAIN = "confsched.example"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
CEST = timezone(timedelta(hours=2), "CEST")
TRICKY = 'Commas, semicolons; a "quote", a backslash \\ and\na second line.\n\nA paragraph.'


def url_for(key: str) -> str:
    return f"https://{DOMAIN}/pytorch-eu-2026/sessions/{key}/"


@pytest.fixture(scope="module")
def demo() -> Programme:
    return dataclasses.replace(parse_sched_pages(demo_files()), timezone="Europe/Paris")


@pytest.fixture(scope="module")
def demo_ical(demo: Programme) -> bytes:
    return render_ical(
        demo, uid_domain=DOMAIN, calendar_name="PyTorch Conference Europe 2026", url_for=url_for
    )


def small_programme(**changes: object) -> Programme:
    """Two speakers, three sessions (one unscheduled), in Paris."""
    programme = Programme(
        name="Small Conf",
        timezone="Europe/Paris",
        location="Lyon, France",
        speakers=[
            Speaker(key="ada", name="Ada Lovelace", company="Analytical Engines"),
            Speaker(key="alan", name="Alan Turing", company="Bletchley Park"),
        ],
        sessions=[
            Session(
                key="talk-b",
                title="Second",
                kind="Talk",
                abstract=TRICKY,
                starts_at=datetime(2026, 6, 2, 10, 0, tzinfo=CEST),
                ends_at=datetime(2026, 6, 2, 10, 30, tzinfo=CEST),
                room="Room 1",
                track="Compilers",
                speakers=(SessionSpeaker("ada", "Royal Society"), SessionSpeaker("alan")),
                sequence=3,
                last_modified=datetime(2026, 5, 1, 14, 30, tzinfo=CEST),
            ),
            Session(
                key="talk-a",
                title="First; with a semicolon",
                starts_at=datetime(2026, 6, 2, 8, 0, tzinfo=UTC),  # 10:00 in Paris, same slot
            ),
            Session(key="unscheduled", title="Nobody knows when"),
        ],
    )
    return dataclasses.replace(programme, **changes)


def render(programme: Programme, **kwargs: object) -> bytes:
    kwargs.setdefault("uid_domain", DOMAIN)
    kwargs.setdefault("calendar_name", "Small Conf")
    return render_ical(programme, **kwargs)


def read(data: bytes) -> vobject.base.Component:
    return vobject.readOne(data.decode("utf-8"))


def events_by_uid(data: bytes) -> dict:
    return {event.uid.value: event for event in read(data).vevent_list}


def unfolded(data: bytes) -> list[str]:
    return data.decode("utf-8").replace("\r\n ", "").split("\r\n")


def event_lines(data: bytes, uid: str) -> list[str]:
    lines = unfolded(data)
    index = lines.index(f"UID:{uid}")
    start = max(i for i in range(index) if lines[i] == "BEGIN:VEVENT")
    end = next(i for i in range(index, len(lines)) if lines[i] == "END:VEVENT")
    return lines[start : end + 1]


# The demo programme, read by vobject


def test_demo_has_one_event_per_scheduled_session(demo: Programme, demo_ical: bytes) -> None:
    calendar = read(demo_ical)
    scheduled = [session for session in demo.sessions if session.starts_at]
    assert len(scheduled) == 28
    assert len(calendar.vevent_list) == 28
    assert {event.uid.value for event in calendar.vevent_list} == {
        f"{session.key}@{DOMAIN}" for session in scheduled
    }
    assert "sched-page-033aa4f78088@confsched.example" not in demo_ical.decode()


def test_demo_calendar_properties(demo_ical: bytes) -> None:
    calendar = read(demo_ical)
    assert calendar.version.value == "2.0"
    assert calendar.prodid.value == "-//confsched//confsched//EN"
    assert calendar.calscale.value == "GREGORIAN"
    # No METHOD: PUBLISH would need an ORGANIZER in every event (RFC 5546; issue 29 item 13).
    assert "method" not in calendar.contents
    assert calendar.x_wr_calname.value == "PyTorch Conference Europe 2026"
    assert calendar.x_wr_timezone.value == "Europe/Paris"
    lines = unfolded(demo_ical)
    assert "REFRESH-INTERVAL;VALUE=DURATION:PT15M" in lines
    assert "X-PUBLISHED-TTL:PT15M" in lines
    assert [tz.tzid.value for tz in calendar.vtimezone_list] == ["Europe/Paris"]


def test_demo_torchjd_event(demo: Programme, demo_ical: bytes) -> None:
    event = events_by_uid(demo_ical)[f"{TORCHJD}@{DOMAIN}"]
    assert event.summary.value == "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"
    assert event.dtstart.value == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
    assert event.dtstart.value.utcoffset() == timedelta(hours=2)
    assert event.dtend.value == datetime(2026, 4, 7, 9, 55, tzinfo=UTC)
    # vobject moves the TZID parameter aside once it has resolved the zone.
    assert event.dtstart.params == {"X-VOBJ-ORIGINAL-TZID": ["Europe/Paris"]}
    assert event.location.value == "Founders Cafe, Paris, France"
    assert event.categories.value == ["Training Systems"]
    assert event.sequence.value == "0"
    assert event.status.value == "CONFIRMED"
    assert event.url.value == (
        "https://confsched.example/pytorch-eu-2026/sessions/"
        "lightning-talk-torchjd-jacobian-descent-in-pytorch/"
    )
    assert event.dtstamp.value == FALLBACK_DTSTAMP == datetime(1970, 1, 1, tzinfo=UTC)
    assert not hasattr(event, "last_modified")
    abstract = demo.session(TORCHJD).abstract
    assert event.description.value == (
        "Speakers: Pierre Quinton (EPFL), Valérian Rey (Simplex Lab)\n\n" + abstract
    )
    assert event.description.value.endswith(
        "Library: https://github.com/TorchJD/torchjd\nPaper: https://arxiv.org/abs/2406.16232"
    )
    lines = event_lines(demo_ical, f"{TORCHJD}@{DOMAIN}")
    assert "DTSTART;TZID=Europe/Paris:20260407T114500" in lines
    assert "DTEND;TZID=Europe/Paris:20260407T115500" in lines


def test_demo_every_event_is_at_its_session_instant(demo: Programme, demo_ical: bytes) -> None:
    events = events_by_uid(demo_ical)
    for session in demo.sessions:
        if session.starts_at is None:
            continue
        event = events[f"{session.key}@{DOMAIN}"]
        assert event.dtstart.value == session.starts_at, session.key
        assert event.dtend.value == session.ends_at, session.key
        assert event.dtstart.value.tzinfo.tzname(event.dtstart.value) == "CEST"


def test_demo_never_writes_a_fixed_offset_zone(demo_ical: bytes) -> None:
    text = demo_ical.decode()
    assert "TZID=CEST" not in text
    assert "TZID=UTC" not in text
    assert text.count("DTSTART;TZID=Europe/Paris:") == 28
    assert text.count("DTEND;TZID=Europe/Paris:") == 28


def test_demo_events_sorted_by_start_then_key(demo: Programme, demo_ical: bytes) -> None:
    uids = [event.uid.value for event in read(demo_ical).vevent_list]
    expected = sorted(
        (session for session in demo.sessions if session.starts_at),
        key=lambda session: (session.starts_at, session.key),
    )
    assert uids == [f"{session.key}@{DOMAIN}" for session in expected]
    assert uids[0] == f"helion-1-0-a-high-level-dsl-for-performance-portable-kernels@{DOMAIN}"


# icalendar reads what vobject reads


def test_icalendar_and_vobject_agree_on_the_demo(demo_ical: bytes) -> None:
    by_vobject = events_by_uid(demo_ical)
    calendar = Calendar.from_ical(demo_ical)
    assert [tz.tz_name for tz in calendar.timezones] == ["Europe/Paris"]
    assert len(calendar.events) == len(by_vobject) == 28
    for event in calendar.events:
        other = by_vobject[str(event.uid)]
        assert str(event["SUMMARY"]) == other.summary.value
        assert str(event["DESCRIPTION"]) == other.description.value
        assert str(event["LOCATION"]) == other.location.value
        assert str(event["URL"]) == other.url.value
        assert event.start == other.dtstart.value
        assert event.end == other.dtend.value
        assert event.start.tzinfo.key == "Europe/Paris"
        assert event["DTSTART"].params == {"TZID": "Europe/Paris"}
        assert event.sequence == int(other.sequence.value) == 0
        categories = other.categories.value if hasattr(other, "categories") else []
        assert [str(category) for category in event.categories] == categories


def test_icalendar_reads_the_small_programme() -> None:
    data = render(small_programme(), url_for=url_for)
    calendar = Calendar.from_ical(data)
    event = next(event for event in calendar.events if event.uid == f"talk-b@{DOMAIN}")
    assert str(event["DESCRIPTION"]) == (
        "Speakers: Ada Lovelace (Royal Society), Alan Turing (Bletchley Park)\n\n" + TRICKY
    )
    assert event.sequence == 3
    assert event.last_modified == datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    assert event.stamp == datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    assert event.start == datetime(2026, 6, 2, 8, 0, tzinfo=UTC)
    assert calendar.refresh_interval == timedelta(minutes=15)


# Values and escaping, on a small programme


def test_text_with_commas_semicolons_and_newlines_round_trips() -> None:
    data = render(small_programme(), url_for=url_for)
    event = events_by_uid(data)[f"talk-b@{DOMAIN}"]
    assert event.description.value == (
        "Speakers: Ada Lovelace (Royal Society), Alan Turing (Bletchley Park)\n\n" + TRICKY
    )
    assert event.summary.value == "Talk: Second"
    assert event.location.value == "Room 1, Lyon, France"
    assert event.categories.value == ["Compilers"]
    assert event.url.value == f"https://{DOMAIN}/pytorch-eu-2026/sessions/talk-b/"
    other = events_by_uid(data)[f"talk-a@{DOMAIN}"]
    assert other.summary.value == "First; with a semicolon"
    # The library escapes: a raw semicolon or comma never reaches a TEXT value.
    assert "SUMMARY:First\\; with a semicolon" in unfolded(data)
    assert "LOCATION:Room 1\\, Lyon\\, France" in unfolded(data)


def test_sequence_and_last_modified_are_written_in_utc() -> None:
    data = render(small_programme())
    event = events_by_uid(data)[f"talk-b@{DOMAIN}"]
    assert event.sequence.value == "3"
    assert event.last_modified.value == datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    lines = event_lines(data, f"talk-b@{DOMAIN}")
    assert "LAST-MODIFIED:20260501T123000Z" in lines
    assert "DTSTAMP:20260501T123000Z" in lines
    assert "SEQUENCE:3" in lines


def test_dtstamp_is_last_modified_then_now_then_a_constant() -> None:
    now = datetime(2026, 5, 20, 9, 0, tzinfo=CEST)
    with_now = events_by_uid(render(small_programme(), now=now))
    assert with_now[f"talk-b@{DOMAIN}"].dtstamp.value == datetime(2026, 5, 1, 12, 30, tzinfo=UTC)
    assert with_now[f"talk-a@{DOMAIN}"].dtstamp.value == datetime(2026, 5, 20, 7, 0, tzinfo=UTC)
    assert "DTSTAMP:20260520T070000Z" in event_lines(
        render(small_programme(), now=now), f"talk-a@{DOMAIN}"
    )
    without = events_by_uid(render(small_programme()))
    assert without[f"talk-a@{DOMAIN}"].dtstamp.value == datetime(1970, 1, 1, tzinfo=UTC)


def test_optional_properties_are_left_out_when_empty() -> None:
    lines = event_lines(render(small_programme(location="")), f"talk-a@{DOMAIN}")
    names = [line.split(":", 1)[0].split(";", 1)[0] for line in lines]
    # LOCATION stays, the calendar's name: Giggity drops an event without one, libical an
    # empty one (issue 29 item 9).
    assert names == [
        "BEGIN",
        "SUMMARY",
        "DTSTART",
        "DTEND",
        "DTSTAMP",
        "UID",
        "SEQUENCE",
        "LOCATION",
        "STATUS",
        "END",
    ]
    assert "LOCATION:Small Conf" in lines


def test_location_is_the_room_or_the_venue_or_both() -> None:
    only_venue = events_by_uid(render(small_programme()))[f"talk-a@{DOMAIN}"]
    assert only_venue.location.value == "Lyon, France"
    only_room = events_by_uid(render(small_programme(location="")))[f"talk-b@{DOMAIN}"]
    assert only_room.location.value == "Room 1"


def test_speaker_without_affiliation_falls_back_to_company_or_nothing() -> None:
    session = Session(
        key="panel",
        title="Panel",
        starts_at=datetime(2026, 6, 2, 10, tzinfo=CEST),
        speakers=(
            SessionSpeaker("ada"),
            SessionSpeaker("grace", "Navy"),
            SessionSpeaker("nobody-known"),
        ),
    )
    programme = small_programme(
        sessions=[session],
        speakers=[
            Speaker(key="ada", name="Ada Lovelace"),
            Speaker(key="grace", name="Grace Hopper"),
        ],
    )
    event = events_by_uid(render(programme))[f"panel@{DOMAIN}"]
    assert event.description.value == "Speakers: Ada Lovelace, Grace Hopper (Navy), nobody-known"


def test_html_in_the_abstract_stays_plain_text() -> None:
    abstract = "<script>alert('x')</script> <b>bold</b> &amp; 1 < 2"
    session = Session(
        key="xss",
        title="<i>Hi</i>",
        abstract=abstract,
        starts_at=datetime(2026, 6, 2, 10, tzinfo=CEST),
    )
    data = render(small_programme(sessions=[session], speakers=[]))
    event = events_by_uid(data)[f"xss@{DOMAIN}"]
    assert event.description.value == abstract
    assert event.summary.value == "<i>Hi</i>"
    assert "DESCRIPTION:<script>alert('x')</script> <b>bold</b> &amp\\; 1 < 2" in unfolded(data)
    assert str(Calendar.from_ical(data).events[0]["DESCRIPTION"]) == abstract


# Selection


def test_sessions_argument_renders_only_those(demo: Programme) -> None:
    agenda = [demo.session(TORCHJD), demo.session("brevitas-quantization-library")]
    data = render_ical(demo, sessions=agenda, uid_domain=DOMAIN, calendar_name="My agenda")
    calendar = read(data)
    assert calendar.x_wr_calname.value == "My agenda"
    assert [event.uid.value for event in calendar.vevent_list] == [
        f"{TORCHJD}@{DOMAIN}",
        f"brevitas-quantization-library@{DOMAIN}",
    ]


def test_sessions_argument_takes_each_key_once() -> None:
    programme = small_programme()
    talk = programme.session("talk-a")
    calendar = read(render(programme, sessions=[talk, talk, programme.session("unscheduled")]))
    assert [event.uid.value for event in calendar.vevent_list] == [f"talk-a@{DOMAIN}"]


def test_empty_selection_is_a_valid_calendar_without_events() -> None:
    data = render(small_programme(), sessions=[])
    calendar = read(data)
    assert not hasattr(calendar, "vevent")
    assert not hasattr(calendar, "vtimezone")
    assert calendar.x_wr_calname.value == "Small Conf"


def test_sessions_without_start_are_skipped_and_without_end_last_no_time() -> None:
    data = render(small_programme())
    events = events_by_uid(data)
    assert sorted(events) == [f"talk-a@{DOMAIN}", f"talk-b@{DOMAIN}"]
    assert events[f"talk-a@{DOMAIN}"].dtend.value == events[f"talk-a@{DOMAIN}"].dtstart.value
    lines = event_lines(data, f"talk-a@{DOMAIN}")
    assert "DTSTART;TZID=Europe/Paris:20260602T100000" in lines
    assert "DTEND;TZID=Europe/Paris:20260602T100000" in lines


def test_same_start_is_ordered_by_key() -> None:
    calendar = read(render(small_programme()))
    assert [event.uid.value for event in calendar.vevent_list] == [
        f"talk-a@{DOMAIN}",
        f"talk-b@{DOMAIN}",
    ]


# Determinism


def test_identical_input_renders_identical_bytes() -> None:
    first = render(small_programme(), url_for=url_for)
    second = render(small_programme(), url_for=url_for)
    assert first == second
    shuffled = small_programme()
    shuffled.sessions.reverse()
    assert render(shuffled, url_for=url_for) == first


def test_demo_renders_identical_bytes_twice(demo: Programme, demo_ical: bytes) -> None:
    again = render_ical(
        demo, uid_domain=DOMAIN, calendar_name="PyTorch Conference Europe 2026", url_for=url_for
    )
    assert again == demo_ical


def test_changing_a_sequence_changes_only_that_line() -> None:
    programme = small_programme()
    before = unfolded(render(programme))
    programme.sessions[0] = dataclasses.replace(programme.sessions[0], sequence=4)
    after = unfolded(render(programme))
    assert len(before) == len(after)
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert changed == [("SEQUENCE:3", "SEQUENCE:4")]


# Wire format


def test_crlf_line_endings_and_lines_of_at_most_75_octets() -> None:
    long_abstract = "Évaluation des modèles — “façon” ünïcödé, 日本語のテキスト; " * 20
    session = Session(
        key="long",
        title="A title that is long enough to be folded by any writer " * 3,
        abstract=long_abstract,
        starts_at=datetime(2026, 6, 2, 10, tzinfo=CEST),
    )
    data = render(small_programme(sessions=[session]))
    assert data.endswith(b"\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert b"\r" not in data.replace(b"\r\n", b"")
    lines = data.split(b"\r\n")
    assert max(len(line) for line in lines) <= 75
    assert sum(1 for line in lines if line.startswith(b" ")) > 20  # it did fold
    for line in lines:
        line.decode("utf-8")  # never folded inside a character
    assert events_by_uid(data)[f"long@{DOMAIN}"].description.value == long_abstract


def test_refresh_interval_follows_refresh_minutes() -> None:
    lines = unfolded(render(small_programme(), refresh_minutes=90))
    assert "REFRESH-INTERVAL;VALUE=DURATION:PT1H30M" in lines
    assert "X-PUBLISHED-TTL:PT1H30M" in lines


# Other zones


def test_new_york_gets_its_own_vtimezone_across_a_dst_change() -> None:
    summer = Session(
        key="summer", title="Summer", starts_at=datetime(2026, 7, 1, 13, 0, tzinfo=UTC)
    )
    winter = Session(
        key="winter",
        title="Winter",
        starts_at=datetime(2026, 11, 2, 14, 0, tzinfo=UTC),
        ends_at=datetime(2026, 11, 2, 15, 30, tzinfo=UTC),
    )
    programme = small_programme(timezone="America/New_York", sessions=[winter, summer])
    data = render(programme)
    calendar = read(data)
    assert [tz.tzid.value for tz in calendar.vtimezone_list] == ["America/New_York"]
    assert calendar.x_wr_timezone.value == "America/New_York"
    events = events_by_uid(data)
    assert events[f"summer@{DOMAIN}"].dtstart.value == datetime(2026, 7, 1, 13, 0, tzinfo=UTC)
    assert events[f"summer@{DOMAIN}"].dtstart.value.utcoffset() == timedelta(hours=-4)
    assert events[f"winter@{DOMAIN}"].dtstart.value == datetime(2026, 11, 2, 14, 0, tzinfo=UTC)
    assert events[f"winter@{DOMAIN}"].dtstart.value.utcoffset() == timedelta(hours=-5)
    assert events[f"winter@{DOMAIN}"].dtend.value == datetime(2026, 11, 2, 15, 30, tzinfo=UTC)
    lines = unfolded(data)
    assert "DTSTART;TZID=America/New_York:20260701T090000" in lines
    assert "DTSTART;TZID=America/New_York:20261102T090000" in lines
    assert "DTEND;TZID=America/New_York:20261102T103000" in lines
    assert "TZOFFSETTO:-0400" in lines and "TZOFFSETTO:-0500" in lines
    parsed = Calendar.from_ical(data)
    assert [event.start for event in parsed.events] == [
        datetime(2026, 7, 1, 13, 0, tzinfo=UTC),
        datetime(2026, 11, 2, 14, 0, tzinfo=UTC),
    ]


def test_kolkata_half_hour_offset() -> None:
    session = Session(
        key="chai",
        title="Chai",
        starts_at=datetime(2026, 4, 7, 9, 45, tzinfo=UTC),
        ends_at=datetime(2026, 4, 7, 10, 15, tzinfo=UTC),
    )
    data = render(small_programme(timezone="Asia/Kolkata", sessions=[session]))
    calendar = read(data)
    assert calendar.vtimezone.tzid.value == "Asia/Kolkata"
    event = calendar.vevent
    assert event.dtstart.value == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
    assert event.dtstart.value.utcoffset() == timedelta(hours=5, minutes=30)
    assert event.dtend.value == datetime(2026, 4, 7, 10, 15, tzinfo=UTC)
    lines = unfolded(data)
    assert "DTSTART;TZID=Asia/Kolkata:20260407T151500" in lines
    assert "DTEND;TZID=Asia/Kolkata:20260407T154500" in lines
    assert "TZOFFSETTO:+0530" in lines
    assert Calendar.from_ical(data).events[0].start == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)


def test_programme_without_a_zone_is_written_in_utc() -> None:
    data = render(small_programme(timezone=""))
    calendar = read(data)
    assert not hasattr(calendar, "vtimezone")
    assert not hasattr(calendar, "x_wr_timezone")
    assert "DTSTART:20260602T080000Z" in event_lines(data, f"talk-b@{DOMAIN}")
    assert events_by_uid(data)[f"talk-b@{DOMAIN}"].dtstart.value == datetime(
        2026, 6, 2, 8, tzinfo=UTC
    )


# Refusals


def test_unknown_zone_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        render(small_programme(timezone="Mars/Olympus"))


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="now must be timezone-aware"):
        render(small_programme(), now=datetime(2026, 5, 20, 9, 0))  # noqa: DTZ001


def test_refresh_minutes_must_be_positive() -> None:
    with pytest.raises(ValueError, match="refresh_minutes must be positive"):
        render(small_programme(), refresh_minutes=0)


# Folding by octets (RFC 5545 3.1): every title below fits in 74 characters but not 74 octets.

WIDE_TITLES = {
    "cjk": "日本語の発表：コンパイラと型推論の最適化について",  # 3 octets a character
    "german": "Größenänderungsüberprüfung für äußerst schöne Übersetzungsprüfung",
    "emoji": "Launch 🚀🚀🚀 party 🎉🎉🎉 with 🐍🐍🐍 and 🦀🦀🦀 and more 🚀🎉🐍🦀",  # 4 octets each
}


def assert_lines_fit(data: bytes) -> None:
    """Every physical line ≤ 75 octets and valid UTF-8 by itself (no split sequence)."""
    for number, line in enumerate(data.split(b"\r\n"), start=1):
        assert len(line) <= 75, (number, len(line), line)
        line.decode("utf-8")


@pytest.mark.parametrize("which", sorted(WIDE_TITLES))
def test_short_non_ascii_lines_are_folded_by_octets(which: str) -> None:
    title = WIDE_TITLES[which]
    assert len(f"SUMMARY:{title}") <= 74 < len(f"SUMMARY:{title}".encode())
    session = Session(key="wide", title=title, starts_at=datetime(2026, 6, 2, 10, tzinfo=CEST))
    data = render(small_programme(sessions=[session]), calendar_name=title)
    assert_lines_fit(data)
    assert events_by_uid(data)[f"wide@{DOMAIN}"].summary.value == title
    calendar = Calendar.from_ical(data)
    assert str(calendar["NAME"]) == title
    assert str(calendar.walk("VEVENT")[0]["SUMMARY"]) == title


def test_demo_lines_fit_in_75_octets(demo_ical: bytes) -> None:
    assert_lines_fit(demo_ical)


def test_calendar_name_commas_and_semicolons_are_escaped() -> None:
    name = "Conf, Lyon; 2026 \\ edition"
    data = render(small_programme(), calendar_name=name)
    lines = unfolded(data)
    assert "NAME:Conf\\, Lyon\\; 2026 \\\\ edition" in lines
    assert "X-WR-CALNAME:Conf\\, Lyon\\; 2026 \\\\ edition" in lines
    calendar = read(data)
    assert calendar.x_wr_calname.value == name
    assert calendar.contents["name"][0].value == name


def test_exports_of_the_shared_samples_fit_in_75_octets(shared_dir: Path) -> None:
    samples = sorted((shared_dir / "formats" / "samples").glob("*/*.*"))
    assert len(samples) == 9
    for path in samples:
        programme = parse_files([(path.name, path.read_bytes())], default_timezone="UTC")
        data = render(programme, calendar_name=programme.name or path.stem)
        assert_lines_fit(data)
        events = read(data).vevent_list
        assert len(events) == len({s.key for s in programme.sessions if s.starts_at}), path.name
