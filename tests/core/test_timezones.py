"""The one gate for zone names from outside: only places the tz database lists get through."""

from __future__ import annotations

import pytest

from confsched.core.errors import InvalidEventError
from confsched.core.timezones import get_zone, is_zone_name, zone_problem

HOSTILE = [
    "Europe",  # a folder of the tz database: ZoneInfo raised IsADirectoryError
    "Etc",
    "A" * 300,  # OSError: file name too long
    "a/" * 300 + "b",  # RecursionError inside zoneinfo
    "../../etc/passwd",
    "/usr/share/zoneinfo/Europe/Paris",
    "Europe/Paris\x00",
    "localtime",  # the server's own zone, not a place
    "Factory",
    "posix/Europe/Paris",
    "europe/paris",
    "",
]


@pytest.mark.parametrize("name", ["Europe/Paris", "UTC", "America/Argentina/Buenos_Aires"])
def test_iana_names_pass(name: str) -> None:
    assert is_zone_name(name) is True
    assert get_zone(name).key == name


@pytest.mark.parametrize("name", HOSTILE)
def test_anything_else_is_refused_without_touching_the_file_system(name: str) -> None:
    assert is_zone_name(name) is False
    with pytest.raises(InvalidEventError) as refused:
        get_zone(name)
    assert str(refused.value) == zone_problem(name)


def test_the_message_shows_at_most_64_characters_of_the_name() -> None:
    assert zone_problem("A" * 300) == (
        f"unknown time zone '{'A' * 64}…': give an IANA name such as Europe/Paris"
    )
    assert zone_problem("Europe") == (
        "unknown time zone 'Europe': give an IANA name such as Europe/Paris"
    )
