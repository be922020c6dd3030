"""Room capacities through the c3voc formats (schedule.json and schedule2) and into rooms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from confsched.interchange.c3voc import read as c3voc_json
from confsched.interchange.c3voc import schedule2_read as c3voc_schedule2
from confsched.interchange.c3voc import schedule2_write as c3voc_schedule2_write
from confsched.interchange.c3voc import write as c3voc_json_write
from confsched.programme.models import Room
from confsched.programme.services import create_event, load_programme, snapshot
from tests.interchange.test_c3voc_json import document as v1_document
from tests.interchange.test_c3voc_json import event as v1_event
from tests.interchange.test_c3voc_json import schema_errors as v1_schema_errors
from tests.interchange.test_c3voc_schedule2 import document as v2_document
from tests.interchange.test_c3voc_schedule2 import talk
from tests.interchange.test_schedule2_writer import schema_errors as v2_schema_errors

ROOMS = [
    {"name": "Saal 1", "guid": "1a000000-0000-4000-8000-000000000001", "capacity": 120},
    {"name": "Hof", "guid": "1a000000-0000-4000-8000-000000000003", "capacity": None},
    {"name": "Keller", "guid": "1a000000-0000-4000-8000-000000000004", "capacity": 12.0},
]


def test_v1_reads_capacities_of_declared_rooms() -> None:
    programme = c3voc_json.parse(v1_document(v1_event(), rooms=ROOMS), source="s.json")
    assert programme.room_capacities == {"Saal 1": 120, "Keller": 12}
    assert programme.warnings == []


def test_schedule2_reads_capacities_of_declared_rooms() -> None:
    data = json.dumps(v2_document(talk(1))).encode()
    programme = c3voc_schedule2.parse(data, source="s2.json")
    assert programme.room_capacities == {"Werkstatt": 40}


@pytest.mark.parametrize(
    ("value", "shown"),
    [("many", '"many"'), (-5, "-5"), (12.5, "12.5"), (True, "true"), ([40], "[40]")],
)
def test_v1_bad_capacity_is_named_and_left_out(value: object, shown: str) -> None:
    rooms = [{"name": "Saal 1", "capacity": value}]
    programme = c3voc_json.parse(v1_document(v1_event(), rooms=rooms), source="s.json")
    assert programme.room_capacities == {}
    assert programme.warnings == [
        f"schedule.conference.rooms[0].capacity is {shown}; expected a whole number of seats "
        "for room 'Saal 1', so it has none"
    ]


def test_writers_carry_capacity_only_when_known(shared_dir: Path) -> None:
    programme = c3voc_json.parse(v1_document(v1_event(), rooms=ROOMS), source="s.json")
    v1 = c3voc_json_write.render(programme, slug="tiny")
    v2 = c3voc_schedule2_write.render(programme, slug="tiny")
    assert [(r["name"], r.get("capacity")) for r in json.loads(v1)["schedule"]["conference"]
            ["rooms"]] == [("Saal 1", 120), ("Hof", None), ("Keller", 12)]  # fmt: skip
    assert "capacity" not in json.loads(v1)["schedule"]["conference"]["rooms"][1]
    assert [(r["name"], r.get("capacity")) for r in json.loads(v2)["schedule"]["conference"]
            ["rooms"]] == [("Saal 1", 120), ("Hof", None), ("Keller", 12)]  # fmt: skip
    assert v1_schema_errors(shared_dir, v1) == []
    assert v2_schema_errors(shared_dir, v2) == []
    again = c3voc_schedule2.parse(v2, source="out.json")
    assert again.room_capacities == {"Saal 1": 120, "Keller": 12}


@pytest.mark.django_db
def test_load_programme_stores_capacities_and_keeps_the_organizers() -> None:
    event = create_event(slug="tiny", name="Tiny Con", timezone="Europe/Berlin")
    rooms = [{"name": "Saal 1", "capacity": 120}, {"name": "Hof"}]
    events = [v1_event(1), v1_event(2, room="Hof")]
    load_programme(event, c3voc_json.parse(v1_document(*events, rooms=rooms), source="a"))
    assert dict(Room.objects.filter(event=event).values_list("name", "capacity")) == {
        "Saal 1": 120,
        "Hof": None,
    }
    Room.objects.filter(event=event, name="Hof").update(capacity=30)  # the organizer's figure
    rooms[0]["capacity"] = 150
    load_programme(event, c3voc_json.parse(v1_document(*events, rooms=rooms), source="b"))
    assert dict(Room.objects.filter(event=event).values_list("name", "capacity")) == {
        "Saal 1": 150,
        "Hof": 30,
    }
    assert snapshot(event).room_capacities == {"Saal 1": 150, "Hof": 30}
