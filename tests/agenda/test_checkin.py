"""Check-in at the door: codes typed or scanned, the waitlist and other sessions told apart,
walk-ins counted only while a seat is free (agenda/checkin.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User

from confsched.agenda import checkin
from confsched.agenda.checkin import Result, admit_walk_in, check_in, normalise_code
from confsched.agenda.models import Reservation, ReservationStatus
from confsched.agenda.reservations import Seats, reserve, set_seats
from confsched.core import clock
from confsched.programme.models import Event, Session

HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # Master Stage, 11:00
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"  # Master, 11:30
DOOR = datetime(2026, 4, 7, 8, 52, 30, tzinfo=UTC)  # 10:52 in Paris, the event's zone


@pytest.fixture
def door(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The clock, at DOOR until a test moves it (the list's one item)."""
    moment = [DOOR]
    monkeypatch.setattr(clock, "now", lambda: moment[0])
    return moment


@pytest.fixture
def helion(demo_event: Event) -> Session:
    session = Session.objects.get(event=demo_event, key=HELION)
    set_seats(session, 2)
    return session


def _person(username: str, first_name: str = "") -> User:
    return User.objects.create_user(username, password="pw", first_name=first_name)


def _row(code: str) -> Reservation:
    return Reservation.objects.get(code=code)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("7kq2mxr9vb", "7KQ2MXR9VB"),
        (" 7KQ2 MXR9 VB ", "7KQ2MXR9VB"),
        ("7KQ2-MXR9-VB", "7KQ2MXR9VB"),
        ("7KQ2\u2013MXR9\u2013VB", "7KQ2MXR9VB"),  # a phone's keyboard made the dash long
        ("oIl0uU", "0110VV"),  # the letters a code never holds, read as their look-alikes
        ("", ""),
    ],
)
def test_normalise_code(typed: str, code: str) -> None:
    assert normalise_code(typed) == code


@pytest.mark.django_db
def test_check_in_welcome_then_already_with_the_time(helion: Session, door: list) -> None:
    ada = reserve(_person("ada", "Ada"), helion).reservation
    first = check_in(helion, ada.code)
    assert (first.result, first.headline, first.detail, first.name) == (
        Result.WELCOME, "Welcome, Ada", "Checked in at 10:52.", "Ada",
    )  # fmt: skip
    assert first.seats == Seats(2, confirmed=1, waitlisted=0, checked_in=1)
    assert _row(ada.code).checked_in_at == DOOR
    door[0] = datetime(2026, 4, 7, 9, 5, tzinfo=UTC)
    again = check_in(helion, ada.code)
    assert (again.result, again.headline, again.detail, again.checked_in_at) == (
        Result.ALREADY, "Already checked in", "Ada checked in at 10:52.", DOOR,
    )  # fmt: skip
    assert _row(ada.code).checked_in_at == DOOR  # the first time kept
    door[0] = datetime(2026, 4, 8, 7, 0, tzinfo=UTC)  # the next day: the day is said too
    assert check_in(helion, ada.code).detail == "Ada checked in at 10:52 on Tue 07 Apr."


@pytest.mark.django_db
def test_check_in_greets_by_username_without_a_first_name(helion: Session, door: list) -> None:
    code = reserve(_person("grace"), helion).reservation.code
    assert check_in(helion, code).headline == "Welcome, grace"


@pytest.mark.django_db
def test_check_in_accepts_lower_case_and_spaced_code(helion: Session, door: list) -> None:
    row = reserve(_person("ada", "Ada"), helion).reservation
    typed = f" {row.code[:4].lower()} {row.code[4:7]}-{row.code[7:].lower()} "
    result = check_in(helion, typed)
    assert (result.result, result.code) == (Result.WELCOME, row.code)
    assert _row(row.code).checked_in_at == DOOR


@pytest.mark.django_db
def test_check_in_waitlisted_is_not_on_the_list_with_position(helion: Session, door: list) -> None:
    for name in ("a", "b"):
        reserve(_person(name), helion)
    first_waiting = reserve(_person("cy", "Cy"), helion).reservation
    second_waiting = reserve(_person("di", "Di"), helion).reservation
    assert first_waiting.status == ReservationStatus.WAITLISTED
    result = check_in(helion, second_waiting.code)
    assert (result.result, result.headline, result.detail) == (
        Result.NOT_ON_LIST, "Not on the list", "Di is on the waitlist, position 2, not confirmed.",
    )  # fmt: skip
    assert result.seats == Seats(2, confirmed=2, waitlisted=2, checked_in=0)
    assert _row(second_waiting.code).checked_in_at is None


