"""What is refused as a speaker's photo, with the message the person reads: other types named
.jpg, polyglots, files cut off, too many bytes or pixels (before any pixel is decoded), too
small or too long and narrow; and which of those the upload's request refuses by itself
(check_upload, no pixel decoded) with the same message."""

from __future__ import annotations

import io
import zipfile
import zlib

import pytest
from PIL import Image

from confsched.core.errors import UploadError
from confsched.speakers import photos
from confsched.speakers.photo_bytes import PNG, Header
from confsched.speakers.photos import MAX_BYTES, process_photo


def encoded(image: Image.Image, format: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format, **options)
    return buffer.getvalue()


def jpeg(size: tuple[int, int] = (200, 200)) -> bytes:
    return encoded(Image.new("RGB", size, (200, 30, 30)), "JPEG", quality=90)


def png_chunk(kind: bytes, payload: bytes) -> bytes:
    crc = zlib.crc32(kind + payload).to_bytes(4, "big")
    return len(payload).to_bytes(4, "big") + kind + payload + crc


def png_declaring(width: int, height: int) -> bytes:
    """A PNG of a few dozen bytes whose header claims width × height (8-bit RGB)."""
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    pixels = zlib.compress(b"\x00" * 1024)  # far fewer than the header promises
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", pixels)
        + png_chunk(b"IEND", b"")
    )


def refusal(data: bytes, filename: str = "photo.jpg") -> str:
    with pytest.raises(UploadError) as refused:
        process_photo(data, filename=filename)
    assert refused.value.filename == filename
    return str(refused.value)


@pytest.fixture
def no_decoding(monkeypatch):
    """Fails the test if Pillow is asked to open the file at all."""

    def refuse_to_open(*args: object, **kwargs: object) -> None:
        raise AssertionError("Image.open was called")

    monkeypatch.setattr(photos.Image, "open", refuse_to_open)


def zip_archive() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("payload.html", "<script>alert(1)</script>")
    return buffer.getvalue()


NOT_AN_IMAGE = "photo.jpg: is not a JPEG, PNG or WebP image (it looks like {})"


