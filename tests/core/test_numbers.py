"""A count from text: ASCII digits within the column's range, or None."""

from __future__ import annotations

import pytest

from confsched.core.numbers import BIG_INTEGER_MAX, INTEGER_MAX, parse_count


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("5", 5),
        (" 12 ", 12),  # what a form sends around a typed number
        ("007", 7),
        ("0" * 5000 + "3", 3),  # zeros in front: still the number, and no int() of 5,000 digits
        ("2147483647", INTEGER_MAX),
    ],
)
def test_counts_are_read(text: str, expected: int) -> None:
    assert parse_count(text, most=INTEGER_MAX) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "-1",
        "+1",
        "1.5",
        "1e3",
        "²",  # isdigit() says yes, int() says no
        "①",
        "٣",  # isdigit() and int() both say 3: not what anyone typed into a seats field
        "1 2",
        "2147483648",  # one past the column
        "9" * 5000,  # int() refuses over 4,300 digits
        "12\x00",
    ],
)
def test_anything_else_is_none(text: str) -> None:
    assert parse_count(text, most=INTEGER_MAX) is None


def test_the_bound_is_the_callers() -> None:
    assert parse_count("5", most=5) == 5
    assert parse_count("6", most=5) is None
    assert parse_count(str(BIG_INTEGER_MAX), most=BIG_INTEGER_MAX) == 2**63 - 1
    assert parse_count(str(BIG_INTEGER_MAX + 1), most=BIG_INTEGER_MAX) is None
