"""At phone width (375×812) pages fit without sideways scrolling; the grid scrolls in its box."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TORCHJD, TORCHJD_KEY

WIDTH = PHONE["width"]


@pytest.fixture
def phone(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


def page_width(page) -> int:  # noqa: ANN001 - a Playwright page
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.browser
@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("", "Schedule"),
        ("?track=training-systems&level=intermediate&q=torch", "Schedule"),
        (f"sessions/{TORCHJD_KEY}/", TORCHJD),
        ("speakers/", "Speakers"),
    ],
    ids=["list", "list-filtered", "session", "speakers"],
)
def test_page_fits_the_phone_width(phone, demo_live, path, heading):  # noqa: ANN001
    phone.goto(demo_live + path)
    expect(phone.locator("h1")).to_have_text(heading)
    assert phone.evaluate("window.innerWidth") == WIDTH
    assert page_width(phone) <= WIDTH


@pytest.mark.browser
def test_filters_start_folded_on_a_phone(phone, demo_live):  # noqa: ANN001
    phone.goto(demo_live)
    expect(phone.locator("p.summary")).to_have_text("Showing 28 of 28 sessions.")
    panel = phone.locator("details[data-filters-panel]")
    expect(panel).not_to_have_attribute("open", "")
    expect(phone.locator("#f-track-training-systems")).to_be_hidden()
    panel.locator("summary").click()
    expect(phone.locator("#f-track-training-systems")).to_be_visible()
    assert page_width(phone) <= WIDTH


@pytest.mark.browser
def test_grid_scrolls_inside_its_own_region(phone, demo_live):  # noqa: ANN001
    phone.goto(demo_live + "grid/")
    expect(phone.locator("h1")).to_have_text("Schedule grid")
    region = phone.get_by_role("region", name="Rooms and times, Tuesday 7 April")
    expect(region).to_have_count(1)
    expect(phone.locator(".grid-scroll")).to_have_count(1)
    assert page_width(phone) <= WIDTH

    sizes = region.evaluate(
        "el => ({client: el.clientWidth, scroll: el.scrollWidth,"
        " overflow: getComputedStyle(el).overflowX})"
    )
    assert sizes["overflow"] == "auto"
    assert sizes["client"] <= WIDTH
    assert sizes["scroll"] > sizes["client"]  # the table is wider than its box

    region.evaluate("el => { el.scrollLeft = 120; }")
    assert region.evaluate("el => el.scrollLeft") == 120
    assert phone.evaluate("window.scrollX") == 0
    assert page_width(phone) <= WIDTH


OVERLAPS = """() => {
  const boxes = (selector) => [...document.querySelectorAll(selector)].map((el) => [el.textContent.trim(), el.getBoundingClientRect()]);
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return boxes('.account a, .account button, .account select').flatMap(([name, box]) =>
    boxes('.site-nav a').filter(([, other]) => meet(box, other)).map(([other]) => `${name} over ${other}`));
}"""


@pytest.mark.browser
@pytest.mark.parametrize("meta", ["dates and place", "nothing"])
def test_the_account_links_leave_the_navigation_clear(phone, demo_live, meta):  # noqa: ANN001
    """The account's links sit at the right of the line under the event's name; with nothing on
    that line (an event with no dates or place yet), the line is kept for them."""
    from confsched.programme.models import Event

    if meta == "nothing":
        Event.objects.update(start_date=None, end_date=None, location="")
    else:
        Event.objects.update(location="Paris")
    phone.goto(demo_live)
    expect(phone.get_by_role("link", name="Log in")).to_be_visible()
    assert phone.evaluate(OVERLAPS) == []
