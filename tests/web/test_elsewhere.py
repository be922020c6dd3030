"""The "Use this schedule elsewhere" page (/<event>/elsewhere/, issue 29 item 4): every address
a calendar, phone app or program needs, absolute and exact, its QR codes made from exactly the
address shown, linked from every schedule page, and honest about an event with nothing
published."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import segno
from django.test import Client, override_settings

from confsched.interchange.formats import WRITERS
from confsched.programme.models import Event
from confsched.programme.services import create_event
from confsched.web.schedule.elsewhere import DESCRIPTIONS, export_files
from confsched.web.site.qr import qr_svg
from tests.conftest import DEMO_SLUG
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors
from tests.web.test_qr import _modules

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
PAGE = BASE + "elsewhere/"
SITE = "http://testserver"
FILES = [
    "schedule.xml", "schedule.json", "schedule2.json", "schedule.xcal", "schedule.rfc6321.xcal",
    "schedule.ics", "schedule.csv",
]  # fmt: skip
GIGGITY = (
    "https://ggt.gaa.st/#url=http%3A%2F%2Ftestserver%2Fpytorch-conference-europe-2026"
    "%2Fschedule.xml"
)


class _Page(HTMLParser):
    """The links of <main>, the address fields (id -> value) and the copy buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.in_main = False
        self.links: list[str] = []
        self.fields: dict[str, str] = {}
        self.copies: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "main":
            self.in_main = True
        elif tag == "a" and self.in_main:
            self.links.append(found["href"] or "")
        elif tag == "input" and "readonly" in found:
            self.fields[found["id"] or ""] = found["value"] or ""
        elif tag == "button" and "data-copy" in found:
            self.copies.append((found["data-copy"] or "", "hidden" in found))

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main = False


def _read(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def _page(client: Client, url: str = PAGE) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_elsewhere_gives_each_address_of_the_demo_event(client: Client, demo_event: Event) -> None:
    page = _read(_page(client))
    assert page.fields == {
        "webcal": "webcal://testserver/pytorch-conference-europe-2026/schedule.ics",
        "ics": f"{SITE}{BASE}schedule.ics",
        "giggity": GIGGITY,
        "schedule-xml": f"{SITE}{BASE}schedule.xml",
        "file-xml": f"{SITE}{BASE}schedule.xml",
        "file-json": f"{SITE}{BASE}schedule.json",
        "file-schedule2": f"{SITE}{BASE}schedule2.json",
        "file-xcal": f"{SITE}{BASE}schedule.xcal",
        "file-rfc6321-xcal": f"{SITE}{BASE}schedule.rfc6321.xcal",
        "file-ics": f"{SITE}{BASE}schedule.ics",
        "file-csv": f"{SITE}{BASE}schedule.csv",
        "api-event": f"{SITE}/api/v1/events/pytorch-conference-europe-2026",
        "version-page": f"{SITE}{BASE}v/1/",
    }
    # Each field has its copy button, hidden until app.js finds a clipboard.
    assert page.copies == [(f"#{field}", True) for field in page.fields]
    assert page.links == [
        "webcal://testserver/pytorch-conference-europe-2026/schedule.ics",
        GIGGITY,
        BASE + "roomstatus/v1/listrooms",  # FOSDEM's room status, for the apps
        BASE + "announcements.atom",
        *(BASE + name for name in FILES),
        "/api/v1/docs",
        BASE + "changes/",
        *(f"{BASE}v/1/{file.name}" for file in export_files(DEMO_SLUG, number=1)),
    ]


def test_every_address_on_the_page_answers(client: Client, demo_event: Event) -> None:
    fields = _read(_page(client)).fields
    for field, address in fields.items():
        if field in ("webcal", "giggity"):
            continue  # not this site's: their https forms are checked as "ics" and "schedule-xml"
        assert client.get(address.removeprefix(SITE)).status_code == 200, field


@override_settings(CONFSCHED_BASE_URL="https://schedule.example.org")
def test_the_addresses_start_at_the_sites_base_url_when_set(
    client: Client, demo_event: Event
) -> None:
    fields = _read(_page(client)).fields
    assert (
        fields["webcal"]
        == "webcal://schedule.example.org/pytorch-conference-europe-2026/schedule.ics"
    )
    assert fields["giggity"] == (
        "https://ggt.gaa.st/#url=https%3A%2F%2Fschedule.example.org%2F"
        "pytorch-conference-europe-2026%2Fschedule.xml"
    )
    assert (
        fields["api-event"]
        == "https://schedule.example.org/api/v1/events/pytorch-conference-europe-2026"
    )
    assert fields["version-page"] == f"https://schedule.example.org{BASE}v/1/"


def test_each_qr_code_is_made_from_exactly_the_address_shown(
    client: Client, demo_event: Event
) -> None:
    html = _page(client)
    fields = _read(html).fields
    codes = re.findall(r"<svg role=\"img\".*?</svg>", html)
    assert codes == [
        qr_svg(fields[field], title=f"QR code of {fields[field]}")
        for field in ("webcal", "giggity")
    ]
    assert (
        "<title>QR code of webcal://testserver/pytorch-conference-europe-2026/schedule.ics</title>"
        in codes[0]
    )
    # And the modules drawn are those of a full QR code of exactly that address.
    for svg, field in zip(codes, ("webcal", "giggity"), strict=True):
        expected = segno.make_qr(fields[field], error="m")
        assert not expected.is_micro
        assert _modules(svg) == {
            (column + 4, row + 4)  # the quiet zone of 4 modules
            for row, line in enumerate(expected.matrix)
            for column, value in enumerate(line)
            if value
        }


@pytest.mark.parametrize(
    "url",
    [BASE, BASE + "grid/", BASE + "search/?q=torch", BASE + "changes/", BASE + "v/1/", PAGE],
    ids=["list", "grid", "search", "changes", "version", "elsewhere"],
)
def test_every_schedule_page_links_to_elsewhere(
    client: Client, demo_event: Event, url: str
) -> None:
    html = _page(client, url)
    current = ' aria-current="page"' if url == PAGE else ""
    assert f'<a href="{PAGE}"{current}>Calendar & apps</a>' in html


def test_the_version_page_names_its_exports_from_the_same_list(
    client: Client, demo_event: Event
) -> None:
    html = _page(client, BASE + "v/1/")
    exports = re.search(r'<span class="version-exports">(.*?)</span>', html)
    assert exports is not None
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', exports.group(1)) == [
        (f"{BASE}v/1/schedule.csv", "schedule.csv"),
        (f"{BASE}v/1/schedule.ics", "schedule.ics"),
        (f"{BASE}v/1/schedule.json", "schedule.json"),
        (f"{BASE}v/1/schedule.rfc6321.xcal", "schedule.rfc6321.xcal"),
        (f"{BASE}v/1/schedule2.json", "schedule2.json"),
        (f"{BASE}v/1/schedule.xcal", "schedule.xcal"),
        (f"{BASE}v/1/schedule.xml", "schedule.xml"),
    ]


