"""The site around the events: the footer's project link, the icon, the about and home pages."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from html import unescape
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from confsched.programme.models import Event
from confsched.programme.services import create_event
from confsched.web.site.templatetags.site_chrome import split_events
from confsched.web.site.views import FAVICON_MAX_AGE
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

ICON_LINK = '<link rel="icon" href="/static/confsched/icon.svg" type="image/svg+xml">'


def _get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content[:300]
    return response.content.decode()


def _footer_links(html: str) -> list[str]:
    footer = re.search(r'<footer class="site-footer">(.*?)</footer>', html, flags=re.S).group(1)
    return re.findall(r'href="([^"]+)"', footer)


def _second_event() -> Event:
    return create_event(slug="pycon-2027", name="PyCon 2027", timezone="America/New_York")


@pytest.mark.parametrize(
    "url",
    [f"/{DEMO_SLUG}/", f"/{DEMO_SLUG}/changes/", "/", "/about/", "/accounts/login/"],
)
def test_the_footer_leads_to_the_about_page_by_default(client: Client, demo_event, url) -> None:
    _second_event()  # so that / lists the events instead of leading to the only one
    html = _get(client, url)
    assert _footer_links(html) == ["/about/"]
    assert ICON_LINK in html


@override_settings(CONFSCHED_PROJECT_URL="https://confsched.example.org/project")
@pytest.mark.parametrize("url", [f"/{DEMO_SLUG}/", "/", "/accounts/signup/"])
def test_the_footer_leads_to_the_configured_project_address(
    client: Client, demo_event, url
) -> None:
    _second_event()
    assert _footer_links(_get(client, url)) == ["https://confsched.example.org/project"]


def _check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "CONFSCHED_TESTING"}}
    return subprocess.run(
        [sys.executable, "-m", "confsched.cli", "check"],
        env={**base, "SECRET_KEY": "x" * 50, "CONFSCHED_DATA_DIR": str(tmp_path), **env},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    "value", ["github.com/confsched", "javascript:alert(1)", "https://", "ftp://example.org/"]
)
def test_a_project_address_that_is_no_web_address_stops_start_up(tmp_path: Path, value) -> None:
    result = _check(tmp_path, CONFSCHED_PROJECT_URL=value)
    assert (result.returncode, result.stderr) == (
        2,
        f"confsched: CONFSCHED_PROJECT_URL must be an http:// or https:// address: {value!r}\n",
    )


def test_a_web_project_address_starts(tmp_path: Path) -> None:
    result = _check(tmp_path, CONFSCHED_PROJECT_URL="https://example.org/confsched")
    assert (result.returncode, result.stdout.strip()) == (
        0,
        "System check identified no issues (0 silenced).",
    )


def test_the_about_page_says_what_confsched_is(client: Client) -> None:
    html = _get(client, "/about/")
    assert re.findall(r"<h1>(.*?)</h1>", html) == ["About confsched"]
    assert (
        "<p>confsched is open-source software for conference schedules that organizers host "
        "themselves.</p>"
    ) in html
    assert '<a href="/api/v1/docs">JSON API</a>' in html
    assert client.head("/about/").status_code == 200
    assert client.post("/about/").status_code == 405


def _ico_sizes(data: bytes) -> list[int]:
    """The square sizes an .ico holds, from its directory (ICONDIR, then ICONDIRENTRYs)."""
    reserved, kind, count = struct.unpack_from("<HHH", data, 0)
    assert (reserved, kind) == (0, 1)
    return [data[6 + 16 * i] for i in range(count)]


def test_favicon_is_an_icon_cached_for_a_year(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert (response.status_code, response["Content-Type"], response["Cache-Control"]) == (
        200,
        "image/vnd.microsoft.icon",
        f"public, max-age={FAVICON_MAX_AGE}",
    )
    assert FAVICON_MAX_AGE == 365 * 24 * 3600
    assert sorted(_ico_sizes(response.content)) == [16, 32, 48]
    assert client.head("/favicon.ico").status_code == 200
    assert client.post("/favicon.ico").status_code == 405


def test_the_svg_icon_is_served(client: Client) -> None:
    response = client.get("/static/confsched/icon.svg")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert (response.status_code, response["Content-Type"]) == (200, "image/svg+xml")
    assert body.startswith(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">')


def _cards(html: str, group: str) -> list[tuple[str, str, str, str]]:
    """(href, name, when, where) of each card in the group whose heading has id `group`."""
    match = re.search(
        rf'<h2 id="{group}-heading">.*?<ul class="event-cards">(.*?)</ul>', html, flags=re.S
    )
    if match is None:
        return []
    cards = re.findall(
        r'<h3 class="event-card-title"><a href="([^"]+)">([^<]+)</a></h3>\s*'
        r'<p class="event-card-when">(.*?)</p>\s*(?:<p class="event-card-where">([^<]*)</p>)?',
        match.group(1),
        flags=re.S,
    )
    return [
        (href, unescape(name), " ".join(unescape(re.sub(r"<[^>]+>", "", when)).split()), where)
        for href, name, when, where in cards
    ]


def test_home_shows_upcoming_events_first_then_past_ones(client: Client) -> None:
    today = timezone.now().date()
    for slug, name, start, days, location in [
        ("old", "Old Conf", today - timedelta(days=400), 2, "Dublin"),
        ("recent", "Recent Conf", today - timedelta(days=30), 1, ""),
        ("soon", "Soon Conf", today + timedelta(days=20), 3, "Paris, France"),
        ("later", "Later Conf", today + timedelta(days=200), 0, "Berlin"),
        ("tba", "Undated Conf", None, 0, ""),
    ]:
        create_event(
            slug=slug, name=name, timezone="UTC", start_date=start, location=location,
            end_date=start + timedelta(days=days) if start else None,
        )  # fmt: skip

    def when(start: date, days: int) -> str:
        first = start.strftime("%-d %b %Y")
        return (
            f"{first} – {(start + timedelta(days=days)).strftime('%-d %b %Y')}" if days else first
        )

    html = _get(client, "/")
    assert _cards(html, "upcoming") == [
        ("/soon/", "Soon Conf", when(today + timedelta(days=20), 3), "Paris, France"),
        ("/later/", "Later Conf", when(today + timedelta(days=200), 0), "Berlin"),
        ("/tba/", "Undated Conf", "Dates to be announced", ""),
    ]
    assert _cards(html, "past") == [
        ("/recent/", "Recent Conf", when(today - timedelta(days=30), 1), ""),
        ("/old/", "Old Conf", when(today - timedelta(days=400), 2), "Dublin"),
    ]
    assert re.findall(r"<h2 [^>]*>(.*?)</h2>", html) == ["Upcoming", "Past events"]


def test_home_without_past_events_has_no_past_heading(client: Client) -> None:
    for slug in ("one", "two"):
        create_event(slug=slug, name=slug.title(), timezone="UTC")
    html = _get(client, "/")
    assert re.findall(r"<h2 [^>]*>(.*?)</h2>", html) == ["Upcoming"]
    assert [card[1] for card in _cards(html, "upcoming")] == ["One", "Two"]


def test_home_without_events_says_how_to_add_one(client: Client) -> None:
    html = _get(client, "/")
    assert '<div class="empty-state">\n  <p><strong>No events yet.</strong></p>' in html
    assert (
        "<pre><code>confsched import --event SLUG --timezone Europe/Paris schedule.xml</code></pre>"
    ) in html
    assert "<h2" not in html


def test_home_costs_one_query_for_any_number_of_events(
    client: Client, django_assert_num_queries
) -> None:
    for number in range(6):
        create_event(slug=f"event-{number}", name=f"Event {number}", timezone="UTC")
    with django_assert_num_queries(1):
        client.get("/")


def _event(slug: str, zone: str, start: date | None, end: date | None = None) -> Event:
    return Event(slug=slug, name=slug, timezone=zone, start_date=start, end_date=end)


def test_an_event_is_past_once_its_last_day_is_over_in_its_own_zone() -> None:
    # 13:00 UTC on 8 April: already the 9th in Auckland, still the 8th in Los Angeles.
    now = datetime(2026, 4, 8, 13, 0, tzinfo=UTC)
    events = [
        _event("auckland", "Pacific/Auckland", date(2026, 4, 7), date(2026, 4, 8)),
        _event("los-angeles", "America/Los_Angeles", date(2026, 4, 7), date(2026, 4, 8)),
        _event("one-day", "UTC", date(2026, 4, 8)),
        _event("yesterday", "UTC", date(2026, 4, 7)),
        _event("undated", "UTC", None),
        _event("next-year", "UTC", date(2027, 1, 1), date(2027, 1, 2)),
        _event("long-ago", "UTC", date(2020, 1, 1), date(2020, 1, 3)),
    ]
    found = split_events(events, now=now)
    assert [e.slug for e in found.upcoming] == ["los-angeles", "one-day", "next-year", "undated"]
    assert [e.slug for e in found.past] == ["auckland", "yesterday", "long-ago"]


@pytest.mark.parametrize(
    "url",
    [
        "/", "/about/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
        f"/accounts/login/?next=/{DEMO_SLUG}/", f"/{DEMO_SLUG}/changes/",
    ],
)  # fmt: skip
def test_site_and_account_pages_have_no_inline_script_or_style(
    client: Client, demo_event, url
) -> None:
    _second_event()
    html = _get(client, url)
    assert re.findall(r"<script(?![^>]*\ssrc=)[^>]*>", html) == []
    assert re.findall(r"<style|\sstyle=", html) == []


@pytest.mark.parametrize(
    ("path", "has_zone_bar"),
    [("", True), ("grid/", True), ("speakers/", False), ("agenda/", True), ("changes/", True),
     ("agenda/favourites/", False), ("agenda/import?f=not-a-favourites-address", False),
     ("/accounts/login/?next=/{slug}/", False), ("/accounts/signup/?next=/{slug}/", False)],
)  # fmt: skip
def test_the_zone_bar_shows_only_where_times_are_shown(
    client: Client, demo_event, path: str, has_zone_bar: bool
) -> None:
    url = path.format(slug=DEMO_SLUG) if path.startswith("/") else f"/{DEMO_SLUG}/{path}"
    html = client.get(url).content.decode()
    assert DEMO_SLUG in html  # the event's frame
    assert ('<details class="zone-bar"' in html, 'id="tz"' in html) == (has_zone_bar, has_zone_bar)


def _nav(html: str) -> list[tuple[str, str, bool]]:
    nav = re.search(r'<nav class="site-nav"[^>]*>(.*?)</nav>', html, re.S).group(1)
    return [
        (href, text, current == ' aria-current="page"')
        for href, current, text in re.findall(
            r'<a href="([^"]+)"((?: aria-current="page")?)>([^<]+)</a>', nav
        )
    ]


@pytest.mark.parametrize(
    ("path", "current"),
    [("", "Schedule"), ("search/", "Search"), ("plan/", "Plan"), ("now/", "Now")],
)
def test_every_event_page_is_in_the_navigation(
    client: Client, demo_event, path: str, current: str
) -> None:
    base = f"/{DEMO_SLUG}/"
    assert _nav(_get(client, base + path)) == [
        (base + href, text, text == current)
        for href, text in [
            ("", "Schedule"), ("grid/", "Grid"), ("now/", "Now"), ("search/", "Search"),
            ("speakers/", "Speakers"), ("agenda/", "My agenda"), ("plan/", "Plan"),
            ("changes/", "Changes"), ("elsewhere/", "Calendar & apps"),
        ]
    ]  # fmt: skip


def test_team_members_see_their_pages_in_the_header_and_others_do_not(
    client: Client, demo_event
) -> None:
    from django.contrib.auth.models import User

    from tests.teams import on_team

    base = f"/{DEMO_SLUG}/"
    link = f'<li><a href="{base}insight/">Insight</a></li>'
    attendee = User.objects.create_user("ada", "ada@example.org", "a fine password 7")
    # is_staff alone opens no event any more: a role on it does (docs/teams.md).
    staff = User.objects.create_user("org", "org@example.org", "a fine password 7", is_staff=True)
    viewer = on_team(
        User.objects.create_user("vi", "vi@example.org", "a fine password 7"), "viewer"
    )
    seen = []
    for user in (None, attendee, staff, viewer):
        if user is not None:
            client.force_login(user)
        seen.append([link in _get(client, base + path) for path in ("", "grid/", "speakers/")])
    assert seen == [[False] * 3, [False] * 3, [False] * 3, [True] * 3]


def _menu(html: str) -> list[str]:
    found = re.search(r'<details class="staff-menu">.*?</details>', html, re.S)
    return [unescape(x) for x in re.findall(r">([^<>]+)</a>", found.group(0))] if found else []


def test_the_organizer_menu_lists_what_each_role_opens(client: Client, demo_event) -> None:
    from django.contrib.auth.models import User

    from tests.teams import on_team

    menus = {}
    for role in ("owner", "editor", "viewer", "checkin"):
        user = on_team(User.objects.create_user(role, f"{role}@example.org", "pw"), role)
        client.force_login(user)
        menus[role] = _menu(_get(client, f"/{DEMO_SLUG}/"))
    client.force_login(User.objects.create_superuser("root", "root@example.org", "pw"))
    menus["site admin"] = _menu(_get(client, f"/{DEMO_SLUG}/grid/"))
    everything = [
        "Insight", "Seats", "Feedback", "Check-in", "Draft and release", "Schedule editor",
        "Announcements", "Speakers' links", "Speakers' changes", "Team", "Admin",
    ]  # fmt: skip
    assert menus == {
        "owner": everything,
        "editor": [
            "Insight",
            "Seats",
            "Feedback",
            "Check-in",
            "Draft and release",
            "Schedule editor",
            "Announcements",
            "Speakers' links",
            "Speakers' changes",
            "Admin",
        ],  # fmt: skip
        "viewer": ["Insight", "Seats", "Feedback", "Admin"],
        "checkin": ["Check-in"],
        "site admin": everything,
    }
