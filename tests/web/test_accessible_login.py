"""Logging in, signing up and resetting a password take what browsers and password managers
fill in (WCAG 2.2's 3.3.8 accessible authentication, 1.3.5 input purpose): every field says
what it holds, and nothing refuses a paste (docs/accessibility.md)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

import confsched

pytestmark = pytest.mark.django_db


class _Fields(HTMLParser):
    """Each visible input's name and autocomplete, and the names of inline paste handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.autocomplete: dict[str, str] = {}
        self.handlers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.handlers += [name for name in found if name in ("onpaste", "oncopy", "oncut")]
        if tag == "input" and found.get("type") not in ("hidden", "submit"):
            self.autocomplete[found.get("name") or ""] = found.get("autocomplete") or ""


def _fields(client: Client, address: str) -> _Fields:
    response = client.get(address)
    assert response.status_code == 200, address
    parser = _Fields()
    parser.feed(response.content.decode())
    return parser


@pytest.mark.parametrize(
    ("address", "autocomplete"),
    [
        ("/accounts/login/", {"username": "username", "password": "current-password"}),
        (
            "/accounts/signup/",
            {
                "username": "username",
                "email": "email",
                "password1": "new-password",
                "password2": "new-password",
            },
        ),
        ("/accounts/password/reset/", {"email": "email"}),
    ],
)
def test_each_account_field_names_its_purpose(
    client: Client, address: str, autocomplete: dict[str, str]
) -> None:
    fields = _fields(client, address)
    assert (fields.autocomplete, fields.handlers) == (autocomplete, [])


def test_the_password_change_fields_name_their_purpose(client: Client) -> None:
    client.force_login(User.objects.create_user("ada", "ada@example.org", "a fine password 7"))
    fields = _fields(client, "/accounts/password/change/")
    assert (fields.autocomplete, fields.handlers) == (
        {
            "old_password": "current-password",
            "new_password1": "new-password",
            "new_password2": "new-password",
        },
        [],
    )


def test_no_script_of_ours_blocks_pasting() -> None:
    scripts = sorted(Path(confsched.__file__).parent.glob("web/*/static/confsched/*.js"))
    assert len(scripts) >= 5
    assert [
        s.name for s in scripts if '"paste"' in s.read_text() or "'paste'" in s.read_text()
    ] == []
