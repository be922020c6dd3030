"""Filtering the schedule list by clicking: htmx swaps results, counts and the URL in place."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    TORCHJD,
    TRAINING_SYSTEMS_INTERMEDIATE,
    checked_boxes,
    filter_params,
)

SLIDES_TITLES = [
    "Bringing Google’s Colossus to PyTorch: Rapid Storage via fsspec to Keep GPUs Busy",
    "Jigsaw: Domain and Tensor Parallelism for High-Resolution Input Training",
]


def count_of(page, facet: str, value: str):  # noqa: ANN001, ANN201 - Playwright objects
    return page.locator(f"label[for='f-{facet}-{value}'] span.count")


@pytest.mark.browser
def test_static_files_load_and_scripts_run(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    assert page.evaluate("typeof htmx") == "object"
    # app.css is applied: the header's colour comes from it.
    assert (
        page.evaluate("getComputedStyle(document.querySelector('.site-header')).backgroundColor")
        == "rgb(32, 18, 58)"
    )
    # app.js ran: at desktop width it opens the filters and reveals the copy button; the zone
    # select applies itself, so "Show times" goes; the device's zone (Europe/Paris here) is
    # the zone shown already, so its button stays hidden.
    expect(page.locator("details[data-filters-panel]")).to_have_attribute("open", "")
    expect(page.locator("[data-copy='#share-url']")).not_to_have_attribute("hidden", "")
    expect(page.get_by_role("button", name="Show times")).to_be_hidden()
    expect(page.locator("[data-device-zone]")).to_be_hidden()


@pytest.mark.browser
def test_initial_counts(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    expect(count_of(page, "track", "training-systems")).to_have_text("6")
    expect(count_of(page, "room", "master-stage")).to_have_text("9")
    expect(count_of(page, "slides", "yes")).to_have_text("2")
    expect(page.locator("h2.day-heading")).to_have_text(["Tuesday 7 April 2026 28 sessions"])
    assert checked_boxes(page) == []


@pytest.mark.browser
def test_two_facets_then_search_without_page_load(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    page.evaluate("window.__noReload = 'still here'")

    page.locator("#f-track-training-systems").check()
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    expect(page).to_have_url(re.compile(r"[?&]track=training-systems(&|$)"))
    assert filter_params(page.url) == {"track": ["training-systems"]}
    # Facets came back out of band: the box stays checked, the counts follow the filter.
    expect(page.locator("#f-track-training-systems")).to_be_checked()
    expect(page.locator("#filters-summary")).to_have_text("Filters (active)")
    expect(count_of(page, "track", "training-systems")).to_have_text("6")
    expect(count_of(page, "level", "intermediate")).to_have_text("4")
    expect(count_of(page, "room", "master-stage")).to_have_text("2")
    expect(count_of(page, "slides", "yes")).to_have_text("2")

    page.locator("#f-level-intermediate").check()
    expect(page.locator("p.summary")).to_have_text("Showing 4 of 28 sessions.")
    expect(page).to_have_url(re.compile(r"[?&]level=intermediate(&|$)"))
    assert filter_params(page.url) == {"track": ["training-systems"], "level": ["intermediate"]}
    expect(page.locator("#results .card-title")).to_have_text(TRAINING_SYSTEMS_INTERMEDIATE)
    expect(page.locator("h2.day-heading")).to_have_text(["Tuesday 7 April 2026 4 sessions"])
    expect(count_of(page, "track", "training-systems")).to_have_text("4")
    expect(count_of(page, "slides", "yes")).to_have_text("0")
    assert checked_boxes(page) == ["track=training-systems", "level=intermediate"]

    page.locator("#q").fill("valerian")
    expect(page.locator("p.summary")).to_have_text("Showing 1 of 28 sessions matching “valerian”.")
    expect(page).to_have_url(re.compile(r"[?&]q=valerian(&|$)"))
    assert filter_params(page.url) == {
        "track": ["training-systems"],
        "level": ["intermediate"],
        "q": ["valerian"],
    }
    expect(page.locator("#results .card-title")).to_have_text([TORCHJD])
    expect(page.locator("#results .card-speakers")).to_have_text(
        ["Pierre Quinton, EPFL; Valérian Rey, Simplex Lab"]
    )
    assert checked_boxes(page) == ["track=training-systems", "level=intermediate"]

    assert page.evaluate("window.__noReload") == "still here"


@pytest.mark.browser
def test_room_and_slides_facets(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    page.locator("#f-room-master-stage").check()
    expect(page.locator("p.summary")).to_have_text("Showing 9 of 28 sessions.")
    expect(page.locator("#results .card .room")).to_have_text(["Master Stage"] * 9)
    assert filter_params(page.url) == {"room": ["master-stage"]}

    page.goto(demo_live)
    page.locator("#f-slides-yes").check()
    expect(page.locator("p.summary")).to_have_text("Showing 2 of 28 sessions.")
    expect(page.locator("#results .card-title")).to_have_text(SLIDES_TITLES)
    expect(page.locator("#results .tag-slides")).to_have_text(["Slides attached"] * 2)
    assert filter_params(page.url) == {"slides": ["yes"]}


@pytest.mark.browser
@pytest.mark.parametrize("typed", ["valerian", "VALÉRIAN"])
def test_search_ignores_accents_and_case(page, demo_live, typed):  # noqa: ANN001
    page.goto(demo_live)
    page.evaluate("window.__noReload = 'still here'")
    page.locator("#q").fill(typed)
    expect(page.locator("p.summary")).to_have_text(f"Showing 1 of 28 sessions matching “{typed}”.")
    expect(page.locator("#results .card-title")).to_have_text([TORCHJD])
    assert filter_params(page.url) == {"q": [typed]}
    assert page.evaluate("window.__noReload") == "still here"


@pytest.mark.browser
def test_unchecking_a_box_drops_its_filter(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    page.locator("#f-track-training-systems").check()
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    page.locator("#f-level-intermediate").check()
    expect(page.locator("p.summary")).to_have_text("Showing 4 of 28 sessions.")

    page.locator("#f-level-intermediate").uncheck()
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    expect(page).not_to_have_url(re.compile(r"level="))
    assert filter_params(page.url) == {"track": ["training-systems"]}
    assert checked_boxes(page) == ["track=training-systems"]

    page.locator("#f-track-training-systems").uncheck()
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    assert filter_params(page.url) == {}
    assert checked_boxes(page) == []


@pytest.mark.browser
def test_clear_all_shows_every_session(page, demo_live):  # noqa: ANN001
    page.goto(demo_live + "?track=training-systems&level=intermediate")
    expect(page.locator("p.summary")).to_have_text("Showing 4 of 28 sessions.")
    page.locator("#filters").get_by_role("link", name="Clear all").click()
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    assert filter_params(page.url) == {}
    assert checked_boxes(page) == []


@pytest.mark.browser
def test_a_new_search_replaces_the_previous_one(page, demo_live):  # noqa: ANN001
    page.goto(demo_live)
    page.locator("#q").fill("jacobian")
    expect(page.locator("p.summary")).to_have_text("Showing 1 of 28 sessions matching “jacobian”.")
    page.locator("#q").fill("colossus")
    expect(page.locator("p.summary")).to_have_text("Showing 1 of 28 sessions matching “colossus”.")
    expect(page.locator("#results .card-title")).to_have_text([SLIDES_TITLES[0]])
    assert filter_params(page.url) == {"q": ["colossus"]}
