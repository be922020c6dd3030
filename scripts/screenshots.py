"""Screenshots of the public pages at desktop and phone widths, for people to look at.

Usage: python scripts/screenshots.py [BASE_URL] [OUT_DIR]
(default http://127.0.0.1:8000/pytorch-conference-europe-2026/ and ./screenshots)
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
PAGES = {
    "list": "",
    "grid": "grid/",
    "session": "sessions/lightning-talk-torchjd-jacobian-descent-in-pytorch/",
    "speakers": "speakers/",
    "filtered": "?track=training-systems&q=pytorch",
    "agenda": "agenda/",
    "changes": "changes/",
}
SIZES = {"desktop": (1280, 900), "phone": (375, 812)}


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
            for name, path in PAGES.items():
                page.goto(base + path)
                target = out / f"{name}-{size_name}.png"
                page.screenshot(path=str(target), full_page=False)
                print(target)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
