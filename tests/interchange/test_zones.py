"""guess_zone: the IANA zone a file implies through its UTC offsets and its location."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from confsched.interchange.programme import Programme, Session
from confsched.interchange.zones import ZoneGuess, guess_zone, programme_zone


def _at(*moments: datetime, location: str = "") -> Programme:
    return Programme(
        location=location,
        sessions=[
            Session(key=f"s{i}", title="t", starts_at=moment, ends_at=moment + timedelta(hours=1))
            for i, moment in enumerate(moments)
        ],
    )


PLUS2 = timezone(timedelta(hours=2))
PLUS1 = timezone(timedelta(hours=1))
PLUS530 = timezone(timedelta(hours=5, minutes=30))


def test_offsets_and_a_city_in_the_location_give_the_citys_zone() -> None:
    programme = _at(datetime(2026, 10, 24, 10, tzinfo=PLUS2), location="CNIT La Défense, Paris")
    assert guess_zone(programme) == ZoneGuess(
        "Europe/Paris",
        "the location “CNIT La Défense, Paris” and the times written at UTC+02:00 point to "
        "Europe/Paris",
    )


def test_a_change_to_winter_time_inside_the_event_is_matched_with_the_city() -> None:
    # 24 October at +02:00 and 26 October at +01:00: Europe's change on 25 October 2026.
    programme = _at(
        datetime(2026, 10, 24, 10, tzinfo=PLUS2), datetime(2026, 10, 26, 10, tzinfo=PLUS1),
        location="Berlin",
    )  # fmt: skip
    assert guess_zone(programme).name == "Europe/Berlin"


def test_a_city_whose_zone_does_not_fit_the_offsets_is_not_taken() -> None:
    programme = _at(datetime(2026, 7, 1, 10, tzinfo=PLUS530), location="Paris")
    assert guess_zone(programme) == ZoneGuess(
        "",
        "2 zones have the offsets UTC+05:30 at the times written (Asia/Colombo, Asia/Kolkata)",
    )


def test_an_offset_only_one_zone_has_gives_that_zone() -> None:
    # Nepal alone is at +05:45.
    programme = _at(datetime(2026, 7, 1, 10, tzinfo=timezone(timedelta(hours=5, minutes=45))))
    assert guess_zone(programme) == ZoneGuess(
        "Asia/Kathmandu", "only Asia/Kathmandu has the offsets UTC+05:45 then"
    )


def test_one_whole_hour_offset_without_a_city_is_the_fixed_offset_zone() -> None:
    guess = guess_zone(_at(datetime(2026, 1, 20, 9, tzinfo=PLUS1)))
    assert guess.name == "Etc/GMT-1"
    assert guess.reason.startswith(
        "every time is written at UTC+01:00 and no city is named, so the zone is the fixed "
        "offset Etc/GMT-1; give --timezone (such as "
    )
    assert datetime(2026, 1, 20, tzinfo=UTC).astimezone(programme_zone(guess.name)).utcoffset() == (
        timedelta(hours=1)
    )


def test_several_offsets_that_several_zones_share_are_not_guessed() -> None:
    guess = guess_zone(
        _at(datetime(2026, 10, 24, 10, tzinfo=PLUS2), datetime(2026, 10, 26, 10, tzinfo=PLUS1))
    )
    assert guess.name == ""
    assert "zones have the offsets UTC+01:00, UTC+02:00 at the times written (" in guess.reason
    assert "Europe/Paris" in guess.reason or guess.reason.endswith(", …)")


def test_offsets_no_zone_has_are_said() -> None:
    odd = timezone(timedelta(hours=3, minutes=17))
    assert guess_zone(_at(datetime(2026, 5, 1, tzinfo=odd))) == ZoneGuess(
        "", "no time zone has the offsets UTC+03:17 at the times written"
    )


@pytest.mark.parametrize("location", ["", "Online"])
def test_times_in_utc_say_nothing_about_the_place(location: str) -> None:
    assert guess_zone(_at(datetime(2026, 5, 1, 9, tzinfo=UTC), location=location)) == ZoneGuess(
        "", "the file names no time zone and writes no local UTC offsets"
    )


def test_a_city_alone_gives_its_zone_for_times_in_utc() -> None:
    guess = guess_zone(_at(datetime(2026, 5, 1, 9, tzinfo=UTC), location="Lisbon, Portugal"))
    assert guess == ZoneGuess(
        "Europe/Lisbon", "the location “Lisbon, Portugal” points to Europe/Lisbon"
    )
