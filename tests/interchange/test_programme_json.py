"""programme_to_json / programme_from_json: lossless, deterministic, refusing other layouts."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confsched.interchange import programme as pm
from confsched.interchange.programme_json import programme_from_json, programme_to_json

PARIS = ZoneInfo("Europe/Paris")


def _same(a: pm.Programme, b: pm.Programme) -> None:
    """Equal, with what comparisons ignore (sequence, last_modified, unknown) and zones too."""
    assert a == b
    assert [(s.sequence, s.last_modified, s.unknown) for s in a.sessions] == [
        (s.sequence, s.last_modified, s.unknown) for s in b.sessions
    ]
    assert [(s.starts_at and s.starts_at.tzinfo) for s in a.sessions] == [
        (s.starts_at and s.starts_at.tzinfo) for s in b.sessions
    ]
    assert (a.carries, a.warnings, a.notes) == (b.carries, b.warnings, b.notes)


def test_the_demo_round_trips(demo_programme: pm.Programme) -> None:
    text = programme_to_json(demo_programme)
    back = programme_from_json(text)
    _same(back, demo_programme)
    assert programme_to_json(back) == text


def test_a_time_keeps_its_zone_and_its_fold() -> None:
    # 02:30 on 27 Oct 2024 happens twice in Paris; the second (fold=1) is at +01:00.
    second = datetime(2024, 10, 27, 2, 30, fold=1, tzinfo=PARIS)
    session = pm.Session(key="k", title="T", starts_at=second, ends_at=second + timedelta(hours=1))
    back = programme_from_json(programme_to_json(pm.Programme(sessions=[session])))
    start = back.sessions[0].starts_at
    assert (start.tzinfo, start.utcoffset(), start.fold) == (PARIS, timedelta(hours=1), 1)


def test_a_fixed_offset_stays_a_fixed_offset() -> None:
    moment = datetime(2026, 4, 7, 9, 0, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    session = pm.Session(key="k", title="T", starts_at=moment, last_modified=moment)
    text = programme_to_json(pm.Programme(sessions=[session]))
    assert '"starts_at":"2026-04-07T09:00:00+05:30"' in text
    assert programme_from_json(text).sessions[0].starts_at.utcoffset() == timedelta(hours=5.5)


@pytest.mark.parametrize("text", ['{"layout": 2}', "[]", '{"name": "x"}'])
def test_another_layout_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a programme in layout 1"):
        programme_from_json(text)


_text = st.text(max_size=12)
_moment = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2040, 1, 1),  # noqa: DTZ001 - hypothesis wants naive bounds
    timezones=st.sampled_from([UTC, PARIS, ZoneInfo("America/New_York"), timezone(timedelta(hours=-3))]),
    # A wall time that a clock change skips (02:30 in Paris on the last Sunday of March) is
    # no moment at all: it reads back as the moment it stands for, written the other way.
    allow_imaginary=False,
)  # fmt: skip


@st.composite
def _sessions(draw: st.DrawFn) -> pm.Session:
    starts_at = draw(st.none() | _moment)
    ends_at = (
        None
        if starts_at is None
        else draw(st.none() | st.just(starts_at + timedelta(minutes=draw(st.integers(0, 600)))))
    )
    return pm.Session(
        key=draw(_text), title=draw(_text), kind=draw(_text), abstract=draw(_text),
        starts_at=starts_at, ends_at=ends_at, room=draw(_text), track=draw(_text),
        level=draw(_text), has_slides=draw(st.booleans()), language=draw(_text),
        speakers=tuple(pm.SessionSpeaker(k, a) for k, a in draw(st.lists(st.tuples(_text, _text), max_size=3))),
        links=tuple(pm.SessionLink(u, t, k) for u, t, k in draw(st.lists(st.tuples(_text, _text, st.sampled_from(pm.LINK_KINDS)), max_size=2))),
        is_cancelled=draw(st.booleans()), needs_review=draw(st.booleans()), review_note=draw(_text),
        seats=draw(st.none() | st.integers(0, 10_000)),
        unknown=frozenset(draw(st.lists(st.sampled_from(sorted(pm.EVERY_FIELD)), max_size=3))),
        sequence=draw(st.integers(0, 1000)), last_modified=draw(st.none() | _moment),
    )  # fmt: skip


@st.composite
def _programmes(draw: st.DrawFn) -> pm.Programme:
    return pm.Programme(
        name=draw(_text), timezone=draw(_text), start_date=draw(st.none() | st.dates(date(2000, 1, 1))),
        end_date=draw(st.none() | st.dates(date(2000, 1, 1))), location=draw(_text),
        rooms=draw(st.lists(_text, max_size=3)),
        room_capacities=draw(st.dictionaries(_text, st.integers(0, 5000), max_size=3)),
        sessions=draw(st.lists(_sessions(), max_size=4)),
        speakers=[pm.Speaker(*fields) for fields in draw(st.lists(st.tuples(_text, _text, _text, _text, _text, _text), max_size=3))],
        carries=draw(st.none() | st.frozensets(st.sampled_from(sorted(pm.EVERY_FIELD | {"seats"})))),
        warnings=draw(st.lists(_text, max_size=2)), notes=draw(st.lists(_text, max_size=2)),
    )  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(_programmes())
def test_any_programme_round_trips(programme: pm.Programme) -> None:
    text = programme_to_json(programme)
    _same(programme_from_json(text), programme)
    assert programme_to_json(programme_from_json(text)) == text
