"""The now-and-next page on a phone: it fits, counts down, refreshes each minute, and says so
when the network is gone. The server's clock is patched; the browser's is Playwright's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from confsched.core import clock
from tests.browser.conftest import PHONE

# 11:05 in Paris on the first day: Helion runs on the Master Stage until 11:25.
START = datetime(2026, 4, 7, 9, 5, tzinfo=UTC)
LATER = datetime(2026, 4, 7, 9, 16, 1, tzinfo=UTC)  # 11:16:01, a minute boundary passed
# The browser starts half a minute behind the server, so that the first count (on load) lands
# on the same whole minutes as the server's rather than on the edge of one.
BROWSER_START = datetime(2026, 4, 7, 9, 4, 30, tzinfo=UTC)


@pytest.fixture
def phone(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    # Service workers off: this is about now.js, not about the offline copy.
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block")
    return context.new_page()


@pytest.fixture
def server_time(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The live server's clock: set `server_time[0]` to move it."""
    moment = [START]
    monkeypatch.setattr(clock, "now", lambda: moment[0])
    return moment


def _room(page, name: str):  # noqa: ANN001, ANN202 - Playwright objects
    return page.locator("li.now-room").filter(
        has=page.get_by_role("heading", name=name, exact=True)
    )


@pytest.mark.browser
def test_the_board_fits_the_phone_and_refreshes_each_minute(phone, demo_live, server_time):  # noqa: ANN001
    phone.clock.install(time=BROWSER_START)
    phone.goto(demo_live + "now/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Now and next")
    expect(phone.locator("li.now-room h2")).to_have_text(
        ["Central Room", "Founders Cafe", "Junior Stage", "Master Stage"]
    )
    master = _room(phone, "Master Stage")
    expect(master.locator(".now-current .now-title")).to_have_text(
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels"
    )
    expect(master.locator(".now-current .now-countdown")).to_have_text("20 min left")
    expect(_room(phone, "Junior Stage").locator(".now-upcoming .now-countdown")).to_have_text(
        "in 10 min"
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    server_time[0] = LATER
    phone.clock.fast_forward("11:31")  # the browser at 11:16:01 too: the minute's refresh runs
    junior = _room(phone, "Junior Stage")
    expect(junior.locator(".now-current .now-title")).to_have_text(
        "Flexible Deployment of PyTorch Models on MCU-Class Devices Using ExecuTorch"
    )
    expect(junior.locator(".now-current .now-countdown")).to_have_text("8 min left")
    expect(master.locator(".now-current .now-countdown")).to_have_text("8 min left")
    expect(phone.locator(".now-as-of time")).to_have_text("Tuesday 7 April, 11:16")
    expect(phone.locator("[data-now-status]")).to_have_text("")


@pytest.mark.browser
def test_offline_it_keeps_counting_and_says_the_board_is_old(phone, demo_live, server_time):  # noqa: ANN001
    phone.clock.install(time=BROWSER_START)
    phone.goto(demo_live + "now/")
    master = _room(phone, "Master Stage")
    expect(master.locator(".now-current .now-countdown")).to_have_text("20 min left")
    phone.context.set_offline(True)
    phone.clock.fast_forward("01:31")  # 11:06:01: the refresh fails
    expect(phone.locator("[data-now-status]")).to_have_text(
        "Could not refresh (offline?): this is the board as of Tuesday 7 April, 11:05."
    )
    expect(master.locator(".now-current .now-countdown")).to_have_text("18 min left")
    expect(master.locator(".now-upcoming .now-countdown")).to_have_text("in 23 min")
    phone.context.set_offline(False)
