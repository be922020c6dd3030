"""Every filter choice is kept whatever the order and speed of the clicks (issue 9, item 1)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import checked_boxes, filter_params


@pytest.mark.browser
def test_typing_then_ticking_at_once_keeps_the_tick(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    page.locator("#q").press_sequentially("torch")
    # No pause: the search's change (on leaving the box) and the tick race each other.
    page.locator("#f-room-master-stage").check()
    expect(page.locator("p.summary")).to_have_text(
        "Showing 4 of 28 sessions matching “torch”.", timeout=5_000
    )
    page.wait_for_load_state("networkidle")
    expect(page.locator("p.summary")).to_have_text("Showing 4 of 28 sessions matching “torch”.")
    assert checked_boxes(page) == ["room=master-stage"]
    assert filter_params(page.url) == {"q": ["torch"], "room": ["master-stage"]}


@pytest.mark.browser
def test_ticking_several_quickly_keeps_every_tick(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    for box in ("#f-room-master-stage", "#f-room-junior-stage", "#f-track-training-systems"):
        page.locator(box).check()
    page.wait_for_load_state("networkidle")
    expect(page.locator("p.summary")).to_have_text("Showing 4 of 28 sessions.")
    assert checked_boxes(page) == [
        "room=junior-stage",
        "room=master-stage",
        "track=training-systems",
    ]
    assert filter_params(page.url) == {
        "room": ["junior-stage", "master-stage"],  # the form's order
        "track": ["training-systems"],
    }


@pytest.mark.browser
def test_ticking_then_typing_keeps_both(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    page.locator("#f-track-training-systems").check()
    page.locator("#q").press_sequentially("torch")
    page.wait_for_load_state("networkidle")
    expect(page.locator("p.summary")).to_have_text("Showing 2 of 28 sessions matching “torch”.")
    assert checked_boxes(page) == ["track=training-systems"]
    assert filter_params(page.url) == {"track": ["training-systems"], "q": ["torch"]}


@pytest.mark.browser
def test_chips_remove_one_filter_and_clear_all_removes_every_one(page, demo_live):  # noqa: ANN001
    page.goto(demo_live + "?track=training-systems&room=master-stage&q=torch")
    chips = page.locator(".active-filters .chip")
    expect(chips).to_have_text(
        ["Search: torch ×", "Venue: Master Stage ×", "Type: Training Systems ×"]
    )
    page.evaluate("window.__noReload = 'still here'")
    page.get_by_role("link", name="Remove the filter Venue: Master Stage").click()
    expect(page.locator("p.summary")).to_have_text("Showing 2 of 28 sessions matching “torch”.")
    expect(chips).to_have_text(["Search: torch ×", "Type: Training Systems ×"])
    assert checked_boxes(page) == ["track=training-systems"]
    page.get_by_role("link", name="Remove the search “torch”").click()
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    expect(page.locator("#q")).to_have_value("")
    page.locator(".active-filters").get_by_role("link", name="Clear all").click()
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    expect(chips).to_have_count(0)
    assert checked_boxes(page) == []
    assert filter_params(page.url) == {}
    assert page.evaluate("window.__noReload") == "still here"  # all in place, no page load


@pytest.mark.browser
def test_chips_are_links_without_javascript(new_context, demo_live):  # noqa: ANN001
    page = new_context(java_script_enabled=False).new_page()
    page.goto(demo_live + "?track=training-systems&room=master-stage")
    page.get_by_role("link", name="Remove the filter Type: Training Systems").click()
    expect(page.locator("p.summary")).to_have_text("Showing 9 of 28 sessions.")
    assert filter_params(page.url) == {"room": ["master-stage"]}
    page.locator(".active-filters").get_by_role("link", name="Clear all").click()
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    assert filter_params(page.url) == {}


@pytest.mark.browser
def test_a_long_facet_gets_a_finder_that_keeps_ticked_boxes(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    finder = page.get_by_role("searchbox", name="Find in Type")
    page.locator("#f-track-training-systems").check()
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    finder.fill("comp")
    shown = page.locator(
        "fieldset.facet:has([data-finder=track]) label.option:visible .option-label"
    )
    expect(shown).to_have_text(["Frameworks & Compilers", "Training Systems"])
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")  # no request
    finder.fill("zzz")
    expect(shown).to_have_text(["Training Systems"])
    finder.fill("")
    expect(shown).to_have_count(page.locator("[name=track]").count())
