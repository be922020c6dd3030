"""The change log says what a detail changed from and to, not only that it changed."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime

import pytest

from confsched.programme.changes import describe_changes

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
    assert describe_changes(BEFORE, {**BEFORE, **changed}, zone=PARIS) == [("details", words)]