@pytest.mark.parametrize(
    ("data", "looks_like"),
    [
        (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
         "an SVG drawing"),
        (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
         "an SVG drawing"),
        (b"<!DOCTYPE html>\n<html><body><script>alert(1)</script></body></html>", "HTML"),
        (b"  <html><script>fetch('/admin')</script>", "HTML"),
        (b"alert(document.cookie);\n", "JavaScript"),
        (b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n", "a PDF document"),
        (zip_archive(), "a ZIP archive"),
        (b"\x7fELF\x02\x01\x01\x00" + bytes(56), "a program"),
        (b"MZ\x90\x00" + bytes(60), "a program"),
        (encoded(Image.new("RGB", (100, 100)), "GIF"), "a GIF image"),
        (encoded(Image.new("RGB", (100, 100)), "BMP"), "a BMP image"),
        (encoded(Image.new("RGB", (100, 100)), "TIFF"), "a TIFF image"),
        (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", "a HEIC image"),
        (b"just some words", "text"),
    ],
)  # fmt: skip
def test_other_content_named_jpg_is_refused_saying_what_it_looks_like(data, looks_like) -> None:
    assert refusal(data) == NOT_AN_IMAGE.format(looks_like)


def test_bytes_of_no_known_kind_are_refused_without_a_guess() -> None:
    assert refusal(bytes(range(256)) * 4) == "photo.jpg: is not a JPEG, PNG or WebP image"
    assert refusal(b"\xff\xd8") == "photo.jpg: is not a JPEG, PNG or WebP image"


def test_an_empty_file_is_refused() -> None:
    assert refusal(b"") == "photo.jpg: is empty"


@pytest.mark.parametrize(
    ("tail", "looks_like"),
    [
        (b"<html><script>alert(document.cookie)</script></html>", " (it looks like HTML)"),
        (zip_archive(), " (it looks like a ZIP archive)"),
        (b"\x7fELF\x02\x01\x01\x00" + bytes(56), " (it looks like a program)"),
        (bytes(range(1, 200)), ""),
    ],
)
def test_a_jpeg_with_something_after_its_end_is_refused_as_a_polyglot(tail, looks_like) -> None:
    assert refusal(jpeg() + tail) == (
        f"photo.jpg: has something else after the end of its JPEG image{looks_like}; a photo "
        "must be an image and nothing more"
    )


def test_png_and_webp_with_something_after_their_end_are_refused() -> None:
    html = b"<html><script>alert(1)</script></html>"
    png = encoded(Image.new("RGB", (100, 100)), "PNG")
    assert refusal(png + html, "photo.png") == (
        "photo.png: has something else after the end of its PNG image (it looks like HTML); "
        "a photo must be an image and nothing more"
    )
    webp = encoded(Image.new("RGB", (100, 100)), "WEBP")
    assert refusal(webp + html, "photo.webp") == (
        "photo.webp: has something else after the end of its WebP image (it looks like "
        "HTML); a photo must be an image and nothing more"
    )


def test_what_cameras_append_after_a_jpeg_is_taken() -> None:
    # The Multi-Picture Format's previews are whole JPEGs after the first; some cameras pad.
    photo = process_photo(jpeg((300, 300)) + jpeg((60, 60)) + b"\x00" * 64, filename="p.jpg")
    assert (photo.width, photo.height) == (300, 300)
    with pytest.raises(UploadError, match="after the end of its JPEG image"):
        process_photo(jpeg() + jpeg() + b"<html>", filename="p.jpg")


@pytest.mark.parametrize(
    ("format", "name", "cut"),
    [
        ("JPEG", "JPEG", 0.5),
        ("JPEG", "JPEG", 0.99),
        ("PNG", "PNG", 0.5),
        ("PNG", "PNG", 0.99),
        ("WEBP", "WebP", 0.5),
    ],
)
def test_a_file_cut_off_is_refused(format, name, cut) -> None:
    image = Image.effect_noise((300, 300), 60).convert("RGB")  # noise: no tiny file to cut
    data = encoded(image, format)
    assert refusal(data[: int(len(data) * cut)]) == (
        f"photo.jpg: is cut off or damaged: it is not a complete {name} image"
    )


def test_a_png_with_a_damaged_chunk_is_refused() -> None:
    data = bytearray(encoded(Image.effect_noise((100, 100), 60), "PNG"))
    data[len(data) // 2] ^= 0xFF  # inside IDAT: its CRC no longer matches
    assert refusal(bytes(data), "p.png") == (
        "p.png: is cut off or damaged: it is not a complete PNG image"
    )


def test_a_header_that_the_pixels_do_not_match_is_refused_when_decoded() -> None:
    # 100 × 100 declared, a few zero bytes of pixel data: the structure is whole, the decoder
    # finds too little.
    assert refusal(png_declaring(100, 100), "p.png") == (
        "p.png: is cut off or damaged: it is not a complete PNG image"
    )


def test_a_decompression_bomb_is_refused_from_its_header_without_decoding(no_decoding) -> None:
    data = png_declaring(50_000, 50_000)
    assert len(data) < 100
    assert refusal(data, "bomb.png") == (
        "bomb.png: is 50000 × 50000 pixels (2500 megapixels); a photo may be at most 40 megapixels"
    )
    assert refusal(png_declaring(9000, 6000), "big.png") == (
        "big.png: is 9000 × 6000 pixels (54 megapixels); a photo may be at most 40 megapixels"
    )
    assert refusal(png_declaring(8000, 5001), "big.png") == (
        "big.png: is 8000 × 5001 pixels (40.1 megapixels); a photo may be at most 40 megapixels"
    )


def test_pixels_that_end_early_are_refused_even_after_weasyprint_is_imported() -> None:
    # WeasyPrint sets Pillow's LOAD_TRUNCATED_IMAGES for the whole process when imported: the
    # order tests ran in decided whether a cut-off photo was kept.
    import weasyprint  # noqa: F401 - imported for what its import does
    from PIL import ImageFile

    assert ImageFile.LOAD_TRUNCATED_IMAGES is True
    assert refusal(png_declaring(100, 100), "p.png") == (
        "p.png: is cut off or damaged: it is not a complete PNG image"
    )
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # left as WeasyPrint wants it


def test_forty_megapixels_exactly_passes_the_size_check() -> None:
    # Decoded, so refused for its missing pixels: not for its size.
    assert refusal(png_declaring(8000, 5000), "p.png") == (
        "p.png: is cut off or damaged: it is not a complete PNG image"
    )


def test_a_jpeg_header_declaring_too_many_pixels_is_refused_without_decoding(
    no_decoding,
) -> None:
    data = bytearray(jpeg((100, 100)))
    sof = data.index(b"\xff\xc0")
    data[sof + 5 : sof + 9] = (60000).to_bytes(2, "big") + (60000).to_bytes(2, "big")
    assert refusal(bytes(data)) == (
        "photo.jpg: is 60000 × 60000 pixels (3600 megapixels); a photo may be at most 40 megapixels"
    )


def test_ten_megabytes_and_one_byte_are_refused_before_decoding(no_decoding) -> None:
    data = jpeg() + bytes(MAX_BYTES + 1 - len(jpeg()))
    assert len(data) == 10 * 1024 * 1024 + 1
    message = "photo.jpg: is 10.1 MB; a photo may be at most 10 MB"
    assert refusal(data) == message
    with pytest.raises(UploadError) as refused:
        process_photo(io.BytesIO(data), filename="photo.jpg")
    assert str(refused.value) == message
    size_12_3 = bytes(12_897_484)  # 12.3 × 1024 × 1024, rounded down
    assert refusal(size_12_3) == "photo.jpg: is 12.3 MB; a photo may be at most 10 MB"


def test_a_stream_of_unknown_length_is_read_only_to_one_byte_past_the_limit() -> None:
    class Stream:
        """A request body: read() only, no size, no seek."""

        def __init__(self) -> None:
            self.given = 0

        def read(self, size: int = -1) -> bytes:
            self.given += size
            return b"\xff" * size

    stream = Stream()
    with pytest.raises(UploadError) as refused:
        process_photo(stream, filename="photo.jpg")
    assert str(refused.value) == "photo.jpg: is more than 10 MB; a photo may be at most 10 MB"
    assert stream.given == MAX_BYTES + 1


def test_ten_megabytes_exactly_are_not_refused_for_their_size() -> None:
    data = jpeg() + bytes(MAX_BYTES - len(jpeg()))  # zero padding after the image: allowed
    photo = process_photo(data, filename="photo.jpg")
    assert photo.sizes == (48, 96, 192)


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ((40, 300), "is 40 × 300 pixels; a photo must be at least 48 pixels wide and 48 pixels high"),
        ((300, 47), "is 300 × 47 pixels; a photo must be at least 48 pixels wide and 48 pixels high"),
        ((1000, 200), "is 1000 × 200 pixels; a photo may be at most 4 times as wide as it is high, or as high as it is wide"),
        ((200, 801), "is 200 × 801 pixels; a photo may be at most 4 times as wide as it is high, or as high as it is wide"),
    ],
)  # fmt: skip
def test_too_small_or_too_long_and_narrow_is_refused(size, message) -> None:
    assert refusal(encoded(Image.new("RGB", size), "PNG"), "p.png") == f"p.png: {message}"


def test_the_type_comes_from_the_bytes_not_the_name() -> None:
    png = encoded(Image.new("RGB", (100, 100)), "PNG")
    assert process_photo(png, filename="photo.jpg").sizes == (48, 96)
    assert process_photo(png, filename="photo.svg").sizes == (48, 96)
    assert refusal(b"<svg/>", "photo.png") == (
        "photo.png: is not a JPEG, PNG or WebP image (it looks like an SVG drawing)"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (jpeg() + bytes(MAX_BYTES + 1 - len(jpeg())), "is 10.1 MB; a photo may be at most 10 MB"),
        (b"", "is empty"),
        (b'<svg xmlns="http://www.w3.org/2000/svg"/>',
         "is not a JPEG, PNG or WebP image (it looks like an SVG drawing)"),
        (jpeg() + b"<html><script>alert(1)</script></html>",
         "has something else after the end of its JPEG image (it looks like HTML); a photo must "
         "be an image and nothing more"),
        (jpeg()[:-200], "is cut off or damaged: it is not a complete JPEG image"),
        (png_declaring(50_000, 50_000),
         "is 50000 × 50000 pixels (2500 megapixels); a photo may be at most 40 megapixels"),
        (encoded(Image.new("RGB", (40, 300)), "PNG"),
         "is 40 × 300 pixels; a photo must be at least 48 pixels wide and 48 pixels high"),
        (encoded(Image.new("RGB", (1000, 200)), "PNG"),
         "is 1000 × 200 pixels; a photo may be at most 4 times as wide as it is high, or as high "
         "as it is wide"),
    ],
)  # fmt: skip
def test_the_upload_s_own_checks_refuse_as_process_photo_does_without_decoding(
    no_decoding, data, message
) -> None:
    with pytest.raises(UploadError) as refused:
        photos.check_upload(data, filename="me.jpg")
    assert (str(refused.value), refused.value.filename) == (f"me.jpg: {message}", "me.jpg")
    assert refusal(data, "me.jpg") == f"me.jpg: {message}"


def test_the_upload_s_own_checks_take_what_only_decoding_refuses(no_decoding) -> None:
    data = png_declaring(100, 100)  # whole in its structure, too few pixels once decoded
    checked = photos.check_upload(io.BytesIO(data), filename="p.png")
    assert (checked.header, checked.content_type, checked.content) == (
        Header(PNG, 100, 100), "image/png", data,
    )  # fmt: skip
