"""Favourites travel: one phone stars, shows its QR code; the other opens the address the code
holds, sees what it would star, confirms, and has the same stars."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TORCHJD

TOUR = "Tour De Force: LLM Inference Optimization From Simple To Sophisticated"


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}])
def test_stars_go_to_another_phone_through_the_qr_address(new_context, demo_live, viewport) -> None:  # noqa: ANN001
    first = new_context(viewport=viewport).new_page()
    first.goto(demo_live)
    for title in (TORCHJD, TOUR):
        card = first.locator(".card-wrap", has=first.get_by_role("link", name=title, exact=True))
        card.locator("button.star").click()
        expect(card.locator("button.star")).to_have_attribute("aria-pressed", "true")
    first.goto(demo_live + "agenda/favourites/")
    expect(first.locator(".favourites-qr svg")).to_be_visible()
    # The address the QR code holds is also the figure's link (a test of the view checks that
    # segno was given exactly this text).
    address = first.locator(".favourites-qr figcaption a").get_attribute("href")
    assert address is not None and "/agenda/import?f=" in address

    other = new_context(viewport=viewport).new_page()  # another phone: no stars, no account
    other.goto(address if address.startswith("http") else demo_live.split("/pytorch")[0] + address)
    expect(other.get_by_text(TORCHJD)).to_be_visible()
    expect(other.get_by_text(TOUR)).to_be_visible()
    other.get_by_role("button", name="Star these").click()
    other.goto(demo_live + "agenda/")
    expect(other.locator("p.summary")).to_have_text("2 sessions, 2 overlapping.")
    expect(other.locator(".agenda-entry .card-title")).to_have_text([TOUR, TORCHJD])
