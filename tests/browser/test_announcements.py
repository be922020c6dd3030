"""An announcement shows on an open page without a reload (news.js), politely said."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from confsched.live import services
from confsched.programme.models import Event
from tests.browser.test_accessibility import axe_source, wcag22_violations  # noqa: F401 - a fixture
from tests.conftest import DEMO_SLUG

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_an_announcement_appears_without_reload(
    demo_live: str, new_context, monkeypatch: pytest.MonkeyPatch, axe_source: str  # noqa: ANN001, F811
) -> None:  # fmt: skip
    monkeypatch.setattr(services, "notify_announcement", lambda *args: None)
    page = new_context().new_page()
    page.goto(demo_live)
    assert page.locator("[data-news-banner]").count() == 0
    services.announce(
        Event.objects.get(slug=DEMO_SLUG),
        texts={"en": "The keynote moves to Hall A, doors open at 9:15."},
        link=f"/{DEMO_SLUG}/now/",
    )
    banner = page.locator("section.news")
    banner.wait_for(timeout=15_000)  # asked every 10 s
    assert banner.locator("p").inner_text() == "The keynote moves to Hall A, doors open at 9:15."
    assert banner.get_by_role("link", name="Read more").get_attribute("href") == (
        f"/{DEMO_SLUG}/now/"
    )
    assert page.locator("[data-news-status]").inner_text() == (
        "New announcement: The keynote moves to Hall A, doors open at 9:15."
    )
    # The page with its banner, as a phone shows it and as served: WCAG 2.2 AA throughout.
    phone = new_context(viewport={"width": 375, "height": 800}).new_page()
    phone.goto(demo_live)
    assert phone.locator("section.news").count() == 1
    assert wcag22_violations(phone, axe_source) == []
    if os.environ.get("CONFSCHED_SCREENSHOTS"):  # docs/screenshots, made by hand
        for name, width in (("phone", 375), ("desktop", 1280)):
            shot = new_context(viewport={"width": width, "height": 800}).new_page()
            shot.goto(demo_live)
            shot.screenshot(path=str(SCREENSHOTS / f"announcement-{name}.png"))
