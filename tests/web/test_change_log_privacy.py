"""The public change log names what made a version without the organizer's file paths, URL
queries or tokens, and reads on a phone."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from confsched.programme.changes import source_label
from confsched.programme.models import ScheduleVersion
from confsched.programme.services import load_programme
from tests.browser.conftest import PHONE, browser, demo_live, new_context  # noqa: F401 - fixtures
from tests.conftest import DEMO_SLUG, demo_files
from tests.teams import on_team
from tests.web.history import change_log, leaks, surfaces, team_client

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PRIVATE = (
    "import: /srv/imports/2026/private-folder/schedule.xml, "
    "https://organizer:hunter2@pretalx.example.org/api/events/pt26/schedule/export.json"
    "?token=s3cr3t-t0ken&key=abc"
)


@pytest.mark.parametrize(
    ("source", "team", "anyone"),
    [
        ("import: /srv/imports/2026/schedule.xml", "imported from schedule.xml", "imported"),
        ("/srv/imports/2026/schedule.xml", "imported from schedule.xml", "imported"),
        ("import: schedule.xml", "imported from schedule.xml", "imported"),
        (
            "import: C:\\Users\\orga\\Desktop\\programme.csv",
            "imported from programme.csv",
            "imported",
        ),
        ("import: a.xml, b.json", "imported from a.xml, b.json", "imported"),
        ("import: /one/a.xml, /two/a.xml", "imported from a.xml", "imported"),
        (
            "import: 1.txt, 2.txt, 3.txt, 4.txt, 5.txt",
            "imported from 1.txt, 2.txt and 3 more files",
            "imported",
        ),
        ("import: 1.txt, 2.txt, 3.txt", "imported from 1.txt, 2.txt, 3.txt", "imported"),
        (
            "import: 000_1139db4cf8be8007.txt, 004_8d12cb28771c542b.txt",
            "imported from 000_1139db4cf8be8007.txt, 004_8d12cb28771c542b.txt",
            "imported",
        ),
        (
            "import: https://sched.example.org/2026/schedule.xml?token=abc123",
            "imported from schedule.xml from sched.example.org",
            "imported from sched.example.org",
        ),
        (
            "import: https://user:pass@sched.example.org:8443/feeds/export.json#frag",
            "imported from export.json from sched.example.org",
            "imported from sched.example.org",
        ),
        (
            "import: https://sessionize.com/api/v2/abc123xy/view/All",
            "imported from sessionize.com",
            "imported from sessionize.com",
        ),
        ("import: https://example.org/", "imported from example.org", "imported from example.org"),
        ("import: https://example.org", "imported from example.org", "imported from example.org"),
        (
            "import: https://example.org/feeds/9f86d081884c7d659a2feaa0c55ad015.xml",
            "imported from example.org",
            "imported from example.org",
        ),
        (
            "import: https://example.org/a%2Fb%2F..%2Fsecret.xml",
            "imported from example.org",
            "imported from example.org",
        ),
        (
            "import: /srv/a.csv, https://sessionize.com/api/v2/abc123xy/view/All",
            "imported from a.csv, sessionize.com",
            "imported from sessionize.com",
        ),
        ("import: https://[::1/schedule.xml", "imported", "imported"),
        ("import: file:///srv/imports/schedule.xml", "imported from schedule.xml", "imported"),
        ("import", "imported", "imported"),
        ("import: ", "imported", "imported"),
        ("edit by alice.organizer", "edited by the organizers", "edited by the organizers"),
        ("release by alice", "released by the organizers", "released by the organizers"),
        ("", "", ""),
        ("   ", "", ""),
    ],
)
def test_a_source_as_the_team_and_as_anyone_read_it(source: str, team: str, anyone: str) -> None:
    """File names are the organizers' own (Sched pages saved as 000_….txt): the team's only."""
    assert (source_label(source, for_team=True), source_label(source)) == (team, anyone)


def _version_meta(html: str) -> list[str]:
    return [
        " ".join(unescape(re.sub(r"<[^>]+>", "", meta)).split())
        for meta in re.findall(r'<p class="version-meta">(.*?)</p>', html, flags=re.S)
    ]


def _second_version(demo_event, demo_programme, *, source: str) -> None:  # noqa: ANN001
    edited = replace(demo_programme)
    edited.sessions = [
        replace(s, room="Master Stage") if s.key == TORCHJD else s for s in demo_programme.sessions
    ]
    load_programme(demo_event, edited, source=source)


LEAKS = ("/srv/", "private-folder", "organizer:", "hunter2", "token=", "s3cr3t", "pt26", "alice")


@pytest.mark.django_db
def test_the_change_log_shows_hosts_only_and_the_team_file_names(
    client: Client, demo_event, demo_programme
) -> None:
    _second_version(demo_event, demo_programme, source=PRIVATE)
    ScheduleVersion.objects.filter(event=demo_event, number=1).update(source="edit by alice")
    dates = [
        v.created_at.strftime("%a %-d %b %Y, %H:%M")
        for v in ScheduleVersion.objects.filter(event=demo_event).order_by("-number")
    ]
    html = client.get(f"/{DEMO_SLUG}/changes/?tz=UTC").content.decode()
    assert _version_meta(html) == [
        f"{dates[0]} · imported from pretalx.example.org",
        f"{dates[1]} · edited by the organizers",
    ]
    assert [word for word in (*LEAKS, "schedule.xml", "export.json") if word in html] == []
    team = Client()
    team.force_login(on_team(User.objects.create_user("viewer"), "viewer"))
    html = team.get(f"/{DEMO_SLUG}/changes/?tz=UTC").content.decode()
    assert _version_meta(html) == [
        f"{dates[0]} · imported from schedule.xml, export.json from pretalx.example.org",
        f"{dates[1]} · edited by the organizers",
    ]
    assert [word for word in LEAKS if word in html] == []


@pytest.mark.django_db
def test_the_feed_shows_no_source_at_all(client: Client, demo_event, demo_programme) -> None:
    _second_version(demo_event, demo_programme, source=PRIVATE)
    body = client.get(f"/{DEMO_SLUG}/changes.atom").content.decode()
    assert "<title>Version 2: 1 new room</title>" in body
    leaks = [
        "/srv/",
        "private-folder",
        "organizer:",
        "hunter2",
        "token=",
        "s3cr3t",
        "pt26",
        "pretalx",
    ]
    assert [word for word in leaks if word in body] == []


@pytest.mark.django_db
def test_the_untitled_session_page_and_the_saved_pages_names_are_the_team_s_only(
    client: Client, demo_event
) -> None:
    """The demo's fifth Sched page matches no session: it waits for review under the title
    "Untitled session page (004_8d12cb28771c542b.txt)", a file name of the organizers'."""
    names = ", ".join(name for name, _ in demo_files())
    ScheduleVersion.objects.filter(event=demo_event).update(source=f"import: {names}")
    untitled = "Untitled session page (004_8d12cb28771c542b.txt)"
    bodies = surfaces(client, DEMO_SLUG, 1)
    assert leaks(bodies, ("Untitled session page", "004_8d12cb28771c542b", "000_1139db")) == []
    assert _version_meta(bodies[f"/{DEMO_SLUG}/changes/"])[0].endswith(" · imported")
    team = team_client(DEMO_SLUG).get(f"/{DEMO_SLUG}/changes/").content.decode()
    assert _version_meta(team)[0].endswith(
        " · imported from 000_1139db4cf8be8007.txt, 001_6d989ba89a10ee92.txt and 3 more files"
    )
    assert [line for line in change_log(team)[1] if "Untitled" in line] == [
        f"Added {untitled}: added not public"
    ]


