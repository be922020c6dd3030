"""The c3voc schedule2 reader: a realistic hand-written document validated against schema2.json
and read with exact values, the leniencies, and every refusal with its message."""

from __future__ import annotations

import copy
import hashlib
import json
from collections import Counter
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import jsonschema
import pytest

from confsched.core.errors import ParseError
from confsched.interchange.c3voc import read as c3voc_json
from confsched.interchange.c3voc.schedule2_read import DESCRIPTION, FORMAT_NAME, looks_like, parse
from confsched.interchange.frab import read as frab_xml
from confsched.interchange.programme import Session, SessionSpeaker, Speaker
from confsched.interchange.sessionize import read as sessionize
from tests.interchange.schemas import schema_validator

CEST = timezone(timedelta(hours=2))


def room_guid(number: int) -> str:
    return f"1a000000-0000-4000-8000-{number:012d}"


def event_guid(number: int) -> str:
    return f"2e000000-0000-4000-8000-{number:012d}"


def person_guid(number: int) -> str:
    return f"3b000000-0000-4000-8000-{number:012d}"


def talk(number: int, **changes: object) -> dict:
    """An Event as schema2 requires it: every required field, in Saal 1 on the first day."""
    event: dict = {
        "guid": event_guid(number),
        "start": f"2025-06-14T{10 + number:02d}:00:00+02:00",
        "end": f"2025-06-14T{10 + number:02d}:30:00+02:00",
        "room": {"guid": room_guid(1), "name": "Saal 1"},
        "slug": f"hackwerk2025-{number}-talk",
        "url": f"https://pretalx.example/hackwerk2025/talk/{number}/",
        "title": f"Talk {number}",
        "subtitle": None,
        "track": {"slug": "security"},
        "type": "TALK",
        "language": "en",
        "abstract": f"About {number}.",
        "participants": [],
        "links": [],
    }
    event.update(changes)
    return {name: value for name, value in event.items() if value is not ...}


def conference(**changes: object) -> dict:
    body: dict = {
        "acronym": "hackwerk2025",
        "title": "Hackwerk 2025",
        "start": "2025-06-14T09:00:00+02:00",
        "end": "2025-06-15T18:00:00+02:00",
        "time_zone_name": "Europe/Berlin",
        "defaults": {"language": "de"},
        "rooms": [
            {"name": "Saal 1", "guid": room_guid(1), "slug": "saal-1", "type": "LECTURE_HALL"},
            {"name": "Werkstatt", "guid": room_guid(2), "slug": "werkstatt", "capacity": 40},
            {"name": "Hof", "guid": room_guid(3), "slug": "hof", "type": "OUTSIDE"},
        ],
        "tracks": [
            {"name": "Security & Privacy", "slug": "security", "color": "#aa0000"},
            {"name": "Making", "slug": "making"},
        ],
        "days": [
            {
                "index": 1,
                "date": "2025-06-14",
                "start": "2025-06-14T09:00:00+02:00",
                "end": "2025-06-15T03:00:00+02:00",
            },
            {
                "index": 2,
                "date": "2025-06-15",
                "start": "2025-06-15T09:00:00+02:00",
                "end": "2025-06-15T18:00:00+02:00",
            },
        ],
    }
    body.update(changes)
    return {name: value for name, value in body.items() if value is not ...}


def document(*events: dict, **changes: object) -> dict:
    return {
        "$schema": "https://c3voc.de/schema/schedule2",
        "generator": {"name": "pretalx", "version": "2025.1.0"},
        "schedule": {"version": "1.3", "conference": conference(**changes), "events": list(events)},
    }


ADA = {"name": "Ada Lovelace", "guid": person_guid(1), "role": "SPEAKER"}
GRACE = {"name": "Grace Hopper", "guid": person_guid(2), "role": "MODERATOR"}
# A merged schedule: another sub-schedule gave its own speaker the guid of Ada.
ADA_CLASH = {"name": "Alan Turing", "guid": person_guid(1)}


