"""A speaker billed only on unpublished sessions (waitlisted, or without a time) is no one's to
look up: not by key on their page or in the API, not in the directory, its search, the
schedule's search or the exports the offline copy is made from. The rule follows publication:
accepted, they appear; waitlisted again, they are gone again."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.web.history import (
    ACCEPTED_TITLE,
    ADA,
    CSVCONF,
    EMBARGOED_TITLE,
    GRACE,
    GRACE_BIO,
    SUMMIT,
    WITHDRAWN_TITLE,
    csvconf,
    load_sessionize,
    sessionize_export,
    summit,
)

pytestmark = pytest.mark.django_db


def _everywhere(client: Client, slug: str, key: str) -> dict[str, int | bool]:
    """Where the speaker `key` (Grace Hopper, or Linus Quiet) can be reached."""
    return {
        "page": client.get(f"/{slug}/speakers/{key}/").status_code,
        "api": client.get(f"/api/v1/events/{slug}/speakers/{key}").status_code,
        "directory": f"/{slug}/speakers/{key}/"
        in client.get(f"/{slug}/speakers/").content.decode(),
        "api list": key in client.get(f"/api/v1/events/{slug}/speakers").content.decode(),
    }


HIDDEN = {"page": 404, "api": 404, "directory": False, "api list": False}
SHOWN = {"page": 200, "api": 200, "directory": True, "api list": True}


def test_a_speaker_of_a_waitlisted_session_only_is_404_everywhere(client: Client) -> None:
    summit()
    assert _everywhere(client, SUMMIT, GRACE) == HIDDEN
    assert _everywhere(client, SUMMIT, ADA) == SHOWN
    page = client.get(f"/{SUMMIT}/speakers/{GRACE}/")
    assert ("Grace Hopper" in page.content.decode(), GRACE_BIO in page.content.decode()) == (
        False,
        False,
    )
    assert client.get(f"/api/v1/events/{SUMMIT}/speakers/{GRACE}").json() == {
        "detail": f"no speaker '{GRACE}'"
    }
    # By name: the directory's search, the schedule's search, the data the offline copy reads
    # (asked in lower case: a page repeats its query, never as "Hopper").
    searched = {
        "directory": client.get(f"/{SUMMIT}/speakers/?q=hopper").content.decode(),
        "search": client.get(f"/{SUMMIT}/search/?q=hopper").content.decode(),
        "api": client.get(f"/api/v1/events/{SUMMIT}/speakers?q=hopper").content.decode(),
        "schedule.json": client.get(f"/{SUMMIT}/schedule.json").content.decode(),
        "schedule.ics": client.get(f"/{SUMMIT}/schedule.ics").content.decode(),
    }
    words = ("Grace Hopper", "Hopper", GRACE_BIO, EMBARGOED_TITLE)
    assert [(name, w) for name, body in searched.items() for w in words if w in body] == []
    assert "Ada Lovelace" in searched["schedule.json"]


def test_a_speaker_appears_when_accepted_and_goes_when_waitlisted_again(client: Client) -> None:
    event = summit()
    assert client.get(f"/{SUMMIT}/speakers/{GRACE}/").status_code == 404
    load_sessionize(event, sessionize_export(waitlisted=(ACCEPTED_TITLE, "Accepted")))
    assert _everywhere(client, SUMMIT, GRACE) == SHOWN
    page = client.get(f"/{SUMMIT}/speakers/{GRACE}/").content.decode()
    assert ("<h1>Grace Hopper</h1>" in page, GRACE_BIO in page, ACCEPTED_TITLE in page) == (
        True,
        True,
        True,
    )
    assert client.get(f"/api/v1/events/{SUMMIT}/speakers/{GRACE}").json()["bio"] == GRACE_BIO
    # Its kept page is not served again once the session is waitlisted.
    load_sessionize(event, sessionize_export(waitlisted=(WITHDRAWN_TITLE, "Waitlisted")))
    assert _everywhere(client, SUMMIT, GRACE) == HIDDEN


def test_a_speaker_of_a_csv_row_without_a_time_only_is_404(client: Client) -> None:
    csvconf()
    assert _everywhere(client, CSVCONF, "linus-quiet") == HIDDEN
    assert _everywhere(client, CSVCONF, "ada-lovelace") == SHOWN


def test_an_unknown_speaker_is_404_as_an_unpublished_one(client: Client) -> None:
    """The two answers are the same: a 404 tells no one that the person exists."""
    summit()
    unknown = client.get(f"/api/v1/events/{SUMMIT}/speakers/nobody").json()
    assert unknown == {"detail": "no speaker 'nobody'"}
    assert _everywhere(client, SUMMIT, "nobody") == HIDDEN
