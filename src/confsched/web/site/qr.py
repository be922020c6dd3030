"""A QR code, inline SVG: a check-in code (the agenda page and the feed's description), an
address (the "use this schedule elsewhere" page).

Pure: the code in, the markup out. A full QR code (never segno's Micro QR, which it picks for
short data by default and which phones' scanners and the browser's BarcodeDetector do not
read), white behind it (scannable on a dark page too) with the standard quiet zone, and a
title so that a screen reader says what it is and reads the code out.
"""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

# Each module 4 px: version 1 (21 modules) with its quiet zone is 116 px, easy for a camera.
MODULE_PX = 4


def code_qr_svg(code: str) -> SafeString:
    """The inline `<svg role="img">` of `code`'s QR code, 116 px square for a 10-character
    code, titled "Check-in code <code>" in the active language."""
    text = code.strip()
    if not text:
        raise ValueError("A QR code needs a check-in code: the code given is empty.")
    return qr_svg(text, title=gettext("Check-in code %(code)s") % {"code": text})


def qr_svg(data: str, *, title: str) -> SafeString:
    """The inline `<svg role="img">` of exactly `data`'s QR code (an address, a code), titled
    `title`: what a screen reader says, and what a browser shows on hover."""
    if not data:
        raise ValueError("A QR code needs something to encode: the text given is empty.")
    qr = segno.make_qr(data, error="m")
    svg = qr.svg_inline(scale=MODULE_PX, omitsize=True, svgclass="qr", title=title, light="#fff")
    # A size, and the viewBox too: as large as a camera wants, and CSS may scale it.
    width, height = qr.symbol_size(scale=MODULE_PX)
    sized = svg.replace("<svg ", f'<svg role="img" width="{width}" height="{height}" ', 1)
    # segno escapes the title and writes only paths: no script or style, fine under the CSP.
    return mark_safe(sized)  # noqa: S308 - segno's own output
