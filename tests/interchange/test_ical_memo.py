"""The feed's VEVENTs kept by digest: a second render re-renders only what changed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from icalendar import Calendar
from icalendar.parser import Contentline

from confsched.interchange.ical.write import _folded, render_ical, to_ical_bytes
from confsched.interchange.synthetic import synthetic_programme


def _render(programme, memo):  # noqa: ANN001, ANN202
    return render_ical(
        programme, uid_domain="example.org", calendar_name="Synthetic", rendered=memo,
        url_for=lambda key: f"https://example.org/e/sessions/{key}/",
    )  # fmt: skip


def test_a_kept_entry_is_used_and_a_changed_session_is_rendered_anew() -> None:
    programme = synthetic_programme(12)
    memo: dict[bytes, bytes] = {}
    first = _render(programme, memo)
    assert (len(memo), first) == (12, _render(programme, None))
    renamed = replace(programme.sessions[5], title="Renamed")
    changed = replace(
        programme, sessions=[renamed if s.key == "s5" else s for s in programme.sessions]
    )
    second = _render(changed, memo)
    assert (len(memo), second) == (13, _render(changed, None))
    assert second.count(b"SUMMARY:Talk: Renamed") == 1
    # A stale entry under the digest would show: the digest covers the speakers' names too.
    people = replace(
        changed,
        speakers=[replace(p, name="Zed") if p.key == "p0" else p for p in changed.speakers],
    )
    assert _render(people, memo) == _render(people, None)
    assert len(memo) == 14  # only s0 names p0


def test_the_spliced_feed_is_what_the_library_writes_for_the_whole_calendar() -> None:
    body = _render(synthetic_programme(30), None)
    assert to_ical_bytes(Calendar.from_ical(body)) == body == Calendar.from_ical(body).to_ical()
    assert body.count(b"BEGIN:VTIMEZONE") == 0  # synthetic sessions are in UTC
    zoned = replace(synthetic_programme(3), timezone="Europe/Paris")
    text = _render(zoned, None)
    assert text.index(b"BEGIN:VTIMEZONE") < text.index(b"BEGIN:VEVENT")
    assert text == Calendar.from_ical(text).to_ical()


def test_ascii_folding_matches_the_librarys_at_every_escape_position() -> None:
    for length in range(60, 240, 7):
        for escape in ("\\", "^", "x"):
            for at in range(70, 78):
                text = "a" * at + escape + "b" * (length - at)
                line = Contentline(f"DESCRIPTION:{text}")
                assert _folded(line) == line.to_ical(), (length, escape, at)


def _values(session, programme, **overrides):  # noqa: ANN001, ANN003, ANN202
    from zoneinfo import ZoneInfo

    from confsched.interchange.ical.write import event_values

    values = event_values(
        session, programme=programme, zone=overrides.pop("zone", ZoneInfo("Europe/Paris")),
        speakers={s.key: s for s in programme.speakers}, uid_domain="example.org",
        url=overrides.pop("url", f"https://example.org/e/sessions/{session.key}/"), now=None,
    )  # fmt: skip
    return {**values, **overrides}


TEXTS = [
    "Plain", "Comma, semicolon; backslash \\\\ and \\n newline\nsecond line", "Ünïcödé ✓ " * 30,
    "a" * 73 + "\\\\" + "b" * 80, "x" * 300, "<script>alert(1)</script>", "tab\tand \u2028 sep",
]  # fmt: skip


@pytest.mark.parametrize("text", TEXTS)
def test_the_fast_vevent_is_the_librarys_byte_for_byte(text: str) -> None:
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from confsched.interchange.ical.write import library_event, vevent_bytes
    from confsched.interchange.programme import SessionLink

    programme = synthetic_programme(3)
    session = replace(
        programme.sessions[1], title=text, abstract=text, room=text[:40], track=text[:30],
        kind="Talk, long", last_modified=datetime(2026, 3, 1, 12, 30, tzinfo=UTC), sequence=4,
        links=(SessionLink(url="https://example.org/slides.pdf?a=1,2", title="Slides"),),
    )  # fmt: skip
    for variant in (
        _values(session, programme),
        _values(session, programme, zone=UTC),
        _values(session, programme, zone=ZoneInfo("America/St_Johns"), url=None),
        _values(replace(session, is_cancelled=True, track="", room="", links=()), programme),
        _values(session, programme, description=None, location=None, last_modified=None),
        _values(session, programme, status="TENTATIVE", alarm_minutes=15),
        _values(session, programme, alarm_minutes=5, description=None),
    ):
        assert vevent_bytes(variant) == to_ical_bytes(library_event(variant))
        assert vevent_bytes(variant) == library_event(variant).to_ical()
