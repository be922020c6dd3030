"""The public change log names what made a version without the organizer's file paths, URL
queries or tokens, and reads on a phone."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

import pytest
from django.test import Client
from playwright.sync_api import expect

from confsched.programme.changes import source_label
from confsched.programme.models import ScheduleVersion
from confsched.programme.services import load_programme
from tests.browser.conftest import PHONE, browser, demo_live, new_context  # noqa: F401 - fixtures
from tests.conftest import DEMO_SLUG

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PRIVATE = (
    "import: /srv/imports/2026/private-folder/schedule.xml, "
    "https://organizer:hunter2@pretalx.example.org/api/events/pt26/schedule/export.json"
    "?token=s3cr3t-t0ken&key=abc"
)


@pytest.mark.parametrize(
    ("source", "label"),
    [
        ("import: /srv/imports/2026/schedule.xml", "imported from schedule.xml"),
        ("/srv/imports/2026/schedule.xml", "imported from schedule.xml"),
        ("import: schedule.xml", "imported from schedule.xml"),
        ("import: C:\\Users\\orga\\Desktop\\programme.csv", "imported from programme.csv"),
        ("import: a.xml, b.json", "imported from a.xml, b.json"),
        ("import: /one/a.xml, /two/a.xml", "imported from a.xml"),
        (
            "import: 1.txt, 2.txt, 3.txt, 4.txt, 5.txt",
            "imported from 1.txt, 2.txt and 3 more files",
        ),
        ("import: 1.txt, 2.txt, 3.txt", "imported from 1.txt, 2.txt, 3.txt"),
        (
            "import: https://sched.example.org/2026/schedule.xml?token=abc123",
            "imported from schedule.xml from sched.example.org",
        ),
        (
            "import: https://user:pass@sched.example.org:8443/feeds/export.json#frag",
            "imported from export.json from sched.example.org",
        ),
        ("import: https://sessionize.com/api/v2/abc123xy/view/All", "imported from sessionize.com"),
        ("import: https://example.org/", "imported from example.org"),
        ("import: https://example.org", "imported from example.org"),
        (
            "import: https://example.org/feeds/9f86d081884c7d659a2feaa0c55ad015.xml",
            "imported from example.org",
        ),
        ("import: https://example.org/a%2Fb%2F..%2Fsecret.xml", "imported from example.org"),
        ("import: https://[::1/schedule.xml", "imported"),
        ("import: file:///srv/imports/schedule.xml", "imported from schedule.xml"),
        ("import", "imported"),
        ("import: ", "imported"),
        ("edit by alice.organizer", "edited by the organizers"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_a_source_as_the_public_reads_it(source: str, label: str) -> None:
    assert source_label(source) == label


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


@pytest.mark.django_db
def test_the_change_log_shows_file_names_and_hosts_only(
    client: Client, demo_event, demo_programme
) -> None:
    _second_version(demo_event, demo_programme, source=PRIVATE)
    ScheduleVersion.objects.filter(event=demo_event, number=1).update(source="edit by alice")
    html = client.get(f"/{DEMO_SLUG}/changes/?tz=UTC").content.decode()
    dates = [
        v.created_at.strftime("%a %-d %b %Y, %H:%M")
        for v in ScheduleVersion.objects.filter(event=demo_event).order_by("-number")
    ]
    assert _version_meta(html) == [
        f"{dates[0]} · imported from schedule.xml, export.json from pretalx.example.org",
        f"{dates[1]} · edited by the organizers",
    ]
    leaks = [
        "/srv/",
        "private-folder",
        "organizer:",
        "hunter2",
        "token=",
        "s3cr3t",
        "pt26",
        "alice",
    ]
    assert [word for word in leaks if word in html] == []


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
def test_a_long_version_folds_its_list_and_a_short_one_does_not(
    client: Client, demo_event, demo_programme
) -> None:
    _second_version(demo_event, demo_programme, source="import: v2.xml")
    html = client.get(f"/{DEMO_SLUG}/changes/").content.decode()
    assert re.findall(r"<details class=\"change-details\"><summary>(.*?)</summary>", html) == [
        "All 29 changes"
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
