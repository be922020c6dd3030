"""Chip links: the same view with one filter taken off; grid rows in steps of five minutes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.http import QueryDict

from confsched.programme.layout import grid_days
from confsched.web.site.templatetags.schedule_views import query_without

QUERY = QueryDict("q=torch&track=training-systems&track=agents&room=hall&tz=Asia/Tokyo&date=")
PARIS = ZoneInfo("Europe/Paris")


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("track", "agents", "?q=torch&track=training-systems&room=hall&tz=Asia%2FTokyo"),
        ("q", "", "?track=training-systems&track=agents&room=hall&tz=Asia%2FTokyo"),
        ("room", "hall", "?q=torch&track=training-systems&track=agents&tz=Asia%2FTokyo"),
        ("", "", "?tz=Asia%2FTokyo"),
        (
            "track",
            "not-chosen",
            "?q=torch&track=training-systems&track=agents&room=hall&tz=Asia%2FTokyo",
        ),
    ],
    ids=["one-value", "search", "last-value", "clear-all", "absent-value"],
)
def test_query_without_takes_off_one_filter_and_keeps_the_zone(name, value, expected) -> None:  # noqa: ANN001
    assert query_without(QUERY, name, value) == expected


def test_query_without_any_filter_is_a_bare_question_mark() -> None:
    assert query_without(QueryDict("track=a&slides=yes"), "", "") == "?"


def _session(room: str, start: str, minutes: int) -> SimpleNamespace:
    starts = datetime.fromisoformat(f"2026-04-07T{start}").replace(tzinfo=PARIS)
    return SimpleNamespace(
        room=SimpleNamespace(name=room, position=0), starts_at=starts.astimezone(UTC),
        ends_at=(starts + timedelta(minutes=minutes)).astimezone(UTC),
    )  # fmt: skip


def test_grid_rows_and_cells_measure_time_in_five_minute_steps() -> None:
    sessions = [
        _session("Hall", "09:00", 10),
        _session("Side", "09:00", 25),
        _session("Hall", "09:11", 4),  # a one-minute gap (one step) and a four-minute talk
        _session("Hall", "12:00", 30),  # after a break no session runs in
        _session("Side", "13:00", 240),  # longer than the tallest step count
    ]
    (day,) = grid_days(sessions, PARIS)
    assert [(row.starts_at.strftime("%H:%M"), row.steps, row.is_break) for row in day.rows] == [
        ("09:00", 4, False),  # 10 minutes, grown to the four steps a talk needs
        ("09:10", 1, False),
        ("09:11", 4, False),  # a four-minute talk: four steps too
        ("09:15", 2, False),
        ("09:25", 31, True),  # a break is to scale like the rest: 155 minutes
        ("12:00", 6, False),
        ("12:30", 6, True),
        ("13:00", 36, False),
    ]
    cells = [(cell.sessions[0].starts_at.astimezone(PARIS).strftime("%H:%M"), cell.row_span, cell.steps)
             for row in day.rows for cell in row.cells if cell is not None and cell.row_span]  # fmt: skip
    assert cells == [
        ("09:00", 1, 4),
        ("09:00", 4, 11),
        ("09:11", 1, 4),
        ("12:00", 1, 6),
        ("13:00", 1, 36),
    ]


def test_grid_to_scale_rows_are_as_tall_as_their_time_and_never_grow() -> None:
    sessions = [
        _session("Hall", "09:00", 10),
        _session("Side", "09:00", 25),
        _session("Hall", "09:11", 4),  # starts a minute after a step: the rounding never adds up
        _session("Hall", "12:00", 30),
        _session("Side", "13:00", 240),  # longer than the tallest step count
    ]
    (day,) = grid_days(sessions, PARIS, to_scale=True)
    assert [(row.starts_at.strftime("%H:%M"), row.steps) for row in day.rows] == [
        ("09:00", 2),  # 10 minutes: two steps, not grown to fit its cards
        ("09:10", 0),  # 09:10-09:11 falls within one step
        ("09:11", 1),  # 09:11-09:15: steps 2 to 3 from 09:00
        ("09:15", 2),
        ("09:25", 31),  # 155 minutes
        ("12:00", 6),
        ("12:30", 6),
        ("13:00", 36),  # four hours alone in their row: the cap
    ]
    cells = [(cell.sessions[0].starts_at.astimezone(PARIS).strftime("%H:%M"), cell.row_span, cell.steps)
             for row in day.rows for cell in row.cells if cell is not None and cell.row_span]  # fmt: skip
    # The 25-minute talk spans rows of 2, 0, 1 and 2 steps: exactly five, as its time says.
    assert cells == [
        ("09:00", 1, 2),
        ("09:00", 4, 5),
        ("09:11", 1, 1),
        ("12:00", 1, 6),
        ("13:00", 1, 36),
    ]


def test_grid_rows_past_midnight_have_ids_of_their_own_table() -> None:
    sessions = [
        _session("Hall", "23:00", 60),  # ends at midnight
        _session("Side", "23:30", 60),  # runs past it: its day's table has a 00:00 row
        _session("Hall", "23:59", 1),
    ]
    sessions.append(
        SimpleNamespace(
            room=SimpleNamespace(name="Hall", position=0),
            starts_at=datetime(2026, 4, 7, 22, 0, tzinfo=UTC),  # 00:00 on the 8th in Paris
            ends_at=datetime(2026, 4, 7, 22, 30, tzinfo=UTC),
        )
    )
    first, second = grid_days(sessions, PARIS)
    assert [row.anchor for row in first.rows] == [
        "slot-20260407-2300",
        "slot-20260407-2330",
        "slot-20260407-2359",
        "slot-20260407-20260408-0000",
    ]
    assert [row.anchor for row in second.rows] == ["slot-20260408-0000"]


def test_the_column_of_sessions_without_a_room_is_headed_in_the_page_s_language() -> None:
    from django.utils import translation

    from confsched.programme.layout import NO_ROOM
    from confsched.web.site.templatetags.schedule_views import room_heading

    said = {}
    for language in ("en", "fr", "de"):
        with translation.override(language):
            said[language] = (room_heading(NO_ROOM), room_heading("Amphi"))
    assert said == {
        "en": ("No room", "Amphi"), "fr": ("Sans salle", "Amphi"), "de": ("Kein Raum", "Amphi"),
    }  # fmt: skip
