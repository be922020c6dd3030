"""Two `send-reminders` running at once on PostgreSQL: every slot is mailed exactly once.

Run with DATABASE_URL=postgres://...; on SQLite (one writer at a time) these are skipped.
Each thread has its own database connection, as two cron runs would.
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import EmailMessage
from django.db import connection, connections

from confsched.agenda import reminders, reservations
from confsched.agenda.models import ReminderDelivery
from confsched.programme.models import Room, Session
from confsched.programme.services import create_event

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"
    ),
]

SITE = "https://schedule.example.org"
PEOPLE = 24
# Tuesday 4 June 2030, 09:55 in Paris: five minutes before both sessions.
NOW = datetime(2030, 6, 4, 9, 55, tzinfo=ZoneInfo("Europe/Paris"))


def _people_with_seats() -> list[str]:
    """PEOPLE attendees, each with a seat in both 10:00 sessions (one slot, one mail each)."""
    event = create_event(slug="conf", name="Conf", timezone="Europe/Paris")
    event.allow_double_booking = True
    event.save(update_fields=["allow_double_booking"])
    room = Room.objects.create(event=event, name="Room 1", slug="room-1")
    sessions = [
        Session.objects.create(
            event=event,
            key=key,
            title=key,
            starts_at=NOW + timedelta(minutes=5),
            ends_at=NOW + timedelta(minutes=30),
            room=room,
            seats=PEOPLE,
        )  # fmt: skip
        for key in ("keynote", "workshop")
    ]
    addresses = []
    for number in range(PEOPLE):
        user = User.objects.create_user(f"p{number:02}", f"p{number:02}@example.org")
        reminders.set_reminders(user, event, minutes=10, by_mail=True)
        for session in sessions:
            reservations.reserve(user, session)
        addresses.append(user.email)
    return addresses


def _in_thread(target, results: dict, name: str) -> threading.Thread:  # noqa: ANN001
    def run() -> None:
        try:
            results[name] = target()
        finally:
            connections.close_all()  # this thread's own connection

    return threading.Thread(target=run, name=name)


def test_two_senders_started_together_send_each_slot_once() -> None:
    addresses = _people_with_seats()
    start = threading.Barrier(2)
    results: dict = {}

    def sender() -> reminders.SendReport:
        start.wait()
        return reminders.send_reminders(base_url=SITE, now=NOW)

    threads = [_in_thread(sender, results, name) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results["a"].sent + results["b"].sent == PEOPLE
    assert Counter(to for message in mail.outbox for to in message.to) == Counter(addresses)
    assert {message.subject for message in mail.outbox} == {
        "Conf: 2 of your sessions start at 10:00"
    }
    assert sorted(ReminderDelivery.objects.values_list("attempts", flat=True)) == [1] * PEOPLE
    assert ReminderDelivery.objects.filter(sent_at__isnull=True).count() == 0


def test_a_sender_passes_over_the_slot_another_is_sending(monkeypatch) -> None:
    """A holds its first slot mid-send while B runs from start to end: B sends all the others
    and leaves A's alone, then A finishes it."""
    addresses = _people_with_seats()
    holding, b_done = threading.Event(), threading.Event()
    original = EmailMessage.send

    def send(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202 - send()'s shape
        if threading.current_thread().name == "a" and not holding.is_set():
            holding.set()
            assert b_done.wait(timeout=60), "sender b never finished"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(EmailMessage, "send", send)
    results: dict = {}

    def sender_b() -> reminders.SendReport:
        assert holding.wait(timeout=60), "sender a never claimed a slot"
        try:
            return reminders.send_reminders(base_url=SITE, now=NOW)
        finally:
            b_done.set()

    threads = [
        _in_thread(lambda: reminders.send_reminders(base_url=SITE, now=NOW), results, "a"),
        _in_thread(sender_b, results, "b"),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (results["a"].sent, results["b"].sent) == (1, PEOPLE - 1)
    assert mail.outbox[-1].to == [addresses[0]]  # A's, held and sent last
    assert Counter(to for message in mail.outbox for to in message.to) == Counter(addresses)