def realistic() -> dict:
    """Seven events over two days: every kind of room and track reference, localized texts,
    each state that matters, a meta event, and a person guid shared by two people."""
    return document(
        talk(
            1,
            code="QX7ZPA",
            subtitle="Why your fridge knows more than you do",
            abstract="Home devices <b>talk</b>.",
            description="<p>Home devices <b>talk</b>.</p>",
            participants=[ADA, GRACE],
            state="CONFIRMED",
        ),
        talk(
            2,
            type="LIGHTNING_TALK",
            end="2025-06-14T12:05:00+02:00",
            room={"guid": room_guid(2)},
            track={"slug": "making"},
            language="de",
            abstract={"en": "Solder it.", "de": "Löte es."},
            description=None,
            participants=[{"name": "Ada Lovelace", "guid": person_guid(1)}],
        ),
        talk(
            3,
            type="WORKSHOP",
            start="2025-06-14T23:00:00+02:00",
            end="2025-06-15T01:00:00+02:00",
            room={"guid": room_guid(3), "slug": "hof"},
            track={"slug": "night-owls"},
            abstract={"fr": "La nuit."},
            state="CANCELED",
        ),
        {
            "type": "BREAK",
            "title": "Mittagessen",
            "start": "2025-06-15T12:00:00+02:00",
            "end": "2025-06-15T13:00:00+02:00",
            "room": {"guid": room_guid(3)},
        },
        talk(
            5,
            start="2025-06-15T14:00:00+02:00",
            end="2025-06-15T14:45:00+02:00",
            participants=[ADA_CLASH],
            state="SUBMITTED",
        ),  # fmt: skip
        talk(
            6, start="2025-06-15T15:00:00+02:00", end="2025-06-15T15:30:00+02:00", state="REJECTED"
        ),  # fmt: skip
        talk(
            7,
            start="2025-06-15T16:00:00+02:00",
            end="2025-06-15T16:30:00+02:00",
            room={"guid": room_guid(9), "name": "Zelt"},
            track={"slug": "making"},
            abstract=None,
            state="DELAYED",
        ),  # fmt: skip
    )


def encoded(value: dict) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def refusal(data: dict | bytes, **kwargs: str) -> str:
    with pytest.raises(ParseError) as caught:
        parse(data if isinstance(data, bytes) else encoded(data), source="s2.json", **kwargs)
    return str(caught.value)


def validator(shared_dir: Path) -> jsonschema.Draft6Validator:
    return schema_validator(shared_dir, "schema2.json")


# --- the realistic document ------------------------------------------------------------------


@pytest.mark.shared
def test_the_realistic_document_is_valid_schedule2(shared_dir: Path) -> None:
    check = validator(shared_dir)
    assert [error.message for error in check.iter_errors(realistic())] == []
    # The validator is not toothless: an event without its room breaks the schema.
    broken = realistic()
    del broken["schedule"]["events"][0]["room"]
    assert not check.is_valid(broken)


