"""Web Push end to end: a browser's subscription (its own keys) made through the real view,
each kind of notification triggered by the real services, sent by the queue's worker to a
local HTTPS push service, and decrypted there as the browser would."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.contrib.auth.models import User
from django.test import Client, TestCase, override_settings
from django.utils.timezone import now as django_now
from django_tasks_db.models import DBTaskResult

from confsched.agenda import alerts, reminders, reservations
from confsched.agenda.services import star_session
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import load_programme, record_edit, session_facts
from confsched.push import services
from confsched.push.keys import public_key
from confsched.push.models import PushSubscription
from tests.conftest import DEMO_SLUG
from tests.push.receiver import Browser, Receiver, running_receiver, unb64url
from tests.search.test_semantic import _worker_batch

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"  # Tue 7 Apr 11:45-11:55
TORCHJD_TITLE = "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"
EVENT_NAME = "PyTorch Conference Europe 2026"
BEFORE = datetime(2026, 4, 7, 7, 0, tzinfo=UTC)
CONTACT = "mailto:team@example.org"
SITE = "https://schedule.example.org"
ANNOUNCEMENT_DIGEST = "bb4e1b914547"  # sha256 of the texts and the url, cut


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Receiver]:
    with running_receiver(tmp_path) as (server, certificate):
        with override_settings(
            CONFSCHED_PUSH_ALLOW_PRIVATE=True, CONFSCHED_PUSH_CA_BUNDLE=str(certificate),
            CONFSCHED_PUSH_CONTACT=CONTACT, CONFSCHED_PUSH_THREADS=2,
        ):  # fmt: skip
            yield server


@pytest.fixture(autouse=True)
def _before_the_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("confsched.core.clock.now", lambda: BEFORE)


def _subscribed(event: Event, receiver: Receiver, name: str) -> tuple[User, Browser, Client]:
    user = User.objects.create_user(name, f"{name}@example.org")
    client = Client(
        HTTP_USER_AGENT="Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko Firefox/128.0"
    )
    client.force_login(user)
    browser = Browser()
    answer = client.post(
        f"/{event.slug}/agenda/devices/subscribe",
        json.dumps(browser.subscription(receiver.endpoint(name))),
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    return user, browser, client


def _one_message(receiver: Receiver, browser: Browser, name: str) -> dict[str, str]:
    _worker_batch()
    arrived = receiver.taken()
    assert [message.path for message in arrived] == [f"/push/{name}"]
    return browser.read(arrived[0].body)


def _claims(authorization: str) -> dict[str, object]:
    """The VAPID token's claims once its ES256 signature is checked against the site's key."""
    scheme, _, rest = authorization.partition(" ")
    parts = dict(part.split("=", 1) for part in rest.split(","))
    assert scheme == "vapid"
    assert parts["k"] == public_key()
    header, claims, signature = parts["t"].split(".")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    return json.loads(unb64url(claims))


def test_a_starred_session_moved_arrives_encrypted_signed_and_exact(
    demo_event, demo_programme, receiver: Receiver
) -> None:  # noqa: ANN001 - pytest fixtures
    ada, browser, _ = _subscribed(demo_event, receiver, "ada")
    star_session(ada, Session.objects.get(event=demo_event, key=TORCHJD))
    moved = replace(demo_programme)
    moved.sessions = [
        replace(s, starts_at=s.starts_at + timedelta(minutes=15),
                ends_at=s.ends_at + timedelta(minutes=15)) if s.key == TORCHJD else s
        for s in demo_programme.sessions
    ]  # fmt: skip
    load_programme(demo_event, moved)
    alerts.send_alerts(base_url=SITE)  # as send-alerts' run: the mail, and the devices' task
    _worker_batch()
    (message,) = receiver.taken()
    assert browser.read(message.body) == {
        "title": f"{EVENT_NAME}: “{TORCHJD_TITLE}” changed",
        "body": "Moved in time from Tue 7 Apr 11:45–11:55 to Tue 7 Apr 12:00–12:10.",
        "url": f"/{DEMO_SLUG}/sessions/{TORCHJD}/",
        "tag": f"change-{DEMO_SLUG}-{TORCHJD}",
    }
    assert message.headers["ttl"] == "86400"
    assert message.headers["urgency"] == "high"
    assert message.headers["content-encoding"] == "aes128gcm"
    claims = _claims(message.headers["authorization"])
    assert claims["aud"] == receiver.origin
    assert claims["sub"] == CONTACT
    assert time.time() < int(claims["exp"]) <= time.time() + 24 * 3600
    # The next run pushes that version no more.
    alerts.send_alerts(base_url=SITE)
    _worker_batch()
    assert receiver.taken() == []
    device = PushSubscription.objects.get(user=ada)
    assert (device.label, device.last_success_at, device.failures) == (
        "Firefox on Android",
        BEFORE,
        0,
    )


def _moved(programme, minutes: int = 15):  # noqa: ANN001, ANN202 - a Programme
    return replace(
        programme,
        sessions=[
            replace(s, starts_at=s.starts_at + timedelta(minutes=minutes),
                    ends_at=s.ends_at + timedelta(minutes=minutes)) if s.key == TORCHJD else s
            for s in programme.sessions
        ],
    )  # fmt: skip


def test_a_new_version_is_queued_for_the_devices_once_it_commits(
    demo_event, demo_programme, receiver: Receiver, django_capture_on_commit_callbacks
) -> None:  # noqa: ANN001 - pytest fixtures
    ada, browser, _ = _subscribed(demo_event, receiver, "ada")
    star_session(ada, Session.objects.get(event=demo_event, key=TORCHJD))
    with django_capture_on_commit_callbacks(execute=True):
        load_programme(demo_event, _moved(demo_programme))
    # No send-alerts run: the import's commit queued it.
    _worker_batch()
    (message,) = receiver.taken()
    assert browser.read(message.body)["body"] == (
        "Moved in time from Tue 7 Apr 11:45–11:55 to Tue 7 Apr 12:00–12:10."
    )
    alerts.send_alerts(base_url=SITE)  # claimed: not queued twice
    _worker_batch()
    assert receiver.taken() == []


def test_a_version_not_queued_at_its_commit_goes_with_the_next_send_alerts(
    demo_event,
    demo_programme,
    receiver: Receiver,
    django_capture_on_commit_callbacks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # noqa: ANN001 - pytest fixtures
    from django.db import DatabaseError

    from confsched.push import tasks as push_tasks

    ada, browser, _ = _subscribed(demo_event, receiver, "ada")
    star_session(ada, Session.objects.get(event=demo_event, key=TORCHJD))

    def unreachable(version: object) -> bool:
        raise DatabaseError("the queue's table is locked")

    with monkeypatch.context() as patch:
        patch.setattr(push_tasks, "claim_version", unreachable)
        with django_capture_on_commit_callbacks(execute=True):
            report = load_programme(demo_event, _moved(demo_programme))
    assert report.version is not None  # the change stands
    _worker_batch()
    assert receiver.taken() == []
    alerts.send_alerts(base_url=SITE)
    _worker_batch()
    assert [browser.read(m.body)["tag"] for m in receiver.taken()] == [
        f"change-{DEMO_SLUG}-{TORCHJD}"
    ]


def test_a_forged_signature_is_told_apart(demo_event, receiver: Receiver) -> None:  # noqa: ANN001
    ada, browser, _ = _subscribed(demo_event, receiver, "ada")
    with django_capture():
        services.notify_announcement(demo_event, {"en": "Hello."}, f"/{DEMO_SLUG}/")
    _worker_batch()
    (message,) = receiver.taken()
    forged = message.headers["authorization"].replace("t=", "t=x", 1)
    with pytest.raises((InvalidSignature, ValueError, json.JSONDecodeError)):
        _claims(forged)


def django_capture():  # noqa: ANN201 - a context manager
    """on_commit callbacks run on leaving, as after a commit (the test's own transaction never
    commits)."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def test_a_room_change_and_a_cancellation_say_the_change_logs_words(
    demo_event, demo_programme, receiver: Receiver
) -> None:  # noqa: ANN001 - pytest fixtures
    ada, browser, _ = _subscribed(demo_event, receiver, "ada")
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    star_session(ada, session)
    before = session_facts(session)
    session.room = Room.objects.create(event=demo_event, name="Hall A", slug="hall-a")
    session.save()
    record_edit(session, before, editor="olga")
    alerts.send_alerts(base_url=SITE)
    assert _one_message(receiver, browser, "ada") == {
        "title": f"{EVENT_NAME}: “{TORCHJD_TITLE}” changed",
        "body": "Moved from Founders Cafe to Hall A.",
        "url": f"/{DEMO_SLUG}/sessions/{TORCHJD}/",
        "tag": f"change-{DEMO_SLUG}-{TORCHJD}",
    }
    load_programme(
        demo_event,
        replace(demo_programme, sessions=[s for s in demo_programme.sessions if s.key != TORCHJD]),
    )
    alerts.send_alerts(base_url=SITE)
    assert _one_message(receiver, browser, "ada")["body"] == "Cancelled."


