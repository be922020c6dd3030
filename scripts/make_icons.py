"""Make the site's icons from static/confsched/icon.svg: favicon.ico (16, 32 and 48 px) and the
installable app's icon-192.png and icon-512.png (phones that take no SVG icon use these).

Usage: python scripts/make_icons.py   (after changing the SVG; the icons are committed)

Chromium draws the SVG at each size, so small sizes are rendered, not shrunk; Pillow (here
through weasyprint) packs the small ones into one .ico.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "src" / "confsched" / "web" / "site" / "static"
SOURCE = STATIC / "confsched" / "icon.svg"
FAVICON_SIZES = (16, 32, 48)
APP_SIZES = (192, 512)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def render_sizes(svg: str, sizes: tuple[int, ...]) -> list[Image.Image]:
    images = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size in sizes:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body style='margin:0'>{sized}</body></html>")
            png = page.screenshot(
                omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size}
            )
            images.append(Image.open(io.BytesIO(png)).convert("RGBA"))
            page.close()
        browser.close()
    return images


def main() -> None:
    svg = SOURCE.read_text()
    *small, largest = render_sizes(svg, FAVICON_SIZES)
    favicon = SOURCE.with_name("favicon.ico")
    largest.save(favicon, format="ICO", sizes=[(s, s) for s in FAVICON_SIZES], append_images=small)
    print(f"{favicon}: {favicon.stat().st_size} bytes, sizes {Image.open(favicon).info['sizes']}")
    for size, image in zip(APP_SIZES, render_sizes(svg, APP_SIZES), strict=True):
        target = SOURCE.with_name(f"icon-{size}.png")
        image.save(target)
        print(f"{target}: {target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