def test_the_realistic_document_is_read_exactly() -> None:
    programme = parse(encoded(realistic()), source="s2.json")
    assert (programme.name, programme.timezone) == ("Hackwerk 2025", "Europe/Berlin")
    assert (programme.start_date, programme.end_date) == (date(2025, 6, 14), date(2025, 6, 15))
    assert programme.rooms == ["Saal 1", "Werkstatt", "Hof", "Zelt"]
    assert programme.speakers == [
        Speaker(key=person_guid(1), name="Ada Lovelace"),
        Speaker(key=person_guid(2), name="Grace Hopper"),
        Speaker(key=f"{person_guid(1)}~alan-turing", name="Alan Turing"),
    ]
    assert (
        programme.sessions
        == [
            Session(
                key=event_guid(1),
                title="Talk 1",
                kind="Talk",
                abstract="Why your fridge knows more than you do\n\nHome devices talk.",
                starts_at=datetime(2025, 6, 14, 11, 0, tzinfo=CEST),
                ends_at=datetime(2025, 6, 14, 11, 30, tzinfo=CEST),
                room="Saal 1",
                track="Security & Privacy",
                language="en",
                speakers=(SessionSpeaker(person_guid(1)), SessionSpeaker(person_guid(2))),
            ),
            Session(
                key=event_guid(2),
                title="Talk 2",
                kind="Lightning Talk",
                abstract="Löte es.",  # the map in the event's language
                starts_at=datetime(2025, 6, 14, 12, 0, tzinfo=CEST),
                ends_at=datetime(2025, 6, 14, 12, 5, tzinfo=CEST),
                room="Werkstatt",  # by guid from conference.rooms
                track="Making",
                language="de",
                speakers=(SessionSpeaker(person_guid(1)),),
            ),
            Session(
                key=event_guid(3),
                title="Talk 3",
                kind="Workshop",
                abstract="La nuit.",  # neither en nor de: the map's only text
                starts_at=datetime(2025, 6, 14, 23, 0, tzinfo=CEST),
                ends_at=datetime(2025, 6, 15, 1, 0, tzinfo=CEST),
                room="Hof",
                track="night-owls",  # a slug the conference does not declare stays a slug
                language="en",
                is_cancelled=True,
            ),
            Session(
                key="c3voc-"
                + hashlib.sha256(b"2025-06-15T12:00:00+02:00|Hof|Mittagessen").hexdigest()[:12],
                title="Mittagessen",
                kind="Break",
                starts_at=datetime(2025, 6, 15, 12, 0, tzinfo=CEST),
                ends_at=datetime(2025, 6, 15, 13, 0, tzinfo=CEST),
                room="Hof",
            ),
            Session(
                key=event_guid(5),
                title="Talk 5",
                kind="Talk",
                abstract="About 5.",
                starts_at=datetime(2025, 6, 15, 14, 0, tzinfo=CEST),
                ends_at=datetime(2025, 6, 15, 14, 45, tzinfo=CEST),
                room="Saal 1",
                track="Security & Privacy",
                language="en",
                speakers=(SessionSpeaker(f"{person_guid(1)}~alan-turing"),),
                needs_review=True,
                review_note="state SUBMITTED in the schedule2 file",
            ),
            Session(
                key=event_guid(7),
                title="Talk 7",
                kind="Talk",
                starts_at=datetime(2025, 6, 15, 16, 0, tzinfo=CEST),
                ends_at=datetime(2025, 6, 15, 16, 30, tzinfo=CEST),
                room="Zelt",  # a reference with a name needs no declared room
                track="Making",
                language="en",
            ),
        ]
    )
    assert programme.warnings == [
        f"person guid {person_guid(1)} names 2 people: Ada Lovelace, Alan Turing; keyed apart"
    ]
    assert programme.notes == [
        "1 events in state REJECTED left out",
        "1 events have no guid; keyed by their start, room and title",
        'schedule version "1.3"',
    ]


# --- leniency --------------------------------------------------------------------------------


def test_durations_when_there_is_no_end() -> None:
    forms = ["PT45M", "PT1H30M", "P1DT2H", "PT90S", "PT0.5S", "1:15", "01:15:30", "P1W"]
    events = [talk(number, end=..., duration=form) for number, form in enumerate(forms, start=1)]
    programme = parse(encoded(document(*events)), source="s2.json")
    assert [s.ends_at - s.starts_at for s in programme.sessions] == [
        timedelta(minutes=45),
        timedelta(hours=1, minutes=30),
        timedelta(days=1, hours=2),
        timedelta(seconds=90),
        timedelta(seconds=0.5),
        timedelta(hours=1, minutes=15),
        timedelta(hours=1, minutes=15, seconds=30),
        timedelta(weeks=1),
    ]
    (no_end,) = parse(encoded(document(talk(1, end=...))), source="s2.json").sessions
    assert no_end.ends_at is None


