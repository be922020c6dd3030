"""pdf_thumbnail: the first page as WebP, bounded; a page it cannot render says why."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfWriter

from confsched.core.errors import UploadError
from confsched.speakers.thumbnails import ThumbnailError, pdf_thumbnail
from tests.speakers.fixtures import make_pdf

RED = (0.8, 0.1, 0.2)  # (204, 25.5, 51) in 8 bits
BLUE = (0.0, 0.0, 1.0)
UNREADABLE = (
    "PDFium, which draws the preview, cannot open this PDF (damaged, encrypted, or written in a "
    "way it does not support): no preview is made."
)


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "WEBP"
    return image.convert("RGB")


def close_to(pixel: tuple[int, ...], expected: tuple[int, int, int]) -> bool:
    """Lossy WebP moves a flat colour by a step or two, never more than 3 per channel."""
    return all(abs(got - want) <= 3 for got, want in zip(pixel, expected, strict=True))


def test_first_page_is_rendered_at_the_width_asked_the_right_way_up() -> None:
    pdf = make_pdf(pages=2, width=600, height=400, fill=RED, corner=BLUE)
    image = decoded(pdf_thumbnail(pdf))
    assert image.size == (480, 320)
    assert close_to(image.getpixel((0, 0)), (204, 26, 51))
    assert close_to(image.getpixel((479, 319)), (0, 0, 255))  # the square drawn bottom right
    assert close_to(image.getpixel((479, 0)), (204, 26, 51))


def test_width_and_the_page_shape_set_the_size_and_tiny_pages_are_scaled_up() -> None:
    assert decoded(pdf_thumbnail(make_pdf(), width=200)).size == (200, 133)
    tiny = decoded(pdf_thumbnail(make_pdf(width=50, height=100, fill=(0, 0.5, 0)), width=480))
    assert tiny.size == (480, 960)  # rendered at 4x (200 px), then scaled
    assert close_to(tiny.getpixel((0, 0)), (0, 128, 0))


def test_it_reads_a_path_and_a_file_object(tmp_path: Path) -> None:
    path = tmp_path / "talk.pdf"
    path.write_bytes(make_pdf(fill=BLUE))
    assert close_to(decoded(pdf_thumbnail(path)).getpixel((0, 0)), (0, 0, 255))
    with path.open("rb") as file:
        file.seek(50)
        assert decoded(pdf_thumbnail(file, width=100)).size == (100, 67)


def test_absurd_pages_are_not_rendered() -> None:
    with pytest.raises(ThumbnailError) as raised:
        pdf_thumbnail(make_pdf(width=20000, height=400))
    assert raised.value.message == (
        "Its first page is 20000 x 400 points, not a size any screen or paper has: no preview "
        "is made."
    )
    with pytest.raises(ThumbnailError) as raised:
        pdf_thumbnail(make_pdf(width=100, height=401))
    assert raised.value.message == (
        "Its first page is over 4 times as tall as it is wide: no preview is made."
    )
    assert decoded(pdf_thumbnail(make_pdf(width=100, height=400), width=100)).size == (100, 400)


def test_a_pdf_that_cannot_be_rendered_says_why_as_an_upload_error() -> None:
    with pytest.raises(ThumbnailError) as raised:
        pdf_thumbnail(b"%PDF-1.7\n" + bytes(300) + b"\n%%EOF\n")
    assert isinstance(raised.value, UploadError)
    assert raised.value.message == UNREADABLE
    assert raised.value.reason == "Failed to load document (PDFium: Data format error)."
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    writer.encrypt("secret", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(ThumbnailError) as raised:
        pdf_thumbnail(out.getvalue())
    assert raised.value.message == UNREADABLE
    with pytest.raises(ThumbnailError) as raised:  # PDFium will not load a PDF of no pages
        pdf_thumbnail(make_pdf(pages=0))
    assert raised.value.message == UNREADABLE


@pytest.mark.parametrize("width", [0, 15, 2001])
def test_widths_out_of_bounds_are_a_programming_error(width: int) -> None:
    with pytest.raises(ValueError, match="16 to 2000 pixels wide"):
        pdf_thumbnail(make_pdf(), width=width)
