"""The grid: the page scrolls as a whole with the room header and the times in view, time is
to scale, a short talk's card shows whole on focus (issue 29, item 5); during the event the
pages open at the slot running now (issue 9, items 6 and 8)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE

STEP = 32  # px: five minutes of the grid (2rem), 6.4 px a minute
DAY_HEADING = 40  # px: the day's sticky heading (2.5rem), the room header right under it
DURING = datetime(2026, 4, 7, 11, 20, tzinfo=ZoneInfo("Europe/Paris"))
AFTER = datetime(2026, 4, 9, 9, 0, tzinfo=ZoneInfo("Europe/Paris"))
SIZES = {"desktop": {}, "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True}}
TEN = "A ten-minute lightning talk whose title is long enough to need three lines of a cell"
FIVE = "A five-minute lightning talk with a title far too long for the one line its cell shows"


@pytest.fixture
def wide_live(transactional_db, live_server) -> str:  # noqa: ANN001 - pytest fixtures
    """Six rooms from 09:00 to 17:00 in Paris, 25-minute talks every half hour, one of them
    ten minutes long and one five (Rooms 0 and 1 at 09:00); returns the grid's URL."""
    from confsched.interchange.synthetic import synthetic_programme
    from confsched.programme.services import create_event, load_programme

    programme = synthetic_programme(96, rooms=6, days=1, start=datetime(2026, 4, 7, 7, tzinfo=UTC))
    first, second = programme.sessions[:2]
    programme.sessions[:2] = [
        replace(first, title=TEN, ends_at=first.starts_at + timedelta(minutes=10)),
        replace(second, title=FIVE, ends_at=second.starts_at + timedelta(minutes=5)),
    ]
    event = create_event(slug="wide", name="Six rooms", timezone="Europe/Paris")
    load_programme(event, programme)
    return f"{live_server.url}/wide/grid/"


def cell_box(page, title: str) -> dict:  # noqa: ANN001 - a Playwright page
    return page.locator(".grid-busy", has_text=title).bounding_box()


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_the_page_scrolls_and_the_room_header_and_times_stay_in_view(new_context, wide_live, size):  # noqa: ANN001
    page = new_context(**SIZES[size]).new_page()
    page.goto(wide_live)
    region = page.get_by_role("region", name="Rooms and times, Tuesday 7 April")
    # Six rooms are wider than either screen: the grid's box scrolls sideways, and only so.
    assert region.evaluate("el => el.scrollWidth > el.clientWidth") is True
    region.evaluate("el => { el.scrollLeft = 200; }")
    # Down to the afternoon: the window scrolls, not a box inside the page.
    top = page.locator("#slot-20260407-1300").bounding_box()["y"]
    page.evaluate("y => window.scrollTo({top: y, behavior: 'instant'})", round(top))
    assert page.evaluate("document.scrollingElement.scrollTop") == round(top)
    assert region.evaluate("el => [el.scrollTop, getComputedStyle(el).overflowY]") == [0, "hidden"]
    # The day heading at the top of the window, the room header right under it.
    page.wait_for_function(
        "() => document.querySelector('.grid thead th').getBoundingClientRect().top >= 0"
    )
    header = page.locator(".grid thead th", has_text="Room 3")
    heading = page.locator(".day-heading").bounding_box()
    assert heading["y"] == 0
    assert header.bounding_box()["y"] == pytest.approx(DAY_HEADING + 1, abs=1)
    # The header moved sideways with the grid: it stands over its column's cells.
    cell = page.locator(".grid-busy", has_text="Session number 51 about")  # Room 3 at 13:00
    assert header.bounding_box()["x"] == cell.bounding_box()["x"]
    # What shows at the time column's place is the time column, under the header the times.
    left = region.bounding_box()["x"]
    hits = page.evaluate(
        "([x, ys]) => ys.map(y => document.elementFromPoint(x, y).closest('th, td, h2').className)",
        [left + 4, [20, DAY_HEADING + 8, 300]],
    )
    assert hits == ["day-heading", "grid-time", "grid-time"]


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_heights_are_to_scale_and_a_short_talk_shows_its_whole_card_on_focus(
    new_context, wide_live, size  # noqa: ANN001
):  # fmt: skip
    page = new_context(**SIZES[size]).new_page()
    page.goto(wide_live)
    ten, five, twenty_five = (
        cell_box(page, t)["height"] for t in (TEN, FIVE, "Session number 2 about")
    )
    assert (ten, five, twenty_five) == (2 * STEP, STEP, 5 * STEP)  # 6.4 px a minute
    # Too short for its title: one line shows, then on focus the whole card.
    link = page.get_by_role("link", name=FIVE)
    assert link.evaluate("a => a.scrollHeight > a.clientHeight") is True
    speakers = page.locator(".grid-busy", has_text=FIVE).locator(".card-speakers")
    expect(speakers).to_have_text("Person 2, Company; Person 3, Company 3")
    link.focus()
    card = page.locator(".grid-busy", has_text=FIVE).locator(".card").bounding_box()
    title = link.bounding_box()
    assert card["height"] > 2 * STEP
    assert title["y"] + title["height"] <= card["y"] + card["height"]
    # Over the cards below it, not under them.
    inner = speakers.bounding_box()
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.grid-busy').textContent",
        [inner["x"] + 4, inner["y"] + inner["height"] / 2],
    )
    assert FIVE in hit


