"""The CSV `seats` column: a number requires a reservation with that many seats, `open` is open
entry, empty says nothing (a stored session keeps its seats), anything else is refused naming
the line; the writer writes it back."""

from __future__ import annotations

import pytest

from confsched.core.errors import ParseError
from confsched.interchange.csv.read import parse
from confsched.interchange.csv.write import render

ROWS = (
    "key,title,starts_at,timezone,seats\n"
    "ws,Workshop,2027-03-01 09:00,Europe/Paris,30\n"
    "talk,Talk,2027-03-01 10:00,Europe/Paris,\n"
    "hall,Keynote,2027-03-01 11:00,Europe/Paris,Open\n"
)


def test_a_number_is_seats_open_is_open_entry_and_empty_says_nothing() -> None:
    programme = parse(ROWS.encode(), source="s.csv")
    assert [(s.key, s.seats, s.unknown) for s in programme.sessions] == [
        ("ws", 30, frozenset()), ("talk", None, frozenset({"seats"})), ("hall", None, frozenset()),
    ]  # fmt: skip
    assert programme.carries is not None and "seats" in programme.carries


def test_without_the_column_seats_are_not_carried() -> None:
    programme = parse(b"title,starts_at,timezone\nT,2027-03-01 09:00,UTC\n", source="s.csv")
    assert (programme.sessions[0].seats, "seats" in (programme.carries or set())) == (None, False)


@pytest.mark.parametrize("cell", ["-3", "2.5", "thirty", "٣"])
def test_anything_else_is_refused_naming_the_line(cell: str) -> None:
    text = f"title,starts_at,timezone,seats\nT,2027-03-01 09:00,UTC,{cell}\n"
    with pytest.raises(ParseError) as caught:
        parse(text.encode(), source="s.csv")
    assert str(caught.value) == (
        f"s.csv, line 2: seats {cell!r} is not a whole number nor 'open' (empty: left as it is)"
    )


def test_the_writer_writes_seats_back() -> None:
    programme = parse(ROWS.encode(), source="s.csv")
    again = parse(render(programme, slug="e"), source="again.csv")
    assert [(s.key, s.seats) for s in again.sessions] == [
        ("ws", 30),
        ("talk", None),
        ("hall", None),
    ]
