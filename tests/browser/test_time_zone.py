"""Choosing the time zone times are shown in: the select, the cookie, the device's zone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    PARIS_LABEL,
    TORCHJD,
    TORCHJD_KEY,
    checked_boxes,
    choose_zone,
    filter_params,
)

EVENT_ZONE_NOTE = f"The event is in {PARIS_LABEL}."
TOKYO_LABEL = "Asia/Tokyo (JST, UTC+09:00)"
TOKYO_NOW = f"Times in {TOKYO_LABEL}. {EVENT_ZONE_NOTE}"


def zone_cookie(context) -> str | None:  # noqa: ANN001 - a Playwright context
    """The saved zone; Django quotes cookie values holding "/" ("Asia/Tokyo" in quotes)."""
    values = [c["value"] for c in context.cookies() if c["name"] == "confsched_tz"]
    return values[0].removeprefix('"').removesuffix('"') if values else None


@pytest.mark.browser
def test_tokyo_is_kept_on_the_session_page_and_the_grid(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    expect(page.locator("#zone-now")).to_have_text(
        f"Times in {PARIS_LABEL}, the event's time zone."
    )
    expect(page.locator("h3.slot-time").first).to_have_text("11:00")

    choose_zone(page, "Asia/Tokyo")
    expect(page.locator("#zone-now")).to_have_text(TOKYO_NOW)
    assert filter_params(page.url) == {"tz": ["Asia/Tokyo"]}
    expect(page.locator("#tz")).to_have_value("Asia/Tokyo")
    expect(page.locator("h3.slot-time").first).to_have_text("18:00")
    expect(page.locator("h2.day-heading")).to_have_text(["Tuesday 7 April 2026 28 sessions"])
    assert zone_cookie(page.context) == "Asia/Tokyo"

    page.get_by_role("link", name=TORCHJD).first.click()
    expect(page).to_have_url(re.compile(rf"/sessions/{TORCHJD_KEY}/$"))
    expect(page.locator("h1")).to_have_text(TORCHJD)
    expect(page.locator("#zone-now")).to_have_text(TOKYO_NOW)
    expect(page.locator(".facts dd").first.locator("time")).to_have_text(
        ["Tuesday 7 April 2026, 18:45", "18:55"]
    )
    expect(page.locator(".facts .zone-note")).to_have_text(TOKYO_LABEL)
    expect(page.locator("#tz")).to_have_value("Asia/Tokyo")

    page.get_by_role("navigation", name="Event pages").get_by_role("link", name="Grid").click()
    expect(page).to_have_url(re.compile(r"/grid/$"))
    expect(page.locator("h1")).to_have_text("Schedule grid")
    expect(page.locator("#zone-now")).to_have_text(TOKYO_NOW)
    expect(page.locator("#tz")).to_have_value("Asia/Tokyo")
    expect(page.locator("table.grid tbody th.grid-time").first).to_have_text("18:00")
    expect(page.locator("h2.day-heading")).to_have_text(["Tuesday 7 April 2026"])


@pytest.mark.browser
def test_changing_zone_keeps_the_filters(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    page.locator("#f-track-training-systems").check()
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")

    choose_zone(page, "Asia/Tokyo")
    expect(page.locator("#zone-now")).to_have_text(TOKYO_NOW)
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    assert checked_boxes(page) == ["track=training-systems"]
    assert filter_params(page.url) == {"track": ["training-systems"], "tz": ["Asia/Tokyo"]}
    expect(page.locator("h3.slot-time")).to_have_text(["18:00", "18:45", "19:00", "22:00", "23:10"])


@pytest.mark.browser
def test_auckland_moves_the_afternoon_to_wednesday(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    choose_zone(page, "Pacific/Auckland")
    expect(page.locator("#zone-now")).to_have_text(
        f"Times in Pacific/Auckland (NZST, UTC+12:00). {EVENT_ZONE_NOTE}"
    )
    expect(page.locator("h2.day-heading")).to_have_text(
        ["Tuesday 7 April 2026 13 sessions", "Wednesday 8 April 2026 15 sessions"]
    )
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    wednesday = page.locator("section.day").nth(1)
    expect(wednesday.locator("h3.slot-time").first).to_have_text("00:15")
    expect(page.locator("section.day").nth(0).locator("h3.slot-time").last).to_have_text("23:45")
    # The date facet follows the viewer's zone too.
    expect(page.locator("fieldset.facet").first.locator(".option-label")).to_have_text(
        ["Tue 7 Apr", "Wed 8 Apr"]
    )
    expect(page.locator("fieldset.facet").first.locator(".count")).to_have_text(["13", "15"])

    page.locator("#f-date-2026-04-08").check()
    expect(page.locator("p.summary")).to_have_text("Showing 15 of 28 sessions.")
    expect(page.locator("h2.day-heading")).to_have_text(["Wednesday 8 April 2026 15 sessions"])
    assert filter_params(page.url) == {"tz": ["Pacific/Auckland"], "date": ["2026-04-08"]}


@pytest.mark.browser
def test_device_zone_button(new_context, demo_live):  # noqa: ANN001
    page = new_context(timezone_id="America/New_York").new_page()
    page.goto(demo_live)
    button = page.locator("[data-device-zone]")
    page.locator("details[data-zone-picker] > summary").click()
    expect(button).to_be_visible()
    expect(button).to_have_text("Use my device's zone (America/New_York)")

    button.click()
    expect(page.locator("#zone-now")).to_have_text(
        f"Times in America/New_York (EDT, UTC-04:00). {EVENT_ZONE_NOTE}"
    )
    expect(page.locator("#tz")).to_have_value("America/New_York")
    expect(page.locator("h3.slot-time").first).to_have_text("05:00")
    assert filter_params(page.url) == {"tz": ["America/New_York"]}
    assert zone_cookie(page.context) == "America/New_York"
    # Times are now in the device's zone: the button has nothing left to offer.
    expect(button).to_be_hidden()
