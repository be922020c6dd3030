"""The c3voc schedule2 writer: valid against schema2.json, read back by our own reader, the same
bytes for the same programme, and served by the export command and /<event>/schedule2.json."""

from __future__ import annotations

import dataclasses
import json
import re
import uuid
from datetime import UTC, date, datetime, timedelta, timezone
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from confsched.interchange.c3voc.schedule2_read import parse
from confsched.interchange.c3voc.schedule2_write import render, session_guid
from confsched.interchange.formats import WRITERS
from confsched.interchange.programme import (
    Programme,
    Session,
    SessionLink,
    SessionSpeaker,
    Speaker,
)
from confsched.interchange.sched.read import parse_sched_pages
from tests.conftest import DEMO_SLUG, demo_files
from tests.interchange.schemas import schema_errors as errors_of
from tests.interchange.schemas import schema_validator

CEST = timezone(timedelta(hours=2))
ADA = "0b0b0b0b-0000-4000-8000-000000000001"


def schema_errors(shared_dir: Path, data: bytes) -> list[str]:
    return errors_of(schema_validator(shared_dir, "schema2.json", fractions=False), data)


def small_programme() -> Programme:
    return Programme(
        name="Small Conf",
        timezone="Europe/Paris",
        start_date=date(2026, 6, 1),
        end_date=date(2026, 6, 2),
        rooms=["Room 1"],
        speakers=[Speaker(ADA, "Ada Lovelace"), Speaker("alan-turing", "Alan Turing")],
        sessions=[
            Session(
                key="talk-b",
                title="Second",
                kind="Lightning Talk",
                abstract="Para one.\n\nPara two.",
                starts_at=datetime(2026, 6, 2, 10, 0, tzinfo=CEST),
                ends_at=datetime(2026, 6, 2, 10, 30, tzinfo=CEST),
                room="Room 1",
                track="Compilers",
                language="English",
                speakers=(SessionSpeaker(ADA), SessionSpeaker("alan-turing")),
                links=(SessionLink("https://s.example/deck.pdf", "Deck", "slides"),),
            ),
            Session(
                key="no-room",
                title="Hallway",
                kind="Talk",
                starts_at=datetime(2026, 6, 1, 9, 0, tzinfo=UTC),
                language="fr",
            ),
            Session(
                key="gone",
                title="Gone",
                starts_at=datetime(2026, 6, 2, 9, 0, tzinfo=CEST),
                ends_at=datetime(2026, 6, 2, 9, 30, tzinfo=CEST),
                room="Room 1",
                is_cancelled=True,
            ),
            Session(
                key="review",
                title="Unsure",
                starts_at=datetime(2026, 6, 2, 9, 0, tzinfo=UTC),
                needs_review=True,
            ),  # fmt: skip
            Session(key="unscheduled", title="Some day"),
        ],
    )


def guid(key: str, slug: str = "small-conf") -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{slug}:{key}"))


@pytest.mark.shared
def test_small_programme_validates_with_and_without_base_url(shared_dir: Path) -> None:
    programme = small_programme()
    assert schema_errors(shared_dir, render(programme, slug="small-conf")) == []
    data = render(programme, slug="small-conf", base_url="https://c.example/")
    assert schema_errors(shared_dir, data) == []


@pytest.mark.shared
def test_the_validator_catches_what_it_should(shared_dir: Path) -> None:
    data = render(small_programme(), slug="small-conf")
    assert schema_errors(shared_dir, data) == []
    for name, bad in [("start", "2026-06-01 09:00"), ("guid", "no-room"),
                      ("language", "English"), ("type", "Talk")]:  # fmt: skip
        document = json.loads(data)
        document["schedule"]["events"][0][name] = bad
        errors = schema_errors(shared_dir, json.dumps(document).encode())
        assert len(errors) == 1, (name, errors)  # the event matches neither kind of the oneOf


