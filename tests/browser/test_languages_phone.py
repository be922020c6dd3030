"""French on a 375 px phone: picked in the page's header, the schedule in French with 24-hour
times, the choice kept on the next page; German from the browser's own language; axe-core on
each. Screenshots go to docs/screenshots/ with CONFSCHED_SCREENSHOTS=1 (else nowhere)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TORCHJD_KEY
from tests.browser.test_accessibility import _serious, axe_source  # noqa: F401 - a fixture
from tests.conftest import DEMO_SLUG, ROOT

pytestmark = pytest.mark.browser


@pytest.fixture
def multilingual(demo_live: str) -> str:
    from confsched.programme.models import Event

    Event.objects.filter(slug=DEMO_SLUG).update(languages="en, fr, de")
    return demo_live


def _shot(page, name: str) -> None:  # noqa: ANN001 - a Playwright page
    if os.environ.get("CONFSCHED_SCREENSHOTS"):
        page.screenshot(path=str(Path(ROOT) / "docs" / "screenshots" / name))


def _phone(new_context, *, locale: str, javascript: bool = True):  # noqa: ANN001, ANN202
    return new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale=locale,
        java_script_enabled=javascript,
    ).new_page()  # fmt: skip


def test_french_picked_on_a_phone_is_kept(new_context, multilingual: str, axe_source: str) -> None:  # noqa: ANN001, F811
    page = _phone(new_context, locale="en-GB")
    page.goto(multilingual)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Schedule")
    picker = page.get_by_role("navigation", name="Language")
    expect(picker).to_be_visible()
    box = picker.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    picker.get_by_role("link", name="Français").click()

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Programme")
    expect(page.locator(".day-heading").first).to_contain_text("mardi 7 avril 2026")
    times = page.locator("#results .slot-time time").all_text_contents()
    assert times and all(re.fullmatch(r"[0-2]\d:[0-5]\d", time) for time in times)
    assert any(time >= "13:00" for time in times)  # the afternoon in 24-hour time
    expect(page.locator(".site-nav a")).to_have_text(
        ["Programme", "Grille", "En ce moment", "Rechercher", "Intervenants", "Mon programme",
         "Planifier", "Changements", "Agenda et applis"]
    )  # fmt: skip
    assert _serious(page, axe_source) == []
    _shot(page, "schedule-phone-fr.png")

    # The next page is French too: the choice is remembered.
    page.locator("#results .card-title a").first.click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator(".facts dt").first).to_have_text("Quand")
    expect(page.get_by_role("link", name="Ajouter au calendrier (.ics)")).to_be_visible()
    assert _serious(page, axe_source) == []
    page.goto(f"{multilingual}sessions/{TORCHJD_KEY}/")
    expect(page.get_by_role("heading", level=2, name="À propos de cette session")).to_be_visible()
    _shot(page, "session-phone-fr.png")


def test_german_from_the_browser(new_context, multilingual: str, axe_source: str) -> None:  # noqa: ANN001, F811
    page = _phone(new_context, locale="de-DE")
    page.goto(multilingual)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Programm")
    expect(page.locator(".day-heading").first).to_contain_text("Dienstag, 7. April 2026")
    current = page.get_by_role("navigation", name="Sprache").locator("[aria-current]")
    expect(current).to_have_text("Deutsch")
    assert _serious(page, axe_source) == []
    _shot(page, "schedule-phone-de.png")
    page.goto(f"{multilingual}sessions/{TORCHJD_KEY}/")
    expect(page.locator(".facts dt").first).to_have_text("Wann")
    assert _serious(page, axe_source) == []
    _shot(page, "session-phone-de.png")


def test_the_picker_works_without_javascript(new_context, multilingual: str) -> None:  # noqa: ANN001
    page = _phone(new_context, locale="en-GB", javascript=False)
    page.goto(multilingual + "speakers/")
    page.get_by_role("navigation", name="Language").get_by_role("link", name="Deutsch").click()
    assert page.url == multilingual + "speakers/"
    expect(page.get_by_role("heading", level=1)).to_have_text("Sprecher:innen")
    page.goto(multilingual + "grid/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Programm als Raster")
