"""The profile and the attendee directory are reachable from the agenda and the account menu,
not only through a session's "who's going" (issue 29, item 6)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
PROFILE = f'<a href="{BASE}profile/">My profile</a>'
PEOPLE = f'<a href="{BASE}people/">Attendees</a>'


def _account(html: str) -> str:
    return re.search(r'<div class="account">(.*?)\n    </div>', html, re.S).group(1)


def test_the_account_menu_links_the_profile_and_the_directory(demo_event) -> None:  # noqa: ANN001
    client = Client()
    client.force_login(User.objects.create_user("ada", "ada@example.org"))
    for page in ("", "grid/", "speakers/", "agenda/"):
        account = _account(client.get(BASE + page).content.decode())
        assert (PROFILE in account, PEOPLE in account) == (True, True), page


def test_a_visitor_has_no_profile_in_the_corner(client: Client, demo_event) -> None:  # noqa: ANN001
    account = _account(client.get(BASE).content.decode())
    assert (PROFILE in account, "Log in" in account) == (False, True)


def test_my_agenda_links_the_profile_and_the_directory(client: Client, demo_event) -> None:  # noqa: ANN001
    html = client.get(f"{BASE}agenda/").content.decode()
    assert f'<p class="people-links">{PROFILE} · {PEOPLE}</p>' in html
