"""Printing from the browser: pages on paper keep their content and drop their controls."""

from __future__ import annotations

from urllib.parse import urljoin

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PARIS_LABEL, TORCHJD

CONTROLS = [".site-nav", ".account", ".zone-controls", ".filters-panel", ".share", ".site-footer"]


@pytest.mark.browser
def test_the_schedule_on_paper_has_no_controls_and_keeps_its_zone(page, demo_live) -> None:  # noqa: ANN001
    page.goto(demo_live)
    page.emulate_media(media="print")
    for selector in CONTROLS:
        expect(page.locator(selector).first).to_be_hidden()
    expect(page.locator("button.star")).to_have_count(28)
    for star in page.locator("button.star").all():
        expect(star).to_be_hidden()
    expect(page.locator("#zone-now")).to_have_text(
        f"Times in {PARIS_LABEL}, the event's time zone."
    )
    expect(page.locator(".day-heading")).to_have_text("Tuesday 7 April 2026 28 sessions")
    expect(page.locator(".card-title")).to_have_count(28)
    page.emulate_media(media="screen")
    expect(page.locator(".site-nav")).to_be_visible()


@pytest.mark.browser
def test_star_then_print_my_day(page, demo_live) -> None:  # noqa: ANN001
    page.goto(demo_live)
    card = page.locator(".card-wrap", has=page.get_by_role("link", name=TORCHJD, exact=True))
    card.locator("button.star").click()
    expect(card.locator("button.star")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("link", name="My agenda").click()
    page.get_by_role("link", name="Print my day").click()
    expect(page.locator("h1")).to_have_text("My agenda: Tuesday 7 April 2026")
    expect(page.locator(".agenda-table .entry-title")).to_have_text([TORCHJD])
    pdf_url = page.get_by_role("link", name="Download as PDF").get_attribute("href")
    page.emulate_media(media="print")
    expect(page.locator(".print-tools")).to_be_hidden()
    response = page.context.request.get(urljoin(page.url, pdf_url))
    assert (response.status, response.headers["content-type"], response.body()[:5]) == (
        200, "application/pdf", b"%PDF-",
    )  # fmt: skip
