"""With JavaScript off the filters and the zone form are plain GET forms that still work."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PARIS_LABEL, checked_boxes, choose_zone, filter_params


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

    choose_zone(page, "Asia/Tokyo")
    expect(page.locator("#zone-now")).to_have_text(
        f"Times in {PARIS_LABEL}, the event's time zone."
    )
    page.get_by_role("button", name="Show times").click()
    expect(page.locator("#zone-now")).to_have_text(
        f"Times in Asia/Tokyo (JST, UTC+09:00). The event is in {PARIS_LABEL}."
    )
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    assert checked_boxes(page) == ["track=training-systems"]
    assert filter_params(page.url) == {"track": ["training-systems"], "tz": ["Asia/Tokyo"]}
    expect(page.locator("h3.slot-time").first).to_have_text("18:00")


@pytest.mark.browser
@pytest.mark.parametrize("path", ["", "grid/"], ids=["list", "grid"])
def test_a_star_without_javascript_comes_back_to_the_same_card(new_context, demo_live, path):  # noqa: ANN001
    page = new_context(java_script_enabled=False, reduced_motion="reduce").new_page()
    page.goto(demo_live + path)
    card = page.locator(".card-wrap", has_text="TorchJD: Jacobian Descent in PyTorch")
    card.get_by_role("button", name="Star “TorchJD: Jacobian").click()
    # The page came back starred, at that card: not at the top of the page.
    starred = card.get_by_role("button", name="Starred: remove “TorchJD: Jacobian")
    expect(starred).to_have_attribute("aria-pressed", "true")
    card_id = card.get_attribute("id")
    assert page.url == demo_live + path + "#" + card_id
    page.wait_for_function("() => window.scrollY > 0")  # the browser scrolls to the card
    box = card.bounding_box()
    assert 0 <= box["y"] < page.viewport_size["height"]
