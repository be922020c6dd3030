"""validate_programme: what reaches the database fits it on SQLite and PostgreSQL alike.

PostgreSQL refuses values longer than a column, NUL bytes and lone surrogates; SQLite stored
them. Both now see the same cleaned values, and impossible times are refused by name.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from confsched.core.errors import InvalidProgrammeError
from confsched.interchange.csv.read import parse as parse_csv
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.programme.models import Event, Room, ScheduleVersion
from confsched.programme.models import Session as SessionRow
from confsched.programme.models import Speaker as SpeakerRow
from confsched.programme.services import create_event, load_programme, validate_programme

START = datetime(2026, 4, 7, 9, tzinfo=UTC)


def _programme(**session_fields: object) -> Programme:
    session = Session(
        key="s1", title="Tensors", starts_at=START, ends_at=START + timedelta(minutes=30),
        room="Room A", speakers=(SessionSpeaker("p1", "ACME"),),
    )  # fmt: skip
    return Programme(
        sessions=[replace(session, **session_fields)],
        speakers=[Speaker(key="p1", name="Ada Lovelace", company="ACME")],
    )


def test_a_clean_programme_is_unchanged_and_warns_nothing() -> None:
    programme = _programme()
    checked = validate_programme(programme)
    assert (checked.sessions, checked.speakers, checked.warnings) == (
        programme.sessions, programme.speakers, [],
    )  # fmt: skip


def test_nul_bytes_controls_and_lone_surrogates_are_replaced_with_a_warning() -> None:
    checked = validate_programme(_programme(title="Ten\x00sors\x1b", abstract="a\ud800b\tc\r\nd"))
    session = checked.sessions[0]
    assert (session.title, session.abstract) == ("Ten\ufffdsors\ufffd", "a\ufffdb\tc\r\nd")
    assert checked.warnings == [
        "1 abstract held control characters or broken Unicode, replaced by �",
        "1 title held control characters or broken Unicode, replaced by �",
    ]


def test_values_longer_than_their_column_are_shortened_with_a_warning() -> None:
    checked = validate_programme(_programme(room="R" * 201, title="T" * 2100, kind="K" * 101))
    session = checked.sessions[0]
    assert (len(session.room), session.room[-2:]) == (200, "R…")
    assert (len(session.title), len(session.kind)) == (2000, 100)
    assert checked.warnings == [
        "a room name was longer than the database keeps and was shortened (e.g. “"
        + "R" * 40
        + "…”)",
        "a type was longer than the database keeps and was shortened (e.g. “" + "K" * 40 + "…”)",
        "1 title was longer than the database keeps (2000 characters) and was shortened to it, "
        f"ending in “…”: session {session.key!r}, 2100 characters, “" + "T" * 40 + "…”",
    ]


def test_a_picture_address_too_long_to_store_is_dropped() -> None:
    programme = _programme()
    programme.speakers = [replace(programme.speakers[0], avatar_url="https://x/" + "a" * 600)]
    checked = validate_programme(programme)
    assert checked.speakers[0].avatar_url == ""
    assert checked.warnings == [
        "a speaker picture address too long to keep was left out (e.g. “https://x/"
        + "a" * 30
        + "…”)"
    ]


@pytest.mark.parametrize(
    "address", ["javascript:alert(1)", " JavaScript:alert(1)", "data:image/png;base64,AA", "//x"]
)
def test_a_picture_address_that_is_not_a_web_address_is_dropped(address: str) -> None:
    programme = _programme()
    programme.speakers = [replace(programme.speakers[0], avatar_url=address)]
    checked = validate_programme(programme)
    assert checked.speakers[0].avatar_url == ""
    assert checked.warnings == [
        f"a speaker picture address that is not an http(s) URL was left out (e.g. “{address}”)"
    ]


def test_times_are_stored_in_utc_whatever_offset_the_file_wrote() -> None:
    odd = timezone(-timedelta(hours=23, minutes=59))
    start = datetime(2026, 4, 7, 9, tzinfo=odd)
    checked = validate_programme(_programme(starts_at=start, ends_at=start + timedelta(minutes=30)))
    assert checked.sessions[0].starts_at == datetime(2026, 4, 8, 8, 59, tzinfo=UTC)
    assert checked.sessions[0].starts_at.tzinfo is UTC


@pytest.mark.parametrize(
    ("starts_at", "shown"),
    [
        (
            datetime(1, 1, 1, 0, 30, tzinfo=timezone(timedelta(hours=1))),
            "0001-01-01T00:30:00+01:00",
        ),
        (datetime(9999, 12, 31, 23, tzinfo=UTC), "9999-12-31T23:00:00+00:00"),
        (datetime(1899, 12, 31, tzinfo=UTC), "1899-12-31T00:00:00+00:00"),
    ],
)
def test_times_outside_the_years_a_schedule_can_have_are_refused_by_session(
    starts_at: datetime, shown: str
) -> None:
    with pytest.raises(InvalidProgrammeError) as refused:
        validate_programme(_programme(starts_at=starts_at, ends_at=None))
    assert str(refused.value) == (
        f"session 's1': start {shown} is not a time between the years 1900 and 2999; "
        "nothing was imported"
    )


@pytest.mark.django_db
def test_hostile_values_load_the_same_on_every_database() -> None:
    event = create_event(slug="fuzzed", name="Fuzzed", timezone="Europe/Paris")
    odd = timezone(-timedelta(hours=23, minutes=59))
    start = datetime(2026, 4, 7, 9, tzinfo=odd)
    programme = _programme(
        title="Nul\x00title", room="R" * 250, starts_at=start, ends_at=start + timedelta(hours=1)
    )
    programme.speakers = [replace(programme.speakers[0], name="N" * 300, bio="bio\x00")]
    report = load_programme(event, programme)
    row = SessionRow.objects.select_related("room").get(event=event, key="s1")
    assert (row.title, len(row.room.name), row.starts_at) == (
        "Nul\ufffdtitle", 200, datetime(2026, 4, 8, 8, 59, tzinfo=UTC),
    )  # fmt: skip
    speaker = SpeakerRow.objects.get(event=event, key="p1")
    assert (len(speaker.name), speaker.bio) == (200, "bio\ufffd")
    assert len(report.warnings) == 5


@pytest.mark.django_db
def test_a_refused_programme_writes_nothing() -> None:
    event = create_event(slug="refused", name="Refused", timezone="Europe/Paris")
    with pytest.raises(InvalidProgrammeError):
        load_programme(
            event, _programme(starts_at=datetime(9999, 12, 31, 23, tzinfo=UTC), ends_at=None)
        )
    assert (
        SessionRow.objects.filter(event=event).count(),
        Room.objects.filter(event=event).count(),
        ScheduleVersion.objects.filter(event=event).count(),
    ) == (0, 0, 0)
    assert Event.objects.get(slug="refused").updated_at is not None


@pytest.mark.django_db
def test_the_audit_csv_with_a_201_character_room_loads(shared_dir: Path) -> None:
    path = shared_dir / "audit/importer-crashes/csv/load/repro_room_201_chars.csv"
    programme = parse_csv(path.read_bytes(), source=path.name, default_timezone="Europe/Paris")
    event = create_event(slug="audit", name="Audit", timezone="Europe/Paris")
    report = load_programme(event, programme)
    rooms = list(Room.objects.filter(event=event).values_list("name", flat=True))
    assert max(len(name) for name in rooms) == 200
    assert any("room name was longer than the database keeps" in w for w in report.warnings)
