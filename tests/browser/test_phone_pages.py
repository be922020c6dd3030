"""Phone pages a first-time user tripped on (issue 29, item 6), at 375 px: the zone bar says
its whole zone, and the favourites page with every session starred fits the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TORCHJD_KEY

WIDTH = PHONE["width"]


@pytest.fixture
def phone(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


@pytest.mark.browser
def test_the_zone_bar_is_not_cut_on_a_phone(phone, demo_live):  # noqa: ANN001
    phone.goto(demo_live + "?tz=America/New_York")
    # It was the sentence on one line, cut with an ellipsis: "America/New_York (EDT, U…".
    short = phone.locator(".zone-bar .zone-short")
    expect(short).to_have_text("America/New_York (EDT, UTC-04:00)")
    widths = short.evaluate("(e) => [e.scrollWidth, e.clientWidth]")
    assert widths[0] <= widths[1], widths
    assert phone.locator(".zone-bar > summary").bounding_box()["height"] < 24  # one line
    # The whole sentence is what a screen reader reads, and what the opened bar shows.
    sentence = phone.locator("#zone-now")
    expect(sentence).to_have_text(
        "Times in America/New_York (EDT, UTC-04:00). The event is in Europe/Paris (CEST, "
        "UTC+02:00)."
    )
    phone.locator(".zone-bar > summary").tap()
    expect(sentence).to_be_visible()
    expect(short).to_be_hidden()
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH


@pytest.mark.browser
def test_the_favourites_page_with_every_star_fits_a_phone(phone, demo_live):  # noqa: ANN001
    phone.goto(demo_live)
    stars = phone.locator("button.star")
    expect(stars).to_have_count(28)
    for n in range(28):
        stars.nth(n).tap()
        expect(stars.nth(n)).to_have_attribute("aria-pressed", "true")
    phone.goto(demo_live + "agenda/favourites/")
    expect(phone.locator("p.summary")).to_contain_text("28 starred sessions.")
    expect(phone.locator(".favourites-qr svg")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH
    box = phone.locator(".favourites-qr svg").bounding_box()
    assert box["x"] + box["width"] <= WIDTH
    # The paste box was 40 columns of the device's monospace font: 386 px where that font is
    # wider. In a larger font it still fits the page.
    paste = phone.locator("#favourites-text")
    paste.evaluate("(box) => { box.style.fontSize = '18px'; }")
    assert paste.evaluate("(box) => box.getBoundingClientRect().right") <= WIDTH - 16
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH


@pytest.mark.browser
def test_who_is_going_counts_me_right_after_i_star_on_the_session_page(
    phone, demo_live: str
) -> None:  # noqa: ANN001
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.create_user("ada", "ada@example.org"))
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    phone.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": site}]
    )
    phone.goto(demo_live + f"sessions/{TORCHJD_KEY}/")
    going = phone.locator("section.going .going-others")
    expect(going).to_have_text("No one has starred or reserved this session yet.")
    phone.locator("main button.star").first.tap()
    expect(going).to_have_text("1 attendee, none listed by name.")
