"""frab's schedule.json and schedule.xml of around 2013 (issue 29, item 15), as frab wrote them.

frab's index.json.erb of that time wrote each day as {"index": "0", "date", "rooms"} with no
`day_start`, each event with a `start` clock and no `date`, its room's list ordered by start
(so a 00:00 session follows the 23:00 one), and each person as
{"id": "12", "full_public_name": "…"}; some days of hand-edited copies lost their `date`.
"""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

from confsched.interchange.c3voc.read import parse
from confsched.interchange.formats import parse_files

BERLIN = ZoneInfo("Europe/Berlin")


def _event(ident: int, start: str, title: str, *people: tuple[str, str]) -> dict:
    return {
        "id": str(ident), "start": start, "duration": "01:00", "room": "Saal 1",
        "slug": f"sigint13-{ident}", "title": title, "subtitle": "", "track": "", "type": "",
        "language": "en", "abstract": "", "description": "",
        "persons": [{"id": pid, "full_public_name": name} for pid, name in people],
        "links": [],
    }  # fmt: skip


def frab_2013() -> bytes:
    night = [
        _event(1, "22:00", "Late talk", ("12", "Ada Lovelace")),
        _event(2, "23:00", "Later talk", ("13", "Grace Hopper"), ("12", "Ada Lovelace")),
        _event(3, "00:00", "Midnight talk", ("14", "Alan Turing")),
        _event(4, "01:30", "Night owls"),
    ]
    morning = [_event(5, "10:00", "Second morning"), _event(6, "00:30", "Second night")]
    document = {
        "schedule": {
            "version": "1.0",
            "conference": {
                "title": "SIGINT 2013",
                "start": "2013-07-05",
                "end": "2013-07-06",
                "timeslot_duration": "00:15",
                "days": [
                    {"index": "0", "date": "2013-07-05", "rooms": {"Saal 1": night}},
                    {"index": "1", "rooms": {"Saal 1": morning}},  # no date, no day_start
                ],
            },  # fmt: skip
        }
    }
    return json.dumps(document).encode()


def test_people_named_by_full_public_name_are_read() -> None:
    programme = parse(frab_2013(), source="schedule.json", default_timezone="Europe/Berlin")
    assert sorted((s.key, s.name) for s in programme.speakers) == [
        ("12", "Ada Lovelace"),
        ("13", "Grace Hopper"),
        ("14", "Alan Turing"),
    ]
    later = next(s for s in programme.sessions if s.title == "Later talk")
    assert [link.speaker_key for link in later.speakers] == ["13", "12"]
    assert [w for w in programme.warnings if "without a name" in w] == []


def test_a_room_list_that_goes_back_in_time_has_crossed_midnight() -> None:
    programme = parse(frab_2013(), source="schedule.json", default_timezone="Europe/Berlin")
    starts = {s.title: s.starts_at for s in programme.sessions}
    assert starts == {
        "Late talk": datetime(2013, 7, 5, 22, 0, tzinfo=BERLIN),
        "Later talk": datetime(2013, 7, 5, 23, 0, tzinfo=BERLIN),
        "Midnight talk": datetime(2013, 7, 6, 0, 0, tzinfo=BERLIN),  # was 24 h early, on the 5th
        "Night owls": datetime(2013, 7, 6, 1, 30, tzinfo=BERLIN),
        # The day without a date is conference.start's next date; its night is the 7th.
        "Second morning": datetime(2013, 7, 6, 10, 0, tzinfo=BERLIN),
        "Second night": datetime(2013, 7, 7, 0, 30, tzinfo=BERLIN),
    }
    assert (
        "3 events of days without day_start come after an event later in the day in their "
        "room's list: read as after midnight, on the next date"
    ) in programme.notes


def test_a_day_with_day_start_keeps_its_own_rule() -> None:
    """Where frab wrote day_start, the clock before it is after midnight; no list order is
    needed, and a list out of order does not move an event."""
    document = json.loads(frab_2013())
    day = document["schedule"]["conference"]["days"][0]
    day["day_start"] = "2013-07-05T10:00:00+02:00"
    day["rooms"]["Saal 1"] = [_event(3, "00:00", "Midnight talk"), _event(1, "22:00", "Late")]
    programme = parse(
        json.dumps(document).encode(), source="schedule.json", default_timezone="Europe/Berlin"
    )
    starts = {s.title: s.starts_at for s in programme.sessions}
    assert starts["Midnight talk"] == datetime(2013, 7, 6, 0, 0, tzinfo=BERLIN)
    assert starts["Late"] == datetime(2013, 7, 5, 22, 0, tzinfo=BERLIN)
    # Only the second day, still without day_start, has an event read past midnight.
    assert [n for n in programme.notes if "day_start" in n] == [
        "1 event of a day without day_start comes after an event later in the day in its "
        "room's list: read as after midnight, on the next date"
    ]


def test_the_2013_file_is_detected_and_imported_whole() -> None:
    programme = parse_files([("schedule.json", frab_2013())], default_timezone="Europe/Berlin")
    assert (len(programme.sessions), len(programme.speakers)) == (6, 3)


FRAB_XML_2013 = b"""<?xml version="1.0" encoding="utf-8"?>
<schedule>
  <conference><title>SIGINT 2013</title><start>2013-07-05</start><end>2013-07-05</end>
    <days>1</days><timeslot_duration>00:15</timeslot_duration></conference>
  <day date="2013-07-05" index="1">
    <room name="Saal 1">
      <event id="2"><start>23:00</start><duration>01:00</duration><room>Saal 1</room>
        <title>Later talk</title><persons><person id="12">Ada Lovelace</person></persons></event>
      <event id="3"><start>00:00</start><duration>01:00</duration><room>Saal 1</room>
        <title>Midnight talk</title></event>
      <event id="4"><start>01:30</start><duration>00:30</duration><room>Saal 1</room>
        <title>Night owls</title></event>
    </room>
    <room name="Saal 2">
      <event id="5"><start>10:00</start><duration>01:00</duration><room>Saal 2</room>
        <title>Morning</title></event>
    </room>
  </day>
</schedule>
"""


def test_a_schedule_xml_day_without_start_crosses_midnight_where_its_room_goes_back() -> None:
    """The same shape in schedule.xml: a <day> with only its date, no <day_change>."""
    from confsched.interchange.frab.read import parse as parse_xml

    programme = parse_xml(FRAB_XML_2013, source="schedule.xml", default_timezone="Europe/Berlin")
    assert {s.title: s.starts_at for s in programme.sessions} == {
        "Later talk": datetime(2013, 7, 5, 23, 0, tzinfo=BERLIN),
        "Midnight talk": datetime(2013, 7, 6, 0, 0, tzinfo=BERLIN),
        "Night owls": datetime(2013, 7, 6, 1, 30, tzinfo=BERLIN),
        "Morning": datetime(2013, 7, 5, 10, 0, tzinfo=BERLIN),  # another room: its own list
    }
    assert "2 events start after midnight and were moved to the next day" in programme.notes
