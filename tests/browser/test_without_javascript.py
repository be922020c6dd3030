"""With JavaScript off the filters and the zone form are plain GET forms that still work."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PARIS_LABEL, checked_boxes, filter_params


@pytest.mark.browser
def test_filter_and_zone_forms_without_javascript(new_context, demo_live):  # noqa: ANN001
    page = new_context(java_script_enabled=False).new_page()
    page.goto(demo_live)
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    # Nothing JS-only shows; the filters start folded away.
    expect(page.locator("[data-copy='#share-url']")).to_be_hidden()
    expect(page.locator("[data-device-zone]")).to_be_hidden()
    panel = page.locator("details[data-filters-panel]")
    expect(panel).not_to_have_attribute("open", "")

    panel.locator("summary").click()
    expect(panel).to_have_attribute("open", "")
    page.locator("#f-track-training-systems").check()
    # Checking a box alone does nothing without JavaScript…
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    # …the submit button applies it.
    page.get_by_role("button", name="Apply filters").click()
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    assert filter_params(page.url) == {"track": ["training-systems"]}
    assert checked_boxes(page) == ["track=training-systems"]
    expect(panel).to_have_attribute("open", "")
    expect(panel.locator("summary")).to_have_text("Filters (active)")
    expect(page.locator("#share-url")).to_have_value(page.url)

    page.locator("#tz").select_option("Asia/Tokyo")
    expect(page.locator("p.zone-now")).to_have_text(
        f"Times in {PARIS_LABEL}, the event's time zone."
    )
    page.get_by_role("button", name="Show times").click()
    expect(page.locator("p.zone-now")).to_have_text(
        f"Times in Asia/Tokyo (JST, UTC+09:00). The event is in {PARIS_LABEL}."
    )
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    assert checked_boxes(page) == ["track=training-systems"]
    assert filter_params(page.url) == {"track": ["training-systems"], "tz": ["Asia/Tokyo"]}
    expect(page.locator("h3.slot-time").first).to_have_text("18:00")