def test_naive_times_use_the_declared_zone_else_the_given_one() -> None:
    naive = talk(1, start="2025-06-14T11:00:00", end="2025-06-14T11:30:00")
    (session,) = parse(encoded(document(naive)), source="s2.json").sessions
    assert session.starts_at == datetime(2025, 6, 14, 9, 0, tzinfo=UTC)
    without = document(naive, time_zone_name=...)
    programme = parse(encoded(without), source="s2.json", default_timezone="Europe/Lisbon")
    assert (programme.timezone, programme.sessions[0].starts_at) == (
        "",
        datetime(2025, 6, 14, 10, 0, tzinfo=UTC),
    )


def test_keys_fall_back_from_guid_to_id_code_slug() -> None:
    events = [
        talk(1, guid=..., id=4711),
        talk(2, guid=..., code="AB12"),
        talk(3, guid=..., slug="hackwerk2025-3-talk"),
    ]
    programme = parse(encoded(document(*events)), source="s2.json")
    assert [s.key for s in programme.sessions] == ["4711", "AB12", "hackwerk2025-3-talk"]
    assert programme.notes == [
        "1 events have no guid; keyed by their code",
        "1 events have no guid; keyed by their id",
        "1 events have no guid; keyed by their slug",
        'schedule version "1.3"',
    ]


def test_texts_in_other_shapes_and_languages() -> None:
    events = [
        # No language on the event: the conference default (de), then English.
        talk(1, language=..., abstract={"en": "Hello.", "de": "Hallo."}),
        talk(2, language=..., abstract={"en": "Hello.", "fr": "Salut."}),
        talk(3, subtitle={"de": None, "en": "Sub"}, abstract="Same.", description="Same."),
        talk(4, abstract="**Markdown** stays", description=12),
    ]
    programme = parse(encoded(document(*events)), source="s2.json")
    assert [s.abstract for s in programme.sessions] == [
        "Hallo.",
        "Hello.",
        "Sub\n\nSame.",
        "**Markdown** stays\n\n12",
    ]


def test_people_in_v1_shape_plain_names_and_without_names() -> None:
    people = [
        {"public_name": "Grace Hopper", "id": 12},
        "Bare Name",
        {"name": "  Ada   Lovelace ", "code": "ADA1"},
        {"guid": person_guid(4)},
    ]
    programme = parse(encoded(document(talk(1, participants=..., persons=people))), source="s")
    assert [(s.key, s.name) for s in programme.speakers] == [
        ("12", "Grace Hopper"),
        ("bare-name", "Bare Name"),
        ("ADA1", "Ada Lovelace"),
    ]
    assert programme.warnings == [
        "schedule.events[0].persons[3]: a person without a name; left out"
    ]


def test_states_the_schema_does_not_name_are_read_as_scheduled_with_a_warning() -> None:
    events = [talk(1, state="POSTPONED"), talk(2, state="postponed"), talk(3, state="confirmed")]
    programme = parse(encoded(document(*events)), source="s2.json")
    assert [(s.is_cancelled, s.needs_review) for s in programme.sessions] == [(False, False)] * 3
    assert programme.warnings == [
        "2 events have a state schedule2 does not define (POSTPONED); read as scheduled"
    ]


def test_conference_dates_fall_back_to_the_sessions() -> None:
    events = [talk(1), talk(2, start="2025-06-16T09:00:00+02:00", end=...)]
    programme = parse(encoded(document(*events, start=..., end="soon")), source="s2.json")
    assert (programme.start_date, programme.end_date) == (date(2025, 6, 14), date(2025, 6, 16))
    assert programme.warnings == [
        'schedule.conference.end is "soon", not a date; used the sessions\' days'
    ]


