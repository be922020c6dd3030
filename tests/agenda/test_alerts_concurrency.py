"""Two `send-alerts` running at once on PostgreSQL: every digest goes out exactly once.

Run with DATABASE_URL=postgres://...; on SQLite (one writer at a time) these are skipped.
Each thread has its own database connection, as two cron runs would.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import replace
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import EmailMessage
from django.db import connection, connections

from confsched.agenda import alerts
from confsched.agenda.models import AlertDelivery
from confsched.agenda.services import star_session
from confsched.programme.models import Session
from confsched.programme.services import load_programme

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"
    ),
]

SITE = "https://schedule.example.org"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PEOPLE = 24


def _attendees_and_a_change(event, programme) -> list[str]:  # noqa: ANN001 - fixtures
    session = Session.objects.get(event=event, key=TORCHJD)
    addresses = []
    for number in range(PEOPLE):
        user = User.objects.create_user(f"p{number:02}", f"p{number:02}@example.org")
        star_session(user, session)
        alerts.set_alerts(user, event, is_on=True)
        addresses.append(user.email)
    moved = replace(programme)
    moved.sessions = [
        replace(
            s,
            starts_at=s.starts_at + timedelta(minutes=15),
            ends_at=s.ends_at + timedelta(minutes=15),
        )
        if s.key == TORCHJD
        else s
        for s in programme.sessions
    ]
    load_programme(event, moved)
    return addresses


def _in_thread(target, results: dict, name: str) -> threading.Thread:  # noqa: ANN001
    def run() -> None:
        try:
            results[name] = target()
        finally:
            connections.close_all()  # this thread's own connection

    return threading.Thread(target=run, name=name)


def test_two_senders_started_together_send_each_digest_once(demo_event, demo_programme) -> None:
    addresses = _attendees_and_a_change(demo_event, demo_programme)
    start = threading.Barrier(2)
    results: dict = {}

    def sender() -> alerts.SendReport:
        start.wait()
        return alerts.send_alerts(base_url=SITE)

    threads = [_in_thread(sender, results, name) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results["a"].sent + results["b"].sent == PEOPLE
    assert Counter(to for message in mail.outbox for to in message.to) == Counter(addresses)
    assert sorted(AlertDelivery.objects.values_list("attempts", flat=True)) == [1] * PEOPLE
    assert AlertDelivery.objects.filter(sent_at__isnull=True).count() == 0


def test_a_sender_passes_over_the_digest_another_is_sending(
    demo_event, demo_programme, monkeypatch
) -> None:
    """A holds its first digest mid-send while B runs from start to end: B sends all the
    others and leaves A's alone, then A finishes it."""
    addresses = _attendees_and_a_change(demo_event, demo_programme)
    holding, b_done = threading.Event(), threading.Event()
    original = EmailMessage.send

    def send(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202 - send()'s shape
        if threading.current_thread().name == "a" and not holding.is_set():
            holding.set()
            assert b_done.wait(timeout=60), "sender b never finished"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(EmailMessage, "send", send)
    results: dict = {}

    def sender_b() -> alerts.SendReport:
        assert holding.wait(timeout=60), "sender a never claimed a digest"
        try:
            return alerts.send_alerts(base_url=SITE)
        finally:
            b_done.set()

    threads = [
        _in_thread(lambda: alerts.send_alerts(base_url=SITE), results, "a"),
        _in_thread(sender_b, results, "b"),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (results["a"].sent, results["b"].sent) == (1, PEOPLE - 1)
    assert mail.outbox[-1].to == [addresses[0]]  # A's, held and sent last
    assert Counter(to for message in mail.outbox for to in message.to) == Counter(addresses)
