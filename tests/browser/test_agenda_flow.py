"""The attendee's path: star as a visitor, sign up, keep the stars, see the clash, subscribe."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import TORCHJD

TOUR = "Tour De Force: LLM Inference Optimization From Simple To Sophisticated"


def _star_button(page, title: str):  # noqa: ANN001, ANN202
    card = page.locator(".card-wrap", has=page.get_by_role("link", name=title, exact=True))
    return card.locator("button.star")


@pytest.mark.browser
def test_star_sign_up_see_the_overlap_and_subscribe(page, demo_live) -> None:  # noqa: ANN001
    page.goto(demo_live)
    for title in (TORCHJD, TOUR):
        button = _star_button(page, title)
        expect(button).to_have_attribute("aria-pressed", "false")
        button.click()
        # htmx swapped the button in place: no page load, now pressed.
        expect(_star_button(page, title)).to_have_attribute("aria-pressed", "true")

    page.get_by_role("link", name="My agenda").click()
    expect(page.locator("p.summary")).to_have_text("2 sessions, 2 overlapping.")
    expect(page.locator(".notice")).to_contain_text("These stars live in this browser only.")

    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Email").fill("ada@example.org")
    page.get_by_label("Password", exact=True).fill("correct horse battery staple 42")
    page.get_by_label("Password confirmation").fill("correct horse battery staple 42")
    page.get_by_role("button", name="Sign up").click()

    # Back on the agenda, signed in, with both stars kept and the clash marked.
    expect(page).to_have_url(re.compile(r"/agenda/$"))
    expect(page.locator(".account .who")).to_have_text("ada")
    expect(page.locator("p.summary")).to_have_text("2 sessions, 2 overlapping.")
    expect(page.locator(".agenda-entry .card-title")).to_have_text([TOUR, TORCHJD])
    expect(page.locator(".clash")).to_have_text(
        [f"Overlaps with {TORCHJD}.", f"Overlaps with {TOUR}."]
    )

    feed_url = page.locator("#feed-url").input_value()
    assert re.fullmatch(re.escape(demo_live) + r"agenda/[A-Za-z0-9_-]{43}\.ics", feed_url)
    expect(page.get_by_role("link", name="Subscribe (webcal)")).to_have_attribute(
        "href", "webcal://" + feed_url.split("://", 1)[1]
    )
    # A calendar app has no cookies: the address alone must do.
    response = page.context.request.get(feed_url, headers={"Cookie": ""})
    body = response.text().replace("\r\n ", "")  # unfold RFC 5545 continuation lines
    assert response.status == 200
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    assert re.findall(r"^SUMMARY:(.*)\r$", body, flags=re.M) == [
        f"{TOUR}",
        f"Lightning Talk: {TORCHJD}",
    ]
