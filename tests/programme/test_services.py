"""load_programme and snapshot: the doors into and out of the database."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest

from confsched.core.errors import InvalidEventError
from confsched.programme.models import Event, Level, Room, Session, SessionSpeaker, Speaker, Track
from confsched.programme.services import create_event, load_programme, snapshot
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def test_loading_the_demo_creates_every_row(demo_programme) -> None:
    event = create_event(
        slug=DEMO_SLUG, name="PyTorch Conference Europe 2026", timezone="Europe/Paris"
    )
    report = load_programme(event, demo_programme)
    assert (len(report.created), len(report.updated), report.unchanged) == (29, 0, 0)
    assert (report.speakers_created, report.speakers_updated) == (42, 0)
    assert [title for title, _ in report.flagged] == [
        "Untitled session page (004_8d12cb28771c542b.txt)"
    ]
    assert Session.objects.filter(event=event).count() == 29
    assert Session.objects.filter(event=event).published().count() == 28
    assert list(Room.objects.filter(event=event).values_list("slug", flat=True)) == [
        "central-room", "founders-cafe", "junior-stage", "master-stage",
    ]  # fmt: skip
    assert Track.objects.filter(event=event).count() == 7
    assert list(Level.objects.filter(event=event).values_list("name", flat=True)) == [
        "Advanced", "Any", "Intermediate",
    ]  # fmt: skip
    # No one speaks twice at this event: one link per speaker.
    assert SessionSpeaker.objects.filter(session__event=event).count() == 42
    event.refresh_from_db()
    assert (event.start_date, event.end_date, event.location) == (
        date(2026, 4, 7), date(2026, 4, 8), "Paris, France",
    )  # fmt: skip


def test_loading_the_same_programme_again_changes_nothing(demo_event, demo_programme) -> None:
    before = list(Session.objects.values_list("pk", "key", "updated_at").order_by("pk"))
    report = load_programme(demo_event, demo_programme)
    assert (report.created, report.updated, report.unchanged) == ([], [], 29)
    assert (report.speakers_created, report.speakers_updated) == (0, 0)
    assert list(Session.objects.values_list("pk", "key", "updated_at").order_by("pk")) == before


def test_a_changed_session_is_updated_in_place(demo_event, demo_programme) -> None:
    pk = Session.objects.get(key=TORCHJD).pk
    changed = replace(demo_programme)
    changed.sessions = [
        replace(
            s,
            room="Master Stage",
            starts_at=s.starts_at + timedelta(minutes=30),
            ends_at=s.ends_at + timedelta(minutes=30),
            speakers=s.speakers[::-1],
        )
        if s.key == TORCHJD
        else s
        for s in demo_programme.sessions
    ]
    report = load_programme(demo_event, changed)
    assert report.updated == [
        (
            "Lightning Talk: TorchJD: Jacobian Descent in PyTorch",
            ["starts_at", "ends_at", "room", "speakers"],
        )
    ]
    assert report.unchanged == 28
    session = Session.objects.get(key=TORCHJD)
    assert session.pk == pk
    assert session.starts_at == datetime(2026, 4, 7, 10, 15, tzinfo=UTC)
    assert session.room.name == "Master Stage"
    assert [link.speaker.name for link in session.speaker_links.all()] == [
        "Valérian Rey",
        "Pierre Quinton",
    ]


def test_a_wrong_event_zone_is_reported(demo_programme) -> None:
    event = create_event(slug="x", name="X", timezone="Europe/London")
    report = load_programme(event, demo_programme)
    assert report.warnings == [
        "the source writes times at UTC+02:00 but Europe/London is at UTC+01:00 then; "
        "times are stored as written: check the event's time zone"
    ]


def test_snapshot_gives_back_the_loaded_programme(demo_event, demo_programme) -> None:
    out = snapshot(demo_event)
    assert (out.name, out.timezone, out.location) == (
        "PyTorch Conference Europe 2026", "Europe/Paris", "Paris, France",
    )  # fmt: skip
    assert sorted(out.sessions, key=lambda s: s.key) == sorted(
        demo_programme.sessions, key=lambda s: s.key
    )
    assert sorted(out.speakers, key=lambda s: s.key) == sorted(
        demo_programme.speakers, key=lambda s: s.key
    )
    assert out.session(TORCHJD).starts_at.tzname() == "CEST"


@pytest.mark.parametrize(
    ("slug", "zone", "message"),
    [
        (
            "ok",
            "Mars/Olympus",
            "unknown time zone 'Mars/Olympus': give an IANA name such as Europe/Paris",
        ),
        ("Not A Slug", "UTC", "event slug 'Not A Slug' must be lower-case letters, digits and '-'"),
        (DEMO_SLUG, "UTC", f"an event with the slug '{DEMO_SLUG}' exists already"),
    ],
)
def test_create_event_refuses(demo_event, slug: str, zone: str, message: str) -> None:
    with pytest.raises(InvalidEventError) as caught:
        create_event(slug=slug, name="X", timezone=zone)
    assert str(caught.value) == message
    assert Event.objects.count() == 1


def test_speakers_keep_identity_across_loads(demo_event, demo_programme) -> None:
    pk = Speaker.objects.get(key="valerian-rey").pk
    changed = replace(demo_programme)
    changed.speakers = [
        replace(s, company="Simplex Lab SA") if s.key == "valerian-rey" else s
        for s in demo_programme.speakers
    ]
    report = load_programme(demo_event, changed)
    assert (report.speakers_created, report.speakers_updated) == (0, 1)
    assert Speaker.objects.get(key="valerian-rey").pk == pk
    assert Speaker.objects.get(key="valerian-rey").company == "Simplex Lab SA"