@pytest.mark.shared
def test_demo_validates(shared_dir: Path) -> None:
    demo = dataclasses.replace(parse_sched_pages(demo_files()), timezone="Europe/Paris")
    data = render(demo, slug=DEMO_SLUG, base_url="https://confsched.example/")
    assert schema_errors(shared_dir, data) == []
    assert len(json.loads(data)["schedule"]["events"]) == 28


def test_event_fields() -> None:
    document = json.loads(render(small_programme(), slug="small-conf", base_url="https://c.ex"))
    events = {event["title"]: event for event in document["schedule"]["events"]}
    assert list(events) == ["Hallway", "Gone", "Second"]  # by start; review/unscheduled left out
    assert events["Second"] == {
        "guid": guid("talk-b"),
        "start": "2026-06-02T10:00:00+02:00",
        "end": "2026-06-02T10:30:00+02:00",
        "room": {"name": "Room 1", "guid": guid("room:Room 1")},
        "slug": events["Second"]["slug"],
        "url": "https://c.ex/small-conf/sessions/talk-b/",
        "title": "Second",
        "subtitle": "",
        "track": {"slug": "compilers", "name": "Compilers"},
        "type": "LIGHTNING_TALK",
        "language": "en",
        "abstract": "Para one.\n\nPara two.",
        "participants": [
            {"guid": ADA, "name": "Ada Lovelace", "role": "SPEAKER"},
            {"guid": guid("speaker:alan-turing"), "name": "Alan Turing", "role": "SPEAKER"},
        ],
        "links": [{"type": "SLIDES", "title": "Deck", "url": "https://s.example/deck.pdf"}],
        "state": "CONFIRMED",
    }
    assert re.fullmatch(r"small-conf-\d+-second", events["Second"]["slug"])
    hallway = events["Hallway"]
    assert (hallway["start"], hallway["end"]) == ("2026-06-01T11:00:00+02:00",) * 2
    assert hallway["room"] == {"name": "", "guid": guid("room:")}
    assert hallway["track"] == {"slug": "no-track", "name": ""}
    assert (hallway["type"], hallway["language"]) == ("TALK", "fr")
    assert events["Gone"]["state"] == "CANCELED"
    assert (events["Gone"]["type"], events["Gone"]["language"]) == ("OTHER", "en")


def test_conference_fields() -> None:
    document = json.loads(render(small_programme(), slug="small-conf", base_url="https://c.ex/"))
    conference = document["schedule"]["conference"]
    assert conference == {
        "acronym": "small_conf",
        "title": "Small Conf",
        "start": "2026-06-01T00:00:00+02:00",
        "end": "2026-06-02T23:59:59+02:00",
        "time_zone_name": "Europe/Paris",
        "url": "https://c.ex/small-conf/",
        "rooms": [{"name": "Room 1", "guid": guid("room:Room 1")}],
        "tracks": [{"name": "Compilers", "slug": "compilers"}],
        "days": [
            {"index": 1, "date": "2026-06-01", "start": "2026-06-01T00:00:00+02:00",
             "end": "2026-06-02T00:00:00+02:00"},
            {"index": 2, "date": "2026-06-02", "start": "2026-06-02T00:00:00+02:00",
             "end": "2026-06-03T00:00:00+02:00"},
        ],
    }  # fmt: skip
    assert document["$schema"] == "https://c3voc.de/schema/schedule2"


def test_track_slugs_are_unique_and_never_no_track() -> None:
    programme = small_programme()
    sessions = [
        dataclasses.replace(programme.sessions[0], key=f"k{i}", track=track)
        for i, track in enumerate(["Rust!", "Rust", "No track", "日本語", "C"])
    ]
    document = json.loads(render(dataclasses.replace(programme, sessions=sessions), slug="s-c"))
    slugs = {t["name"]: t["slug"] for t in document["schedule"]["conference"]["tracks"]}
    assert slugs == {
        "C": "track-6b23c0d5",  # "c" is too short for the schema's pattern
        "No track": "no-track-2",
        "Rust": "rust",
        "Rust!": "rust-2",
        "日本語": slugs["日本語"],
    }
    assert re.fullmatch(r"track-[0-9a-f]{8}", slugs["日本語"])


