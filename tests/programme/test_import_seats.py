"""Seats by import: a CSV with a `seats` column sets them, more seats move people up from the
waitlist once the import has committed, and an import from a format without seats (or a CSV
without the column, or with its cell empty) leaves the organizer's seats as they are. Fewer
seats than people hold are refused, naming the sessions, unless the import says they keep
theirs; every change of seats is a line of the team's log."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.contrib.auth.models import User

from confsched.agenda import reservations
from confsched.agenda.models import Reservation, SeatsChange
from confsched.core.errors import InvalidProgrammeError
from confsched.interchange.csv.read import parse
from confsched.programme.models import Event, ScheduleVersion, Session
from confsched.programme.services import create_event, load_programme
from confsched.programme.services.importing import ImportOptions, import_files

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
    report = load_programme(event, parse(_csv(""), source="c.csv"))  # the column, empty
    assert (report.seats_changed, _seats(event)) == (0, 12)
    load_programme(event, parse(_csv("open"), source="d.csv"))
    assert _seats(event) is None


def _log(event: Event) -> list[tuple[int | None, int | None, int, str, str]]:
    return list(
        SeatsChange.objects.filter(session__event=event)
        .order_by("pk")
        .values_list("before", "after", "confirmed", "by", "source")
    )


def _csv_titled(title: str, seats: str) -> bytes:
    return (
        f"{HEAD},seats\nws,{title},2027-03-01 09:00,2027-03-01 11:00,Europe/Paris,{seats}\n"
    ).encode()


def test_a_sync_whose_seats_cell_is_empty_keeps_the_seat_a_person_holds(event: Event) -> None:
    """The audit's case: 1 seat set, a person reserves it, then a sync of a file whose `seats`
    cell is empty (and whose title changed): the seat and the reservation stay."""
    event.sync_url = "https://example.org/programme.csv"
    event.save(update_fields=["sync_url"])
    import_files(event, [("a.csv", _csv("1"))])
    ada = User.objects.create_user("ada")
    reservations.reserve(ada, Session.objects.get(event=event, key="ws"))
    report = import_files(event, [("b.csv", _csv_titled("Workshop renamed", ""))])
    assert (report.updated, report.seats_changed, _seats(event)) == (
        [("Workshop renamed", ["title"])], 0, 1,
    )  # fmt: skip
    assert list(Reservation.objects.values_list("user__username", "status")) == [
        ("ada", "confirmed")
    ]
    assert _log(event) == []


def _two_held(event: Event, seats: str = "3") -> None:
    import_files(event, [("a.csv", _csv(seats))])
    session = Session.objects.get(event=event, key="ws")
    for name in ("ada", "bob"):
        reservations.reserve(User.objects.create_user(name), session)


def test_fewer_seats_than_people_hold_are_refused_naming_the_session(event: Event) -> None:
    _two_held(event)
    versions = ScheduleVersion.objects.count()
    with pytest.raises(InvalidProgrammeError) as refused:
        import_files(event, [("b.csv", _csv_titled("Renamed", "1"))], by="ada")
    assert str(refused.value) == (
        "1 session(s) would have fewer seats than people hold: “Renamed” (ws): 1 seat(s), 2 "
        "already held. "
        "Give them at least as many seats, or import again with --keep-reservations-over-seats "
        "(the admin's import page: “Keep reservations over fewer seats”): everyone keeps their "
        "seat, and the waitlist moves once enough give theirs up"
    )
    # Nothing of the file was written: not its title, not its seats, no version, no log.
    session = Session.objects.get(event=event, key="ws")
    assert (session.title, session.seats, ScheduleVersion.objects.count()) == (
        "Workshop", 3, versions,
    )  # fmt: skip
    assert _log(event) == []


def test_fewer_seats_are_applied_when_the_import_says_people_keep_theirs(event: Event) -> None:
    _two_held(event)
    options = ImportOptions(keep_reservations_over_seats=True)
    report = import_files(event, [("b.csv", _csv("1"))], options=options, by="ada")
    assert (report.seats_changed, _seats(event)) == (1, 1)
    assert list(Reservation.objects.order_by("pk").values_list("user__username", "status")) == [
        ("ada", "confirmed"), ("bob", "confirmed"),
    ]  # fmt: skip
    assert _log(event) == [(3, 1, 2, "ada", "import: b.csv")]
    assert SeatsChange.objects.get().is_over is True


def test_every_change_of_seats_is_a_line_of_the_team_s_log(event: Event) -> None:
    _two_held(event, seats="2")
    import_files(event, [("b.csv", _csv("4"))], by="bob")
    reservations.set_seats(Session.objects.get(event=event, key="ws"), 6, by="cy")
    import_files(event, [("c.csv", _csv("open"))])
    assert _log(event) == [
        (2, 4, 2, "bob", "import: b.csv"), (4, 6, 2, "cy", "seats page"),
        (6, None, 2, "", "import: c.csv"),
    ]  # fmt: skip


def test_starting_reservations_by_import_retires_kept_pages(event: Event) -> None:
    load_programme(event, parse(_csv(""), source="a.csv"))
    before = Event.objects.get(pk=event.pk).updated_at
    load_programme(event, parse(_csv("8"), source="b.csv"))
    assert Event.objects.get(pk=event.pk).updated_at > before


def test_the_import_command_refuses_fewer_seats_or_keeps_them_when_told(
    event: Event, tmp_path
) -> None:  # noqa: ANN001 - pytest fixture
    from django.core.management import CommandError, call_command

    _two_held(event)
    fewer = tmp_path / "fewer.csv"
    fewer.write_bytes(_csv("1"))
    with pytest.raises(CommandError) as refused:
        call_command("import", "--event", "ws", str(fewer), "--skip-embeddings", stdout=StringIO())
    assert str(refused.value) == (
        "1 session(s) would have fewer seats than people hold: “Workshop” (ws): 1 seat(s), 2 "
        "already held. Give them at least as many seats, or import again with "
        "--keep-reservations-over-seats (the admin's import page: “Keep reservations over fewer "
        "seats”): everyone keeps their seat, and the waitlist moves once enough give theirs up"
        "\nNothing was imported."
    )
    assert _seats(event) == 3
    out = StringIO()
    call_command(
        "import", "--event", "ws", str(fewer), "--skip-embeddings",
        "--keep-reservations-over-seats", stdout=out,
    )  # fmt: skip
    assert "Seats changed on 1 session(s)." in out.getvalue()
    assert _log(event) == [(3, 1, 2, "command line", "import: fewer.csv")]
