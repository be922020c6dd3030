"""The change log says what a detail changed from and to, not only that it changed."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime

import pytest

from confsched.programme.changes import change_facts, say

PARIS = zoneinfo.ZoneInfo("Europe/Paris")
BEFORE = {
    "title": "T", "kind": "Talk", "abstract": "", "room": "A", "track": "Training Systems",
    "level": "", "has_slides": False, "language": "en", "speakers": [], "is_cancelled": False,
    "starts_at": datetime(2026, 4, 7, 9, tzinfo=UTC), "ends_at": None,
}  # fmt: skip


@pytest.mark.parametrize(
    ("changed", "words"),
    [
        ({"track": "Inference"}, "type changed from Training Systems to Inference"),
        ({"track": ""}, "type Training Systems removed"),
        ({"level": "Intermediate"}, "audience level set to Intermediate"),
        ({"has_slides": True}, "slides attached"),
        ({"kind": "Keynote", "language": "de"},
         "kind changed from Talk to Keynote; language changed from en to de"),
    ],
)  # fmt: skip
def test_a_detail_says_from_what_to_what(changed: dict, words: str) -> None:
    found = change_facts(BEFORE, {**BEFORE, **changed}, zone=PARIS)
    assert [(kind, say(kind, facts)) for kind, facts in found] == [("details", words)]


def test_a_change_keeps_its_facts_and_is_said_in_the_reader_s_language() -> None:
    """Stored as facts with English words beside them; the change log, the feeds and the alert
    mails say them in the page's or the mail's language."""
    from django.utils import translation

    after = {**BEFORE, "room": "", "title": "U", "starts_at": datetime(2026, 4, 7, 10, tzinfo=UTC),
             "has_slides": True}  # fmt: skip
    found = change_facts(BEFORE, after, zone=PARIS)
    assert found == [
        ("retimed", {"was": ["2026-04-07T09:00:00+00:00", None],
                     "now": ["2026-04-07T10:00:00+00:00", None], "zone": "Europe/Paris"}),
        ("moved", {"was": "A", "now": ""}),
        ("retitled", {"was": "T", "now": "U"}),
        ("details", {"details": [["has_slides", False, True]]}),
    ]  # fmt: skip
    said = {}
    for language in ("en", "fr", "de"):
        with translation.override(language):
            said[language] = [say(kind, facts) for kind, facts in found]
    assert said == {
        "en": ["moved in time from Tue 7 Apr 11:00 to Tue 7 Apr 12:00", "moved from A to no room",
               "retitled from “T” to “U”", "slides attached"],
        "fr": ["déplacée de mar 7 avr 11:00 à mar 7 avr 12:00", "déplacée de A vers aucune salle",
               "renommée de « T » en « U »", "diapositives ajoutées"],
        "de": ["verschoben von Di 7 Apr 11:00 auf Di 7 Apr 12:00", "verlegt von A nach kein Raum",
               "umbenannt von „T“ in „U“", "Folien angehängt"],
    }  # fmt: skip


@pytest.mark.django_db
def test_older_changes_without_facts_keep_their_stored_words() -> None:
    from django.utils import translation

    from confsched.programme.models import Change

    old = Change(kind="moved", description="moved from A to B")
    cancelled = Change(kind="cancelled", description="cancelled")
    with translation.override("fr"):
        assert (old.words, cancelled.words) == ("moved from A to B", "annulée")
