"""A workshop with one seat, on a 375 px phone: Ada reserves from the list, Bob joins the
waitlist from the session page, Ada cancels from her agenda, Bob has the seat at once (and a
mail); Cy, without JavaScript, joins the waitlist through the plain form. axe-core finds
nothing serious on the seat pages; with CONFSCHED_SCREENSHOTS=1, screenshots go to docs/screenshots/."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TORCHJD_KEY, TORCHJD_TITLE, signed_in
from tests.browser.test_accessibility import _serious, axe_source  # noqa: F401 - the fixture


def _shot(page, name: str, *, full_page: bool = False) -> None:  # noqa: ANN001 - a Playwright page
    """docs/screenshots/<name>.png with CONFSCHED_SCREENSHOTS=1 (the pictures in the docs are
    kept only when asked for: each run's codes differ)."""
    if os.environ.get("CONFSCHED_SCREENSHOTS"):
        shots = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
        page.screenshot(path=str(shots / f"{name}.png"), full_page=full_page)


TITLE = TORCHJD_TITLE


def _seat(page):  # noqa: ANN001, ANN202 - a Playwright page
    card = page.locator(".card-wrap", has=page.get_by_role("link", name=TITLE, exact=True))
    return card.locator(".seat")


@pytest.mark.browser
def test_reserve_full_waitlist_cancel_promoted(
    new_context,
    workshop: str,
    axe_source: str,  # noqa: F811 - the fixture
) -> None:  # noqa: ANN001
    from django.core import mail

    site = workshop.split("/pytorch-conference-europe-2026/")[0]
    ada_context, bob_context = new_context(viewport=PHONE), new_context(viewport=PHONE)
    signed_in(ada_context, site, "ada")
    signed_in(bob_context, site, "bob")
    ada, bob = ada_context.new_page(), bob_context.new_page()

    ada.goto(workshop)
    expect(_seat(ada).locator(".seat-state")).to_have_text("1 of 1 seats free")
    _seat(ada).get_by_role("button", name=f"Reserve a seat for “{TITLE}”").click()
    expect(_seat(ada).locator(".seat-note")).to_have_text("Your seat is reserved.")
    expect(_seat(ada).locator(".seat-state")).to_have_text("✓ Seat reserved")
    _seat(ada).scroll_into_view_if_needed()
    _shot(ada, "seats-list-phone")

    bob.goto(f"{workshop}sessions/{TORCHJD_KEY}/")
    seat = bob.locator(".session-seat .seat")
    expect(seat.locator(".seat-state")).to_have_text("Full · 0 waiting")
    seat.get_by_role("button", name=f"Join the waitlist (#1) of “{TITLE}”").click()
    expect(seat.locator(".seat-note")).to_have_text(
        "The session is full: you are number 1 on the waitlist."
    )
    _shot(bob, "seats-waitlist-phone")

    ada.goto(workshop + "agenda/")
    expect(ada.locator("#seats h3")).to_have_text(["Reserved"])
    code = ada.locator("#seats .checkin-code").inner_text()
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{10}", code)
    _shot(ada, "seats-agenda-phone", full_page=True)
    assert _serious(ada, axe_source) == []
    mail.outbox.clear()
    ada.locator(".agenda-entry .seat").get_by_role(
        "button", name=f"Cancel my seat for “{TITLE}”"
    ).click()
    expect(ada.locator(".agenda-entry .seat .seat-note")).to_have_text("Your seat is cancelled.")

    bob.reload()
    expect(bob.locator(".session-seat .seat-state")).to_have_text("✓ Seat reserved")
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["bob@example.org"], f"PyTorch Conference Europe 2026: you have a seat for “{TITLE}”")
    ]
    bob.locator(".session-seat .seat-state").click()  # the seat page, with the code
    expect(bob.locator("#ticket-heading")).to_have_text("Your seat is reserved")
    _shot(bob, "seat-page-phone", full_page=True)
    assert _serious(bob, axe_source) == []


@pytest.mark.browser
def test_without_javascript_the_plain_form_joins_the_waitlist(new_context, workshop: str) -> None:  # noqa: ANN001
    from django.contrib.auth.models import User

    from confsched.agenda import reservations
    from confsched.programme.models import Session

    reservations.reserve(User.objects.create_user("ada"), Session.objects.get(key=TORCHJD_KEY))
    site = workshop.split("/pytorch-conference-europe-2026/")[0]
    context = new_context(viewport=PHONE, java_script_enabled=False)
    signed_in(context, site, "cy")
    page = context.new_page()
    # The list: on the grid to scale a lightning talk's cell is too short to show its seat
    # control (clipped; a click there only reached it by scrolling the cell, and flaked).
    page.goto(workshop)
    _seat(page).get_by_role("button", name=f"Join the waitlist (#1) of “{TITLE}”").click()
    expect(page).to_have_url(f"{workshop}sessions/{TORCHJD_KEY}/seat/")
    expect(page.locator(".seat-note")).to_have_text(
        "The session is full: you are number 1 on the waitlist."
    )
    expect(page.locator("#waitlist-heading")).to_have_text("You are number 1 on the waitlist")
    page.get_by_role("link", name="Back").click()
    expect(page).to_have_url(re.compile(r"/pytorch-conference-europe-2026/(#s-\d+)?$"))


@pytest.mark.browser
def test_the_organizer_s_seats_pages_pass_axe(
    new_context,
    workshop: str,
    axe_source: str,  # noqa: F811 - the fixture
) -> None:  # noqa: ANN001
    site = workshop.split("/pytorch-conference-europe-2026/")[0]
    context = new_context(viewport=PHONE)
    signed_in(context, site, "boss", role="editor")
    page = context.new_page()
    page.goto(workshop + "seats/")
    expect(page.locator("h1")).to_have_text("Seats")
    assert _serious(page, axe_source) == []
    page.get_by_role("link", name=TITLE).click()
    page.get_by_label("Seats (empty: open entry)").fill("3")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".seat-note")).to_have_text("3 seats.")
    _shot(page, "seats-staff-phone", full_page=True)
    assert _serious(page, axe_source) == []
