"""Seats and the waitlist (agenda/reservations.py): who gets a seat, in which order, and what
a cancellation, a change of seats or the organizer's force does. SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import override_settings

from confsched.agenda import reservations
from confsched.agenda import seat_statements as statements
from confsched.agenda.models import Reservation
from confsched.agenda.reservations import ReservationError
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import create_event

pytestmark = pytest.mark.django_db

START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
BEFORE = START - timedelta(days=1)


@pytest.fixture
def event() -> Event:
    return create_event(slug="workshops", name="Workshops 2027", timezone="Europe/Paris")


def _session(event: Event, key: str, *, seats: int | None = 2, hours: tuple[int, int] = (0, 1),
             **fields: object) -> Session:  # fmt: skip
    room, _ = Room.objects.get_or_create(event=event, name="Lab", slug="lab")
    return Session.objects.create(
        event=event, key=key, title=key.title(), room=room, seats=seats,
        starts_at=START + timedelta(hours=hours[0]), ends_at=START + timedelta(hours=hours[1]),
        **fields,
    )  # fmt: skip


def _people(count: int) -> list[User]:
    return [User.objects.create_user(f"p{n:02}", f"p{n:02}@example.org") for n in range(count)]


@pytest.fixture(autouse=True)
def _before_the_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("confsched.core.clock.now", lambda: BEFORE)


def _states(session: Session) -> list[tuple[str, str]]:
    return [
        (row.user.username if row.user else "walk-in", row.status)
        for row in Reservation.objects.filter(session=session).select_related("user")
    ]


def test_seats_go_first_come_then_the_waitlist_in_order(event: Event) -> None:
    session = _session(event, "triton", seats=2)
    outcomes = [reservations.reserve(person, session) for person in _people(4)]
    assert [(o.reservation.status, o.position, o.is_new) for o in outcomes] == [
        ("confirmed", 0, True), ("confirmed", 0, True),
        ("waitlisted", 1, True), ("waitlisted", 2, True),
    ]  # fmt: skip
    seats = reservations.seats(session)
    assert (seats.confirmed, seats.waitlisted, seats.free, seats.is_full) == (2, 2, 0, True)


def test_reserving_twice_changes_nothing(event: Event) -> None:
    session = _session(event, "triton", seats=1)
    (ada,) = _people(1)
    first = reservations.reserve(ada, session)
    again = reservations.reserve(ada, session)
    assert (again.reservation.pk, again.is_new, Reservation.objects.count()) == (
        first.reservation.pk, False, 1,
    )  # fmt: skip


def test_a_cancelled_seat_goes_to_the_first_on_the_waitlist_with_a_mail(
    event: Event, django_capture_on_commit_callbacks
) -> None:  # noqa: ANN001 - pytest-django fixture
    session = _session(event, "triton", seats=1)
    ada, bob, cy = _people(3)
    for person in (ada, bob, cy):
        reservations.reserve(person, session)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        promoted = reservations.cancel(ada, session)
    assert [row.user.username for row in promoted] == ["p01"]
    assert _states(session) == [("p01", "confirmed"), ("p02", "waitlisted")]
    assert reservations.position(Reservation.objects.get(user=cy)) == 1
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["p01@example.org"], "Workshops 2027: you have a seat for “Triton”")
    ]
    assert Reservation.objects.get(user=bob).code in mail.outbox[0].body


@pytest.mark.parametrize(
    ("base_url", "last_lines"),
    [
        (
            "https://schedule.example.org",
            [
                "If you cannot come, cancel in your agenda so that the next person gets the seat:",
                "https://schedule.example.org/workshops/agenda/",
            ],
        ),
        (
            "",  # no address of the site: no path passed off as a link
            [
                "If you cannot come, cancel in your agenda on the event's site so that the next "
                "person gets the seat."
            ],
        ),
    ],
)
def test_the_promotion_mail_links_the_agenda_only_by_its_whole_address(
    event: Event, base_url: str, last_lines: list[str], django_capture_on_commit_callbacks
) -> None:  # noqa: ANN001 - pytest-django fixture
    session = _session(event, "triton", seats=1)
    ada, bob = _people(2)
    for person in (ada, bob):
        reservations.reserve(person, session)
    mail.outbox.clear()
    with override_settings(CONFSCHED_BASE_URL=base_url):
        with django_capture_on_commit_callbacks(execute=True):
            reservations.cancel(ada, session)
    body = mail.outbox[0].body
    assert body.splitlines()[-len(last_lines) :] == last_lines
    # Every mention of the agenda's address is whole: none is a bare path.
    assert re.findall(r"\S*/workshops/agenda/\S*", body) == (
        [f"{base_url}/workshops/agenda/"] if base_url else []
    )


def test_leaving_the_waitlist_promotes_nobody(event: Event) -> None:
    session = _session(event, "triton", seats=1)
    ada, bob, cy = _people(3)
    for person in (ada, bob, cy):
        reservations.reserve(person, session)
    assert reservations.cancel(bob, session) == []
    assert _states(session) == [("p00", "confirmed"), ("p02", "waitlisted")]
    assert reservations.cancel(bob, session) == []  # cancelling again: nothing to do


def test_more_seats_promote_in_order_and_fewer_drop_nobody(event: Event) -> None:
    session = _session(event, "triton", seats=1)
    people = _people(5)
    for person in people:
        reservations.reserve(person, session)
    promoted = reservations.set_seats(session, 3)
    assert [row.user.username for row in promoted] == ["p01", "p02"]
    assert reservations.set_seats(session, 1) == []
    assert _states(session) == [
        ("p00", "confirmed"), ("p01", "confirmed"), ("p02", "confirmed"),
        ("p03", "waitlisted"), ("p04", "waitlisted"),
    ]  # fmt: skip
    # Three confirmed over one seat: a cancellation frees no seat for the waitlist.
    assert reservations.cancel(people[0], session) == []
    with pytest.raises(ReservationError, match="cannot have -1 seats"):
        reservations.set_seats(session, -1)


def test_the_organizer_forces_a_person_in_over_the_limit(event: Event) -> None:
    session = _session(event, "triton", seats=1)
    ada, bob, cy = _people(3)
    reservations.reserve(ada, session)
    reservations.reserve(bob, session)
    forced = reservations.force(bob, session)
    newcomer = reservations.force(cy, session)
    assert (forced.status, forced.is_forced, newcomer.status, newcomer.is_forced) == (
        "confirmed", True, "confirmed", True,
    )  # fmt: skip
    assert reservations.seats(session).confirmed == 3
    open_entry = _session(event, "keynote", seats=None)
    with pytest.raises(ReservationError, match="“Keynote” is open entry"):
        reservations.force(ada, open_entry)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seats": None}, "“Triton” is open entry: no reservation is needed, just come."),
        ({"is_cancelled": True}, "“Triton” is cancelled: it takes no reservations."),
        ({"needs_review": True}, "“Triton” is not in the programme yet."),
        ({"reservations_close_at": BEFORE - timedelta(minutes=1)},
         "Reservations for “Triton” closed at 09:59 on Sun 28 Feb."),
    ],
)  # fmt: skip
def test_what_takes_no_reservation_says_why(
    event: Event, fields: dict[str, object], message: str
) -> None:
    session = _session(event, "triton", **{"seats": 2, **fields})
    with pytest.raises(ReservationError) as caught:
        reservations.reserve(_people(1)[0], session)
    assert (str(caught.value), Reservation.objects.count()) == (message, 0)


def test_reservations_close_at_the_start_by_default(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session(event, "triton")
    ada, bob = _people(2)
    monkeypatch.setattr("confsched.core.clock.now", lambda: START - timedelta(seconds=1))
    assert reservations.reserve(ada, session).reservation.status == "confirmed"
    monkeypatch.setattr("confsched.core.clock.now", lambda: START)
    with pytest.raises(ReservationError, match="closed at 10:00 on Mon 01 Mar"):
        reservations.reserve(bob, session)


def test_overlaps_are_told_and_refused_when_the_event_forbids_double_booking(
    event: Event,
) -> None:
    morning = _session(event, "morning", hours=(0, 2))
    overlapping = _session(event, "overlapping", hours=(1, 3))
    after = _session(event, "after", hours=(2, 3))
    (ada,) = _people(1)
    reservations.reserve(ada, morning)
    told = reservations.reserve(ada, overlapping)
    assert [s.key for s in told.overlaps] == ["morning"]
    assert reservations.reserve(ada, after).overlaps == [overlapping]
    Event.objects.filter(pk=event.pk).update(allow_double_booking=False)
    reservations.cancel(ada, overlapping)
    with pytest.raises(ReservationError) as caught:
        reservations.reserve(ada, overlapping)
    assert str(caught.value) == (
        "“Overlapping” overlaps “Morning”, “After”, which you reserved; this event allows one "
        "seat at a time: cancel that one first."
    )


def test_an_account_that_goes_passes_on_every_seat(event: Event) -> None:
    first, second = _session(event, "first", seats=1), _session(event, "second", seats=1)
    ada, bob = _people(2)
    for session in (first, second):
        reservations.reserve(ada, session)
        reservations.reserve(bob, session)
    assert reservations.cancel_all(ada) == 2
    assert (_states(first), _states(second)) == ([("p01", "confirmed")], [("p01", "confirmed")])


def test_seat_counts_cover_many_sessions_in_one_query(
    event: Event, django_assert_num_queries
) -> None:  # noqa: ANN001 - pytest-django fixture
    sessions = [_session(event, f"s{n}", seats=n + 1) for n in range(3)]
    open_entry = _session(event, "open", seats=None)
    for person in _people(3):
        reservations.reserve(person, sessions[0])
    with django_assert_num_queries(1):
        counts = reservations.seat_counts([*sessions, open_entry])
    assert {pk: (c.seats, c.confirmed, c.waitlisted) for pk, c in counts.items()} == {
        sessions[0].pk: (1, 1, 2), sessions[1].pk: (2, 0, 0), sessions[2].pk: (3, 0, 0),
    }  # fmt: skip


# ---- the one statement that writes a reservation (insert_reservation) ----------------------


def _insert(user: User, session: Session, *, now: datetime = BEFORE) -> tuple[str, int] | None:
    written = statements.insert_reservation(
        user_pk=user.pk, session=session, code=f"C{user.pk:09}", now=now, is_double_allowed=False
    )
    return None if written is None else written[1:3]


def test_one_statement_gives_seats_then_waitlist_places(event: Event) -> None:
    session = _session(event, "triton", seats=1)
    assert [_insert(person, session) for person in _people(3)] == [
        ("confirmed", 0), ("waitlisted", 1), ("waitlisted", 2),
    ]  # fmt: skip
    assert [row.code for row in Reservation.objects.filter(session=session)] == [
        f"C{pk:09}" for pk in User.objects.order_by("pk").values_list("pk", flat=True)
    ]


@pytest.mark.parametrize(
    ("fields", "when"),
    [
        ({"seats": None}, BEFORE),  # open entry
        ({"is_cancelled": True}, BEFORE),
        ({"needs_review": True}, BEFORE),  # not in the programme yet
        ({}, START),  # closed at the start
        ({"reservations_close_at": BEFORE}, BEFORE),  # closed by the organizer
    ],
)
def test_one_statement_writes_nothing_where_no_reservation_is_taken(
    event: Event, fields: dict[str, object], when: datetime
) -> None:
    session = _session(event, "helion", **fields)
    assert _insert(_people(1)[0], session, now=when) is None
    assert Reservation.objects.count() == 0


def test_one_statement_writes_nothing_for_a_second_press(event: Event) -> None:
    session = _session(event, "helion")
    ada = _people(1)[0]
    assert _insert(ada, session) == ("confirmed", 0)
    assert (
        statements.insert_reservation(
            user_pk=ada.pk, session=session, code="OTHER", now=BEFORE, is_double_allowed=False
        )
        is None
    )
    assert list(Reservation.objects.values_list("code", flat=True)) == [f"C{ada.pk:09}"]


def test_seats_changed_since_they_were_read_are_decided_as_they_are_now(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read with 5 seats; the organizer makes it 1 (taken) before the write: the press waits."""
    session = _session(event, "triton", seats=5)
    ada, bob = _people(2)
    reservations.force(ada, session)
    write = statements.insert_reservation

    def fewer_meanwhile(**arguments: object) -> object:
        Session.objects.filter(pk=session.pk).update(seats=1)
        return write(**arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(statements, "insert_reservation", fewer_meanwhile)
    outcome = reservations.reserve_key(bob, event.slug, "triton")
    assert outcome is not None and outcome.session is not None
    assert (outcome.reservation.status, outcome.position, outcome.is_new) == ("waitlisted", 1, True)
    assert _states(session) == [("p00", "confirmed"), ("p01", "waitlisted")]


def test_a_session_cancelled_since_it_was_read_takes_no_reservation(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelled between the read and the write: the careful path says so, nothing is written."""
    session = _session(event, "triton")
    write = statements.insert_reservation

    def cancelled_meanwhile(**arguments: object) -> object:
        Session.objects.filter(pk=session.pk).update(is_cancelled=True)
        return write(**arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(statements, "insert_reservation", cancelled_meanwhile)
    with pytest.raises(ReservationError, match="“Triton” is cancelled: it takes no reservations."):
        reservations.reserve_key(_people(1)[0], event.slug, "triton")
    assert Reservation.objects.count() == 0


# ---- one seat at a time: the person's reservations wait for each other ----------------------


def _one_at_a_time(event: Event) -> tuple[Session, Session]:
    event.allow_double_booking = False
    event.save(update_fields=["allow_double_booking"])
    return _session(event, "triton", hours=(0, 2)), _session(event, "helion", hours=(1, 3))


def test_one_statement_writes_nothing_over_an_overlapping_reservation(event: Event) -> None:
    triton, helion = _one_at_a_time(event)
    ada = _people(1)[0]
    assert _insert(ada, triton) == ("confirmed", 0)
    assert _insert(ada, helion) is None
    allowed = statements.insert_reservation(
        user_pk=ada.pk, session=helion, code="OTHER", now=BEFORE, is_double_allowed=True
    )
    assert allowed is not None and allowed[1:3] == ("confirmed", 0)


def test_an_overlap_reserved_since_it_was_read_is_refused_under_the_person_s_lock(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other press committed between this one's read and its write (as two requests at the
    same moment do): the one statement writes nothing and the careful path says why."""
    triton, helion = _one_at_a_time(event)
    ada = _people(1)[0]
    reservations.reserve(ada, triton)
    read, reads = statements.theirs, []

    def first_read_before_it(user: int, session: Session) -> list[tuple[int, int, bool]]:
        reads.append(session.key)
        return [] if len(reads) == 1 else read(user, session)

    monkeypatch.setattr(statements, "theirs", first_read_before_it)
    with pytest.raises(ReservationError) as refused:
        reservations.reserve_key(ada, event.slug, "helion")
    assert reads == ["helion", "helion"]  # the quick read, then the careful one under the locks
    assert str(refused.value) == (
        "“Helion” overlaps “Triton”, which you reserved; this event allows one seat at a time: "
        "cancel that one first."
    )
    assert list(Reservation.objects.values_list("session__key", flat=True)) == ["triton"]


def test_each_place_s_time_is_when_it_was_taken_in_the_order_taken(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the machine's clock, the database reads the time once the row's locks are held:
    later places have later (or equal) times, never earlier ones."""
    monkeypatch.undo()  # the machine's clock, not the fixture's
    session = _session(event, "triton", seats=1)
    before = datetime.now(UTC)
    for person in _people(4):
        reservations.reserve_key(person, event.slug, "triton")
    after = datetime.now(UTC)
    rows = list(Reservation.objects.order_by("pk").values_list("created_at", "confirmed_at"))
    taken = [created for created, _ in rows]
    assert taken == sorted(taken)
    assert before - timedelta(milliseconds=1) <= taken[0] and taken[-1] <= after
    assert rows[0][1] == rows[0][0]  # the confirmed seat: confirmed when taken
    assert [confirmed for _, confirmed in rows[1:]] == [None, None, None]
    assert _states(session)[0] == ("p00", "confirmed")
