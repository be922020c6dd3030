"""A room marked full shows on an open schedule page within 10 s, without a reload (rooms.js),
on the card of the session running in it only; and goes when the room is open again."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from confsched.core import clock
from confsched.live.services import mark_room
from confsched.programme.models import Room
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import axe_source, wcag22_violations  # noqa: F401 - a fixture

# 11:05 in Paris: Helion runs on the Master Stage (11:00-11:25), Tour comes at 11:30.
NOW = datetime(2026, 4, 7, 9, 5, tzinfo=UTC)
HELION = "Helion 1.0: A High-Level DSL for Performance Portable Kernels"
TOUR = "Tour De Force: LLM Inference Optimization From Simple To Sophisticated"


@pytest.mark.browser
def test_the_badge_appears_within_ten_seconds_without_reload(
    new_context,
    demo_live,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
    axe_source: str,  # noqa: F811 - the fixture
) -> None:
    monkeypatch.setattr(clock, "now", lambda: NOW)
    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.clock.set_fixed_time(NOW)
    page.goto(demo_live)
    helion = page.locator("article.card").filter(has_text=HELION)
    tour = page.locator("article.card").filter(has_text=TOUR)
    expect(helion.locator(".room-full")).to_be_hidden()
    loaded = page.evaluate("performance.timeOrigin")

    mark_room(Room.objects.get(slug="master-stage"), is_full=True)
    expect(helion.locator(".room-full")).to_have_text("Room full", timeout=10_000)
    expect(helion.locator(".room-full")).to_be_visible()
    expect(tour.locator(".room-full")).to_be_hidden()  # not running yet: not said full
    expect(page.locator("[data-room-news]")).to_have_text("Room full: Master Stage")
    assert page.evaluate("performance.timeOrigin") == loaded  # the same page, not reloaded
    assert wcag22_violations(page, axe_source) == []  # the badge shown: WCAG 2.2 AA

    mark_room(Room.objects.get(slug="master-stage"), is_full=False)
    expect(helion.locator(".room-full")).to_be_hidden(timeout=10_000)
    expect(page.locator("[data-room-news]")).to_have_text("Room open again: Master Stage")
