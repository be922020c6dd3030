"""The grid: room headers and times stay in view, time is to scale, and during the event the
pages open at the slot running now (issue 9, items 6 and 8)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE

STEP = 24  # px: five minutes of the grid (1.5rem)
DURING = datetime(2026, 4, 7, 11, 20, tzinfo=ZoneInfo("Europe/Paris"))
AFTER = datetime(2026, 4, 9, 9, 0, tzinfo=ZoneInfo("Europe/Paris"))


@pytest.fixture
def phone(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


def cell_height(page, title: str) -> float:  # noqa: ANN001 - a Playwright page
    return page.locator(".grid-cell", has_text=title).bounding_box()["height"]


@pytest.mark.browser
def test_room_headers_and_times_stay_in_view_both_ways_on_a_desktop(page, demo_live):  # noqa: ANN001
    page.goto(demo_live + "grid/")
    region = page.locator(".grid-scroll")
    header = page.locator(".grid thead th", has_text="Central Room")
    region.evaluate("el => el.scrollIntoView({behavior: 'instant'})")
    top = region.bounding_box()["y"]
    left = region.bounding_box()["x"]
    assert region.evaluate("el => el.scrollWidth > el.clientWidth") is False  # four rooms fit
    region.evaluate("el => { el.scrollTop = 600; }")
    assert region.evaluate("el => el.scrollTop") == 600
    assert header.bounding_box()["y"] == pytest.approx(top + 1, abs=1)
    # What shows at the time column's place is the time column, not a sliver of a card.
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('th, td').className",
        [left + 4, top + 250],
    )
    assert hit == "grid-time"


@pytest.mark.browser
def test_on_a_phone_the_page_scrolls_as_one_and_the_times_stay_in_view(phone, demo_live):  # noqa: ANN001
    phone.goto(demo_live + "grid/")
    region = phone.locator(".grid-scroll")
    # No box to scroll inside the page: the grid is as tall as its rows, only wider.
    assert region.evaluate(
        "el => [el.scrollHeight === el.clientHeight, el.scrollWidth > el.clientWidth]"
    ) == [True, True]
    region.evaluate("el => { el.scrollLeft = 300; }")
    phone.evaluate("window.scrollTo({top: 900, behavior: 'instant'})")
    assert phone.evaluate("window.scrollY") == 900
    left = region.bounding_box()["x"]
    # At the top of the screen and below it the time column shows: no day heading over it.
    hits = phone.evaluate(
        "([x, ys]) => ys.map(y => { const e = document.elementFromPoint(x, y).closest('th, td, h2');"
        " return e ? e.tagName + '.' + e.className : null; })",
        [left + 4, [2, 200, 600]],
    )
    assert hits == ["TH.grid-time", "TH.grid-time", "TH.grid-time"]
    # Each card names its room, since the room headers scrolled away with the page.
    cell = phone.locator(".grid-cell", has_text="Why Your Forecasting")
    expect(cell.locator(".room")).to_have_text("Central Room")


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_rows_are_to_scale_and_a_short_talk_shows_its_speakers(new_context, demo_live, size):  # noqa: ANN001
    viewport = {"viewport": PHONE, "is_mobile": True} if size == "phone" else {}
    page = new_context(**viewport).new_page()
    page.goto(demo_live + "grid/")
    ten = cell_height(page, "Why Your Forecasting Transformer")  # 11:00-11:10: the least, 4 steps
    twenty_five = cell_height(page, "Helion 1.0")  # 11:00-11:25: rows of 4, 1 and 4 steps
    assert (round(ten), round(twenty_five)) == (4 * STEP - 11, 9 * STEP - 11)
    rows = page.locator(".grid tbody tr")
    heights = [round(rows.nth(n).bounding_box()["height"]) for n in (0, 1, 3, 11)]
    # 11:00-11:10 grown to fit its cards, 11:10-11:15, the 5-minute break at 11:25 and the
    # 80-minute one at 12:25, each to scale.
    assert heights == [4 * STEP, 1 * STEP, 1 * STEP, 16 * STEP]
    cell = page.locator(".grid-cell", has_text="Why Your Forecasting Transformer")
    speaker = cell.locator(".card-speakers")
    expect(speaker).to_have_text("Rosheen Naeem, Open Climate Fix")
    box, inner = cell.bounding_box(), speaker.bounding_box()
    assert inner["y"] + inner["height"] <= box["y"] + box["height"]  # shown, not cut off


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
def test_during_the_event_the_list_opens_at_the_first_session_still_running(page, demo_live):  # noqa: ANN001
    # At 11:20, Helion 1.0 (11:00-11:25) is still running: the list opens at 11:00, not at
    # the 11:15 slot that would hide it above the screen.
    page.clock.set_fixed_time(DURING)
    page.goto(demo_live)
    expect(page.locator("[data-now-jump]")).to_have_text("Jump to now (11:00)")
    slot = page.locator("#slot-20260407-1100")
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
