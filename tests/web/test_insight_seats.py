"""The insight page's reservations table: per session stars, reservations, waitlist,
check-ins, seats and the room's seats, in a fixed number of queries."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.checkin import admit_walk_in, check_in
from confsched.agenda.models import AgendaItem, VisitorStar
from confsched.agenda.reservations import reserve, set_seats
from confsched.core import clock
from confsched.programme.models import Event, Room, Session
from tests.conftest import DEMO_SLUG
from tests.teams import on_team

pytestmark = pytest.mark.django_db

URL = f"/{DEMO_SLUG}/insight/"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # Master Stage, 11:00
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"  # Master, 11:30
FORECAST = (  # Central Room, 11:00, open entry
    "lightning-talk-why-your-forecasting-transformer-isnt-working-and-how-to-fix-it-in-python"
)


@pytest.fixture
def staff(client: Client, demo_event: Event) -> Client:
    client.force_login(on_team(User.objects.create_user("boss", password="pw"), "viewer"))
    return client


@pytest.fixture(autouse=True)
def morning(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the sessions start: reservations are open."""
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 7, 7, 30, tzinfo=UTC))


@pytest.fixture
def door(demo_event: Event) -> Event:
    """Helion: 2 seats, 3 reserve (one waits), 1 checks in, 4 stars. Tour: 10 seats, nobody
    yet. Forecast: open entry, 2 counted at the door. Master Stage holds 50."""
    Room.objects.filter(event=demo_event, name="Master Stage").update(capacity=50)
    sessions = {s.key: s for s in Session.objects.filter(event=demo_event)}
    set_seats(sessions[HELION], 2)
    set_seats(sessions[TOUR], 10)
    people = [User.objects.create_user(f"u{i}", password="pw") for i in range(3)]
    codes = [reserve(person, sessions[HELION]).reservation.code for person in people]
    check_in(sessions[HELION], codes[0])
    for person in people:
        AgendaItem.objects.create(user=person, session=sessions[HELION])
    VisitorStar.objects.create(visitor="v1", session=sessions[HELION])
    admit_walk_in(sessions[FORECAST])
    admit_walk_in(sessions[FORECAST])
    return demo_event


def _table(html: str) -> list[list[str]]:
    table = html.split('<table class="insight-seats">', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
    ]


def test_insight_seats_table(staff: Client, door: Event) -> None:
    html = staff.get(URL).content.decode()
    assert _table(html) == [
        ["Helion 1.0: A High-Level DSL for Performance Portable Kernels Tue 11:00 · Master Stage",
         "4", "2", "1", "1", "2", "50"],
        ["Why Your Forecasting Transformer Isn’t Working (And How To Fix It in Python) Tue 11:00 "
         "· Central Room", "0", "2", "0", "2", "open", "—"],
        ["Tour De Force: LLM Inference Optimization From Simple To Sophisticated Tue 11:30 · "
         "Master Stage", "0", "0", "0", "0", "10", "50"],
    ]  # fmt: skip
    assert "3 sessions with seats or people counted at the door." in html
    assert f'<a href="/{DEMO_SLUG}/sessions/{HELION}/checkin/">Helion 1.0' in html


def test_insight_seats_none_yet(staff: Client, demo_event: Event) -> None:
    html = staff.get(URL).content.decode()
    assert '<table class="insight-seats">' not in html
    assert "No session takes reservations yet, and no one has been counted at the door." in html


def test_insight_seats_queries_bounded(
    staff: Client, door: Event, django_assert_num_queries
) -> None:  # noqa: ANN001
    staff.get(URL)
    with django_assert_num_queries(7):  # the person's roles read once, whatever the event's size
        staff.get(URL)
    others = Session.objects.published().filter(event=door, is_cancelled=False)
    for session in others.exclude(key__in=[HELION, TOUR, FORECAST]):
        set_seats(session, 5)
        reserve(User.objects.create_user(f"x{session.pk}", password="pw"), session)
    with django_assert_num_queries(7):
        assert len(staff.get(URL).context["seat_rows"]) == 28
