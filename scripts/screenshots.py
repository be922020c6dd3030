"""Screenshots of the public pages at desktop and phone widths, for people to look at.

Usage: python scripts/screenshots.py [BASE_URL] [OUT_DIR]
(default http://127.0.0.1:8000/pytorch-conference-europe-2026/ and ./screenshots)

With CONFSCHED_SCREENSHOT_STAFF=user:password in the environment, the staff pages (the insight
page) are taken too, signed in as that staff member.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
PAGES = {
    "list": "",
    "grid": "grid/",
    "filtered": "?track=training-systems&q=pytorch",
    "session": "sessions/lightning-talk-torchjd-jacobian-descent-in-pytorch/",
    "speakers": "speakers/",
    "speaker": "speakers/valerian-rey/",
    "agenda": "agenda/",
    "changes": "changes/",
    "zones": "zones/",
    "now": "now/",
    "plan": "plan/?track=training-systems",
    "embed": "embed/",
    "print-index": "print/",
    "print-day": "print/2026-04-07/",
    "search": "search/?q=running+models+on+phones",
    "favourites": "agenda/favourites/",
    # The site's own pages, from its root.
    "home": "/",
    "about": "/about/",
    "login": "/accounts/login/?next=/pytorch-conference-europe-2026/",
    "signup": "/accounts/signup/?next=/pytorch-conference-europe-2026/",
    "password-reset": "/accounts/password/reset/",
    "api-docs": "/api/v1/docs",
}
# Pages scrolled to a part of them: (address, the element brought to the top).
PARTS = {
    "similar": (
        "sessions/lightning-talk-torchjd-jacobian-descent-in-pytorch/",
        ".similar-sessions",
    ),
}
STAFF_PAGES = {"insight": "insight/"}
# Taken last, after starring the first sessions of the list: pages that show someone's stars.
STARS = 4
STARRED_PAGES = {"favourites-qr": "agenda/favourites/"}
SIZES = {"desktop": (1280, 900), "phone": (375, 812)}


def _shoot(page, out: Path, name: str, size_name: str) -> None:  # noqa: ANN001 - a Playwright page
    page.wait_for_load_state("networkidle")
    target = out / f"{name}-{size_name}.png"
    page.screenshot(path=str(target), full_page=False)
    print(target)


def _sign_in(page, site: str, staff: str) -> None:  # noqa: ANN001 - a Playwright page
    user, _, password = staff.partition(":")
    page.goto(site + "/admin/login/")
    page.fill("#id_username", user)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_load_state("networkidle")


def main() -> None:
    base = (
        sys.argv[1]
        if len(sys.argv) > 1
        else "http://127.0.0.1:8000/pytorch-conference-europe-2026/"
    )
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size_name, (width, height) in SIZES.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            site = base.split("/", 3)[:3]
            for name, path in PAGES.items():
                page.goto("/".join(site) + path if path.startswith("/") else base + path)
                _shoot(page, out, name, size_name)
            for name, (path, part) in PARTS.items():
                page.goto(base + path)
                page.locator(part).evaluate("element => element.scrollIntoView()")
                _shoot(page, out, name, size_name)
            staff = os.environ.get("CONFSCHED_SCREENSHOT_STAFF", "")
            if staff:
                _sign_in(page, "/".join(site), staff)
                for name, path in STAFF_PAGES.items():
                    page.goto(base + path)
                    _shoot(page, out, name, size_name)
            page.goto(base)
            for index in range(STARS):
                star = page.locator("main button.star").nth(index)
                if star.get_attribute("aria-pressed") != "true":
                    star.click()
                    expect(star).to_have_attribute("aria-pressed", "true")
            for name, path in STARRED_PAGES.items():
                page.goto(base + path)
                _shoot(page, out, name, size_name)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
