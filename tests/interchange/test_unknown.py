"""What a file does not say is unknown, not empty (issue 14, item 1): each reader names, per
session, the fields its entry has nothing for although the format can carry them
(`Session.unknown`); an element or key present but empty still says "none". The CSV says it
for whole columns, through `Programme.carries`. Also: speakers de-duplicated in linear time,
with an exact result (issue 14, item 27)."""

from __future__ import annotations

import json

from confsched.interchange import formats
from confsched.interchange.c3voc import read as c3voc_json
from confsched.interchange.c3voc import schedule2_read as c3voc_schedule2
from confsched.interchange.csv import read as csv_format
from confsched.interchange.frab import read as frab_xml
from confsched.interchange.ical import read as ical_reader
from confsched.interchange.sessionize import read as sessionize

# frab XML


def frab(*events: str) -> bytes:
    return (
        "<schedule><conference><title>C</title><time_zone_name>Europe/Berlin</time_zone_name>"
        '</conference><day index="1" date="2024-12-27"><room name="Saal 1">'
        + "".join(events)
        + "</room></day></schedule>"
    ).encode()


def test_frab_event_without_elements_leaves_their_fields_unknown() -> None:
    programme = frab_xml.parse(
        frab(
            '<event guid="bare"><title>Bare</title><date>2024-12-27T10:00:00+01:00</date></event>',
            '<event guid="full"><title>Full</title><date>2024-12-27T11:00:00+01:00</date>'
            "<duration>00:30</duration><type></type><track></track><language></language>"
            "<abstract></abstract><persons/><links/></event>",
        ),
        source="s.xml",
    )
    bare, full = programme.sessions
    assert bare.unknown == {"kind", "track", "language", "abstract", "speakers", "links", "ends_at"}
    assert (bare.track, bare.language) == ("", "")
    assert full.unknown == frozenset()  # present but empty: "none"


def test_frab_event_without_a_room_anywhere_leaves_the_room_unknown() -> None:
    data = (
        b"<schedule><conference><title>C</title></conference>"
        b'<day index="1" date="2024-12-27"><event guid="a"><title>A</title>'
        b"<date>2024-12-27T10:00:00+01:00</date><track>T</track></event></day></schedule>"
    )
    session = frab_xml.parse(data, source="s.xml").session("a")
    assert "room" in session.unknown
    assert "track" not in session.unknown


# c3voc schedule.json (v1) and schedule2


def v1(room: str, *events: dict) -> bytes:
    day = {"index": 1, "date": "2024-12-27", "rooms": {room: list(events)}}
    conference = {"title": "C", "time_zone_name": "Europe/Berlin", "days": [day]}
    return json.dumps({"schedule": {"conference": conference}}).encode()


def test_c3voc_event_without_keys_leaves_their_fields_unknown() -> None:
    bare = {"guid": "bare", "title": "Bare", "date": "2024-12-27T10:00:00+01:00"}
    full = {
        "guid": "full", "title": "Full", "date": "2024-12-27T11:00:00+01:00", "duration": "00:30",
        "type": None, "track": None, "language": "", "abstract": None, "description": None,
        "persons": [], "links": [],
    }  # fmt: skip
    programme = c3voc_json.parse(v1("Saal 1", bare, full), source="s.json")
    assert programme.session("bare").unknown == {
        "kind", "track", "language", "abstract", "speakers", "links", "ends_at",
    }  # fmt: skip
    assert programme.session("full").unknown == frozenset()
    listed_nowhere = c3voc_json.parse(v1("", bare), source="s.json").session("bare")
    assert "room" in listed_nowhere.unknown


def test_schedule2_event_without_keys_leaves_their_fields_unknown() -> None:
    bare = {"guid": "bare", "title": "Bare", "start": "2024-12-27T10:00:00+01:00"}
    full = {
        "guid": "full", "title": "Full", "start": "2024-12-27T11:00:00+01:00",
        "end": "2024-12-27T11:30:00+01:00", "room": None, "track": None, "type": "TALK",
        "language": "de", "abstract": None, "participants": [], "links": [],
    }  # fmt: skip
    document = {"schedule": {"conference": {"title": "C"}, "events": [bare, full]}}
    programme = c3voc_schedule2.parse(json.dumps(document).encode(), source="s2.json")
    assert programme.session("bare").unknown == {
        "kind", "track", "language", "abstract", "speakers", "links", "ends_at", "room",
    }  # fmt: skip
    assert programme.session("full").unknown == frozenset()


# iCalendar


def ics(*events: str) -> bytes:
    body = "".join(f"BEGIN:VEVENT\n{event}END:VEVENT\n" for event in events)
    text = f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//t//EN\n{body}END:VCALENDAR\n"
    return text.replace("\n", "\r\n").encode()


