"""Rooms that are full (live/): marked by hand, full by check-ins, and never a programme change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from confsched.agenda import checkin
from confsched.agenda.reservations import set_seats
from confsched.core import clock
from confsched.live.models import How, RoomStatus
from confsched.live.queries import RoomState, room_states, stamp_key, states_stamp
from confsched.live.services import mark_room
from confsched.programme.models import Change, Event, Room, ScheduleVersion, Session

pytestmark = pytest.mark.django_db

HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # Master, 11:00-11:25
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"  # Master, 11:30
TEN_FIFTY_TWO = datetime(2026, 4, 7, 8, 52, tzinfo=UTC)  # in Paris
ELEVEN_TWENTY_FIVE = datetime(2026, 4, 7, 9, 25, tzinfo=UTC)  # Helion ends
ELEVEN_THIRTY_FIVE = datetime(2026, 4, 7, 9, 35, tzinfo=UTC)  # Tour runs


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201 - sets the clock
    def move(moment: datetime) -> None:
        monkeypatch.setattr(clock, "now", lambda: moment)

    move(TEN_FIFTY_TWO)
    return move


@pytest.fixture
def master(demo_event: Event) -> Room:
    room = Room.objects.get(event=demo_event, slug="master-stage")
    room.capacity = 2
    room.save(update_fields=["capacity"])
    return room


def _states(event: Event, moment: datetime) -> list[tuple[str, bool, str]]:
    return [(s.name, s.is_full, s.how) for s in room_states(event, now=moment)]


def _full(event: Event, moment: datetime) -> list[str]:
    return [name for name, is_full, _ in _states(event, moment) if is_full]


def test_every_room_is_open_until_marked(demo_event: Event, at) -> None:  # noqa: ANN001
    assert _states(demo_event, TEN_FIFTY_TWO) == [
        ("Central Room", False, ""),
        ("Founders Cafe", False, ""),
        ("Junior Stage", False, ""),
        ("Master Stage", False, ""),
    ]


def test_marked_full_then_open_by_hand(demo_event: Event, master: Room, at) -> None:  # noqa: ANN001
    door = User.objects.create_user("door")
    status = mark_room(master, is_full=True, by=door)
    assert (status.is_full, status.how, status.until, status.changed_at, status.changed_by) == (
        True, How.HAND, None, TEN_FIFTY_TWO, door,
    )  # fmt: skip
    assert _full(demo_event, TEN_FIFTY_TWO) == ["Master Stage"]
    assert _full(demo_event, datetime(2026, 4, 9, tzinfo=UTC)) == ["Master Stage"]  # until opened
    mark_room(master, is_full=False, by=door)
    assert _full(demo_event, TEN_FIFTY_TWO) == []
    assert RoomStatus.objects.count() == 1


def test_marking_moves_no_schedule_version(demo_event: Event, master: Room, at) -> None:  # noqa: ANN001
    before = (
        Event.objects.get(pk=demo_event.pk).updated_at,
        ScheduleVersion.objects.count(),
        Change.objects.count(),
    )
    mark_room(master, is_full=True)
    mark_room(master, is_full=False)
    after = (
        Event.objects.get(pk=demo_event.pk).updated_at,
        ScheduleVersion.objects.count(),
        Change.objects.count(),
    )
    assert after == before


def test_the_stamp_moves_once_the_mark_is_committed(
    demo_event: Event,
    master: Room,
    at,
    django_capture_on_commit_callbacks,  # noqa: ANN001
) -> None:
    first = states_stamp(demo_event.pk)
    assert states_stamp(demo_event.pk) == first  # kept
    with django_capture_on_commit_callbacks(execute=True):
        mark_room(master, is_full=True)
        assert states_stamp(demo_event.pk) == first  # not before the commit
    assert states_stamp(demo_event.pk) not in ("", first)


def test_a_lost_stamp_is_a_new_one(demo_event: Event) -> None:
    first = states_stamp(demo_event.pk)
    cache.delete(stamp_key(demo_event.pk))
    second = states_stamp(demo_event.pk)
    assert second != first
    assert states_stamp(demo_event.pk) == second


def _walk_ins(session: Session, count: int) -> list[str]:
    return [checkin.admit_walk_in(session).result.value for _ in range(count)]


def test_the_check_in_that_reaches_the_capacity_fills_the_room_until_the_session_ends(
    demo_event: Event,
    master: Room,
    at,  # noqa: ANN001
) -> None:
    helion = Session.objects.get(event=demo_event, key=HELION)
    set_seats(helion, 5)
    assert _walk_ins(helion, 1) == ["walk-in"]
    assert _full(demo_event, TEN_FIFTY_TWO) == []
    assert _walk_ins(helion, 1) == ["walk-in"]
    row = RoomStatus.objects.get(room=master)
    assert (row.is_full, row.how, row.session_id, row.until, row.changed_by) == (
        True, How.CHECKINS, helion.pk, helion.ends_at, None,
    )  # fmt: skip
    assert _states(demo_event, TEN_FIFTY_TWO)[3] == ("Master Stage", True, "checkins")
    assert _full(demo_event, ELEVEN_TWENTY_FIVE) == []  # Helion is over: so is its crowd


def test_a_code_checked_in_fills_the_room_too(demo_event: Event, master: Room, at) -> None:  # noqa: ANN001
    from confsched.agenda.reservations import reserve

    master.capacity = 1
    master.save(update_fields=["capacity"])
    helion = Session.objects.get(event=demo_event, key=HELION)
    set_seats(helion, 5)
    code = reserve(User.objects.create_user("ada"), helion).reservation.code
    assert checkin.check_in(helion, code).result.value == "welcome"
    assert _full(demo_event, TEN_FIFTY_TWO) == ["Master Stage"]


def test_an_unknown_capacity_never_fills_the_room(demo_event: Event, at) -> None:  # noqa: ANN001
    helion = Session.objects.get(event=demo_event, key=HELION)  # Master Stage: capacity None
    assert _walk_ins(helion, 30) == ["walk-in"] * 30  # open entry
    assert RoomStatus.objects.count() == 0


def test_check_ins_after_the_session_ended_do_not_fill_it(
    demo_event: Event,
    master: Room,
    at,  # noqa: ANN001
) -> None:
    at(ELEVEN_TWENTY_FIVE)
    helion = Session.objects.get(event=demo_event, key=HELION)
    assert _walk_ins(helion, 2) == ["walk-in", "walk-in"]
    assert RoomStatus.objects.count() == 0


def test_opened_by_hand_stays_open_for_that_session_until_the_next_one_fills_it(
    demo_event: Event,
    master: Room,
    at,  # noqa: ANN001
) -> None:
    helion = Session.objects.get(event=demo_event, key=HELION)
    _walk_ins(helion, 2)
    assert _full(demo_event, TEN_FIFTY_TWO) == ["Master Stage"]
    mark_room(master, is_full=False)  # people left: the door says so
    assert RoomStatus.objects.get(room=master).session_id == helion.pk  # overruled
    _walk_ins(helion, 3)  # more of Helion's check-ins: still open
    assert _full(demo_event, TEN_FIFTY_TWO) == []
    # The capacity reached again by the same session (someone taken off, then back) neither.
    from confsched.live.services import note_check_in

    assert note_check_in(helion, checked_in=2, now=TEN_FIFTY_TWO) is False
    assert _full(demo_event, TEN_FIFTY_TWO) == []
    # The next session's check-ins fill it.
    at(datetime(2026, 4, 7, 9, 28, tzinfo=UTC))
    tour = Session.objects.get(event=demo_event, key=TOUR)
    _walk_ins(tour, 2)
    row = RoomStatus.objects.get(room=master)
    assert (row.is_full, row.how, row.session_id) == (True, How.CHECKINS, tour.pk)
    assert _full(demo_event, ELEVEN_THIRTY_FIVE) == ["Master Stage"]


def test_full_by_hand_stays_by_hand(demo_event: Event, master: Room, at) -> None:  # noqa: ANN001
    mark_room(master, is_full=True)
    _walk_ins(Session.objects.get(event=demo_event, key=HELION), 2)
    row = RoomStatus.objects.get(room=master)
    assert (row.is_full, row.how, row.until) == (True, How.HAND, None)


def test_room_states_read_in_one_query(
    demo_event: Event,
    master: Room,
    at,
    django_assert_num_queries,  # noqa: ANN001
) -> None:
    mark_room(master, is_full=True)
    with django_assert_num_queries(1):
        states = room_states(demo_event, now=TEN_FIFTY_TWO)
    assert states[3] == RoomState(
        name="Master Stage", slug="master-stage", is_full=True, how="hand",
        changed_at=TEN_FIFTY_TWO,
    )  # fmt: skip
