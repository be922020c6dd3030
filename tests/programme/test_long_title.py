"""Long titles (issue 29, item 15): an iCalendar SUMMARY of 505 characters was cut to 500
without the organizer being told which session; now titles are kept whole up to 2,000
characters, and past that the import report names the session and both lengths."""

from __future__ import annotations

import pytest

from confsched.interchange.formats import parse_files
from confsched.programme.models import Session
from confsched.programme.services import create_event, load_programme, snapshot


def _title(length: int) -> str:
    return ("A talk whose title runs on " + "and on " * 300)[: length - 1] + "!"


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
def test_an_ical_summary_of_505_characters_is_kept_whole() -> None:
    title = _title(505)
    event = create_event(slug="long-titles", name="Long titles", timezone="UTC")
    report = load_programme(event, parse_files([("calendar.ics", _ics(title))]))
    stored = Session.objects.get(event=event, key="long-1@example.org")
    assert (len(stored.title), stored.title) == (505, title)
    assert [w for w in report.warnings if "title" in w] == []
    # And every export gets it whole: the snapshot they render from holds all 505.
    assert [len(s.title) for s in snapshot(event).sessions if s.key == stored.key] == [505]


@pytest.mark.django_db
def test_a_title_past_what_the_database_keeps_is_reported_with_its_session_and_lengths() -> None:
    event = create_event(slug="longer-titles", name="Longer titles", timezone="UTC")
    report = load_programme(event, parse_files([("calendar.ics", _ics(_title(2105)))]))
    stored = Session.objects.get(event=event, key="long-1@example.org")
    assert (len(stored.title), stored.title[-1]) == (2000, "…")
    assert [w for w in report.warnings if "title" in w] == [
        "1 title was longer than the database keeps (2000 characters) and was shortened to it, "
        "ending in “…”: session 'long-1@example.org', 2105 characters, “A talk whose title runs "
        "on and on and on…”"
    ]
