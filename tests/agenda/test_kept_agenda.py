"""The signed-in agenda kept per person (web/agenda/kept.py): the kept page is the page built
anew, reads no session of the programme, and follows everything it shows: the person's stars,
seats, waitlist place, alerts, reminders, shared link and name, the others' reservations, the
schedule, and the moment now/next changes."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from confsched.agenda import reservations
from confsched.programme.models import Session
from confsched.web.site.stencils import forget_local_stencils
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
AGENDA = BASE + "agenda/"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # Tue 11:00-11:25
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"  # Tue 11:45-11:55
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"
WEEK_BEFORE = datetime(2026, 4, 1, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _a_week_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("confsched.core.clock.now", lambda: WEEK_BEFORE)
    forget_local_stencils()


def _person(client: Client, name: str = "ada", *keys: str) -> User:
    user = User.objects.create_user(name, f"{name}@example.org", "not used here")
    client.force_login(user)
    for key in keys:
        client.post(f"{BASE}sessions/{key}/star", {"starred": "1"})
    return user


def _page(client: Client) -> str:
    """The agenda, with each request's own CSRF token set aside."""
    html = client.get(AGENDA).content.decode()
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken"', html)


def _seat(html: str, key: str) -> str:
    pk = Session.objects.get(key=key).pk
    found = re.search(rf'<div class="seat" id="seat-{pk}">(.*?)</div>', html, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)) if found else ""


def test_the_kept_page_is_the_page_built_anew_and_reads_no_session(
    client: Client, demo_event, settings
) -> None:
    reservations.set_seats(Session.objects.get(key=TORCHJD), 3)
    _person(client, "ada", HELION, TORCHJD, JIGSAW)
    client.post(f"{BASE}sessions/{TORCHJD}/reserve", {"action": "reserve"})
    settings.CONFSCHED_PAGE_STENCILS = False
    plain = _page(client)
    settings.CONFSCHED_PAGE_STENCILS = True
    built = _page(client)
    assert built == plain
    assert "Check-in code" in built
    assert _seat(built, TORCHJD).startswith("✓ Seat reserved")
    with CaptureQueriesContext(connection) as queries:
        kept = _page(client)
    assert kept == built
    assert "Helion 1.0: A High-Level DSL for Performance Portable Kernels" in kept
    read = [q["sql"] for q in queries.captured_queries]
    # Only the seat's control reads its session (seats move with everyone's reservations).
    assert len([sql for sql in read if 'FROM "programme_session"' in sql]) == 1
    # the login session, the account, the event; the person's stars, reservations (and
    # waitlist places), links, alerts, reminders and roles; the seat's session, counts and
    # reservation
    assert len(read) == 12, read
    forget_local_stencils()
    assert _page(client) == built


def test_the_kept_page_follows_the_person_s_own_rows(client: Client, demo_event) -> None:
    user = _person(client, "ada", HELION)
    first = _page(client)
    assert "1 session." in first
    assert "Your agenda is private." in first
    assert 'name="alerts" value="on"> ' in first

    client.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"})
    assert "2 sessions." in _page(client)

    client.post(f"{BASE}agenda/alerts", {"alerts": "on"})
    assert 'name="alerts" value="on" checked>' in _page(client)

    client.post(f"{BASE}agenda/share", {"share": "on", "display_name": "Ada L."})
    shared = _page(client)
    assert "Anyone with this link can see your agenda" in shared
    assert User.objects.get(pk=user.pk).first_name == "Ada L."

    User.objects.filter(pk=user.pk).update(email="")
    assert "Your account has no email address" in _page(client)


def test_the_kept_page_follows_others_seats_and_the_waitlist(client: Client, demo_event) -> None:
    reservations.set_seats(Session.objects.get(key=TORCHJD), 1)
    first, second = (
        User.objects.create_user(name, f"{name}@example.org") for name in ("first", "second")
    )
    _person(client, "ada", TORCHJD)
    assert (
        _seat(_page(client), TORCHJD)
        == "1 of 1 seats freeReserve a seat for “TorchJD: Jacobian Descent in PyTorch”"
    )

    torchjd = Session.objects.get(key=TORCHJD)
    reservations.reserve(first, torchjd)
    assert (
        _seat(_page(client), TORCHJD)
        == "Full · 0 waitingJoin the waitlist (#1) of “TorchJD: Jacobian Descent in PyTorch”"
    )

    reservations.reserve(second, torchjd)
    client.post(f"{BASE}sessions/{TORCHJD}/reserve", {"action": "reserve"})
    assert "number 2 on the waitlist" in _page(client)

    reservations.cancel(second, torchjd)  # the one ahead leaves
    assert "number 1 on the waitlist" in _page(client)

    reservations.cancel(first, torchjd)  # the seat passes to ada
    page = _page(client)
    assert "Check-in code" in page
    assert (
        _seat(page, TORCHJD)
        == "✓ Seat reservedCancel my seat for “TorchJD: Jacobian Descent in PyTorch”"
    )


def test_the_kept_page_follows_the_schedule_and_the_clock(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _person(client, "ada", HELION, TORCHJD)
    now_next = r"<strong>(Now:|Next:)</strong> <a [^>]+>([^<]+)</a>"
    assert re.findall(now_next, _page(client)) == [
        ("Next:", "Helion 1.0: A High-Level DSL for Performance Portable Kernels"),
    ]

    monkeypatch.setattr(
        "confsched.core.clock.now", lambda: datetime(2026, 4, 7, 9, 10, tzinfo=UTC)
    )  # 11:10 in Paris: Helion runs, TorchJD is next
    during = _page(client)
    assert re.findall(now_next, during) == [
        ("Now:", "Helion 1.0: A High-Level DSL for Performance Portable Kernels"),
        ("Next:", "TorchJD: Jacobian Descent in PyTorch"),
    ]
    monkeypatch.setattr(
        "confsched.core.clock.now", lambda: datetime(2026, 4, 7, 9, 50, tzinfo=UTC)
    )  # 11:50: TorchJD runs, nothing is next
    assert re.findall(now_next, _page(client)) == [
        ("Now:", "TorchJD: Jacobian Descent in PyTorch"),
    ]

    Session.objects.filter(key=HELION).update(title="Helion 2.0")
    reservations.set_seats(Session.objects.get(key=HELION), 5)  # moves the event's version
    renamed = _page(client)
    assert "Helion 2.0" in renamed
    assert _seat(renamed, HELION) == "Reservations closed"