def test_a_reminder_says_how_soon_and_where(demo_event, receiver: Receiver) -> None:  # noqa: ANN001
    ada, browser, _ = _subscribed(demo_event, receiver, "ada")
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    star_session(ada, session)
    reminders.set_reminders(ada, demo_event, minutes=15, by_mail=False)
    now = session.starts_at - timedelta(minutes=10)
    reminders.send_reminders(base_url=SITE, now=now)
    _worker_batch()
    (message,) = receiver.taken()
    assert browser.read(message.body) == {
        "title": f"“{TORCHJD_TITLE}” starts in 10 minutes",
        "body": "At 11:45 in Founders Cafe.",
        "url": f"/{DEMO_SLUG}/sessions/{TORCHJD}/",
        "tag": f"reminder-{DEMO_SLUG}-{TORCHJD}",
    }
    assert (message.headers["ttl"], message.headers["urgency"]) == ("600", "high")
    # The next run (a minute later) reminds nobody twice.
    reminders.send_reminders(base_url=SITE, now=now + timedelta(minutes=1))
    _worker_batch()
    assert receiver.taken() == []


def test_a_waitlist_place_that_became_a_seat_opens_the_seat(demo_event, receiver: Receiver) -> None:  # noqa: ANN001
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    reservations.set_seats(session, 1)
    cy = User.objects.create_user("cy")
    reservations.reserve(cy, session)
    ada, browser, _ = _subscribed(demo_event, receiver, "ada")
    reservations.reserve(ada, session)
    with django_capture():
        reservations.cancel(cy, session)
    code = ada.reservations.get().code
    assert _one_message(receiver, browser, "ada") == {
        "title": f"You have a seat for “{TORCHJD_TITLE}”",
        "body": f"A seat became free and it is yours: Tue 7 Apr, 11:45 in Founders Cafe. Check-in code: {code}.",
        "url": f"/{DEMO_SLUG}/sessions/{TORCHJD}/seat/",
        "tag": f"seat-{DEMO_SLUG}-{TORCHJD}",
    }


