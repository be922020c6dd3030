"""At the door on a phone (375 px): a staff member types codes, gets welcome, already checked
in and not on the list in place (htmx), admits a walk-in; the camera reads a QR code where the
browser can; the plain form works without JavaScript; axe finds nothing serious.

Screenshots go to docs/screenshots/ with CONFSCHED_SCREENSHOTS=1 (else to a temporary folder).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import _serious, axe_source  # noqa: F401 - a fixture
from tests.conftest import ROOT

pytestmark = pytest.mark.browser

HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # Master Stage, 11:00
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"  # Master, 11:30
FORECAST = (  # Central Room, 11:00, open entry
    "lightning-talk-why-your-forecasting-transformer-isnt-working-and-how-to-fix-it-in-python"
)
# The browser's own QR reader and camera, stood in for: Linux Chromium has no BarcodeDetector.
FAKE_CAMERA = """
window.__scanned = "";
window.BarcodeDetector = class {
  constructor(options) { this.options = options; }
  async detect(source) { return window.__scanned ? [{rawValue: window.__scanned}] : []; }
};
const camera = async () => {
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 64;
  canvas.getContext("2d").fillRect(0, 0, 64, 64);
  return canvas.captureStream(5);
};
if (navigator.mediaDevices) { navigator.mediaDevices.getUserMedia = camera; }
else { Object.defineProperty(navigator, "mediaDevices", {value: {getUserMedia: camera}}); }
"""


@pytest.fixture
def door(demo_live: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Helion with 3 seats taken by Ada, Bo and Cy; Tour with 40 seats and one reservation;
    one walk-in counted at the open-entry Forecast talk. It is Tuesday morning."""
    from django.contrib.auth.models import User

    from confsched.agenda.reservations import reserve, set_seats
    from confsched.core import clock
    from confsched.programme.models import Session

    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 7, 8, 52, tzinfo=UTC))
    from confsched.agenda.checkin import admit_walk_in

    helion = Session.objects.get(key=HELION)
    set_seats(helion, 3)
    codes = {
        name: reserve(User.objects.create_user(name.lower(), password="pw", first_name=name),
                      helion).reservation.code
        for name in ("Ada", "Bo", "Cy")
    }  # fmt: skip
    tour = Session.objects.get(key=TOUR)
    set_seats(tour, 40)
    reserve(User.objects.get(username="ada"), tour)
    admit_walk_in(Session.objects.get(key=FORECAST))
    return {"url": f"{demo_live}sessions/{HELION}/checkin/", "index": f"{demo_live}checkin/",
            "insight": f"{demo_live}insight/", **codes}  # fmt: skip


def _staff_context(new_context, live_url: str, **options: object):  # noqa: ANN001, ANN202
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    from tests.teams import on_team

    # An editor: check-in at the door, and the insight page the test visits after.
    client.force_login(on_team(User.objects.create_user("door", password="pw"), "editor"))
    context = new_context(viewport=PHONE, **options)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    site = live_url.split("/pytorch-conference-europe-2026/")[0]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": site}])
    return context


def _shots() -> Path | None:
    return ROOT / "docs" / "screenshots" if os.environ.get("CONFSCHED_SCREENSHOTS") else None


