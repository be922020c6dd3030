"""Several phones at one door on PostgreSQL: a code is welcomed once, the last seat is given
once. Each thread has its own database connection, as two requests would.

Run with DATABASE_URL=postgres://...; on SQLite (one writer at a time) these are skipped.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from confsched.agenda.checkin import Result, admit_walk_in, check_in
from confsched.agenda.models import Reservation
from confsched.agenda.reservations import reserve, set_seats
from confsched.core import clock
from confsched.programme.models import Event, Session

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"
    ),
]

HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
PHONES = 6


@pytest.fixture
def helion(demo_event: Event, monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 7, 8, 50, tzinfo=UTC))
    session = Session.objects.get(event=demo_event, key=HELION)
    set_seats(session, 3)
    return session


def _together(action: Callable[[], Result]) -> Counter:
    """`action` run by PHONES threads released at once; how many got each result."""
    start = threading.Barrier(PHONES)
    results: list[Result] = []

    def run() -> None:
        try:
            start.wait()
            results.append(action())
        finally:
            connections.close_all()  # this thread's own connection

    threads = [threading.Thread(target=run) for _ in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Counter(results)


def test_one_code_scanned_at_once_by_several_phones_is_welcomed_once(helion: Session) -> None:
    code = reserve(User.objects.create_user("ada", password="pw"), helion).reservation.code
    found = _together(lambda: check_in(helion, code).result)
    assert found == Counter({Result.WELCOME: 1, Result.ALREADY: PHONES - 1})


def test_the_last_seats_go_to_as_many_walk_ins_as_there_are(helion: Session) -> None:
    reserve(User.objects.create_user("ada", password="pw"), helion)
    found = _together(lambda: admit_walk_in(helion).result)
    assert found == Counter({Result.WALK_IN: 2, Result.NO_SEAT: PHONES - 2})
    assert Reservation.objects.filter(session=helion, status="confirmed").count() == 3
