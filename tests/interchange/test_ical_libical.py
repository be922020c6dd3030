"""Issue 29 item 13 (and item 9's LOCATION): the calendars as libical reads and checks them.

libical's iTIP check (icalrestriction_check, the rules of RFC 5546) flagged every calendar:
"Failed iTIP restrictions for ORGANIZER property. Expected 1 instances of the property and got
0", METHOD:PUBLISH requiring an ORGANIZER in each event. confsched has no organizer address to
give, and a calendar one subscribes to is no iTIP message: METHOD is left out, which the check
accepts. libical (Evolution, GNOME Calendar, KOrganizer's importers) is called through ctypes;
the test is skipped where it is not installed (apt-get install libical3).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
from pathlib import Path

import pytest

from confsched.interchange.formats import parse_files
from confsched.interchange.ical.write import render_ical
from tests.conftest import demo_files, unavailable
from tests.interchange.test_giggity import ZONES, programme


@pytest.fixture(scope="module")
def libical() -> ctypes.CDLL:
    name = ctypes.util.find_library("ical") or "libical.so.3"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        unavailable(
            "libical is not installed (apt-get install libical3)", "CONFSCHED_REQUIRE_LIBICAL"
        )
    lib.icalparser_parse_string.restype = ctypes.c_void_p
    lib.icalparser_parse_string.argtypes = [ctypes.c_char_p]
    lib.icalrestriction_check.restype = ctypes.c_int
    lib.icalrestriction_check.argtypes = [ctypes.c_void_p]
    lib.icalcomponent_as_ical_string.restype = ctypes.c_char_p
    lib.icalcomponent_as_ical_string.argtypes = [ctypes.c_void_p]
    lib.icalcomponent_count_components.restype = ctypes.c_int
    lib.icalcomponent_count_components.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.icalcomponent_free.argtypes = [ctypes.c_void_p]
    return lib


ICAL_VEVENT_COMPONENT = 4  # icalcomponent_kind


def checked(lib: ctypes.CDLL, data: bytes) -> tuple[int, bool, list[str]]:
    """libical's reading of `data`: its events, whether the iTIP check passes, and the errors
    it writes into the calendar (X-LIC-ERROR), parse errors among them."""
    component = lib.icalparser_parse_string(data)
    assert component, "libical cannot parse the calendar"
    try:
        events = lib.icalcomponent_count_components(component, ICAL_VEVENT_COMPONENT)
        passes = bool(lib.icalrestriction_check(component))
        text = lib.icalcomponent_as_ical_string(component).decode()
    finally:
        lib.icalcomponent_free(component)
    errors = [
        line for line in text.replace("\r\n ", "").split("\r\n") if line.startswith("X-LIC-ERROR")
    ]
    return events, passes, errors


def test_libical_reads_every_event_with_no_error_and_the_itip_check_passes(
    libical: ctypes.CDLL,
) -> None:
    # A session without a room or venue (LOCATION the calendar's name) and a cancelled one.
    data = render_ical(programme(), uid_domain="confsched.example", calendar_name="Small Conf")
    assert b"METHOD" not in data
    assert checked(libical, data) == (3, True, [])


def test_libical_flags_publish_without_an_organizer(libical: ctypes.CDLL) -> None:
    """What the check said of every calendar before, so that the test above can fail."""
    data = render_ical(programme(), uid_domain="confsched.example", calendar_name="Small Conf")
    published = data.replace(b"CALSCALE:GREGORIAN\r\n", b"CALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\n")
    events, passes, errors = checked(libical, published)
    assert (events, passes) == (3, False)
    assert errors == [
        "X-LIC-ERROR;X-LIC-ERRORTYPE=INVALID-ITIP:Failed iTIP restrictions for ORGANIZER "
        "property. Expected 1 instances of the property and got 0"
    ]


@pytest.mark.shared
def test_libical_on_the_demo_and_every_shared_sample(
    libical: ctypes.CDLL, shared_dir: Path
) -> None:
    programmes = [
        parse_files([(path.name, path.read_bytes())], default_timezone=ZONES.get(path.name, ""))
        for path in sorted((shared_dir / "formats" / "samples").glob("*/*"))
    ]
    programmes.append(dataclasses.replace(parse_files(demo_files()), timezone="Europe/Paris"))
    results = [
        checked(libical, render_ical(made, uid_domain="confsched.example", calendar_name="c"))
        for made in programmes
    ]
    assert sum(events for events, _, _ in results) == 2249
    assert [(passes, errors) for _, passes, errors in results] == [(True, [])] * len(programmes)