def test_check_in_on_a_phone(new_context, door: dict, axe_source: str) -> None:  # noqa: ANN001, F811 - the fixture imported above
    page = _staff_context(new_context, door["url"]).new_page()
    page.goto(door["index"])
    page.get_by_role("link", name="Helion 1.0").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Helion 1.0")
    code = page.get_by_label("Check-in code")
    expect(code).to_be_focused()
    result = page.locator("#checkin-result")
    figures = page.locator(".checkin-figures dd")
    expect(figures).to_have_text(["3", "3", "0", "0"])  # seats, confirmed, checked in, free
    expect(page.get_by_role("button", name="Walk-in")).to_have_count(0)

    ada = door["Ada"]
    code.fill(f"{ada[:5].lower()} {ada[5:]}")
    code.press("Enter")
    expect(result).to_have_text("✓ Welcome, AdaChecked in at 10:52.")
    expect(result.locator(".checkin-outcome")).to_have_class("checkin-outcome checkin-welcome")
    expect(figures).to_have_text(["3", "3", "1", "0"])
    expect(code).to_have_value("")  # ready for the next person, still on the same page
    expect(code).to_be_focused()
    assert page.url == door["url"]
    if _shots():
        page.screenshot(path=str(_shots() / "checkin-phone.png"))

    code.fill(ada)
    page.get_by_role("button", name="Check in").click()
    expect(result).to_contain_text("Already checked in")
    expect(result).to_contain_text("Ada checked in at 10:52.")
    expect(result.locator(".checkin-outcome")).to_have_class("checkin-outcome checkin-already")

    code.fill("7KQ2MXR9VB")
    code.press("Enter")
    expect(result).to_have_text("✕ Not on the listNo reservation has the code 7KQ2MXR9VB.")
    expect(result.locator(".checkin-outcome")).to_have_class("checkin-outcome checkin-not-on-list")
    assert _serious(page, axe_source) == []

    # Bo gives up the seat: one free, a walk-in takes it.
    from django.contrib.auth.models import User

    from confsched.agenda.reservations import cancel
    from confsched.programme.models import Session

    cancel(User.objects.get(username="bo"), Session.objects.get(key=HELION))
    page.reload()
    expect(figures).to_have_text(["3", "2", "1", "1"])
    page.get_by_role("button", name="Walk-in").click()
    expect(result).to_have_text("✓ Walk-in admittedSeat given: 3 of 3 taken, 0 free.")
    expect(figures).to_have_text(["3", "3", "2", "0"])
    expect(page.get_by_role("button", name="Walk-in")).to_have_count(0)
    expect(page.locator(".checkin-full")).to_have_text("No seat free for walk-ins.")
    assert _serious(page, axe_source) == []

    page.goto(door["index"])
    expect(page.locator(".checkin-session-counts").first).to_have_text(
        "2 checked in · 3 of 3 seats taken"
    )
    assert _serious(page, axe_source) == []
    if _shots():
        page.screenshot(path=str(_shots() / "checkin-index-phone.png"))
    page.goto(door["insight"])
    rows = page.locator(".insight-seats tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0).locator("td")).to_have_text(["0", "3", "0", "2", "3", "—"])
    expect(rows.nth(1).locator("td")).to_have_text(["0", "1", "0", "1", "open", "—"])
    expect(rows.nth(2).locator("td")).to_have_text(["0", "1", "0", "0", "40", "—"])
    assert _serious(page, axe_source) == []
    if _shots():  # an organizer's desk page: taken at desktop width, where it is read
        page.set_viewport_size({"width": 1280, "height": 900})
        page.locator("section[aria-labelledby=seats-heading]").screenshot(
            path=str(_shots() / "insight-seats.png")
        )


def test_the_camera_reads_a_code(new_context, door: dict) -> None:  # noqa: ANN001
    context = _staff_context(new_context, door["url"])
    context.add_init_script(FAKE_CAMERA)
    page = context.new_page()
    page.goto(door["url"])
    scan = page.get_by_role("button", name="Scan with camera")
    scan.click()
    expect(page.get_by_role("button", name="Stop camera")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("video.checkin-video")).to_be_visible()
    page.evaluate(f"window.__scanned = {door['Cy']!r}")
    expect(page.locator("#checkin-result")).to_have_text("✓ Welcome, CyChecked in at 10:52.")
    expect(page.get_by_label("Check-in code")).not_to_be_focused()  # no keyboard over the camera
    page.evaluate("window.__scanned = ''")
    page.get_by_role("button", name="Stop camera").click()
    expect(page.locator("video.checkin-video")).to_be_hidden()
    expect(page.get_by_role("button", name="Scan with camera")).to_be_visible()


def test_no_camera_button_without_a_qr_reader(new_context, door: dict) -> None:  # noqa: ANN001
    page = _staff_context(new_context, door["url"]).new_page()
    page.goto(door["url"])
    assert page.evaluate("'BarcodeDetector' in window") is False
    expect(page.locator("[data-scan]")).to_be_hidden()


def test_check_in_without_javascript(new_context, door: dict) -> None:  # noqa: ANN001
    page = _staff_context(new_context, door["url"], java_script_enabled=False).new_page()
    page.goto(door["url"])
    page.get_by_label("Check-in code").fill(door["Bo"])
    page.get_by_role("button", name="Check in").click()
    expect(page.locator("#checkin-result")).to_have_text("✓ Welcome, BoChecked in at 10:52.")
    expect(page.locator(".checkin-figures dd")).to_have_text(["3", "3", "1", "0"])
    expect(page.get_by_label("Check-in code")).to_have_value("")
