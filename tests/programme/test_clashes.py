"""check_move and check_placement: each problem found, in words, before anything is saved."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from confsched.interchange import programme as pm
from confsched.programme.clashes import (
    ENDS_BEFORE_START,
    OUTSIDE_DAYS,
    OVER_CAPACITY,
    ROOM_CLASH,
    SPEAKER_CLASH,
    Problem,
    check_move,
    check_placement,
)

PARIS = ZoneInfo("Europe/Paris")
DAYS = {"first_day": date(2026, 4, 7), "last_day": date(2026, 4, 8)}


def _at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 4, day, hour, minute, tzinfo=PARIS)


def _programme() -> pm.Programme:
    ada = (pm.SessionSpeaker("ada"),)
    return pm.Programme(
        sessions=[
            pm.Session("keynote", "Keynote", starts_at=_at(7, 9), ends_at=_at(7, 10), room="Main", speakers=ada),
            pm.Session("talk", "Talk", starts_at=_at(7, 11), ends_at=_at(7, 12), room="Side", seats=80),
            pm.Session("panel", "Panel", starts_at=_at(7, 11), ends_at=_at(7, 12), room="Main", speakers=ada),
            pm.Session("gone", "Gone", starts_at=_at(7, 14), ends_at=_at(7, 15), room="Side", is_cancelled=True),
            pm.Session("later", "Later", room="Side", speakers=ada),
        ],
        speakers=[pm.Speaker("ada", "Ada Lovelace")],
        room_capacities={"Main": 500, "Side": 60},
    )  # fmt: skip


def test_a_free_slot_has_no_problem() -> None:
    assert check_move(_programme(), "talk", room="Side", starts_at=_at(7, 13), ends_at=_at(7, 13, 30), zone=PARIS, **DAYS) == [
        Problem(OVER_CAPACITY, "80 seats to reserve but Side has 60")
    ]  # fmt: skip
    assert check_move(_programme(), "keynote", room="Main", starts_at=_at(8, 9), ends_at=_at(8, 10), zone=PARIS, **DAYS) == []  # fmt: skip


def test_two_sessions_in_one_room() -> None:
    found = check_move(_programme(), "keynote", room="Side", starts_at=_at(7, 11, 30), ends_at=_at(7, 12, 30), zone=PARIS, **DAYS)  # fmt: skip
    assert found == [
        Problem(ROOM_CLASH, "Side holds “Talk” then (Tue 7 Apr 11:00–12:00)", ("talk",)),
        Problem(SPEAKER_CLASH, "Ada Lovelace also speaks in “Panel” (Tue 7 Apr 11:00–12:00, Main)", ("panel",)),
    ]  # fmt: skip


def test_a_speaker_in_two_places_and_a_room_taken() -> None:
    found = check_move(_programme(), "keynote", room="Main", starts_at=_at(7, 11), ends_at=_at(7, 11, 30), zone=PARIS, **DAYS)  # fmt: skip
    assert found == [
        Problem(ROOM_CLASH, "Main holds “Panel” then (Tue 7 Apr 11:00–12:00)", ("panel",)),
        Problem(SPEAKER_CLASH, "Ada Lovelace also speaks in “Panel” (Tue 7 Apr 11:00–12:00, Main)", ("panel",)),
    ]  # fmt: skip


def test_touching_ends_do_not_clash_and_cancelled_or_unscheduled_sessions_never_do() -> None:
    assert check_move(_programme(), "keynote", room="Main", starts_at=_at(7, 10), ends_at=_at(7, 11), zone=PARIS, **DAYS) == []  # fmt: skip
    assert check_move(_programme(), "keynote", room="Side", starts_at=_at(7, 14), ends_at=_at(7, 15), zone=PARIS, **DAYS) == []  # fmt: skip


def test_outside_the_event_s_days_in_its_zone() -> None:
    # 23:30 UTC on the 8th is 01:30 on the 9th in Paris.
    late = datetime(2026, 4, 8, 23, 30, tzinfo=ZoneInfo("UTC"))
    found = check_move(_programme(), "keynote", room="Main", starts_at=late, ends_at=late, zone=PARIS, **DAYS)  # fmt: skip
    assert found == [Problem(OUTSIDE_DAYS, "Thu 9 Apr 01:30–01:30 is outside the event's days (2026-04-07 to 2026-04-08)")]  # fmt: skip
    # Ending at midnight is still the last day.
    assert check_move(_programme(), "keynote", room="Main", starts_at=_at(8, 23), ends_at=_at(9, 0), zone=PARIS, **DAYS) == []  # fmt: skip
    assert check_move(_programme(), "keynote", room="Main", starts_at=_at(6, 9), ends_at=_at(6, 10), zone=PARIS) == []  # fmt: skip


def test_ending_before_starting_is_the_only_problem_said() -> None:
    found = check_move(_programme(), "keynote", room="Main", starts_at=_at(7, 11), ends_at=_at(7, 10), zone=PARIS, **DAYS)  # fmt: skip
    assert found == [Problem(ENDS_BEFORE_START, "it would end (10:00) before it starts (11:00)")]


def test_a_cancelled_session_moved_back_clashes_like_any_other() -> None:
    found = check_move(_programme(), "gone", room="Side", starts_at=_at(7, 11), ends_at=_at(7, 12), zone=PARIS, **DAYS)  # fmt: skip
    assert [p.kind for p in found] == [ROOM_CLASH]


def test_a_new_session_is_checked_before_it_is_added() -> None:
    new = pm.Session("new", "New", starts_at=_at(7, 9, 30), ends_at=_at(7, 10, 30), room="Main", speakers=(pm.SessionSpeaker("ada"),))  # fmt: skip
    assert [p.keys for p in check_placement(_programme(), new, zone=PARIS, **DAYS)] == [("keynote",), ("keynote",)]  # fmt: skip
    assert check_placement(_programme(), _programme().session("later"), zone=PARIS, **DAYS) == []


def test_the_problems_are_said_in_the_page_s_language() -> None:
    from django.utils import translation

    with translation.override("fr"):
        found = check_move(_programme(), "keynote", room="Side", starts_at=_at(7, 11, 30), ends_at=_at(7, 12, 30), zone=PARIS, **DAYS)  # fmt: skip
        backwards = check_move(_programme(), "keynote", room="Side", starts_at=_at(7, 12), ends_at=_at(7, 11), zone=PARIS, **DAYS)  # fmt: skip
    assert [problem.message.split(" (")[0] for problem in found + backwards] == [
        "Side accueille « Talk » à ce moment",
        "Ada Lovelace intervient aussi dans « Panel »",
        "elle finirait",
    ]
