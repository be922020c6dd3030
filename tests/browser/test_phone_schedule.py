"""The schedule on a 375 px phone: first session in the first screen, every nav item reachable,
filters behind one button with the active ones as chips above the results (issue 9, 4 and 5)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE

NAV = ["Schedule", "Grid", "Now", "Search", "Speakers", "My agenda", "Plan", "Changes",
       "Calendar & apps"]  # fmt: skip


@pytest.fixture
def phone(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


def top_of(page, selector: str) -> float:  # noqa: ANN001 - a Playwright page
    return page.locator(selector).first.bounding_box()["y"]


@pytest.mark.browser
@pytest.mark.parametrize("path", ["", "grid/"], ids=["list", "grid"])
def test_every_nav_item_shows_within_the_phone_width(phone, demo_live, path):  # noqa: ANN001
    phone.goto(demo_live + path)
    links = phone.locator(".site-nav a")
    expect(links).to_have_text(NAV)
    for index in range(len(NAV)):
        box = links.nth(index).bounding_box()
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE["width"]
        assert box["y"] + box["height"] <= PHONE["height"]


@pytest.mark.browser
def test_the_first_session_shows_in_the_first_screen(phone, demo_live):  # noqa: ANN001
    phone.goto(demo_live)
    first = phone.locator("#results .card-title").first
    expect(first).to_have_text(
        "Why Your Forecasting Transformer Isn’t Working (And How To Fix It in Python)"
    )
    box = first.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]


@pytest.mark.browser
def test_a_filtered_view_opens_with_chips_and_results_not_the_form(phone, demo_live):  # noqa: ANN001
    phone.goto(demo_live + "?track=training-systems&level=intermediate")
    panel = phone.locator("details[data-filters-panel]")
    expect(panel).not_to_have_attribute("open", "")
    expect(panel.locator("summary")).to_have_text("Filters (active)")
    expect(phone.locator(".active-filters .chip")).to_have_text(
        ["Type: Training Systems ×", "Audience level: Intermediate ×"]
    )
    expect(phone.locator(".active-filters").get_by_role("link", name="Clear all")).to_be_visible()
    first = phone.locator("#results .card-title").first
    expect(first).to_have_text(
        "Training Embedding Model Resiliently for Multimodal Model Inference Routing"
    )
    assert first.bounding_box()["y"] + first.bounding_box()["height"] <= PHONE["height"]
    assert top_of(phone, ".active-filters") < top_of(phone, "#results .card")

    phone.get_by_role("link", name="Remove the filter Audience level: Intermediate").click()
    expect(phone.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    expect(phone.locator(".active-filters .chip")).to_have_text(["Type: Training Systems ×"])
    expect(panel).not_to_have_attribute("open", "")


@pytest.mark.browser
def test_the_filters_button_opens_the_form_on_a_phone(phone, demo_live):  # noqa: ANN001
    phone.goto(demo_live + "?track=training-systems")
    phone.locator("details[data-filters-panel] > summary").click()
    expect(phone.locator("#f-track-training-systems")).to_be_checked()
    phone.locator("#f-room-master-stage").check()
    expect(phone.locator("p.summary")).to_have_text("Showing 2 of 28 sessions.")
    expect(phone.locator(".active-filters .chip")).to_have_text(
        ["Venue: Master Stage ×", "Type: Training Systems ×"]
    )


@pytest.mark.browser
def test_the_first_card_starts_within_300_px_and_the_zone_and_share_are_one_line_each(
    phone, demo_live
):  # noqa: ANN001
    phone.goto(demo_live)
    assert top_of(phone, "#results .card") < 300
    zone = phone.locator("details[data-zone-picker]")
    line = zone.locator("summary").bounding_box()["height"]
    assert line < 24  # one line of .8rem text
    expect(phone.locator("#tz")).to_be_hidden()
    zone.locator("summary").click()
    expect(phone.locator("#tz")).to_be_visible()
    expect(phone.locator("#tz")).to_have_value("Europe/Paris")
    # The share box is a Share button: it opens the link (the same URL) and its copy button.
    expect(phone.locator("#share-url")).to_be_hidden()
    phone.locator("details.share-view > summary").click()
    expect(phone.locator("#share-url")).to_have_value(phone.url)
    expect(phone.locator("[data-copy='#share-url']")).to_be_visible()


@pytest.mark.browser
def test_without_javascript_the_share_button_still_shows_the_link(new_context, demo_live):  # noqa: ANN001
    page = new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(demo_live + "?track=training-systems")
    page.locator("details.share-view > summary").click()
    expect(page.locator("#share-url")).to_be_visible()
    expect(page.locator("#share-url")).to_have_value(page.url)
    expect(page.locator("[data-copy='#share-url']")).to_be_hidden()  # copying needs JavaScript