def test_ical_event_without_properties_leaves_their_fields_unknown() -> None:
    programme = ical_reader.parse(
        ics(
            "UID:bare\nSUMMARY:Bare\nDTSTART:20260407T090000Z\n",
            "UID:full\nSUMMARY:Full\nDTSTART:20260407T100000Z\nLOCATION:\nCATEGORIES:\n"
            "DESCRIPTION:\n",
            "UID:attendee\nSUMMARY:A\nDTSTART:20260407T110000Z\n"
            "ATTENDEE;CN=Ada Lovelace:mailto:ada@example.org\n",
        ),
        source="x.ics",
    )
    assert programme.session("bare").unknown == {
        "room", "track", "abstract", "speakers", "affiliations",
    }  # fmt: skip
    assert programme.session("full").unknown == frozenset()
    assert programme.session("attendee").unknown == {"room", "track", "abstract"}


# Sessionize


def test_sessionize_session_without_a_category_leaves_its_facets_unknown() -> None:
    document = {
        "sessions": [
            {"id": "1", "title": "Tagged", "description": "D", "startsAt": "2026-04-07T09:00:00Z",
             "endsAt": "2026-04-07T10:00:00Z", "speakers": [], "categoryItems": [11, 21],
             "roomId": 1},
            {"id": "2", "title": "Untagged", "startsAt": "2026-04-07T10:00:00Z",
             "endsAt": "2026-04-07T11:00:00Z", "categoryItems": [], "roomId": None},
        ],
        "speakers": [],
        "rooms": [{"id": 1, "name": "Hall", "sort": 1}],
        "categories": [
            {"id": 1, "title": "Track", "items": [{"id": 11, "name": "Web"}], "sort": 1},
            {"id": 2, "title": "Level", "items": [{"id": 21, "name": "Beginner"}], "sort": 2},
        ],
    }  # fmt: skip
    programme = sessionize.parse(json.dumps(document).encode(), source="s.json")
    tagged, untagged = programme.sessions
    assert (tagged.track, tagged.level) == ("Web", "Beginner")
    assert tagged.unknown == {"kind", "language"}  # no category gives them
    assert untagged.unknown == {"kind", "track", "level", "language", "abstract", "speakers"}
    assert untagged.room == ""  # roomId null: no room, known


# CSV: a column the header does not name


def test_csv_carries_only_the_columns_its_header_names() -> None:
    data = b"key,title,starts_at,room\na,Opening,2026-04-07T09:00Z,Hall\n"
    programme = formats.parse_files([("s.csv", data)])
    assert programme.carries == {"title", "starts_at", "room"}
    full = ",".join(csv_format.COLUMNS).encode() + b"\n"
    assert csv_format.parse(full, source="s.csv").carries == formats.CSV_FIELDS


# Speakers de-duplicated in linear time, exactly (item 27)

MANY = 3000


def test_c3voc_many_speakers_keep_their_order_once_each() -> None:
    persons = [{"id": i % MANY, "public_name": f"Person {i % MANY}"} for i in range(2 * MANY)]
    event = {"guid": "a", "title": "A", "date": "2024-12-27T10:00:00+01:00", "persons": persons}
    session = c3voc_json.parse(v1("Saal 1", event), source="s.json").session("a")
    assert [link.speaker_key for link in session.speakers] == [str(i) for i in range(MANY)]


def test_ical_many_speakers_keep_their_order_once_each() -> None:
    names = "\\, ".join(f"Person {i % MANY}" for i in range(2 * MANY))
    data = ics(f"UID:a\nSUMMARY:A\nDTSTART:20260407T090000Z\nDESCRIPTION:Speakers: {names}\n")
    session = ical_reader.parse(data, source="x.ics").session("a")
    assert [link.speaker_key for link in session.speakers] == [f"person-{i}" for i in range(MANY)]


def test_sessionize_many_speakers_keep_their_order_once_each() -> None:
    document = {
        "sessions": [
            {"id": "1", "title": "A", "startsAt": "2026-04-07T09:00:00Z",
             "endsAt": "2026-04-07T10:00:00Z", "categoryItems": [], "roomId": None,
             "speakers": [f"s{i % MANY}" for i in range(2 * MANY)]},
        ],
        "speakers": [{"id": f"s{i}", "fullName": f"P {i}"} for i in range(MANY)],
        "rooms": [], "categories": [],
    }  # fmt: skip
    session = sessionize.parse(json.dumps(document).encode(), source="s.json").sessions[0]
    assert [link.speaker_key for link in session.speakers] == [f"s{i}" for i in range(MANY)]
