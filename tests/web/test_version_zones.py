"""Version pages and the change log in the viewer's zone, as the schedule pages: Ada's talk is
at 11:00 CEST (09:00 UTC), which a version page once listed as 09:00 under "Times in
Europe/Paris"."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.web.history import (
    OPENING,
    OPENING_TITLE,
    SUMMIT,
    change_log,
    load_sessionize,
    sessionize_export,
    summit,
    team_client,
    version_lines,
)

pytestmark = pytest.mark.django_db


def programme(html: str) -> tuple[str, list[str], list[str]]:
    """A version page's zone line, its days and its sessions' lines (times as HTML keeps them)."""
    part = html[html.index('id="programme-heading"') :]
    zone = re.search(r"<p>(Times in [^.]*\.)", part)
    assert zone is not None
    days = re.findall(r"<h3>(.*?)</h3>", part)
    return zone[1], days, re.findall(r'<ul class="version-sessions">\s*(.*?)\s*</ul>', part, re.S)


def _line(start: str, end: str, date: str) -> str:
    return (
        f'<li><time datetime="{date}T{start}">{start[:5]}</time>–'
        f'<time datetime="{date}T{end}">{end[:5]}</time> {OPENING_TITLE} · Room A · Ada Lovelace</li>'
    )


@pytest.mark.parametrize(
    ("tz", "zone", "day", "line"),
    [
        ("", "Europe/Paris", "Tuesday 2 June 2026", _line("11:00:00+02:00", "11:45:00+02:00", "2026-06-02")),
        ("America/New_York", "America/New_York", "Tuesday 2 June 2026",
         _line("05:00:00-04:00", "05:45:00-04:00", "2026-06-02")),
        # Its day too: 09:00 UTC is 23:00 the day before in Honolulu.
        ("Pacific/Honolulu", "Pacific/Honolulu", "Monday 1 June 2026",
         _line("23:00:00-10:00", "23:45:00-10:00", "2026-06-01")),
    ],
)  # fmt: skip
def test_a_version_page_shows_its_programme_in_the_viewer_s_zone(
    tz: str, zone: str, day: str, line: str
) -> None:
    summit()
    html = Client().get(f"/{SUMMIT}/v/1/" + (f"?tz={tz}" if tz else "")).content.decode()
    assert programme(html) == (f"Times in {zone}.", [day], [line])


def test_a_saved_zone_is_used_and_each_zone_is_kept_apart() -> None:
    summit()
    visitor = Client()
    paris = programme(visitor.get(f"/{SUMMIT}/v/1/").content.decode())
    assert visitor.get(f"/{SUMMIT}/?tz=America/New_York").status_code == 200  # saves the zone
    new_york = programme(visitor.get(f"/{SUMMIT}/v/1/").content.decode())
    assert (paris[0], new_york[0]) == ("Times in Europe/Paris.", "Times in America/New_York.")
    assert ">11:00</time>" in paris[2][0] and ">05:00</time>" in new_york[2][0]
    assert programme(Client().get(f"/{SUMMIT}/v/1/").content.decode()) == paris


RETIMED = {
    "": "New time Compilers for everyone: moved in time from Tue 2 Jun 11:00–11:45 to "
    "Tue 2 Jun 12:00–12:45",
    "America/New_York": "New time Compilers for everyone: moved in time from Tue 2 Jun "
    "05:00–05:45 to Tue 2 Jun 06:00–06:45",
}


@pytest.mark.parametrize("tz", ["", "America/New_York"])
def test_a_change_line_says_its_times_in_the_viewer_s_zone(tz: str) -> None:
    event = summit()
    load_sessionize(event, sessionize_export(opening_at="12:00", waitlisted=None))
    query = f"?tz={tz}" if tz else ""
    version = version_lines(Client().get(f"/{SUMMIT}/v/2/{query}").content.decode())
    assert version == ("1 new time (imported from sessionize.com).", [RETIMED[tz]])
    assert change_log(Client().get(f"/{SUMMIT}/changes/{query}").content.decode())[2] == [
        RETIMED[tz]
    ]
    team = team_client(SUMMIT).get(f"/{SUMMIT}/v/2/{query}").content.decode()
    assert version_lines(team)[1] == [RETIMED[tz]]
    assert f'href="/{SUMMIT}/sessions/{OPENING}/"' in team


def test_a_version_page_refuses_a_zone_that_is_none() -> None:
    summit()
    response = Client().get(f"/{SUMMIT}/v/1/?tz=Mars/Olympus_Mons")
    html = response.content.decode()
    assert response.status_code == 400
    assert re.findall(r'<p class="notice" role="alert">(.*?)</p>', html) == [
        "Unknown time zone &#x27;Mars/Olympus_Mons&#x27;: give an IANA name such as Europe/Paris."
    ]
    assert re.findall(r'<a href="([^"]+)">Show this page in the event.s time zone', html) == [
        f"/{SUMMIT}/v/1/"
    ]