@pytest.mark.parametrize(
    ("zone", "shown"),
    [("Europe", "'Europe'"), ("Etc", "'Etc'"), ("A" * 300, repr("A" * 64 + "…"))],
)
def test_zone_names_outside_the_tz_database(zone: str, shown: str) -> None:
    programme = parse(encoded(document(talk(1), time_zone_name=zone)), source="s2.json")
    assert (programme.timezone, len(programme.sessions)) == ("", 1)
    assert programme.warnings == [
        f"schedule.conference.time_zone_name {shown} is not an IANA time zone; ignored"
    ]
    assert refusal(document(talk(1)), default_timezone=zone) == (
        f"s2.json: --timezone: unknown time zone {shown}: give an IANA name such as Europe/Paris"
    )


# --- recognising the format ------------------------------------------------------------------


@pytest.mark.shared
def test_looks_like_tells_schedule2_from_v1_and_the_rest(shared_dir: Path) -> None:
    head = json.dumps(realistic())
    assert (FORMAT_NAME, DESCRIPTION) == (
        "c3voc-schedule2",
        "c3voc schedule2 JSON (one flat events list; the newest c3voc tools)",
    )
    assert (looks_like(head), c3voc_json.looks_like(head), frab_xml.looks_like(head)) == (
        True,
        False,
        False,
    )
    assert looks_like("\ufeff" + json.dumps(realistic(), indent=2))
    for path in sorted((shared_dir / "formats" / "samples").glob("*/*")):
        sample = path.read_bytes()[:200_000].decode("utf-8", errors="replace").lstrip("\ufeff")
        assert not looks_like(sample), path.name
    assert not sessionize.looks_like(head)
    # v1 refers the file here by name when it is forced on one
    assert c3voc_json.SCHEDULE2_FORMAT_NAME == FORMAT_NAME


# --- refusals --------------------------------------------------------------------------------


def test_refuses_documents_that_are_not_schedule2() -> None:
    assert refusal(b"[1]") == (
        "s2.json: not a c3voc schedule2 document: the top level is an array (of 1 items); "
        'expected an object with a "schedule" object'
    )
    assert refusal(b"{}") == (
        "s2.json: not a c3voc schedule2 document: schedule is missing or null; expected an "
        'object with "conference" and "events"'
    )
    assert refusal(b'{"schedule": {"conference": 3}}') == (
        "s2.json: not a c3voc schedule2 document: schedule.conference is the number 3; "
        "expected an object with the conference's title, time zone and rooms"
    )


def test_refuses_a_document_without_events() -> None:
    empty = document()
    assert refusal(empty) == (
        "s2.json: no events: schedule.events is empty; there is no programme to import"
    )
    del empty["schedule"]["events"]
    assert refusal(empty) == "s2.json: schedule.events is missing; expected an array of events"
    empty["schedule"]["events"] = {"a": talk(1)}
    assert refusal(empty) == "s2.json: schedule.events is an object; expected an array of events"
    rejected = document(talk(1, state="REJECTED"), talk(2, state="DELETED"))
    assert refusal(rejected) == (
        "s2.json: no events: schedule.events holds 2, all rejected or deleted; there is no "
        "programme to import"
    )


@pytest.mark.shared
def test_refuses_a_v1_schedule_json_naming_its_reader(shared_dir: Path) -> None:
    data = shared_dir / "formats" / "samples" / "c3voc-json" / "pretalx-democon.json"
    assert refusal(data.read_bytes()) == (
        "s2.json: schedule.events is missing and the days list rooms of events, as a v1 "
        "schedule.json does: import it as c3voc-json"
    )


