"""A preview of a PDF's first page, as WebP: what the session page shows beside the slides.

`pdf_thumbnail(file, width=480)` renders page 1 with PDFium (pypdfium2) and encodes it with
Pillow (lossy WebP, quality 80: a slide's photos and gradients stay small). Bounded: a page
larger than PDF's own limit (14,400 points, 200 inches) or smaller than a point is refused, as
is one more than four times as tall as wide (its thumbnail would be a sliver of a column);
PDFium never renders at more than 4x (288 dpi), and the image is scaled up after that if a tiny
page needs it, so no page makes more than `width` x 4 `width` pixels.

What a person expects: the slides themselves were accepted by slides.check_slides, and a
preview is a courtesy. So a PDF that cannot be rendered raises `ThumbnailError`, a kind of
UploadError whose message says why, and the caller keeps the upload and shows no preview (a
plain document icon); the message is for the log or for staff, not a reason to refuse the file.

PDFium is not thread-safe: every call holds one lock for the process. A large page can take a
second or more to render, so call this from a task (django-tasks), not while the upload's
request waits, where it can.
"""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path
from typing import BinaryIO

from django.utils.translation import gettext

from confsched.core.errors import UploadError

MAX_PAGE_POINTS = 14_400  # PDF's largest page side (ISO 32000: 200 inches at 72 points each)
MIN_PAGE_POINTS = 1
MAX_SCALE = 4.0  # at most 288 dpi from PDFium
MAX_ASPECT = 4  # height at most 4 times the width
MIN_WIDTH, MAX_WIDTH = 16, 2000
WEBP_QUALITY = 80

_PDFIUM = threading.Lock()


class ThumbnailError(UploadError):
    """The first page cannot be made into a preview: keep the slides, show no preview.
    `reason` is PDFium's own word, for the log (its error codes can be stale: not shown)."""

    def __init__(self, message: str, *, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason


def pdf_thumbnail(file: BinaryIO | str | os.PathLike[str] | bytes, *, width: int = 480) -> bytes:
    """The first page of the PDF `file` (a seekable binary file, a path or bytes) as WebP
    bytes, `width` pixels wide (16 to 2,000) and as tall as the page's shape makes it.
    ThumbnailError when the page cannot be rendered within the bounds above."""
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"A thumbnail is {MIN_WIDTH} to {MAX_WIDTH} pixels wide, not {width}.")
    if isinstance(file, str | os.PathLike):
        source: BinaryIO | bytes = Path(file).read_bytes()
    elif isinstance(file, bytearray | memoryview):
        source = bytes(file)
    else:
        source = file
        if not isinstance(source, bytes):
            source.seek(0)
    with _PDFIUM:
        image = _render_first_page(source, width)
    out = io.BytesIO()
    image.save(out, "WEBP", quality=WEBP_QUALITY, method=4)
    return out.getvalue()


def _render_first_page(source: BinaryIO | bytes, width: int):  # noqa: ANN202 - a PIL image
    # Imported here: only the worker renders previews; web workers need not hold PDFium.
    import pypdfium2 as pdfium  # noqa: PLC0415

    try:
        document = pdfium.PdfDocument(source)
    except pdfium.PdfiumError as error:
        raise ThumbnailError(_unreadable(), reason=str(error)) from None
    try:
        if len(document) < 1:
            raise ThumbnailError(gettext("The PDF has no pages to preview."))
        page = document[0]
        try:
            page_width, page_height = page.get_size()
            sides = (page_width, page_height)
            if not all(MIN_PAGE_POINTS <= side <= MAX_PAGE_POINTS for side in sides):
                raise ThumbnailError(
                    gettext(
                        "Its first page is %(width)s x %(height)s points, not a size any "
                        "screen or paper has: no preview is made."
                    )
                    % {"width": f"{page_width:g}", "height": f"{page_height:g}"}
                )
            height = max(1, round(width * page_height / page_width))
            if height > MAX_ASPECT * width:
                raise ThumbnailError(
                    gettext(
                        "Its first page is over %(ratio)s times as tall as it is wide: no "
                        "preview is made."
                    )
                    % {"ratio": MAX_ASPECT}
                )
            scale = min(width / page_width, MAX_SCALE)
            bitmap = page.render(scale=scale, fill_color=(255, 255, 255, 255))
            try:
                image = bitmap.to_pil().convert("RGB")
            finally:
                bitmap.close()
        finally:
            page.close()
    except pdfium.PdfiumError as error:
        raise ThumbnailError(_unreadable(), reason=str(error)) from None
    finally:
        document.close()
    if image.size != (width, height):
        image = image.resize((width, height))
    return image


def _unreadable() -> str:
    return gettext(
        "PDFium, which draws the preview, cannot open this PDF (damaged, encrypted, or "
        "written in a way it does not support): no preview is made."
    )
