"""The agenda page with its reminders panel, and the panel htmx swaps in, are valid HTML to the
W3C Nu checker and hold each id once."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda import reminders
from confsched.programme.models import Event
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors

pytestmark = pytest.mark.django_db

BASE = "/pytorch-conference-europe-2026/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def _page_around(fragment: str) -> str:
    """The swapped-in panel, alone in a minimal page, for the checker."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Panel</title>'
        f"</head><body><main>{fragment}</main></body></html>"
    )


def test_agenda_with_reminders_is_valid_html(demo_event: Event, tmp_path: Path) -> None:
    _checker()
    ada = User.objects.create_user("ada", "ada@example.org")
    nemo = User.objects.create_user("nemo", "")
    reminders.set_reminders(ada, demo_event, minutes=15, by_mail=True)
    pages = {}
    for user, kind in ((ada, "agenda, reminders on"), (nemo, "agenda, no email address")):
        client = Client()
        client.force_login(user)
        client.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1", "next": BASE})
        response = client.get(BASE + "agenda/")
        assert response.status_code == 200
        pages[kind] = response.content.decode()
    client = Client()
    client.force_login(ada)
    panel = client.post(f"{BASE}agenda/reminders", {"minutes": "5"}, headers={"HX-Request": "true"})
    assert panel.status_code == 200
    pages["htmx panel"] = _page_around(panel.content.decode())
    duplicates = {kind: _duplicate_ids(html) for kind, html in pages.items()}
    assert {kind: found for kind, found in duplicates.items() if found} == {}
    assert _errors(pages, tmp_path) == []
