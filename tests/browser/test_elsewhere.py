"""The "Use this schedule elsewhere" page in a browser: reached from the schedule's nav, no
serious axe-core violation at 375 and 1280 px, and every address readable without JavaScript
(issue 29 item 4)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_accessibility import _serious
from tests.browser.test_accessibility import axe_source as axe_source  # the module's fixture


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375", "1280"])
def test_elsewhere_is_reached_from_the_schedule_and_passes_axe(
    new_context,
    demo_live: str,
    axe_source: str,
    viewport: dict[str, int],
) -> None:  # noqa: ANN001
    page = new_context(viewport=viewport).new_page()
    page.goto(demo_live)
    page.get_by_role("navigation", name="Event pages").get_by_role(
        "link", name="Calendar & apps"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Use this schedule elsewhere")
    webcal = page.locator("#webcal").input_value()
    assert webcal == demo_live.replace("http://", "webcal://") + "schedule.ics"
    expect(page.get_by_role("img", name=f"QR code of {webcal}")).to_be_visible()
    # Each address fits the page's width: it scrolls inside its field, not the page sideways.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width == viewport["width"]
    assert _serious(page, axe_source) == []


@pytest.mark.browser
def test_elsewhere_without_javascript_shows_every_address_and_no_copy_button(
    new_context, demo_live: str
) -> None:  # noqa: ANN001
    page = new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(demo_live + "elsewhere/")
    site = demo_live.removesuffix("/pytorch-conference-europe-2026/")
    expect(page.get_by_label("The same calendar over https", exact=False)).to_have_value(
        f"{site}/pytorch-conference-europe-2026/schedule.ics"
    )
    expect(page.locator(".elsewhere-address input")).to_have_count(13)
    expect(page.get_by_role("button", name="Copy", exact=False)).to_have_count(0)
    expect(page.get_by_role("img", name="QR code of", exact=False)).to_have_count(2)