def test_every_export_is_described() -> None:
    assert sorted(DESCRIPTIONS) == sorted(WRITERS)


def test_an_event_with_nothing_published_says_so_and_its_addresses_answer(client: Client) -> None:
    create_event(slug="later-2027", name="Later 2027", timezone="Europe/Berlin")
    html = _page(client, "/later-2027/elsewhere/")
    assert (
        '<p class="notice">Nothing of this programme is published yet. The addresses already '
        "answer, with an empty schedule: a calendar or app you add now fills in once the "
        "programme is published.</p>"
    ) in html
    assert (
        "<p>No version yet: the first programme published becomes version 1, and keeps its own address.</p>"
        in html
    )
    fields = _read(html).fields
    assert "version-page" not in fields
    assert fields["schedule-xml"] == f"{SITE}/later-2027/schedule.xml"
    xml = client.get("/later-2027/schedule.xml")
    assert xml.status_code == 200
    assert b"<event " not in b"".join(xml.streaming_content if xml.streaming else [xml.content])


def test_the_team_is_told_a_draft_reaches_these_addresses_once_released(
    client: Client, demo_event: Event
) -> None:
    from django.contrib.auth.models import User

    from confsched.programme.services import start_draft
    from tests.teams import on_team

    start_draft(demo_event)
    notice = (
        f'<p class="notice">This event has a <a href="{BASE}draft/">draft</a>: its changes '
        "reach these addresses only once it is released.</p>"
    )
    assert notice not in _page(client)  # a visitor
    client.force_login(on_team(User.objects.create_user("ed", password="pw"), "editor"))
    response = client.get(PAGE)
    assert notice in response.content.decode()
    assert response["Cache-Control"] == "private, no-store"


def test_a_published_event_has_no_notice(client: Client, demo_event: Event) -> None:
    assert 'class="notice"' not in _page(client)


def test_an_unknown_event_is_not_found(client: Client) -> None:
    assert client.get("/no-such-event/elsewhere/").status_code == 404


def test_elsewhere_is_valid_html(client: Client, demo_event: Event, tmp_path: Path) -> None:
    _checker()
    create_event(slug="later-2027", name="Later 2027", timezone="Europe/Berlin")
    pages = {"demo": _page(client), "nothing published": _page(client, "/later-2027/elsewhere/")}
    assert {kind: _duplicate_ids(html) for kind, html in pages.items()} == {
        "demo": [], "nothing published": []
    }  # fmt: skip
    assert _errors(pages, tmp_path) == []
