"""Seats by import: a CSV with a `seats` column sets them, more seats move people up from the
waitlist once the import has committed, and an import from a format without seats (or a CSV
without the column) leaves the organizer's seats as they are."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User

from confsched.agenda import reservations
from confsched.agenda.models import Reservation
from confsched.interchange.csv.read import parse
from confsched.programme.models import Event, Session
from confsched.programme.services import create_event, load_programme

pytestmark = pytest.mark.django_db

HEAD = "key,title,starts_at,ends_at,timezone"


def _csv(seats: str | None) -> bytes:
    if seats is None:
        return f"{HEAD}\nws,Workshop,2027-03-01 09:00,2027-03-01 11:00,Europe/Paris\n".encode()
    return (
        f"{HEAD},seats\nws,Workshop,2027-03-01 09:00,2027-03-01 11:00,Europe/Paris,{seats}\n"
    ).encode()


@pytest.fixture
def event(monkeypatch: pytest.MonkeyPatch) -> Event:
    monkeypatch.setattr("confsched.core.clock.now", lambda: datetime(2027, 2, 1, tzinfo=UTC))
    return create_event(slug="ws", name="Workshops", timezone="Europe/Paris")


def _seats(event: Event) -> int | None:
    return Session.objects.get(event=event, key="ws").seats


def test_a_csv_sets_seats_and_more_seats_move_people_up(
    event: Event, django_capture_on_commit_callbacks
) -> None:  # noqa: ANN001 - pytest-django fixture
    load_programme(event, parse(_csv("1"), source="a.csv"))
    session = Session.objects.get(event=event, key="ws")
    for name in ("ada", "bob", "cy"):
        reservations.reserve(User.objects.create_user(name), session)
    with django_capture_on_commit_callbacks(execute=True):
        report = load_programme(event, parse(_csv("2"), source="b.csv"))
    assert (report.seats_changed, report.version, _seats(event)) == (1, None, 2)
    assert list(Reservation.objects.order_by("pk").values_list("user__username", "status")) == [
        ("ada", "confirmed"), ("bob", "confirmed"), ("cy", "waitlisted"),
    ]  # fmt: skip


def test_imports_that_say_nothing_of_seats_keep_them(event: Event) -> None:
    load_programme(event, parse(_csv(None), source="a.csv"))
    reservations.set_seats(Session.objects.get(event=event, key="ws"), 12)
    report = load_programme(event, parse(_csv(None), source="b.csv"))
    assert (report.seats_changed, _seats(event)) == (0, 12)
    load_programme(event, parse(_csv(""), source="c.csv"))  # the column, empty: open entry
    assert _seats(event) is None


def test_starting_reservations_by_import_retires_kept_pages(event: Event) -> None:
    load_programme(event, parse(_csv(""), source="a.csv"))
    before = Event.objects.get(pk=event.pk).updated_at
    load_programme(event, parse(_csv("8"), source="b.csv"))
    assert Event.objects.get(pk=event.pk).updated_at > before
