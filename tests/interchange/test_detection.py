"""Format detection reads what the readers read (issue 14, item 12): each file below was
refused without --format although its reader parses it."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from confsched.core.errors import UnknownFormatError
from confsched.interchange import formats


def detected(name: str, data: bytes) -> str:
    return formats.detect_format(name, data).name


def imported(name: str, data: bytes) -> list[tuple[str, str, datetime | None]]:
    programme = formats.parse_files([(name, data)], default_timezone="Europe/Paris")
    return [(s.key, s.title, s.starts_at) for s in programme.sessions]


def test_a_csv_with_cr_line_ends_is_detected() -> None:
    data = b"key,title,starts_at\ra,Opening,2026-04-07T09:00:00Z\rb,Closing,2026-04-07T17:00:00Z\r"
    assert detected("talks.csv", data) == "csv"
    assert imported("talks.csv", data) == [
        ("a", "Opening", datetime(2026, 4, 7, 9, tzinfo=UTC)),
        ("b", "Closing", datetime(2026, 4, 7, 17, tzinfo=UTC)),
    ]


def test_a_csv_with_two_byte_order_marks_keeps_its_key_column() -> None:
    # The second mark made the first column "\ufeffkey": unknown, so every key was lost.
    data = "\ufeff\ufeffkey,title,starts_at\na,Opening,2026-04-07T09:00:00Z\n".encode()
    assert detected("talks.csv", data) == "csv"
    assert imported("talks.csv", data) == [("a", "Opening", datetime(2026, 4, 7, 9, tzinfo=UTC))]


FRAB = """<?xml version="1.0" encoding="UTF-16"?>
<schedule><conference><title>Kongress</title><time_zone_name>Europe/Berlin</time_zone_name>
</conference><day index="1" date="2024-12-27"><room name="Saal 1">
<event guid="e-1" id="1"><title>Eröffnung</title><date>2024-12-27T10:30:00+01:00</date>
<duration>00:30</duration></event></room></day></schedule>
"""


def test_a_utf16_frab_xml_with_a_byte_order_mark_is_detected() -> None:
    data = FRAB.encode("utf-16")  # with its byte-order mark, little-endian here
    assert data[:2] == b"\xff\xfe"
    assert detected("schedule.xml", data) == "frab-xml"
    assert imported("schedule.xml", data) == [
        ("e-1", "Eröffnung", datetime(2024, 12, 27, 9, 30, tzinfo=UTC))
    ]


def test_a_utf16_frab_xml_big_endian_is_detected() -> None:
    assert detected("schedule.xml", b"\xfe\xff" + FRAB.encode("utf-16-be")) == "frab-xml"


def test_an_ical_whose_begin_line_is_folded_is_detected() -> None:
    data = (
        b"BEGIN:VCAL\r\n ENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:Opening\r\n"
        b"DTSTART:20260407T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    assert detected("feed.ics", data) == "ical"
    assert imported("feed.ics", data) == [("a", "Opening", datetime(2026, 4, 7, 9, tzinfo=UTC))]


def test_a_schedule2_whose_conference_comes_after_200_kb_is_detected() -> None:
    events = [
        {
            "guid": f"2e000000-0000-4000-8000-{number:012d}",
            "title": f"Talk {number}",
            "start": "2025-06-14T10:00:00+02:00",
            "end": "2025-06-14T10:30:00+02:00",
            "abstract": "x" * 200,
        }
        for number in range(1000)
    ]
    document = {
        "schedule": {
            "version": "1",
            "events": events,
            "conference": {"title": "Late", "time_zone_name": "Europe/Berlin"},
        }
    }
    data = json.dumps(document).encode()
    assert data.index(b'"conference"') > 200_000
    assert detected("schedule2.json", data) == "c3voc-schedule2"
    assert len(imported("schedule2.json", data)) == 1000


def test_what_no_reader_reads_is_still_refused() -> None:
    data = b"{" + b" " * 250_000 + b'"hello": "world"}'
    with pytest.raises(UnknownFormatError) as refused:
        formats.detect_format("x.json", data)
    assert str(refused.value).startswith("x.json: not a programme confsched can read")
