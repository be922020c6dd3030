"""The people pages are valid HTML to the W3C Nu checker and hold each id once: the directory,
the profile (empty, saved, and with errors), who is going (page and fragment), the delete
confirmation (and its wrong password), the home page's message after a deletion."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda import people
from confsched.agenda.services import star_session
from confsched.programme.models import Event, Session
from tests.conftest import DEMO_SLUG
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PASSWORD = "a fine password 7"


def _get(client: Client, url: str, status: int = 200, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == status, url
    return response.content.decode()


def test_the_people_pages_are_valid_html(demo_event: Event, tmp_path: Path) -> None:
    _checker()
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    for name, display in (("ada", "Ada Lovelace"), ("grace", "Grace Hopper")):
        user = User.objects.create_user(name, f"{name}@example.org", PASSWORD)
        people.save_profile(
            user, demo_event, is_public=True, display_name=display, company="Engines & Co",
            role="Programmer", links="https://example.org/a\nhttp://example.com/b?x=1&y=2",
        )  # fmt: skip
        star_session(user, session)
    star_session(User.objects.create_user("bob", "bob@example.org", PASSWORD), session)
    ada = User.objects.get(username="ada")
    signed_in = Client()
    signed_in.force_login(ada)
    visitor = Client()
    pages = {
        "directory": _get(visitor, BASE + "people/"),
        "directory, searched": _get(visitor, BASE + "people/?q=ada"),
        "directory, none found": _get(visitor, BASE + "people/?q=nobody"),
        "directory, signed in": _get(signed_in, BASE + "people/"),
        "profile": _get(signed_in, BASE + "profile/"),
        "profile, saved": _get(signed_in, BASE + "profile/?saved=1"),
        "going": _get(visitor, f"{BASE}sessions/{TORCHJD}/going/"),
        "session with its loader": _get(visitor, f"{BASE}sessions/{TORCHJD}/"),
        "delete, event frame": _get(signed_in, f"/accounts/delete/?next={BASE}profile/"),
        "delete, site frame": _get(signed_in, "/accounts/delete/"),
        "password change with the data links": _get(signed_in, "/accounts/password/change/"),
    }
    wrong = signed_in.post(
        BASE + "profile/",
        {"is_public": "on", "display_name": "", "links": "nope\nhttps://ok.example.org"},
    )
    assert wrong.status_code == 400
    pages["profile with errors"] = wrong.content.decode()
    refused = signed_in.post("/accounts/delete/", {"password": "wrong"})
    assert refused.status_code == 400
    pages["delete, wrong password"] = refused.content.decode()
    fragment = _get(visitor, f"{BASE}sessions/{TORCHJD}/going/", **{"HX-Request": "true"})
    pages["going fragment, in a page"] = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fragment</title>'
        f"</head><body>{fragment}</body></html>"
    )
    done = signed_in.post("/accounts/delete/", {"password": PASSWORD})
    assert done.status_code == 302
    pages["home with the deletion message"] = _get(signed_in, "/")
    duplicates = {kind: _duplicate_ids(html) for kind, html in pages.items()}
    assert {kind: found for kind, found in duplicates.items() if found} == {}
    assert _errors(pages, tmp_path) == []
