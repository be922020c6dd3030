"""Whole numbers typed by people: in forms, query strings and headers.

`str.isdigit()` is no test of a number: it accepts "²" and "①", which `int()` refuses, and
"٣", which `int()` reads as 3. `int()` itself refuses text of over 4,300 digits, and a number
it does read may not fit the column it is meant for: PostgreSQL refuses it, SQLite's driver
overflows. So a count is ASCII digits, no longer than the largest value allowed, compared
before `int()` is asked.
"""

from __future__ import annotations

# The largest value of each kind of integer column, on SQLite and PostgreSQL alike.
SMALL_INTEGER_MAX = 2**15 - 1  # SmallIntegerField, PositiveSmallIntegerField
INTEGER_MAX = 2**31 - 1  # IntegerField, PositiveIntegerField
BIG_INTEGER_MAX = 2**63 - 1  # BigIntegerField, and every id (DEFAULT_AUTO_FIELD is BigAutoField)


def parse_count(text: str, *, most: int) -> int | None:
    """The whole number `text` writes in ASCII digits (blanks around it allowed), from 0 to
    `most`; None for anything else: "", "-1", "1.5", "²", "٣", a number past `most`."""
    digits = text.strip()
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(most)):
        return None
    number = int(significant)
    return number if number <= most else None
