"""No one reads or changes another's agenda; CSRF on every write.

Imported text staying text on every page and feed, the agenda's included, is
tests/web/test_untrusted_text.py.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.models import AgendaItem, AgendaLinks
from confsched.agenda.services import agenda_links, set_sharing, star_session
from confsched.programme.models import Session
from confsched.programme.services import create_event
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PASSWORD = "correct horse battery staple 42"


@pytest.fixture
def ada_and_bob(demo_event):  # noqa: ANN001, ANN201
    ada = User.objects.create_user("ada", "ada@example.org", PASSWORD)
    bob = User.objects.create_user("bob", "bob@example.org", PASSWORD)
    star_session(ada, Session.objects.get(key=TORCHJD))
    return ada, bob


def _as(user: User, **options: object) -> Client:
    client = Client(**options)
    client.force_login(user)
    return client


def test_a_user_sees_only_their_own_agenda(ada_and_bob) -> None:
    _, bob = ada_and_bob
    html = _as(bob).get(BASE + "agenda/").content.decode()
    assert "TorchJD" not in html
    assert "0 sessions." in html


def test_a_feed_token_is_bound_to_its_owner_and_event(ada_and_bob) -> None:
    ada, bob = ada_and_bob
    token = agenda_links(ada, ada_and_bob[0].agenda_items.get().session.event).feed_token
    other_event = create_event(slug="other", name="Other", timezone="UTC")
    assert Client().get(f"/other/agenda/{token}.ics").status_code == 404
    assert Client().get(f"{BASE}agenda/{token[:-1]}x.ics").status_code == 404
    assert Client().get(f"{BASE}agenda/{'A' * 43}.ics").status_code == 404
    bob_links = agenda_links(bob, other_event)
    assert bob_links.feed_token != token


def test_writes_act_on_the_requesting_user_only(ada_and_bob) -> None:
    ada, bob = ada_and_bob
    bob_client = _as(bob)
    ada_token = agenda_links(ada, Session.objects.get(key=TORCHJD).event).feed_token
    # Forged fields naming another user are ignored: there is no user field to forge.
    bob_client.post(
        f"{BASE}sessions/{TORCHJD}/star", {"starred": "0", "user": ada.pk, "user_id": ada.pk}
    )
    bob_client.post(BASE + "agenda/feed/reset", {"user": ada.pk})
    bob_client.post(BASE + "agenda/share", {"share": "on", "user": ada.pk})
    assert list(AgendaItem.objects.filter(user=ada).values_list("session__key", flat=True)) == [
        TORCHJD
    ]
    assert AgendaLinks.objects.get(user=ada).feed_token == ada_token
    assert AgendaLinks.objects.get(user=ada).share_token is None


def test_a_shared_link_shows_nothing_once_off_or_forged(ada_and_bob) -> None:
    ada, _ = ada_and_bob
    event = Session.objects.get(key=TORCHJD).event
    token = set_sharing(ada, event, is_on=True).share_token
    assert Client().get(f"{BASE}agenda/shared/{token}/").status_code == 200
    feed_token = AgendaLinks.objects.get(user=ada).feed_token
    assert (
        Client().get(f"{BASE}agenda/shared/{feed_token}/").status_code == 404
    )  # not a share token
    set_sharing(ada, event, is_on=False)
    assert Client().get(f"{BASE}agenda/shared/{token}/").status_code == 404


def test_anonymous_users_cannot_reset_or_share(demo_event) -> None:
    for path in ("agenda/feed/reset", "agenda/share"):
        response = Client().post(BASE + path, {"share": "on"})
        assert (response.status_code, response["Location"]) == (
            302,
            f"/accounts/login/?next={BASE}{path}",
        )
    assert AgendaLinks.objects.count() == 0


@pytest.mark.parametrize(
    ("path", "data"),
    [
        (f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"}),
        (BASE + "agenda/feed/reset", {}),
        (BASE + "agenda/share", {"share": "on"}),
        ("/accounts/logout/", {}),
        (
            "/accounts/password/change/",
            {"old_password": PASSWORD, "new_password1": "x" * 20, "new_password2": "x" * 20},
        ),
    ],
)
def test_csrf_is_enforced_on_every_write(ada_and_bob, path: str, data: dict) -> None:
    ada, _ = ada_and_bob
    client = _as(ada, enforce_csrf_checks=True)
    assert client.post(path, data).status_code == 403


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("/accounts/login/", {"username": "ada", "password": PASSWORD}),
        (
            "/accounts/signup/",
            {
                "username": "eve",
                "email": "e@example.org",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        ),
        (f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"}),
    ],
)
def test_csrf_is_enforced_for_visitors_too(ada_and_bob, path: str, data: dict) -> None:
    assert Client(enforce_csrf_checks=True).post(path, data).status_code == 403
    assert not User.objects.filter(username="eve").exists()
