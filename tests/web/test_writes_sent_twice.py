"""Every write a page sends again is safe: its answer was lost (a 502 from the front after the
app saved it, a dropped connection) and the page's retry (app.js) or the offline outbox (the
service worker) sends the same request once more. The second gives the same one star, one seat,
one rating, and answers with the state as it is: what the person then sees."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda import reservations
from confsched.agenda.models import (
    AgendaItem,
    AgendaLinks,
    AlertSubscription,
    AttendeeProfile,
    Feedback,
    ReminderSetting,
    Reservation,
)
from confsched.programme.models import Event, Session
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
# During the event (12:00 in Paris): TorchJD (11:45) has begun, so it takes feedback; Jigsaw
# (15:00) takes reservations.
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"
DURING = datetime(2026, 4, 7, 10, 0, tzinfo=UTC)


@pytest.fixture
def ada(demo_event: Event, monkeypatch: pytest.MonkeyPatch) -> Client:
    monkeypatch.setattr("confsched.core.clock.now", lambda: DURING)
    reservations.set_seats(Session.objects.get(event=demo_event, key=JIGSAW), 5)
    client = Client()
    client.force_login(User.objects.create_user("ada", "ada@example.org"))
    return client


def _twice(client: Client, path: str, form: dict[str, str], **headers: str) -> list[object]:
    return [client.post(BASE + path, form, **headers) for _ in range(2)]


def test_a_star_sent_twice_is_one_star_and_says_starred(ada: Client) -> None:
    first, second = _twice(
        ada, f"sessions/{TORCHJD}/star", {"starred": "1"}, HTTP_HX_REQUEST="true"
    )
    assert (first.status_code, second.status_code, AgendaItem.objects.count()) == (200, 200, 1)
    assert re.findall(r'aria-pressed="(\w+)"', second.content.decode()) == ["true"]


def test_an_unstar_sent_twice_leaves_none_and_says_so(ada: Client) -> None:
    ada.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"})
    _, second = _twice(ada, f"sessions/{TORCHJD}/star", {"starred": "0"}, HTTP_HX_REQUEST="true")
    assert AgendaItem.objects.count() == 0
    assert re.findall(r'aria-pressed="(\w+)"', second.content.decode()) == ["false"]


def _control(response: object) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_a_reservation_sent_twice_is_one_seat_and_says_reserved(ada: Client) -> None:
    first, second = _twice(ada, f"sessions/{JIGSAW}/reserve", {"action": "reserve"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert (first.status_code, second.status_code) == (200, 200)
    assert list(Reservation.objects.values_list("user__username", "status")) == [
        ("ada", "confirmed")
    ]
    assert _control(second) == (
        "✓ Seat reserved Cancel my seat for “Jigsaw: Domain and Tensor Parallelism for "
        "High-Resolution Input Training” Your seat is reserved."
    )


def test_a_cancellation_sent_twice_gives_up_one_seat_and_says_it_is_free(ada: Client) -> None:
    ada.post(f"{BASE}sessions/{JIGSAW}/reserve", {"action": "reserve"})
    _, second = _twice(ada, f"sessions/{JIGSAW}/reserve", {"action": "cancel"},
                       HTTP_HX_REQUEST="true")  # fmt: skip
    assert (second.status_code, Reservation.objects.count()) == (200, 0)
    assert _control(second).startswith("5 of 5 seats free Reserve a seat")


@pytest.mark.parametrize(
    ("path", "form", "held"),
    [
        (f"sessions/{TORCHJD}/feedback/", {"rating": "4", "comment": "Clear"},
         lambda: list(Feedback.objects.values_list("rating", "comment"))),
        ("profile/", {"is_public": "on", "display_name": "Ada L.", "company": "Lab"},
         lambda: list(AttendeeProfile.objects.values_list("is_public", "display_name"))),
        ("agenda/alerts", {"alerts": "on"},
         lambda: list(AlertSubscription.objects.values_list("is_on", flat=True))),
        ("agenda/reminders", {"minutes": "10", "by_mail": "on"},
         lambda: list(ReminderSetting.objects.values_list("minutes", "by_mail"))),
    ],
)  # fmt: skip
def test_a_form_sent_twice_is_saved_once(ada: Client, path: str, form: dict, held) -> None:  # noqa: ANN001
    first, second = _twice(ada, path, form)
    once = held()
    assert (first.status_code, second.status_code) == (302, 302)
    assert (
        once
        == {
            f"sessions/{TORCHJD}/feedback/": [(4, "Clear")],
            "profile/": [(True, "Ada L.")],
            "agenda/alerts": [True],
            "agenda/reminders": [(10, True)],
        }[path]
    )


def test_turning_the_share_link_on_twice_gives_one_link(ada: Client) -> None:
    ada.post(f"{BASE}agenda/share", {"share": "on", "display_name": "Ada"})
    token = AgendaLinks.objects.get().share_token
    ada.post(f"{BASE}agenda/share", {"share": "on", "display_name": "Ada"})
    assert AgendaLinks.objects.get().share_token == token
    assert token is not None and token in ada.get(f"{BASE}agenda/").content.decode()
