"""A session keeps its key when its file is reordered or re-imported (issue 14, items 9 and
10): keys of repeated guids/UIDs follow the events' content, keys made from times do not
depend on how a time is written, and invisible characters do not change an identity."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from confsched.interchange.c3voc import read as c3voc_json
from confsched.interchange.c3voc import schedule2_read as c3voc_schedule2
from confsched.interchange.csv import read as csv_format
from confsched.interchange.frab import read as frab_xml
from confsched.interchange.ical import read as ical_reader
from confsched.interchange.ical.write import render_ical
from confsched.interchange.identity import derived_key, visible
from confsched.interchange.programme import Programme
from confsched.interchange.sessionize import read as sessionize

PARIS = ZoneInfo("Europe/Paris")
BASE = datetime(2026, 4, 7, 7, 0, tzinfo=UTC)

# An event: (identity, title, minutes after BASE, room). Few identities, so that many repeat.
EVENTS = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "a-2"]),
        st.sampled_from(["Keynote", "Lunch", "Talk"]),
        st.integers(min_value=0, max_value=6).map(lambda step: step * 30),
        st.sampled_from(["Hall", "Room 2"]),
    ),
    min_size=1,
    max_size=8,
)


def by_key(programme: Programme) -> dict[str, tuple[str, datetime | None, str]]:
    return {s.key: (s.title, s.starts_at, s.room) for s in programme.sessions}


def shuffled(events: list, data: st.DataObject) -> list:
    return data.draw(st.permutations(events), label="reordered")


# iCalendar


def ics(events: list) -> bytes:
    body = "".join(
        f"BEGIN:VEVENT\nUID:{uid}\nSUMMARY:{title}\nLOCATION:{room}\n"
        f"DTSTART:{BASE + timedelta(minutes=minutes):%Y%m%dT%H%M%SZ}\nEND:VEVENT\n"
        for uid, title, minutes, room in events
    )
    text = f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//t//EN\n{body}END:VCALENDAR\n"
    return text.replace("\n", "\r\n").encode()


@settings(max_examples=60, deadline=None)
@given(events=EVENTS, data=st.data())
def test_ical_keys_survive_reordering_and_reimport(events: list, data: st.DataObject) -> None:
    first = ical_reader.parse(ics(events), source="x.ics")
    again = ical_reader.parse(ics(shuffled(events, data)), source="x.ics")
    assert by_key(again) == by_key(first)
    # Re-imported from confsched's own feed: every key comes back as it was.
    feed = render_ical(first, uid_domain="ev.confsched", calendar_name="Ev", now=BASE)
    back = ical_reader.parse(feed, source="feed.ics", uid_domain="ev.confsched")
    assert {s.key for s in back.sessions} == {s.key for s in first.sessions}


def test_ical_repeated_uid_keys_follow_the_events_not_their_place() -> None:
    early = ("a", "Standup", 0, "Hall")
    moved = ("a", "Standup moved", 60, "Hall")
    for order in ([early, moved], [moved, early]):
        programme = ical_reader.parse(ics(order), source="x.ics")
        assert {s.key: s.title for s in programme.sessions} == {
            "a": "Standup",
            "a-2": "Standup moved",
        }


# frab XML


def frab(events: list) -> bytes:
    body = "".join(
        f'<event guid="{guid}"><title>{title}</title><room>{room}</room>'
        f"<date>{(BASE + timedelta(minutes=minutes)).isoformat()}</date></event>"
        for guid, title, minutes, room in events
    )
    return (
        "<schedule><conference><title>C</title><time_zone_name>Europe/Paris</time_zone_name>"
        f'</conference><day index="1" date="2026-04-07">{body}</day></schedule>'
    ).encode()


@settings(max_examples=60, deadline=None)
@given(events=EVENTS, data=st.data())
def test_frab_keys_survive_reordering(events: list, data: st.DataObject) -> None:
    first = frab_xml.parse(frab(events), source="s.xml")
    again = frab_xml.parse(frab(shuffled(events, data)), source="s.xml")
    assert by_key(again) == by_key(first)


def test_frab_repeated_guid_keys_follow_the_events_not_their_place() -> None:
    talk = ("g", "Talk", 0, "Hall")
    repeat = ("g", "Talk (repeat)", 120, "Hall")
    for order in ([talk, repeat], [repeat, talk]):
        programme = frab_xml.parse(frab(order), source="s.xml")
        assert {s.key: s.title for s in programme.sessions} == {"g": "Talk", "g-2": "Talk (repeat)"}


# Keys made from times: one way everywhere, whatever the time is written as


def test_derived_keys_use_the_events_zone_not_the_written_offset() -> None:
    written = [
        datetime(2026, 4, 7, 8, 0, tzinfo=UTC),
        datetime(2026, 4, 7, 10, 0, tzinfo=PARIS),
        datetime.fromisoformat("2026-04-07T10:00:00+02:00"),
    ]
    assert {derived_key("Coffee & Cake", moment, zone=PARIS) for moment in written} == {
        "coffee-cake-2026-04-07-1000"
    }
    assert derived_key("Coffee", written[0], zone=None) == "coffee-2026-04-07-0800"


def test_an_ical_event_without_uid_keeps_its_key_in_utc_or_local_time() -> None:
    def calendar(dtstart: str) -> bytes:
        text = (
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//t//EN\nBEGIN:VEVENT\nSUMMARY:Coffee\n"
            f"{dtstart}\nEND:VEVENT\nEND:VCALENDAR\n"
        )
        return text.replace("\n", "\r\n").encode()

    keys = {
        ical_reader.parse(calendar(line), source="x.ics", default_timezone="Europe/Paris")
        .sessions[0]
        .key
        for line in (
            "DTSTART:20260407T080000Z",
            "DTSTART;TZID=Europe/Paris:20260407T100000",
            "DTSTART:20260407T100000",
        )
    }
    assert keys == {"coffee-2026-04-07-1000"}  # was 0800 for the first, 1000 for the others


def test_a_csv_row_without_key_keeps_its_key_in_utc_or_local_time() -> None:
    keys = {
        csv_format.parse(
            f"title,starts_at\nCoffee,{start}\n".encode(),
            source="s.csv",
            default_timezone="Europe/Paris",
        )
        .sessions[0]
        .key
        for start in ("2026-04-07T08:00Z", "2026-04-07T10:00+02:00", "2026-04-07 10:00")
    }
    assert keys == {"coffee-2026-04-07-1000"}


def test_a_frab_event_without_guid_or_id_keeps_its_key_in_utc_or_local_time() -> None:
    def schedule(event_date: str) -> bytes:
        return (
            "<schedule><conference><title>C</title><time_zone_name>Europe/Paris"
            '</time_zone_name></conference><day index="1" date="2026-04-07"><room name="Hall">'
            f"<event><title>Coffee</title><date>{event_date}</date></event></room></day>"
            "</schedule>"
        ).encode()

    keys = {
        frab_xml.parse(schedule(written), source="s.xml").sessions[0].key
        for written in ("2026-04-07T08:00:00+00:00", "2026-04-07T10:00:00+02:00")
    }
    assert keys == {"coffee-2026-04-07-1000"}


# Invisible characters (issue 14, item 10)


def test_visible_drops_byte_order_marks_and_zero_width_characters() -> None:
    assert visible("\ufeff\u200bkey\u200d\u2060 ") == "key"


def test_a_csv_header_with_a_zero_width_space_keeps_its_key_column() -> None:
    data = "\u200bkey,title\u200b,starts_at\nk1,Opening,2026-04-07T09:00Z\n".encode()
    programme = csv_format.parse(data, source="s.csv")
    assert [(s.key, s.title) for s in programme.sessions] == [("k1", "Opening")]


def test_invisible_characters_in_ids_do_not_change_identity() -> None:
    data = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\n"
        "UID:\u200babc@x\ufeff\r\nSUMMARY:A\r\nDTSTART:20260407T090000Z\r\nEND:VEVENT\r\n"
        "END:VCALENDAR\r\n"
    ).encode()
    assert [s.key for s in ical_reader.parse(data, source="x.ics").sessions] == ["abc@x"]
    xml = (
        '<schedule><conference><title>C</title></conference><day index="1" date="2026-04-07">'
        '<room name="Hall"><event guid="\u200bg-1"><title>A</title>'
        "<date>2026-04-07T10:00:00+02:00</date>"
        '<persons><person id="7\u200b">Ada</person></persons></event></room></day></schedule>'
    ).encode()
    programme = frab_xml.parse(xml, source="s.xml")
    assert [s.key for s in programme.sessions] == ["g-1"]
    assert [s.key for s in programme.speakers] == ["7"]
    document = {
        "sessions": [
            {"id": "\u200b42", "title": "A", "startsAt": "2026-04-07T09:00:00Z",
             "endsAt": "2026-04-07T10:00:00Z", "speakers": ["\ufeffs-1"], "categoryItems": [],
             "roomId": None},
        ],
        "speakers": [{"id": "s-1", "firstName": "Ada", "lastName": "L", "fullName": "Ada L"}],
        "rooms": [], "categories": [],
    }  # fmt: skip
    programme = sessionize.parse(json.dumps(document).encode(), source="s.json")
    assert [(s.key, s.speakers[0].speaker_key) for s in programme.sessions] == [("42", "s-1")]


def v1(event: dict) -> bytes:
    day = {"index": 1, "date": "2026-04-07", "rooms": {"Hall": [event]}}
    conference = {"title": "C", "time_zone_name": "Europe/Paris", "days": [day]}
    return json.dumps({"schedule": {"conference": conference}}).encode()


def test_a_c3voc_guid_of_the_wrong_type_is_warned_about() -> None:
    event = {"id": 7, "title": "A", "date": "2026-04-07T10:00:00+02:00", "duration": "00:30"}
    programme = c3voc_json.parse(v1({**event, "guid": {"uuid": "x"}}), source="s.json")
    assert [s.key for s in programme.sessions] == ["7"]  # the id, as before, but not silently
    assert programme.warnings == [
        'schedule.conference.days[0].rooms["Hall"][0].guid is an object, not a string; not '
        "used as the event's identity"
    ]
    programme = c3voc_json.parse(v1({**event, "guid": 12.5}), source="s.json")
    assert programme.warnings == [
        'schedule.conference.days[0].rooms["Hall"][0].guid is the number 12.5, not a string; '
        "not used as the event's identity"
    ]
    programme = c3voc_json.parse(v1({**event, "guid": 99}), source="s.json")
    assert [s.key for s in programme.sessions] == ["99"]
    assert programme.warnings == [
        'schedule.conference.days[0].rooms["Hall"][0].guid is the number 99, not a string; '
        "used as written"
    ]


def test_a_schedule2_guid_of_the_wrong_type_is_warned_about() -> None:
    event = {"guid": ["x"], "id": 3, "title": "A", "start": "2026-04-07T10:00:00+02:00"}
    document = {"schedule": {"conference": {"title": "C"}, "events": [event]}}
    programme = c3voc_schedule2.parse(json.dumps(document).encode(), source="s2.json")
    assert [s.key for s in programme.sessions] == ["3"]
    assert programme.warnings == [
        "schedule.events[0].guid is an array (of 1 items), not a string; not used as the "
        "event's identity"
    ]