def test_an_announcement_reaches_every_device_in_its_language(
    demo_event, receiver: Receiver
) -> None:  # noqa: ANN001
    ada, browser, _ = _subscribed(demo_event, receiver, "ada")
    with django_capture():
        services.notify_announcement(
            demo_event, {"en": "Keynote moves to Hall A.", "fr": "La keynote passe en salle A."},
            f"/{DEMO_SLUG}/",
        )  # fmt: skip
    _worker_batch()
    (message,) = receiver.taken()
    assert browser.read(message.body)["body"] == "Keynote moves to Hall A."
    assert (message.headers["ttl"], message.headers["urgency"]) == ("86400", "normal")


def test_410_deletes_the_subscription_and_429_is_tried_again_later(
    demo_event, receiver: Receiver
) -> None:  # noqa: ANN001
    _subscribed(demo_event, receiver, "gone")
    _subscribed(demo_event, receiver, "busy")
    receiver.answers = {"/push/gone": (410, {}), "/push/busy": (429, {"Retry-After": "120"})}
    with django_capture():
        services.notify_announcement(demo_event, {"en": "Hello."}, f"/{DEMO_SLUG}/")
    queued_at = django_now()
    _worker_batch()
    assert sorted(message.path for message in receiver.taken()) == ["/push/busy", "/push/gone"]
    assert list(
        PushSubscription.objects.values_list("user__username", "failures", "last_error")
    ) == [("busy", 1, "429 Too Many Requests: ")]
    waiting = DBTaskResult.objects.filter(status="READY").get()
    assert waiting.task_path == "confsched.push.tasks.retry_notices"
    assert queued_at + timedelta(seconds=120) <= waiting.run_after
    assert waiting.run_after <= django_now() + timedelta(seconds=120)
    assert waiting.args_kwargs["args"][1] == 2  # the second attempt


def test_a_notice_tried_again_arrives_the_same(demo_event, receiver: Receiver) -> None:  # noqa: ANN001
    _, browser, _ = _subscribed(demo_event, receiver, "busy")
    receiver.answers = {"/push/busy": (503, {})}
    with django_capture():
        services.notify_announcement(demo_event, {"en": "Hello."}, f"/{DEMO_SLUG}/")
    _worker_batch()
    assert len(receiver.taken()) == 1
    receiver.answers = {}
    DBTaskResult.objects.filter(status="READY").update(run_after=django_now())
    _worker_batch()
    (message,) = receiver.taken()
    assert browser.read(message.body) == {
        "title": EVENT_NAME,
        "body": "Hello.",
        "url": f"/{DEMO_SLUG}/",
        "tag": f"announcement-{DEMO_SLUG}-{ANNOUNCEMENT_DIGEST}",
    }
    assert PushSubscription.objects.get().failures == 0