@pytest.mark.django_db
def test_check_in_code_of_another_session_names_it(helion: Session, door: list) -> None:
    tour = Session.objects.get(event=helion.event, key=TOUR)
    set_seats(tour, 10)
    code = reserve(_person("ada", "Ada"), tour).reservation.code
    result = check_in(helion, code)
    assert (result.result, result.detail) == (
        Result.NOT_ON_LIST,
        f"The code {code} is for another session: “Tour De Force: LLM Inference Optimization "
        "From Simple To Sophisticated” (Tue 07 Apr 11:30, Master Stage).",
    )
    assert _row(code).checked_in_at is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "detail"),
    [
        ("7KQ2MXR9VB", "No reservation has the code 7KQ2MXR9VB."),
        ("7kq2 mxr9 vb", "No reservation has the code 7KQ2MXR9VB."),
        ("7KQ2MX", "“7KQ2MX” is not a check-in code: codes are 10 letters and digits."),
        ("7KQ2MXR9V#", "“7KQ2MXR9V#” is not a check-in code: codes are 10 letters and digits."),
        ("   ", "No code was given: type the code or scan it."),
    ],
)
def test_check_in_unknown_code(helion: Session, door: list, typed: str, detail: str) -> None:
    reserve(_person("ada"), helion)
    result = check_in(helion, typed)
    assert (result.result, result.headline, result.detail) == (
        Result.NOT_ON_LIST, "Not on the list", detail,
    )  # fmt: skip
    assert Reservation.objects.filter(checked_in_at__isnull=False).count() == 0


@pytest.mark.django_db
def test_walk_in_when_free_adds_one_row_and_moves_the_counts(helion: Session, door: list) -> None:
    reserve(_person("ada"), helion)
    assert checkin.counts(helion) == Seats(2, confirmed=1, waitlisted=0, checked_in=0)
    result = admit_walk_in(helion)
    assert (result.result, result.headline, result.detail, result.name) == (
        Result.WALK_IN, "Walk-in admitted", "Seat given: 2 of 2 taken, 0 free.", "walk-in",
    )  # fmt: skip
    assert result.seats == Seats(2, confirmed=2, waitlisted=0, checked_in=1)
    walk_ins = list(Reservation.objects.filter(session=helion, is_walk_in=True))
    assert [(r.user, r.status, r.confirmed_at, r.checked_in_at, r.code) for r in walk_ins] == [
        (None, ReservationStatus.CONFIRMED, DOOR, DOOR, result.code)
    ]
    assert checkin.counts(helion) == Seats(2, confirmed=2, waitlisted=0, checked_in=1)
    # The walk-in's code, if someone typed it, is already in.
    assert check_in(helion, result.code).detail == "walk-in checked in at 10:52."


@pytest.mark.django_db
def test_walk_in_refused_when_full(helion: Session, door: list) -> None:
    for name in ("a", "b", "c"):
        reserve(_person(name), helion)  # two seats, one on the waitlist
    result = admit_walk_in(helion)
    assert (result.result, result.headline, result.detail) == (
        Result.NO_SEAT, "No seat free", "No seat free: 2 of 2 taken.",
    )  # fmt: skip
    assert Reservation.objects.filter(session=helion).count() == 3
    assert Reservation.objects.filter(is_walk_in=True).count() == 0


@pytest.mark.django_db
def test_walk_in_refused_when_cancelled(helion: Session, door: list) -> None:
    Session.objects.filter(pk=helion.pk).update(is_cancelled=True)
    result = admit_walk_in(helion)
    assert (result.result, result.detail) == (
        Result.NO_SEAT, "“Helion 1.0: A High-Level DSL for Performance Portable Kernels” is "
        "cancelled.",
    )  # fmt: skip
    assert Reservation.objects.count() == 0


@pytest.mark.django_db
def test_walk_in_at_open_entry_is_a_head_count(demo_event: Event, door: list) -> None:
    session = Session.objects.get(event=demo_event, key=TOUR)
    assert session.seats is None
    details = [admit_walk_in(session).detail for _ in range(3)]
    assert details == [
        "Counted in: 1 at the door so far (open entry).",
        "Counted in: 2 at the door so far (open entry).",
        "Counted in: 3 at the door so far (open entry).",
    ]
    assert checkin.counts(session) == Seats(None, confirmed=3, waitlisted=0, checked_in=3)
    assert Reservation.objects.filter(session=session, is_walk_in=True, user=None).count() == 3


@pytest.mark.django_db
def test_check_in_needs_no_transaction_from_its_caller(helion: Session, door: list) -> None:
    """Each call is its own transaction (lock_session refuses to run outside one)."""
    code = reserve(_person("ada"), helion).reservation.code
    assert check_in(helion, code).result == Result.WELCOME
    assert admit_walk_in(helion).result == Result.WALK_IN