@pytest.mark.browser
def test_on_a_phone_a_tap_on_a_short_card_shows_it_whole_and_stays(new_context, wide_live):  # noqa: ANN001
    page = new_context(**SIZES["phone"]).new_page()
    page.goto(wide_live)
    cell = page.locator(".grid-busy", has_text=TEN)
    link = page.get_by_role("link", name=TEN)
    one_line = link.bounding_box()["height"]
    cell.locator(".card-speakers").tap()  # below the title's one line, beside no link
    assert page.url == wide_live  # not taken to the session's page
    expect(cell.locator(".grid-cell")).to_be_focused()
    assert link.bounding_box()["height"] >= 3 * one_line  # the whole title, on three lines
    assert cell.locator(".card").bounding_box()["height"] > 2 * STEP


@pytest.fixture
def seated_live(transactional_db, live_server) -> str:  # noqa: ANN001 - pytest fixtures
    """Three rooms from 09:00 in Paris, in 2030 (reservations open), 25-minute talks every half
    hour but the first, five minutes long; every session takes reservations (30 seats)."""
    from confsched.interchange.synthetic import synthetic_programme
    from confsched.programme.models import Session
    from confsched.programme.services import create_event, load_programme

    programme = synthetic_programme(12, rooms=3, days=1, start=datetime(2030, 4, 9, 7, tzinfo=UTC))
    first = programme.sessions[0]
    programme.sessions[0] = replace(
        first, title=FIVE, ends_at=first.starts_at + timedelta(minutes=5)
    )
    event = create_event(slug="seated", name="Seated", timezone="Europe/Paris")
    load_programme(event, programme)
    Session.objects.filter(event=event).update(seats=30)
    return f"{live_server.url}/seated/grid/"


SHOWN = "([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? ''"


def shown_at_centre(page, box: dict) -> str:  # noqa: ANN001 - a Playwright page
    """The text of the button drawn at the middle of `box` (what a click there would press)."""
    return page.evaluate(SHOWN, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])


@pytest.mark.browser
def test_a_session_s_seat_control_shows_in_its_cell_and_a_short_one_s_on_focus(
    new_context, seated_live  # noqa: ANN001
) -> None:  # fmt: skip
    page = new_context().new_page()
    page.goto(seated_live)
    # A 25-minute cell: the seats free and the button at the foot of its card, in the cell.
    talk = page.locator(".grid-busy", has_text="Session number 1 about")
    expect(talk.locator(".seat-state")).to_have_text("30 of 30 seats free")
    button = talk.get_by_role("button", name="Reserve a seat")
    cell, box = talk.bounding_box(), button.bounding_box()
    assert cell["y"] < box["y"] and box["y"] + box["height"] <= cell["y"] + cell["height"]
    assert shown_at_centre(page, box).startswith("Reserve a seat")
    # A five-minute cell has no room for it: not drawn, yet the next tab stop after the star.
    short = page.locator(".grid-busy", has_text=FIVE)
    reserve = short.get_by_role("button", name="Reserve a seat")
    assert short.locator(".seat").bounding_box()["width"] <= 1
    assert shown_at_centre(page, reserve.bounding_box()) == ""
    page.get_by_role("link", name=FIVE).focus()
    page.keyboard.press("Tab")
    expect(short.locator(".star")).to_be_focused()
    page.keyboard.press("Tab")
    expect(reserve).to_be_focused()
    # Focused, the cell shows its whole card with the control at its foot, over the cell below.
    box = reserve.bounding_box()
    assert box["width"] > 100 and box["height"] >= 24  # WCAG 2.5.8's target size
    assert shown_at_centre(page, box).startswith("Reserve a seat")


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
    # The page opened at that row, below the day heading and the room header that follows.
    page.wait_for_function("() => window.scrollY > 0")
    page.wait_for_function(
        "() => document.querySelector('.grid thead th').getBoundingClientRect().top > 0"
    )
    header = page.locator(".grid thead th").first.bounding_box()
    row = page.locator("#slot-20260407-1115").bounding_box()
    assert header["y"] + header["height"] <= row["y"] < header["y"] + header["height"] + 24


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