EVENT = "schedule.events[0]"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"title": ...}, f"{EVENT}.title is missing; expected the event's title"),
        ({"title": 7}, f"{EVENT}.title is the number 7; expected the event's title"),
        (
            {"start": ...},
            f"{EVENT}.start is missing; expected an ISO 8601 date and time such as "
            "2020-12-14T09:00:00+01:00",
        ),
        (
            {"start": "2025-06-14"},
            f'{EVENT}.start is "2025-06-14"; expected an ISO 8601 date and time such as '
            "2020-12-14T09:00:00+01:00",
        ),
        (
            {"start": {"at": "10:00"}},
            f'{EVENT}.start is {{"at": "10:00"}}; expected an ISO 8601 date and time such as '
            "2020-12-14T09:00:00+01:00",
        ),
        (
            {"end": "2025-06-14T10:59:00+02:00"},
            f'{EVENT}.end is "2025-06-14T10:59:00+02:00", before the event\'s start '
            "2025-06-14T11:00:00+02:00; expected a later time",
        ),
        (
            {"end": ..., "duration": "P1M"},
            f'{EVENT}.duration is "P1M"; expected an ISO 8601 duration such as PT1H30M',
        ),
        (
            {"end": ..., "duration": 30},
            f"{EVENT}.duration is 30; expected an ISO 8601 duration such as PT1H30M",
        ),
        ({"room": 5}, f"{EVENT}.room is the number 5; expected a room reference"),
        ({"room": {}}, f"{EVENT}.room has no name, guid or slug; expected a room reference"),
        (
            {"room": {"guid": room_guid(9)}},
            f'{EVENT}.room has guid "{room_guid(9)}", which no room in '
            "schedule.conference.rooms has; expected the reference of a declared room, or a name",
        ),
        (
            {"room": {"name": ["Saal"]}},
            f"{EVENT}.room.name is an array (of 1 items); expected a string",
        ),
        ({"track": ["x"]}, f"{EVENT}.track is an array (of 1 items); expected a track reference"),
        (
            {"abstract": {"en": {"text": "x"}}},
            f'{EVENT}.abstract["en"] is an object; expected a string',
        ),
        ({"language": ["en"]}, f"{EVENT}.language is an array (of 1 items); expected a string"),
        ({"state": ["CANCELED"]}, f"{EVENT}.state is an array (of 1 items); expected a string"),
        ({"participants": {"name": "x"}}, f"{EVENT}.participants is an object; expected an array"),
        ({"participants": [None]}, f"{EVENT}.participants[0] is null; expected a person"),
    ],
)
def test_refuses_broken_events_naming_the_path(changes: dict, message: str) -> None:
    assert refusal(document(talk(1, **changes))) == f"s2.json: {message}"


def test_refuses_broken_declarations_and_events() -> None:
    assert refusal(document(talk(1), rooms={"Saal 1": {}})) == (
        "s2.json: schedule.conference.rooms is an object; expected an array"
    )
    assert refusal(document(talk(1), tracks=["Security"])) == (
        's2.json: schedule.conference.tracks[0] is the string "Security"; expected an object'
    )
    assert refusal(document(talk(1), "talk")) == (
        's2.json: schedule.events[1] is the string "talk"; expected an event object'
    )
    assert refusal(document(talk(1), talk(2, guid=event_guid(1)))) == (
        f"s2.json: schedule.events[1] has the key {event_guid(1)!r} of schedule.events[0]; "
        "expected each event to have its own guid"
    )


def test_refuses_naive_times_without_any_zone() -> None:
    naive = talk(1, start="2025-06-14T11:00:00")
    assert refusal(document(naive, time_zone_name=...)) == (
        f's2.json: {EVENT}.start is "2025-06-14T11:00:00", a time without a UTC offset, and the '
        "file names no time zone (schedule.conference.time_zone_name); give one with "
        "--timezone, for example --timezone Europe/Berlin"
    )