@pytest.mark.django_db
def test_a_long_version_folds_its_list_and_a_short_one_does_not(
    client: Client, demo_event, demo_programme
) -> None:
    _second_version(demo_event, demo_programme, source="import: v2.xml")
    html = client.get(f"/{DEMO_SLUG}/changes/").content.decode()
    # 28 of version 1's 29: the untitled session page waits for review (the team's 29th).
    assert re.findall(r"<details class=\"change-details\"><summary>(.*?)</summary>", html) == [
        "All 28 changes"
    ]
    v2 = html.split('id="v2"', 1)[1].split('id="v1"', 1)[0]
    assert (
        '<li class="change change-moved"><span class="change-kind">New room</span> '
        f'<a href="/{DEMO_SLUG}/sessions/{TORCHJD}/">'
        "Lightning Talk: TorchJD: Jacobian Descent in PyTorch</a>: "
        "moved from Founders Cafe to Master Stage</li>"
    ) in v2
    assert "<details" not in v2


@pytest.fixture
def phone(new_context):  # noqa: ANN001, ANN201, F811 - pytest fixture
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


@pytest.mark.browser
def test_the_change_log_fits_a_phone(phone, demo_live) -> None:  # noqa: ANN001, F811
    from confsched.interchange.sched.read import parse_sched_pages
    from confsched.programme.models import Event
    from tests.conftest import demo_files

    programme = parse_sched_pages(demo_files())
    long_title = "A" * 20 + "-Unbroken-Title-" + "B" * 60
    programme.sessions = [
        replace(s, room="Master Stage", title=long_title) if s.key == TORCHJD else s
        for s in programme.sessions
    ]
    load_programme(Event.objects.get(slug=DEMO_SLUG), programme, source=PRIVATE)
    phone.goto(demo_live + "changes/")
    expect(phone.locator("h1")).to_have_text("Schedule changes")
    phone.locator("details.change-details > summary").click()
    expect(phone.locator("#v1 .change-list li").first).to_be_visible()
    assert phone.evaluate("window.innerWidth") == PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    widest = phone.eval_on_selector_all(
        ".change-list li, .version-meta", "items => Math.max(...items.map(i => i.scrollWidth))"
    )
    assert widest <= PHONE["width"]
