"""A write saved by the app whose answer never reached the phone (the front answered 502: the app
host went away after its commit). The page sends it again by itself, and shows the true state:
one star, one seat, never a button that says the opposite of what was saved."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TORCHJD_KEY, signed_in
from tests.browser.conftest import TORCHJD_TITLE as TITLE


def _first_answer_lost(page, pattern: str) -> list[int]:  # noqa: ANN001 - a Playwright page
    """Requests to `pattern` reach the app; the first one's answer is replaced by the front's
    502, as when the app host died between its commit and its answer. The statuses the app
    gave, in order."""
    given: list[int] = []

    def route(route) -> None:  # noqa: ANN001 - a Playwright route
        answer = route.fetch()
        given.append(answer.status)
        if len(given) == 1:
            route.fulfill(status=502, body="<h1>502 Bad Gateway</h1>", content_type="text/html")
        else:
            route.fulfill(response=answer)

    page.route(pattern, route)
    return given


@pytest.mark.browser
def test_a_seat_whose_answer_was_lost_is_reserved_once_and_shown(
    new_context, workshop: str
) -> None:  # noqa: ANN001
    from confsched.agenda.models import Reservation

    context = new_context(viewport=PHONE)
    signed_in(context, workshop.split("/pytorch-conference-europe-2026/")[0], "ada")
    page = context.new_page()
    given = _first_answer_lost(page, f"**/sessions/{TORCHJD_KEY}/reserve")
    page.goto(f"{workshop}sessions/{TORCHJD_KEY}/")
    seat = page.locator(".session-seat .seat")
    seat.get_by_role("button", name=f"Reserve a seat for “{TITLE}”").click()
    expect(seat.locator(".seat-state")).to_have_text("✓ Seat reserved")
    expect(seat.locator(".seat-note")).to_have_text("Your seat is reserved.")
    assert given == [200, 200]  # saved by the first; the second found it saved
    assert list(Reservation.objects.values_list("user__username", "status")) == [
        ("ada", "confirmed")
    ]


@pytest.mark.browser
def test_a_star_whose_answer_was_lost_is_one_star_and_shown(new_context, workshop: str) -> None:  # noqa: ANN001
    from confsched.agenda.models import AgendaItem

    context = new_context(viewport=PHONE)
    signed_in(context, workshop.split("/pytorch-conference-europe-2026/")[0], "ada")
    page = context.new_page()
    given = _first_answer_lost(page, f"**/sessions/{TORCHJD_KEY}/star")
    page.goto(f"{workshop}sessions/{TORCHJD_KEY}/")
    star = page.locator("main button.star").first
    star.click()
    expect(page.locator("main button.star").first).to_have_attribute("aria-pressed", "true")
    assert given == [200, 200]
    assert list(AgendaItem.objects.values_list("session__key", flat=True)) == [TORCHJD_KEY]


@pytest.mark.browser
def test_a_write_the_app_never_answers_says_it_was_not_saved(new_context, workshop: str) -> None:  # noqa: ANN001
    context = new_context(viewport=PHONE)
    signed_in(context, workshop.split("/pytorch-conference-europe-2026/")[0], "ada")
    page = context.new_page()
    page.route(f"**/sessions/{TORCHJD_KEY}/reserve", lambda route: route.fulfill(status=503))
    page.goto(f"{workshop}sessions/{TORCHJD_KEY}/")
    seat = page.locator(".session-seat .seat")
    seat.get_by_role("button", name=f"Reserve a seat for “{TITLE}”").click()
    expect(seat.locator(".seat-note.is-error")).to_have_text(
        "Not saved: the schedule could not be reached. Press again in a moment."
    )
    expect(seat.locator(".seat-state")).to_have_text("1 of 1 seats free")