@pytest.mark.parametrize(
    ("zone", "changes", "message"),
    [
        (
            "UTC",
            {"start": "0001-01-01T00:30:00+01:00", "end": ...},
            f'{EVENT}.start is "0001-01-01T00:30:00+01:00", outside the years 1 to 9999 in UTC',
        ),
        (
            "Europe/Berlin",
            {"start": "9999-12-31T23:30:00+00:00", "end": ...},
            f'{EVENT}.start is "9999-12-31T23:30:00+00:00", outside the years 1 to 9999 in '
            "Europe/Berlin",
        ),
        (
            "UTC",
            {"start": "9999-12-31T20:00:00+00:00", "end": "9999-12-31T23:00:00-05:00"},
            f'{EVENT}.end is "9999-12-31T23:00:00-05:00", outside the years 1 to 9999 in UTC',
        ),
        (
            "UTC",
            {"start": "9999-12-31T20:00:00+00:00", "end": ..., "duration": "PT5H"},
            f'{EVENT}.duration is "PT5H", which from the start 9999-12-31T20:00:00+00:00 ends '
            "outside the years 1 to 9999",
        ),
        (
            "UTC",
            {"end": ..., "duration": "PT" + "9" * 5000 + "H"},
            f'{EVENT}.duration is "PT{"9" * 61}…, which from the start '
            "2025-06-14T11:00:00+02:00 ends outside the years 1 to 9999",
        ),
        (
            "UTC",
            {"end": ..., "duration": "PT1" + "0" * 400 + "S"},
            f'{EVENT}.duration is "PT1{"0" * 60}…, which from the start '
            "2025-06-14T11:00:00+02:00 ends outside the years 1 to 9999",
        ),
    ],
)
def test_refuses_times_beyond_the_years_datetime_holds(
    zone: str, changes: dict, message: str
) -> None:
    assert refusal(document(talk(1, **changes), time_zone_name=zone)) == f"s2.json: {message}"


def test_refuses_hostile_json() -> None:
    assert refusal(b"[" * 100_000) == (
        "s2.json: not a c3voc schedule2 document: its JSON is nested too deeply"
    )
    big = copy.deepcopy(realistic())
    big["schedule"]["version"] = "__BIG__"
    data = encoded(big).replace(b'"__BIG__"', b"1" * 5000)
    assert refusal(data) == (
        "s2.json: not a c3voc schedule2 document: a number in it is too long (Exceeds the limit "
        "(4300 digits) for integer string conversion: value has 5000 digits; use "
        "sys.set_int_max_str_digits() to increase the limit)"
    )


# Bilingual talks (issue 14, item 4)


@pytest.mark.parametrize(
    ("language", "code"),
    [("de, en", "de"), ("en, de", "en"), ("de/en", "de"), ("Deutsch; English", "de"), ("fr", "fr")],
)
def test_a_bilingual_talk_is_written_in_its_first_language(language: str, code: str) -> None:
    from confsched.interchange.c3voc.schedule2_write import render
    from confsched.interchange.programme import Programme

    start = datetime(2024, 12, 27, 11, 0, tzinfo=UTC)
    programme = Programme(
        name="38C3",
        timezone="Europe/Berlin",
        start_date=date(2024, 12, 27),
        end_date=date(2024, 12, 27),
        sessions=[
            Session(
                key="a", title="Talk", starts_at=start, ends_at=start + timedelta(hours=1),
                language=language,
            )
        ],
    )  # fmt: skip
    document = json.loads(render(programme, slug="38c3"))
    assert [event["language"] for event in document["schedule"]["events"]] == [code]


@pytest.mark.shared
def test_the_38c3_bilingual_talks_keep_their_first_language(shared_dir: Path) -> None:
    from confsched.interchange.c3voc.schedule2_write import render

    name = "eventfahrplan_schedule-38c3-20251206.xml"
    data = (shared_dir / "formats" / "samples" / "frab-xml" / name).read_bytes()
    programme = frab_xml.parse(data, source=name)
    written = {
        event["guid"]: event["language"]
        for event in json.loads(render(programme, slug="38c3"))["schedule"]["events"]
    }
    read = {session.key: session.language for session in programme.sessions}
    pairs = Counter((read[guid], code) for guid, code in written.items())
    assert pairs[("de, en", "de")] == 129  # they came out "en"
    assert set(pairs) == {
        ("de", "de"),
        ("en", "en"),
        ("de, en", "de"),
        ("en, de", "en"),
        ("", "en"),
    }