def test_round_trip_keeps_what_the_format_carries() -> None:
    programme = small_programme()
    again = parse(render(programme, slug="small-conf"), source="small.json")
    assert (again.name, again.timezone, again.rooms) == ("Small Conf", "Europe/Paris", ["Room 1"])
    assert (again.start_date, again.end_date) == (date(2026, 6, 1), date(2026, 6, 2))
    assert again.warnings == []
    by_key = {session.key: session for session in again.sessions}
    assert set(by_key) == {guid("talk-b"), guid("no-room"), guid("gone")}
    original = programme.session("talk-b")
    assert by_key[guid("talk-b")] == dataclasses.replace(
        original,
        key=guid("talk-b"),
        language="en",  # written as its code
        speakers=(SessionSpeaker(ADA), SessionSpeaker(guid("speaker:alan-turing"))),
    )
    hallway = by_key[guid("no-room")]
    assert (hallway.room, hallway.track, hallway.kind) == ("", "", "Talk")
    assert hallway.ends_at == hallway.starts_at  # the format requires an end
    assert by_key[guid("gone")].is_cancelled is True
    assert {s.key: s.name for s in again.speakers} == {
        ADA: "Ada Lovelace",
        guid("speaker:alan-turing"): "Alan Turing",
    }


def test_output_is_deterministic_and_versioned_by_content() -> None:
    programme = small_programme()
    data = render(programme, slug="small-conf")
    assert render(programme, slug="small-conf", now=datetime(2030, 1, 1, tzinfo=UTC)) == data
    shuffled = dataclasses.replace(programme, sessions=programme.sessions[::-1])
    assert render(shuffled, slug="small-conf") == data
    version = json.loads(data)["schedule"]["version"]
    assert re.fullmatch(r"confsched-[0-9a-f]{16}", version)
    renamed = dataclasses.replace(programme, name="Small Conf 2")
    assert json.loads(render(renamed, slug="small-conf"))["schedule"]["version"] != version


def test_render_refuses_an_empty_programme_and_an_unknown_zone() -> None:
    with pytest.raises(ValueError, match="no dates and no scheduled sessions"):
        render(Programme(name="Empty"), slug="empty")
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        render(dataclasses.replace(small_programme(), timezone="Mars/Olympus"), slug="x")


def test_session_guid_is_the_key_when_a_uuid() -> None:
    assert session_guid(slug="s", key=ADA) == ADA
    assert session_guid(slug="small-conf", key="talk-b") == guid("talk-b")


def test_registered_as_the_schedule2_writer() -> None:
    writer = WRITERS["schedule2"]
    assert (writer.format_name, writer.content_type) == (
        "c3voc-schedule2",
        "application/json; charset=utf-8",
    )


@pytest.mark.django_db
def test_export_command_writes_schedule2(demo_event, tmp_path: Path) -> None:  # noqa: ANN001
    target = tmp_path / "schedule2.json"
    call_command("export", event=DEMO_SLUG, format="schedule2", output=str(target),
                 stderr=StringIO())  # fmt: skip
    document = json.loads(target.read_bytes())
    assert document["$schema"] == "https://c3voc.de/schema/schedule2"
    assert len(document["schedule"]["events"]) == 28


@pytest.mark.django_db
def test_served_at_schedule2_json(client, demo_event) -> None:  # noqa: ANN001 - fixtures
    response = client.get(f"/{DEMO_SLUG}/schedule2.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Access-Control-Allow-Origin"] == "*"
    document = json.loads(b"".join(response.streaming_content) if response.streaming else
                          response.content)  # fmt: skip
    assert document["schedule"]["conference"]["url"] == f"http://testserver/{DEMO_SLUG}/"
    assert len(document["schedule"]["events"]) == 28
