"""The main tasks with the keyboard alone, at a phone's 375 px and a desktop's 1280 px: sign up,
find a session, star it, reserve a seat, rate it (WCAG 2.1.1, 2.4.7, 2.4.11; see
docs/accessibility.md). Tab reaches each control in turn; every control focused on the way
shows a focus indicator (an outline or a shadow) and is not under anything else, the sticky
day headings included. With CONFSCHED_FOCUS_SHOTS=<directory> each reached control's focus is
photographed there."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, TORCHJD, TORCHJD_KEY

pytestmark = pytest.mark.browser

DURING = datetime(2026, 4, 7, 12, 0, tzinfo=UTC)  # TorchJD has begun: it can be rated
MOST_TABS = 120

# What the focused element shows: whether it has an indicator and whether the point at its
# centre is itself (or its label, or inside it) rather than something drawn over it. Nothing
# focused (what: '') is Tab passing from the page's end to the browser's own controls.
FOCUSED = """async () => {
  // Measure once any scrolling has settled (the walks ask for reduced motion, so the page's
  // smooth scrolling is off and this is at once).
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const where = () => Array.from(document.querySelectorAll('*'))
    .filter((e) => e.scrollTop || e.scrollLeft).map((e) => e.scrollTop + ',' + e.scrollLeft)
    .join(' ') + ' ' + window.scrollX + ',' + window.scrollY;
  for (let last = '', now = where(), n = 0; now !== last && n < 120; n++) {
    await frame(); await frame();
    last = now; now = where();
  }
  const el = document.activeElement;
  if (!el || el === document.body) { return {what: '', shown: true, clear: true, over: ''}; }
  const style = getComputedStyle(el);
  const shown = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
    || style.boxShadow !== 'none';
  // 2.4.11 asks that the control be not entirely hidden: a line of a link wrapped over lines
  // will do. Each line's box is tried at the centre of its part in the window.
  const labels = Array.from(el.labels || []);
  const boxes = Array.from(el.getClientRects());
  let hit = null, clear = false;
  for (const box of boxes) {
    // The part of the box inside the window (a scrolled region may be taller than it).
    const left = Math.max(box.left, 0), right = Math.min(box.right, innerWidth);
    const top = Math.max(box.top, 0), bottom = Math.min(box.bottom, innerHeight);
    if (right <= left || bottom <= top) { continue; }
    hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
    clear = !!hit && (hit === el || el.contains(hit) || labels.some((l) => l.contains(hit)));
    if (clear) { break; }
  }
  const box = el.getBoundingClientRect();
  const what = el.tagName.toLowerCase() + ' ' + (el.getAttribute('aria-label') || el.innerText
    || el.getAttribute('name') || el.id || '').trim().replace(/\\s+/g, ' ').slice(0, 50);
  return {what, shown, clear, over: clear ? '' : (hit ? hit.outerHTML.slice(0, 80) : 'off screen at ' + Math.round(box.left) + ',' + Math.round(box.top) + ' ' + Math.round(box.width) + 'x' + Math.round(box.height))};
}"""


class Walk:
    """Tab through a page to the controls of a task, noting every control focused on the way
    whose focus is not visible or is covered."""

    def __init__(self, page, width: int) -> None:  # noqa: ANN001 - a Playwright page
        self.page = page
        self.width = width
        self.faults: list[str] = []

    def to(self, target, *, shot: str = "") -> None:  # noqa: ANN001 - a Playwright locator
        """Press Tab until `target` has the focus (at once when the page gave it the focus: the
        account forms' first field); fails when MOST_TABS presses do not reach it."""
        for _ in range(MOST_TABS + 1):
            if _ or not target.evaluate("el => el === document.activeElement"):
                self.page.keyboard.press("Tab")
            focused = self.page.evaluate(FOCUSED)
            if not focused["shown"]:
                self.faults.append(f"on the way to {target}: no visible focus: {focused['what']}")
            if not focused["clear"]:
                self.faults.append(
                    f"on the way to {target}: covered: {focused['what']} by {focused['over']}"
                )
            if target.evaluate("el => el === document.activeElement"):
                self._shot(shot)
                return
        raise AssertionError(f"{MOST_TABS} presses of Tab did not reach {target}")

    def next_is(self, target) -> None:  # noqa: ANN001 - a Playwright locator
        """One press of Tab focuses `target` (the form's next field)."""
        self.page.keyboard.press("Tab")
        expect(target).to_be_focused()
        focused = self.page.evaluate(FOCUSED)
        assert (focused["shown"], focused["clear"]) == (True, True), focused

    def through(self, presses: int, *, key: str = "Tab") -> None:
        """Press `key` (Tab or Shift+Tab) `presses` times, checking every control focused."""
        for _ in range(presses):
            self.page.keyboard.press(key)
            focused = self.page.evaluate(FOCUSED)
            if not (focused["shown"] and focused["clear"]):
                self.faults.append(f"{key}: {focused}")

    def back_at_the_top(self, *, shot: str = "") -> None:
        """The reader scrolls until the focused control (a session's title) sits at the window's
        top edge, under the sticky day heading; Tab moves on to the control beside it (its
        star), and the page must scroll that out from under the heading (its scroll padding)."""
        self.page.evaluate(
            "window.scrollBy({top: document.activeElement.getBoundingClientRect().top - 4,"
            " behavior: 'instant'})"
        )
        self.page.keyboard.press("Tab")
        focused = self.page.evaluate(FOCUSED)
        if not (focused["shown"] and focused["clear"]):
            self.faults.append(f"back at the top: {focused}")
        self._shot(shot)

    def _shot(self, name: str) -> None:
        folder = os.environ.get("CONFSCHED_FOCUS_SHOTS")
        if name and folder:
            self.page.screenshot(path=str(Path(folder) / f"{name}-{self.width}.png"))


@pytest.mark.parametrize("width", [375, 1280])
def test_sign_up_find_star_reserve_and_rate_with_the_keyboard_alone(
    new_context, workshop: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    from django.contrib.auth.models import User

    from confsched.agenda.models import AgendaItem, Feedback, Reservation
    from confsched.core import clock

    # Reduced motion: focus scrolls at once, not smoothly, to where smooth scrolling ends.
    viewport = PHONE if width == 375 else DESKTOP
    page = new_context(viewport=viewport, reduced_motion="reduce").new_page()
    walk = Walk(page, width)
    page.goto(workshop)

    # The first Tab shows the skip link, then on to signing up.
    walk.to(page.get_by_role("link", name="Skip to content"), shot="skip-link")
    walk.to(page.get_by_role("link", name="Sign up"), shot="sign-up-link")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text("Create an account")
    walk.to(page.get_by_label("Username"), shot="username")
    page.keyboard.type("ada")
    walk.next_is(page.get_by_label("Email"))
    page.keyboard.type("ada@example.org")
    walk.next_is(page.get_by_label("Password", exact=True))
    page.keyboard.type("a fine password 7")
    walk.next_is(page.get_by_label("Password confirmation"))
    page.keyboard.type("a fine password 7")
    walk.to(page.get_by_role("button", name="Sign up"))
    page.keyboard.press("Enter")
    expect(page).to_have_url(workshop)
    expect(page.locator(".account .who")).to_have_text("ada")

    # A session's title scrolled to the top edge, under the sticky day heading, then its star.
    walk.to(page.locator("#results .card-title a").nth(8))
    walk.back_at_the_top(shot="under-the-day-heading")

    # Find the session: the schedule's search (in the filters, folded on a phone), then its title.
    filters = page.locator("details[data-filters-panel]")
    if width == 375:
        expect(filters).not_to_have_attribute("open", "")
        walk.to(filters.locator("summary"), shot="filters")
        page.keyboard.press("Enter")
    expect(filters).to_have_attribute("open", "")
    walk.to(page.get_by_label("Search", exact=True), shot="search")
    page.keyboard.type("TorchJD")
    page.keyboard.press("Enter")
    expect(page.locator("#results").get_by_role("link", name=TORCHJD, exact=True)).to_have_count(1)
    walk.to(page.locator("#results").get_by_role("link", name=TORCHJD, exact=True), shot="result")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{workshop}sessions/{TORCHJD_KEY}/")

    # Star it, then reserve its one seat.
    walk.to(page.get_by_role("button", name=f"Star “{TORCHJD}” for my agenda"), shot="star")
    page.keyboard.press("Enter")
    starred = page.get_by_role("button", name=f"Starred: remove “{TORCHJD}” from my agenda")
    expect(starred).to_be_focused()  # the button swapped in keeps the focus
    walk.to(page.get_by_role("button", name=f"Reserve a seat for “{TORCHJD}”"), shot="reserve")
    page.keyboard.press("Enter")
    expect(page.locator(".session-seat .seat-note")).to_have_text("Your seat is reserved.")
    expect(page.get_by_role("button", name=f"Cancel my seat for “{TORCHJD}”")).to_be_focused()

    # The session begins: rate it 4 with a comment.
    monkeypatch.setattr(clock, "now", lambda: DURING)  # the live server runs in this process
    page.reload()
    walk.to(page.get_by_role("link", name="Rate this session"), shot="rate-link")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Feedback on {TORCHJD}")
    rating = page.get_by_role("group", name="Your rating")
    walk.to(rating.get_by_role("radio", name="1"), shot="rating")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(rating.get_by_role("radio", name="4")).to_be_checked()
    walk.next_is(page.get_by_label("Comment"))
    page.keyboard.type("Clear examples.")
    walk.to(page.get_by_role("button", name="Send feedback"), shot="send-feedback")
    page.keyboard.press("Enter")
    expect(page.locator("#feedback-saved")).to_contain_text("you rated this session 4 out of 5")

    ada = User.objects.get(username="ada")
    assert ada.email == "ada@example.org"
    assert list(AgendaItem.objects.filter(user=ada).values_list("session__key", flat=True)) == [
        TORCHJD_KEY
    ]
    assert list(Reservation.objects.filter(user=ada).values_list("session__key", "status")) == [
        (TORCHJD_KEY, "confirmed")
    ]
    assert list(Feedback.objects.filter(user=ada).values_list("rating", "comment")) == [
        (4, "Clear examples.")
    ]
    assert walk.faults == [], "\n".join(walk.faults)


@pytest.mark.parametrize("width", [375, 1280])
def test_the_grid_brings_each_control_tab_reaches_clear_of_its_sticky_row_and_column(
    new_context, demo_live: str, width: int
) -> None:  # noqa: ANN001
    """The grid scrolls on its own, under a sticky row of rooms and a sticky column of times:
    forward through the first day's cards, a card half out at the right edge comes whole into
    view; back again, a card comes out from under the rooms and the times."""
    viewport = PHONE if width == 375 else DESKTOP
    page = new_context(viewport=viewport, reduced_motion="reduce").new_page()
    page.goto(demo_live + "grid/")
    walk = Walk(page, width)
    walk.to(page.get_by_role("link", name=TORCHJD, exact=True))
    walk.through(40)
    walk.through(60, key="Shift+Tab")
    assert walk.faults == [], "\n".join(walk.faults)
