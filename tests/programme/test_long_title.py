"""A title longer than the database keeps (issue 29, item 15): the import report says which
session, how long its title was and how long it is now; the cut is never silent."""

from __future__ import annotations

import pytest

from confsched.interchange.formats import parse_files
from confsched.programme.models import Session
from confsched.programme.services import create_event, load_programme

LONG = ("A talk whose title runs on " + "and on " * 70)[:504] + "!"  # 505 characters


def _ics(summary: str) -> bytes:
    lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT",
        "UID:long-1@example.org", "DTSTAMP:20260301T120000Z", "DTSTART:20260601T090000Z",
        "DTEND:20260601T100000Z", f"SUMMARY:{summary}", "END:VEVENT",
        "BEGIN:VEVENT", "UID:short-1@example.org", "DTSTAMP:20260301T120000Z",
        "DTSTART:20260601T110000Z", "DTEND:20260601T120000Z", "SUMMARY:Short", "END:VEVENT",
        "END:VCALENDAR",
    ]  # fmt: skip
    return ("\r\n".join(lines) + "\r\n").encode()


@pytest.mark.django_db
def test_an_ical_summary_of_505_characters_is_reported_with_its_session_and_lengths() -> None:
    assert len(LONG) == 505
    event = create_event(slug="long-titles", name="Long titles", timezone="UTC")
    report = load_programme(event, parse_files([("calendar.ics", _ics(LONG))]))
    stored = Session.objects.get(event=event, title__startswith="A talk")
    assert (len(stored.title), stored.title[-1]) == (500, "…")
    assert stored.title[:499] == LONG[:499].rstrip()[:499]
    assert [w for w in report.warnings if "title" in w] == [
        f"1 title was longer than the database keeps (500 characters) and was shortened to it, "
        f"ending in “…”: session {stored.key!r}, 505 characters, “A talk whose title runs on "
        "and on and on…”"
    ]
