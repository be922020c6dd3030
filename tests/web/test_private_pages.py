"""Private pages: no cache keeps them, and a page whose address is a secret never passes it on."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.models import AgendaLinks
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
PASSWORD = "correct horse battery staple 42"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def _signed_in(client: Client) -> User:
    user = User.objects.create_user("ada", "ada@example.org", PASSWORD, first_name="Ada")
    client.force_login(user)
    return user


def _headers(response) -> tuple[int, str, str | None]:  # noqa: ANN001
    return (response.status_code, response["Cache-Control"], response.get("Referrer-Policy"))


def test_the_agenda_page_with_its_secrets_is_never_stored(client: Client, demo_event) -> None:
    _signed_in(client)
    client.post(BASE + "agenda/share", {"share": "on"})
    response = client.get(BASE + "agenda/")
    links = AgendaLinks.objects.get()
    html = response.content.decode()
    assert (links.feed_token in html, links.share_token in html) == (True, True)
    # Alert settings are on this page too (the toggle posts back to it).
    assert _headers(response) == (200, "private, no-store", "same-origin")
    assert "Cookie" in response["Vary"]


def test_the_agenda_s_offline_copy_leaves_the_secrets_out(client: Client, demo_event) -> None:
    """What the service worker keeps of the agenda: the starred sessions, none of the feed,
    alert or share addresses; still no-store for every HTTP cache; whose it is."""
    from confsched.agenda.models import AgendaItem
    from confsched.programme.models import Session
    from confsched.web.site.private import account_marker

    ada = _signed_in(client)
    AgendaItem.objects.create(user=ada, session=Session.objects.get(key=TORCHJD))
    client.post(BASE + "agenda/share", {"share": "on"})
    shown = client.get(BASE + "agenda/")
    copy = client.get(BASE + "agenda/", headers={"X-Confsched-Offline": "copy"})
    links = AgendaLinks.objects.get()
    html = copy.content.decode()
    assert (links.feed_token in html, links.share_token in html, ".atom" in html) == (
        False, False, False,
    )  # fmt: skip
    assert [f'id="{panel}"' in html for panel in ("feed", "alerts", "share")] == [False] * 3
    assert f"/sessions/{TORCHJD}/" in html
    assert _headers(copy) == (200, "private, no-store", "same-origin")
    assert (copy["X-Confsched-Offline"], shown.get("X-Confsched-Offline")) == ("account", None)
    request = copy.wsgi_request
    assert copy["X-Confsched-Offline-Account"] == account_marker(request)
    assert copy["X-Confsched-Offline-Account"].startswith("a")
    assert "X-Confsched-Offline" in copy["Vary"] and "Cookie" in copy["Vary"]
    assert "X-Confsched-Offline" in shown["Vary"]


def test_a_visitors_agenda_page_is_never_stored(client: Client, demo_event) -> None:
    client.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"})
    assert _headers(client.get(BASE + "agenda/")) == (200, "private, no-store", "same-origin")


def test_the_shared_agenda_is_never_stored_and_gives_its_address_to_no_other_site(
    client: Client, demo_event
) -> None:
    _signed_in(client)
    client.post(BASE + "agenda/share", {"share": "on"})
    token = AgendaLinks.objects.get().share_token
    response = Client().get(f"{BASE}agenda/shared/{token}/")
    assert _headers(response) == (200, "private, no-store", "same-origin")


def test_the_private_feed_sends_no_referrer(client: Client, demo_event) -> None:
    _signed_in(client)
    client.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"})
    client.get(BASE + "agenda/")
    token = AgendaLinks.objects.get().feed_token
    response = Client().get(f"{BASE}agenda/{token}.ics")
    assert _headers(response) == (200, "private, max-age=300", "no-referrer")


def test_the_favourites_page_is_never_stored(client: Client, demo_event) -> None:
    client.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"})
    response = client.get(BASE + "agenda/favourites/")
    assert _headers(response) == (200, "private, no-store", "same-origin")
    assert "Cookie" in response["Vary"]


def test_the_plan_page_is_never_stored(client: Client, demo_event) -> None:
    response = client.get(BASE + "plan/")
    assert (response.status_code, response["Cache-Control"]) == (200, "private, no-store")


# Every kind of page a signed-in person reads, each showing their name in the account corner
# (the printable day, made to be printed, has no corner: still theirs to read).
PERSON_S_PAGES = [
    "/", "", "grid/", f"sessions/{TORCHJD}/", "speakers/", "search/?q=pytorch", "changes/",
    "v/1/", "zones/", "now/", "plan/", "people/", "print/", "print/2026-04-07/", "agenda/",
    "profile/", f"sessions/{TORCHJD}/feedback/", "agenda/favourites/",
    f"/accounts/password/change/?next={BASE}",
]  # fmt: skip
# Pages their views keep private (a feed's address, settings, a password form): not even the
# person's own offline copy keeps them.
NEVER_KEPT = {
    "agenda/", "profile/", f"sessions/{TORCHJD}/feedback/", "agenda/favourites/", "plan/",
    "people/", f"/accounts/password/change/?next={BASE}",
}  # fmt: skip


def _url(page: str) -> str:
    return page if page.startswith("/") else BASE + page


@pytest.mark.parametrize("page", PERSON_S_PAGES)
def test_every_page_a_signed_in_person_reads_is_private_and_never_stored(
    client: Client, demo_event, page: str
) -> None:
    _signed_in(client)
    response = client.get(_url(page), follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert ('<span class="who">ada</span>' in html) == (page != "print/2026-04-07/")
    assert response["Cache-Control"] == "private, no-store"
    assert "Cookie" in response["Vary"]
    assert response.get("X-Confsched-Offline") == (None if page in NEVER_KEPT else "account")


def test_a_visitor_s_page_is_public_until_they_star_then_private(
    client: Client, demo_event
) -> None:
    first = client.get(BASE)
    client.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"})
    after = client.get(BASE)
    assert first["Cache-Control"].startswith("public, ")
    assert (after["Cache-Control"], after["X-Confsched-Offline"]) == (
        "private, no-store",
        "account",
    )
