"""The grid: room headers and times stay in view, time is to scale, and during the event the
pages open at the slot running now (issue 9, items 6 and 8)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE

STEP = 44  # px: five minutes of the grid (2.75rem)
DURING = datetime(2026, 4, 7, 11, 20, tzinfo=ZoneInfo("Europe/Paris"))
AFTER = datetime(2026, 4, 9, 9, 0, tzinfo=ZoneInfo("Europe/Paris"))


@pytest.fixture
def phone(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


def cell_height(page, title: str) -> float:  # noqa: ANN001 - a Playwright page
    return page.locator(".grid-cell", has_text=title).bounding_box()["height"]


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_room_headers_and_times_stay_in_view_both_ways(new_context, demo_live, size):  # noqa: ANN001
    view = (
        new_context(viewport=PHONE, is_mobile=True) if size == "phone" else new_context()
    ).new_page()
    view.goto(demo_live + "grid/")
    region = view.locator(".grid-scroll")
    header = view.locator(".grid thead th", has_text="Central Room")
    region.evaluate("el => el.scrollIntoView({behavior: 'instant'})")
    top = region.bounding_box()["y"]
    left = region.bounding_box()["x"]
    is_wide = region.evaluate("el => el.scrollWidth > el.clientWidth")
    assert is_wide == (size == "phone")  # four rooms fit 1280 px, not 375
    region.evaluate("el => { el.scrollTop = 600; el.scrollLeft = 300; }")
    assert region.evaluate("el => [el.scrollTop, el.scrollLeft]") == [600, 300 if is_wide else 0]
    assert header.bounding_box()["y"] == pytest.approx(top + 1, abs=1)
    assert view.locator(".grid thead .grid-time").bounding_box()["x"] == pytest.approx(
        left + 1, abs=1
    )
    # What shows at the time column's place is the time column, not a sliver of a card.
    hit = view.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('th, td').className",
        [left + 4, top + 250],
    )
    assert hit == "grid-time"


@pytest.mark.browser
def test_rows_are_to_scale(page, demo_live):  # noqa: ANN001
    page.goto(demo_live + "grid/")
    ten = cell_height(page, "Why Your Forecasting Transformer")  # 11:00-11:10
    twenty_five = cell_height(page, "Helion 1.0")  # 11:00-11:25
    assert (round(ten), round(twenty_five)) == (2 * STEP - 11, 5 * STEP - 11)
    rows = page.locator(".grid tbody tr")
    assert round(rows.nth(0).bounding_box()["height"]) == 2 * STEP  # 11:00-11:10
    assert round(rows.nth(1).bounding_box()["height"]) == 1 * STEP  # 11:10-11:15


@pytest.mark.browser
def test_during_the_event_the_grid_marks_now_and_offers_a_jump(page, demo_live):  # noqa: ANN001
    page.clock.set_fixed_time(DURING)
    page.goto(demo_live + "grid/")
    jump = page.locator("[data-now-jump]")
    expect(jump).to_have_text("Jump to now (11:15)")
    expect(jump).to_have_attribute("href", "#slot-20260407-1115")
    line = page.locator(".grid-scroll .now-line")
    expect(line).to_have_count(1)
    row = page.locator("#slot-20260407-1115").bounding_box()
    # 11:20 is half way through the 11:15-11:25 row.
    assert line.bounding_box()["y"] == pytest.approx(row["y"] + row["height"] / 2, abs=2)
    expect(page.get_by_role("link", name="Now and next")).to_have_attribute(
        "href", "/pytorch-conference-europe-2026/now/"
    )


@pytest.mark.browser
def test_during_the_event_the_list_opens_at_the_current_slot(page, demo_live):  # noqa: ANN001
    page.clock.set_fixed_time(DURING)
    page.goto(demo_live)
    expect(page.locator("[data-now-jump]")).to_have_text("Jump to now (11:15)")
    slot = page.locator("#slot-20260407-1115")
    page.wait_for_function("() => window.scrollY > 0")
    assert 0 <= slot.bounding_box()["y"] < 200


@pytest.mark.browser
def test_after_the_event_nothing_is_marked(page, demo_live):  # noqa: ANN001
    page.clock.set_fixed_time(AFTER)
    page.goto(demo_live + "grid/")
    expect(page.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    expect(page.locator("[data-now-jump]")).to_have_count(0)
    expect(page.locator(".now-line")).to_have_count(0)
    assert page.evaluate("window.scrollY") == 0


@pytest.mark.browser
def test_print_link_names_the_viewers_zone(page, demo_live):  # noqa: ANN001
    page.goto(demo_live + "grid/")
    expect(page.get_by_role("link", name="Print")).to_have_attribute(
        "href", "/pytorch-conference-europe-2026/print/"
    )
    page.goto(demo_live + "?tz=Asia/Tokyo")
    expect(page.get_by_role("link", name="Print")).to_have_attribute(
        "href", "/pytorch-conference-europe-2026/print/?tz=Asia/Tokyo"
    )
