"""The share link: copy the URL of the filtered view, open it elsewhere, see the same view."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import TRAINING_SYSTEMS_INTERMEDIATE, checked_boxes, filter_params


@pytest.mark.browser
def test_copy_link_then_open_it_in_a_fresh_browser(new_context, demo_live):  # noqa: ANN001
    page = new_context(permissions=["clipboard-read", "clipboard-write"]).new_page()
    page.goto(demo_live)
    page.locator("#f-track-training-systems").check()
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    page.locator("#f-level-intermediate").check()
    expect(page.locator("p.summary")).to_have_text("Showing 4 of 28 sessions.")

    # htmx swapped the results in: the copy button was revealed again and the link updated.
    copy = page.locator("[data-copy='#share-url']")
    # The Share button opens the link and its copy button.
    page.locator("details.share-view > summary", has_text="Share").click()
    expect(copy).to_be_visible()
    expect(copy).to_have_text("Copy link")
    expect(page.locator("#share-url")).to_have_value(page.url)
    expect(page.locator("[data-copy-status]")).to_have_text("")

    copy.click()
    expect(page.locator("[data-copy-status]")).to_have_text("Link copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.url
    assert copied.startswith(demo_live + "?")
    assert filter_params(copied) == {"track": ["training-systems"], "level": ["intermediate"]}

    other = new_context().new_page()
    other.goto(copied)
    expect(other.locator("p.summary")).to_have_text("Showing 4 of 28 sessions.")
    expect(other.locator("#results .card-title")).to_have_text(TRAINING_SYSTEMS_INTERMEDIATE)
    assert checked_boxes(other) == ["track=training-systems", "level=intermediate"]
    assert checked_boxes(other) == checked_boxes(page)
    expect(other.locator("#share-url")).to_have_value(copied)
    expect(other.locator("details[data-filters-panel] > summary")).to_have_text("Filters (active)")
