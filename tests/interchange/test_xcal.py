"""xCal (RFC 6321): the document's structure checked by hand (no schema at hand), read back."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET  # noqa: S405 - only for ET.Element types; parsing is defused
from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import defusedxml.ElementTree as SafeET
import pytest

from confsched.core.errors import ParseError
from confsched.interchange.ical import xcal_read as xcal
from confsched.interchange.ical import xcal_write as xcal_write
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.sched.read import parse_sched_pages
from tests.conftest import demo_files

NS = "urn:ietf:params:xml:ns:icalendar-2.0"
Q = f"{{{NS}}}"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
CEST = timezone(timedelta(hours=2), "CEST")


@pytest.fixture(scope="module")
def demo() -> Programme:
    return dataclasses.replace(
        parse_sched_pages(demo_files()), timezone="Europe/Paris", location="Paris, France"
    )


@pytest.fixture(scope="module")
def demo_xcal(demo: Programme) -> bytes:
    return xcal_write.render(demo, slug="pytorch-eu-2026", uid_domain="x.confsched")


def small_programme(**changes: object) -> Programme:
    """Four sessions: one scheduled, one cancelled, one unscheduled, one needing review."""
    programme = Programme(
        name="Small Conf",
        timezone="Europe/Paris",
        location="Lyon, France",
        speakers=[Speaker(key="ada", name="Ada Lovelace", company="Analytical Engines")],
        sessions=[
            Session(
                key="talk-b",
                title="Second & <last>",
                kind="Keynote",
                abstract="Line one\x0b.\n\nLine two.",
                starts_at=datetime(2026, 6, 2, 10, 0, tzinfo=CEST),
                ends_at=datetime(2026, 6, 2, 10, 30, tzinfo=CEST),
                room="Room 1",
                track="Compilers",
                speakers=(SessionSpeaker("ada"),),
                sequence=3,
                last_modified=datetime(2026, 5, 1, 14, 30, tzinfo=CEST),
            ),
            Session(
                key="talk-a",
                title="Cancelled one",
                starts_at=datetime(2026, 6, 2, 8, 0, tzinfo=UTC),  # 10:00 in Paris, same slot
                is_cancelled=True,
            ),
            Session(key="unscheduled", title="Nobody knows when"),
            Session(
                key="review",
                title="Check me",
                starts_at=datetime(2026, 6, 2, 9, 0, tzinfo=UTC),
                needs_review=True,
            ),
        ],
    )
    return dataclasses.replace(programme, **changes)


def properties(element: ET.Element) -> list[tuple[str, list[tuple[str, str]]]]:
    """A <properties> element as [(property, [(value type, text)])], namespace checked."""
    found = []
    for prop in element.find(f"{Q}properties"):
        assert prop.tag.startswith(Q)
        values = []
        for value in prop:
            assert value.tag.startswith(Q)
            values.append((value.tag.removeprefix(Q), value.text))
        found.append((prop.tag.removeprefix(Q), values))
    return found


def events(data: bytes) -> list[ET.Element]:
    return SafeET.fromstring(data).findall(f"{Q}vcalendar/{Q}components/{Q}vevent")


def refusal(data: bytes, **kwargs: str) -> str:
    with pytest.raises(ParseError) as caught:
        xcal.parse(data, source="x.xcal", **kwargs)
    return str(caught.value)


def xcal_document(*vevents: str, calendar: str = "") -> bytes:
    body = "".join(f"<vevent><properties>{vevent}</properties></vevent>" for vevent in vevents)
    return (
        f'<?xml version="1.0" encoding="utf-8"?><icalendar xmlns="{NS}"><vcalendar>'
        f"<properties>{calendar}</properties><components>{body}</components></vcalendar>"
        "</icalendar>"
    ).encode()


def test_module_constants() -> None:
    assert xcal.FORMAT_NAME == "xcal"
    assert (
        xcal.DESCRIPTION
        == "xCal (RFC 6321): iCalendar as XML, the schedule.xcal of frab and pretalx"
    )


# The document


def test_demo_is_well_formed_xml_in_the_xcal_namespace(demo_xcal: bytes) -> None:
    assert demo_xcal.startswith(b"<?xml version='1.0' encoding='utf-8'?>\n<icalendar xmlns=\"")
    root = SafeET.fromstring(demo_xcal)
    assert root.tag == f"{Q}icalendar"
    assert [child.tag for child in root] == [f"{Q}vcalendar"]
    assert [child.tag for child in root[0]] == [f"{Q}properties", f"{Q}components"]
    # Every element, down to the values, is in the xCal namespace.
    assert {element.tag.partition("}")[0] for element in root.iter()} == {f"{{{NS}"}
    assert properties(root[0]) == [
        ("prodid", [("text", "-//confsched//confsched//EN")]),
        ("version", [("text", "2.0")]),
        ("calscale", [("text", "GREGORIAN")]),
        ("x-wr-calname", [("text", "PyTorch Conference Europe 2026")]),
        ("x-wr-timezone", [("text", "Europe/Paris")]),
    ]


def test_demo_has_one_vevent_per_scheduled_session_in_time_order(
    demo: Programme, demo_xcal: bytes
) -> None:
    vevents = events(demo_xcal)
    assert len(vevents) == 28
    uids = [dict(properties(vevent))["uid"][0][1] for vevent in vevents]
    starts = [dict(properties(vevent))["dtstart"][0][1] for vevent in vevents]
    scheduled = sorted(
        (session for session in demo.sessions if session.starts_at),
        key=lambda session: (session.starts_at, session.key),
    )
    assert uids == [f"{session.key}@x.confsched" for session in scheduled]
    assert starts == sorted(starts)
    assert starts[0] == "2026-04-07T09:00:00Z"
    assert "sched-page-033aa4f78088" not in demo_xcal.decode()  # needs review, no start


def test_demo_torchjd_vevent_element_by_element(demo: Programme) -> None:
    data = xcal_write.render(
        demo,
        slug="pytorch-eu-2026",
        base_url="https://confsched.example",
        uid_domain="x.confsched",
    )
    vevent = next(
        vevent
        for vevent in events(data)
        if dict(properties(vevent))["uid"][0][1].startswith(TORCHJD)
    )
    assert [child.tag for child in vevent] == [f"{Q}properties"]
    assert properties(vevent) == [
        ("uid", [("text", f"{TORCHJD}@x.confsched")]),
        ("dtstamp", [("date-time", "1970-01-01T00:00:00Z")]),
        ("dtstart", [("date-time", "2026-04-07T09:45:00Z")]),  # 11:45 in Paris
        ("dtend", [("date-time", "2026-04-07T09:55:00Z")]),
        ("summary", [("text", "Lightning Talk: TorchJD: Jacobian Descent in PyTorch")]),
        (
            "description",
            [
                (
                    "text",
                    "Speakers: Pierre Quinton (EPFL), Valérian Rey (Simplex Lab)\n\n"
                    + demo.session(TORCHJD).abstract,
                )
            ],
        ),
        ("location", [("text", "Founders Cafe, Paris, France")]),
        ("categories", [("text", "Training Systems")]),
        ("url", [("uri", f"https://confsched.example/pytorch-eu-2026/sessions/{TORCHJD}/")]),
        ("sequence", [("integer", "0")]),
        ("status", [("text", "CONFIRMED")]),
    ]


def test_small_programme_exact_document() -> None:
    data = xcal_write.render(small_programme(), slug="small", uid_domain="d.example")
    # The vertical tab cannot appear in XML 1.0 at all: it is dropped; "&" and "<" are escaped.
    assert data.decode() == (
        "<?xml version='1.0' encoding='utf-8'?>\n"
        f'<icalendar xmlns="{NS}">\n'
        "  <vcalendar>\n"
        "    <properties>\n"
        "      <prodid>\n        <text>-//confsched//confsched//EN</text>\n      </prodid>\n"
        "      <version>\n        <text>2.0</text>\n      </version>\n"
        "      <calscale>\n        <text>GREGORIAN</text>\n      </calscale>\n"
        "      <x-wr-calname>\n        <text>Small Conf</text>\n      </x-wr-calname>\n"
        "      <x-wr-timezone>\n        <text>Europe/Paris</text>\n      </x-wr-timezone>\n"
        "    </properties>\n"
        "    <components>\n"
        "      <vevent>\n        <properties>\n"
        "          <uid>\n            <text>talk-a@d.example</text>\n          </uid>\n"
        "          <dtstamp>\n            <date-time>1970-01-01T00:00:00Z</date-time>\n"
        "          </dtstamp>\n"
        "          <dtstart>\n            <date-time>2026-06-02T08:00:00Z</date-time>\n"
        "          </dtstart>\n"
        "          <dtend>\n            <date-time>2026-06-02T08:00:00Z</date-time>\n"
        "          </dtend>\n"
        "          <summary>\n            <text>Cancelled: Cancelled one</text>\n          </summary>\n"
        "          <location>\n            <text>Lyon, France</text>\n          </location>\n"
        "          <sequence>\n            <integer>0</integer>\n          </sequence>\n"
        "          <status>\n            <text>CANCELLED</text>\n          </status>\n"
        "        </properties>\n      </vevent>\n"
        "      <vevent>\n        <properties>\n"
        "          <uid>\n            <text>talk-b@d.example</text>\n          </uid>\n"
        "          <dtstamp>\n            <date-time>2026-05-01T12:30:00Z</date-time>\n"
        "          </dtstamp>\n"
        "          <dtstart>\n            <date-time>2026-06-02T08:00:00Z</date-time>\n"
        "          </dtstart>\n"
        "          <dtend>\n            <date-time>2026-06-02T08:30:00Z</date-time>\n"
        "          </dtend>\n"
        "          <summary>\n            <text>Keynote: Second &amp; &lt;last&gt;</text>\n"
        "          </summary>\n"
        "          <description>\n            <text>Speakers: Ada Lovelace (Analytical Engines)"
        "\n\nLine one.\n\nLine two.</text>\n          </description>\n"
        "          <location>\n            <text>Room 1, Lyon, France</text>\n          </location>\n"
        "          <categories>\n            <text>Compilers</text>\n          </categories>\n"
        "          <sequence>\n            <integer>3</integer>\n          </sequence>\n"
        "          <status>\n            <text>CONFIRMED</text>\n          </status>\n"
        "          <last-modified>\n            <date-time>2026-05-01T12:30:00Z</date-time>\n"
        "          </last-modified>\n"
        "        </properties>\n      </vevent>\n"
        "    </components>\n"
        "  </vcalendar>\n"
        "</icalendar>\n"
    )


def test_render_is_deterministic_and_stamps_from_now() -> None:
    programme = small_programme()
    first = xcal_write.render(programme, slug="small")
    assert xcal_write.render(programme, slug="small") == first
    now = datetime(2026, 5, 20, 9, 0, tzinfo=CEST)
    stamped = events(xcal_write.render(programme, slug="small", now=now))
    stamps = [dict(properties(vevent))["dtstamp"][0][1] for vevent in stamped]
    # now for the session without last_modified; last_modified wins where there is one.
    assert stamps == ["2026-05-20T07:00:00Z", "2026-05-01T12:30:00Z"]
    with pytest.raises(ValueError, match="^now must be timezone-aware$"):
        xcal_write.render(programme, slug="small", now=datetime(2026, 5, 20, 9, 0))  # noqa: DTZ001


@pytest.mark.parametrize(
    ("kwargs", "uid", "url"),
    [
        ({}, "talk-a", None),
        (
            {"base_url": "https://sched.example/"},
            "talk-a@sched.example",
            "https://sched.example/small/sessions/talk-a/",
        ),
        (
            {"base_url": "https://sched.example", "uid_domain": "u.example"},
            "talk-a@u.example",
            "https://sched.example/small/sessions/talk-a/",
        ),
        (
            {
                "base_url": "https://sched.example",
                "url_for": lambda key: f"https://elsewhere/{key}",
            },
            "talk-a@sched.example",
            "https://elsewhere/talk-a",
        ),
    ],
)
def test_uid_and_url_rules(kwargs: dict, uid: str, url: str | None) -> None:
    first = dict(
        properties(events(xcal_write.render(small_programme(), slug="small", **kwargs))[0])
    )
    assert first["uid"] == [("text", uid)]
    assert first.get("url") == ([("uri", url)] if url else None)


def test_calendar_name_falls_back_to_the_slug_and_no_zone_is_left_out() -> None:
    data = xcal_write.render(small_programme(name="", timezone=""), slug="small")
    assert properties(SafeET.fromstring(data)[0])[-1] == ("x-wr-calname", [("text", "small")])


def test_empty_programme_has_empty_components() -> None:
    root = SafeET.fromstring(xcal_write.render(Programme(), slug="empty"))
    assert list(root[0].find(f"{Q}components")) == []


# Recognising the format


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (f'<?xml version="1.0"?>\n<icalendar xmlns="{NS}"><vcalendar>', True),
        (f"\ufeff<!-- exported --><!DOCTYPE icalendar>\n<icalendar xmlns='{NS}'>", True),
        (f'<x:icalendar xmlns:x="{NS}">', True),
        ("<icalendar><vcalendar>", False),  # no namespace: not xCal
        ('<icalendar xmlns="urn:example:other">', False),
        ('<?xml version="1.0"?><schedule><version>1</version></schedule>', False),
        (f'<feed xmlns="{NS}"><icalendar>', False),
        ("BEGIN:VCALENDAR\r\nVERSION:2.0", False),
        ('{"icalendar": 1}', False),
        ("title,start\nicalendar,09:00", False),
        ("Tuesday April 7, 2026 11:00 - 11:10 CEST", False),
        ("", False),
    ],
)
def test_looks_like(head: str, expected: bool) -> None:
    assert xcal.looks_like(head) is expected


# Reading


def test_round_trip_through_render_and_parse(demo: Programme, demo_xcal: bytes) -> None:
    back = xcal.parse(
        demo_xcal, source="demo.xcal", uid_domain="x.confsched", location="Paris, France"
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
                tuple(
                    (programme.speaker(link.speaker_key).name, link.affiliation)
                    for link in session.speakers
                ),
                tuple(link.speaker_key for link in session.speakers),
            )
            for session in programme.sessions
            if session.starts_at is not None and not session.needs_review
        }

    assert len(back.sessions) == 28
    assert signature(back) == signature(demo)
    assert back.name == "PyTorch Conference Europe 2026"
    assert back.timezone == "Europe/Paris"
    assert back.location == "Paris, France"
    assert (back.start_date, back.end_date) == (date(2026, 4, 7), date(2026, 4, 7))
    torchjd = back.session(TORCHJD)
    assert torchjd.starts_at == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
    assert torchjd.starts_at.utcoffset() == timedelta(0)  # written in UTC, read in UTC
    assert back.warnings == []


def test_round_trip_keeps_cancellation() -> None:
    data = xcal_write.render(small_programme(), slug="small", uid_domain="d.example")
    back = xcal.parse(data, source="s.xcal", uid_domain="d.example", location="Lyon, France")
    assert [(session.key, session.is_cancelled) for session in back.sessions] == [
        ("talk-a", True),
        ("talk-b", False),
    ]
    talk = back.session("talk-b")
    assert (talk.kind, talk.title, talk.room, talk.track) == (
        "Keynote",
        "Second & <last>",
        "Room 1",
        "Compilers",
    )
    assert talk.abstract == "Line one.\n\nLine two."
    assert talk.speakers == (SessionSpeaker("ada-lovelace", "Analytical Engines"),)
    assert back.session("talk-a").room == ""


def test_reads_other_writers_values() -> None:
    data = xcal_document(
        "<uid><text>a</text></uid><summary><text>Local</text></summary>"
        "<dtstart><parameters><tzid><text>America/New_York</text></tzid></parameters>"
        "<date-time>2026-03-10T09:00:00</date-time></dtstart>"
        "<duration><duration>PT1H30M</duration></duration>"
        "<categories><text></text><text>Web</text><text>Other</text></categories>",
        "<uid><text>b</text></uid><summary><text>Floating</text></summary>"
        "<dtstart><date-time>2026-03-10T09:00:00</date-time></dtstart>"
        "<dtend><date-time>2026-03-10T10:00:00</date-time></dtend>"
        "<status><text>cancelled</text></status>",
        "<uid><text>c</text></uid><summary><text>Sprints</text></summary>"
        "<dtstart><date>2026-03-11</date></dtstart><dtend><date>2026-03-12</date></dtend>",
        calendar="<x-wr-calname><unknown>Other Conf</unknown></x-wr-calname>",
    )
    programme = xcal.parse(data, source="o.xcal", default_timezone="Europe/Paris")
    local = programme.session("a")
    assert local.starts_at == datetime(2026, 3, 10, 13, 0, tzinfo=UTC)
    assert local.starts_at.tzinfo == ZoneInfo("America/New_York")
    assert local.ends_at == datetime(2026, 3, 10, 14, 30, tzinfo=UTC)
    assert local.track == "Web"
    floating = programme.session("b")
    assert floating.starts_at == datetime(2026, 3, 10, 8, 0, tzinfo=UTC)
    assert floating.is_cancelled is True
    sprints = programme.session("c")
    assert (sprints.starts_at, sprints.needs_review) == (None, True)
    assert sprints.review_note == (
        "o.xcal: an all-day event (2026-03-11) with no time of day; kept unscheduled: give it a "
        "time, or leave it off the grid"
    )
    assert programme.name == "Other Conf"
    assert programme.timezone == "America/New_York"
    assert programme.notes == [
        "o.xcal: floating times read in Europe/Paris",
        "o.xcal: time zone America/New_York, the most common TZID of the events",
    ]


# Refusals


def test_refuses_xml_that_is_not_well_formed() -> None:
    assert refusal(b'<?xml version="1.0"?>\n<icalendar>\n<vcalendar></icalendar>') == (
        "x.xcal, line 3: not well-formed XML: mismatched tag (column 14)"
    )
    assert (
        refusal(b"BEGIN:VCALENDAR\r\n")
        == "x.xcal, line 1: not well-formed XML: syntax error (column 1)"
    )


def test_refuses_entity_declarations() -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE icalendar [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>'
        b'<icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0">&b;</icalendar>'
    )
    assert refusal(bomb) == (
        "x.xcal: the XML declares an entity ('a'); xCal needs none and confsched does not "
        "expand them"
    )


def test_refuses_xml_that_is_not_xcal() -> None:
    assert refusal(b"<schedule><version>1</version></schedule>") == (
        'x.xcal: not xCal: the root element is <schedule>; expected <icalendar xmlns="'
        'urn:ietf:params:xml:ns:icalendar-2.0">'
    )
    assert refusal(b'<icalendar xmlns="urn:example:other"/>') == (
        "x.xcal: not xCal: the root element is <icalendar> in namespace 'urn:example:other'; "
        'expected <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0">'
    )
    assert refusal(f'<icalendar xmlns="{NS}"/>'.encode()) == (
        "x.xcal: xCal without a <vcalendar> element under <icalendar>"
    )


def test_refuses_an_unreadable_dtstart() -> None:
    data = xcal_document(
        "<uid><text>a@x</text></uid><summary><text>Talk</text></summary>"
        "<dtstart><date-time>20260407T094500Z</date-time></dtstart>"
    )
    assert refusal(data) == (
        "x.xcal: event 'a@x' ('Talk'): <dtstart><date-time>20260407T094500Z</date-time>"
        "</dtstart> cannot be read; expected <date-time>2026-04-07T07:45:00Z</date-time> (UTC; "
        "local with a tzid parameter or floating without one) or <date>2026-04-07</date>"
    )
    no_value = xcal_document("<summary><text>Talk</text></summary><dtstart/>")
    assert refusal(no_value) == (
        "x.xcal: event 'Talk' (no UID): <dtstart/> cannot be read; expected <date-time>"
        "2026-04-07T07:45:00Z</date-time> (UTC; local with a tzid parameter or floating without "
        "one) or <date>2026-04-07</date>"
    )
    impossible = xcal_document(
        "<uid><text>a</text></uid><dtstart><date>2026-02-30</date></dtstart>"
    )
    assert refusal(impossible).startswith(
        "x.xcal: event 'a': <dtstart><date>2026-02-30</date></dtstart> cannot be read;"
    )


def test_refuses_an_unreadable_duration() -> None:
    data = xcal_document(
        "<uid><text>a</text></uid><dtstart><date-time>2026-04-07T09:45:00Z</date-time></dtstart>"
        "<duration><duration>1 hour</duration></duration>"
    )
    assert refusal(data) == (
        "x.xcal: event 'a': <duration>1 hour</duration> cannot be read; expected a duration "
        "such as PT45M or PT1H30M"
    )


def test_refuses_an_unknown_tzid() -> None:
    data = xcal_document(
        "<uid><text>a</text></uid><dtstart><parameters><tzid><text>Central European</text>"
        "</tzid></parameters><date-time>2026-04-07T09:45:00</date-time></dtstart>"
    )
    assert refusal(data) == (
        "x.xcal: event 'a': '<dtstart><date-time>2026-04-07T09:45:00</date-time></dtstart>': "
        "TZID 'Central European' is not an IANA time zone name (confsched reads only those in "
        "xCal)"
    )


def test_refuses_floating_times_without_a_zone() -> None:
    data = xcal_document(
        "<uid><text>a</text></uid><dtstart><date-time>2026-04-07T09:45:00</date-time></dtstart>"
    )
    assert refusal(data) == (
        "x.xcal: the file has naive local times with no time zone (event 'a': "
        "'<dtstart><date-time>2026-04-07T09:45:00</date-time></dtstart>' has neither a TZID nor "
        "a trailing Z) and no X-WR-TIMEZONE; give the zone with --timezone (an IANA name such as "
        "Europe/Paris), or add X-WR-TIMEZONE to the calendar"
    )
    with_zone = xcal_document(
        "<uid><text>a</text></uid><dtstart><date-time>2026-04-07T09:45:00</date-time></dtstart>",
        calendar="<x-wr-timezone><text>Europe/Paris</text></x-wr-timezone>",
    )
    session = xcal.parse(with_zone, source="x.xcal").session("a")
    assert session.starts_at == datetime(2026, 4, 7, 7, 45, tzinfo=UTC)


# Issue 7: what the audit found, and real files in the wild


def test_refuses_an_xml_declaration_naming_an_unknown_encoding() -> None:
    data = f'<?xml version="1.0" encoding="x-klingon"?><icalendar xmlns="{NS}"/>'.encode()
    assert refusal(data) == (
        "x.xcal: the XML declares the encoding 'x-klingon', which confsched does not know; "
        "save the file as UTF-8"
    )


@pytest.mark.parametrize(
    ("tzid", "shown"),
    [("Europe", "Europe"), ("Etc", "Etc"), ("A" * 300, "A" * 64 + "…"), ("a/" * 300 + "b", "a/" * 32 + "…")],
)  # fmt: skip
def test_refuses_a_tzid_that_is_no_zone_without_touching_the_file_system(
    tzid: str, shown: str
) -> None:
    data = xcal_document(
        f"<uid><text>a</text></uid><dtstart><parameters><tzid><text>{tzid}</text></tzid>"
        "</parameters><date-time>2026-04-07T09:45:00</date-time></dtstart>"
    )
    assert refusal(data) == (
        "x.xcal: event 'a': '<dtstart><date-time>2026-04-07T09:45:00</date-time></dtstart>': "
        f"TZID {shown!r} is not an IANA time zone name (confsched reads only those in xCal)"
    )


def test_an_x_wr_timezone_that_is_no_zone_is_ignored_with_a_warning() -> None:
    data = xcal_document(
        "<uid><text>a</text></uid><summary><text>A</text></summary>"
        "<dtstart><date-time>2026-04-07T09:45:00</date-time></dtstart>",
        calendar="<x-wr-timezone><text>Europe</text></x-wr-timezone>",
    )
    programme = xcal.parse(data, source="x.xcal", default_timezone="Europe/Paris")
    assert programme.session("a").starts_at == datetime(2026, 4, 7, 7, 45, tzinfo=UTC)
    assert programme.timezone == ""
    assert programme.warnings == [
        "x.xcal: X-WR-TIMEZONE ignored: unknown time zone 'Europe': give an IANA name such as "
        "Europe/Paris"
    ]


def test_refuses_times_past_the_year_9999() -> None:
    data = xcal_document(
        "<uid><text>a</text></uid><dtstart><date-time>9999-12-30T00:00:00Z</date-time></dtstart>"
        "<duration><duration>P2D</duration></duration>"
    )
    assert refusal(data) == (
        "x.xcal: event 'a': '<dtstart><date-time>9999-12-30T00:00:00Z</date-time></dtstart>' "
        "plus '<duration>P2D</duration>' falls outside the dates confsched can show in every "
        "time zone (0001-01-02 to 9999-12-30, UTC)"
    )


def test_attendees_are_speakers() -> None:
    def attendee(parameters: str, address: str) -> str:
        return (
            f"<attendee><parameters>{parameters}</parameters>"
            f"<cal-address>mailto:{address}</cal-address></attendee>"
        )

    data = xcal_document(
        "<uid><text>a</text></uid><summary><text>Engines</text></summary>"
        "<dtstart><date-time>2026-04-07T09:45:00Z</date-time></dtstart>"
        + attendee(
            "<cn><text>Ada Lovelace</text></cn><role><text>REQ-PARTICIPANT</text></role>",
            "ada@example.org",
        )
        + attendee("<cn><text>Room 1</text></cn><cutype><text>ROOM</text></cutype>", "r@x.org")
        + attendee(
            "<cn><text>Ann</text></cn><role><text>NON-PARTICIPANT</text></role>", "ann@x.org"
        )
        + attendee("", "nameless@example.org")
    )
    programme = xcal.parse(data, source="x.xcal")
    assert programme.session("a").speakers == (SessionSpeaker("ada-lovelace"),)
    assert programme.speakers == [Speaker("ada-lovelace", "Ada Lovelace")]
