"""A speaker's photo: the sizes made, metadata gone, upright, the crop where the speaker put it,
the modes the three formats bring, and recrop from the kept original. Every picture is made
here with Pillow; the refusals of what is not a photo are in test_photo_refusals.py."""

from __future__ import annotations

import hashlib
import io
import math

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageCms, ImageDraw

from confsched.core.errors import UploadError
from confsched.speakers.photos import (
    SIZES,
    NotAnOriginalError,
    Rendition,
    crop_box,
    process_photo,
    recrop,
)

RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)
GPS_IFD = 0x8825
# Made once: Little CMS stamps a profile with the time it was made.
SRGB_ICC = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def encoded(image: Image.Image, format: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format, **options)
    return buffer.getvalue()


def camera_jpeg(size: tuple[int, int], *, orientation: int = 1, colour=(90, 140, 60)) -> bytes:
    """A JPEG as a phone writes it: EXIF with the camera, the place (GPS) and orientation."""
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0112] = orientation
    gps = exif.get_ifd(GPS_IFD)
    gps[1], gps[2] = "N", (48.0, 51.0, 24.0)  # latitude: where the speaker lives
    gps[3], gps[4] = "E", (2.0, 21.0, 3.0)
    xmp = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'
    image = Image.new("RGB", size, colour)
    return encoded(image, "JPEG", exif=exif, xmp=xmp, icc_profile=SRGB_ICC, quality=90)


def pixel(rendition: Rendition, xy: tuple[int, int]) -> tuple[int, ...]:
    with Image.open(io.BytesIO(rendition.data)) as image:
        return image.getpixel(xy)


def near(actual: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 12) -> bool:
    """Lossy encodings move a flat colour by a few levels, never by more than a dozen."""
    return len(actual) == len(expected) and all(
        abs(a - e) <= tolerance for a, e in zip(actual, expected, strict=True)
    )


def every_rendition(photo) -> list[Rendition]:
    return [photo.original, photo.jpeg, *photo.squares.values()]


def split(size: tuple[int, int], first: tuple[int, int, int, int], colours=(RED, BLUE)):
    """A picture of the second colour with the box `first` painted in the first."""
    image = Image.new("RGB", size, colours[1])
    ImageDraw.Draw(image).rectangle(first, fill=colours[0])
    return image


def test_a_camera_photo_gives_every_size_as_webp_the_largest_as_jpeg_and_the_original() -> None:
    data = camera_jpeg((1000, 800))
    photo = process_photo(data, filename="me.jpg")
    assert photo.sizes == (48, 96, 192, 400) == SIZES
    assert [(r.label, r.width, r.height) for r in photo.squares.values()] == [
        ("48", 48, 48),
        ("96", 96, 96),
        ("192", 192, 192),
        ("400", 400, 400),
    ]
    assert {r.content_type for r in photo.squares.values()} == {"image/webp"}
    assert (photo.jpeg.content_type, photo.jpeg.width, photo.jpeg.height) == (
        "image/jpeg",
        400,
        400,
    )
    assert (photo.original.content_type, photo.original.width, photo.original.height) == (
        "image/webp",
        1000,
        800,
    )
    assert (photo.width, photo.height, photo.focus) == (1000, 800, (0.5, 0.5))
    for rendition in every_rendition(photo):  # the bytes are what they say
        with Image.open(io.BytesIO(rendition.data)) as image:
            assert (image.format, image.size) == (
                {"image/webp": "WEBP", "image/jpeg": "JPEG"}[rendition.content_type],
                (rendition.width, rendition.height),
            )
    assert near(pixel(photo.squares[96], (48, 48)), (90, 140, 60))


def test_gps_and_every_other_metadata_are_gone_from_every_output() -> None:
    data = camera_jpeg((600, 600))
    with Image.open(io.BytesIO(data)) as upload:  # the fixture does carry them
        assert upload.getexif().get_ifd(GPS_IFD)[2] == (48.0, 51.0, 24.0)
        assert {"icc_profile", "xmp"} <= upload.info.keys()
    photo = process_photo(data, filename="me.jpg")
    for rendition in every_rendition(photo):
        with Image.open(io.BytesIO(rendition.data)) as image:
            assert dict(image.getexif()) == {}
            assert GPS_IFD not in image.getexif()
            assert not {"exif", "icc_profile", "xmp"} & image.info.keys()
        for marker in (b"Exif", b"PhoneMaker", b"xmpmeta", b"ICCP", b"XMP ", b"EXIF"):
            assert marker not in rendition.data


def test_orientation_6_is_turned_upright_before_anything_else() -> None:
    # Stored 300 × 200 with its top half red; orientation 6 says "turn 90° clockwise to show",
    # so upright it is 200 × 300 with the red on the right.
    image = split((300, 200), (0, 0, 299, 99))
    exif = Image.Exif()
    exif[0x0112] = 6
    photo = process_photo(encoded(image, "JPEG", exif=exif, quality=95), filename="me.jpg")
    assert (photo.width, photo.height) == (200, 300)
    assert (photo.original.width, photo.original.height) == (200, 300)
    assert near(pixel(photo.original, (150, 150)), RED)
    assert near(pixel(photo.original, (50, 150)), BLUE)
    assert near(pixel(photo.squares[192], (150, 96)), RED)


def test_the_crop_follows_the_focal_point_and_is_centred_by_default() -> None:
    data = encoded(split((300, 100), (0, 0, 99, 99)), "PNG")  # left third red, the rest blue
    left = process_photo(data, filename="me.png", focus=(0, 0.5))
    assert left.focus == (0.0, 0.5)
    for rendition in (*left.squares.values(), left.jpeg):
        for xy in ((0, 0), (rendition.width - 1, rendition.height - 1), (20, 30)):
            assert near(pixel(rendition, xy), RED), (rendition.label, xy)
    centred = process_photo(data, filename="me.png")
    assert near(pixel(centred.squares[96], (0, 48)), BLUE)
    assert near(pixel(centred.squares[96], (95, 48)), BLUE)
    assert centred.original.data == left.original.data  # the crop never touches the original


@pytest.mark.parametrize(
    ("size", "focus", "box"),
    [
        ((300, 100), (0.5, 0.5), (100, 0, 200, 100)),
        ((300, 100), (0.0, 0.5), (0, 0, 100, 100)),
        ((300, 100), (0.4, 0.5), (70, 0, 170, 100)),  # centre at x=120
        ((300, 100), (0.9, 0.0), (200, 0, 300, 100)),  # as near x=270 as the picture allows
        ((100, 300), (0.5, 1.0), (0, 200, 100, 300)),
        ((100, 100), (0.0, 1.0), (0, 0, 100, 100)),  # square: nowhere to move
    ],
)
def test_crop_box_is_the_largest_square_nearest_the_focal_point(size, focus, box) -> None:
    assert crop_box(*size, focus) == box


@pytest.mark.parametrize(
    "focus", [(1.5, 0.5), (-0.1, 0.5), (0.5,), (0.5, 0.5, 0.5), ("0.5", 0.5), (True, 0.5),
              (math.nan, 0.5), (0.5, math.inf), None, "centre"],
)  # fmt: skip
def test_a_focal_point_that_is_not_two_numbers_from_0_to_1_is_refused(focus) -> None:
    data = encoded(Image.new("RGB", (100, 100)), "PNG")
    with pytest.raises(ValueError, match=r"^the focal point must be two numbers from 0 to 1"):
        process_photo(data, filename="me.png", focus=focus)


@pytest.mark.parametrize(
    ("size", "sizes", "original"),
    [
        ((150, 200), (48, 96), (150, 200)),  # never upscaled: 192 would be
        ((48, 48), (48,), (48, 48)),  # the smallest photo taken
        ((399, 1000), (48, 96, 192), (399, 1000)),
        ((800, 200), (48, 96, 192), (800, 200)),  # 4:1, the longest kept
        ((3000, 2000), SIZES, (2048, 1365)),  # the original capped at 2048 on its long side
        ((1000, 4000), SIZES, (512, 2048)),  # 4:1 keeps 512 on the short side
    ],
)
def test_the_sizes_made_are_those_the_source_can_give(size, sizes, original) -> None:
    photo = process_photo(encoded(Image.new("RGB", size, BLUE), "PNG"), filename="me.png")
    assert photo.sizes == sizes
    assert (photo.jpeg.width, photo.jpeg.label) == (sizes[-1], str(sizes[-1]))
    assert (photo.original.width, photo.original.height) == original
    assert (photo.width, photo.height) == size
    assert photo.square(100) == photo.squares[96 if 96 in sizes else 48]  # the largest below
    assert photo.square(1000) == photo.squares[sizes[-1]]
    assert photo.square(20) == photo.squares[48]


def test_a_large_jpeg_is_decoded_at_a_reduced_scale_and_still_capped_exactly() -> None:
    # 5000 × 4000 → the DCT decodes it at 1/2 (2500 × 2000), then 2048 × 1638 from that.
    image = split((5000, 4000), (0, 0, 2499, 3999))  # left half red
    photo = process_photo(encoded(image, "JPEG", quality=90), filename="big.jpg")
    assert (photo.width, photo.height) == (5000, 4000)
    assert (photo.original.width, photo.original.height) == (2048, 1638)
    assert near(pixel(photo.original, (500, 800)), RED)
    assert near(pixel(photo.original, (1500, 800)), BLUE)


def test_a_cmyk_jpeg_becomes_rgb() -> None:
    cmyk = Image.new("CMYK", (200, 100), (0, 255, 255, 0))  # no cyan, full magenta and yellow
    photo = process_photo(encoded(cmyk, "JPEG", quality=95), filename="print.jpg")
    for rendition in every_rendition(photo):
        with Image.open(io.BytesIO(rendition.data)) as image:
            assert image.mode == "RGB"
            assert near(image.getpixel((10, 10)), RED, tolerance=20)


def test_a_16_bit_grey_png_is_scaled_to_8_bits_not_clipped() -> None:
    grey = Image.new("I;16", (300, 100), 0)
    grey.paste(65535, (0, 0, 100, 100))
    grey.paste(128 * 257, (100, 0, 200, 100))  # mid grey: clipping would make it white
    data = encoded(grey, "PNG")
    with Image.open(io.BytesIO(data)) as upload:
        assert upload.mode.startswith("I;16")
    photo = process_photo(data, filename="scan.png")
    assert near(pixel(photo.original, (50, 50)), WHITE, tolerance=3)
    assert near(pixel(photo.original, (150, 50)), (128, 128, 128), tolerance=3)
    assert near(pixel(photo.original, (250, 50)), (0, 0, 0), tolerance=3)
    assert near(pixel(photo.squares[96], (48, 48)), (128, 128, 128), tolerance=3)


def test_a_palette_png_keeps_its_transparency_in_webp_and_is_flattened_on_white_in_jpeg() -> None:
    image = Image.new("P", (200, 200), 1)
    image.putpalette([*RED, *BLUE] + [0] * 762)
    ImageDraw.Draw(image).rectangle((0, 0, 99, 199), fill=0)  # left half red, right see-through
    data = encoded(image, "PNG", transparency=1)
    photo = process_photo(data, filename="logo.png")
    for rendition in (photo.original, *photo.squares.values()):
        with Image.open(io.BytesIO(rendition.data)) as decoded:
            assert decoded.mode == "RGBA"
            right = decoded.getpixel((decoded.width - 5, decoded.height // 2))
            assert right[3] == 0
            assert near(decoded.getpixel((5, decoded.height // 2)), (*RED, 255))
    with Image.open(io.BytesIO(photo.jpeg.data)) as flattened:
        assert flattened.mode == "RGB"
        assert flattened.size == (192, 192)
        assert near(flattened.getpixel((187, 96)), WHITE)
        assert near(flattened.getpixel((5, 96)), RED)


def test_an_opaque_rgba_png_is_stored_without_an_alpha_channel() -> None:
    photo = process_photo(
        encoded(Image.new("RGBA", (100, 100), (*BLUE, 255)), "PNG"), filename="a.png"
    )
    with Image.open(io.BytesIO(photo.squares[96].data)) as decoded:
        assert decoded.mode == "RGB"


def test_a_webp_upload_is_taken() -> None:
    photo = process_photo(encoded(Image.new("RGB", (500, 300), RED), "WEBP"), filename="a.webp")
    assert (photo.sizes, photo.original.width, photo.original.height) == (SIZES[:3], 500, 300)
    assert near(pixel(photo.squares[192], (96, 96)), RED)


def test_the_digest_is_the_uploads_and_the_file_names_follow_the_bytes() -> None:
    data = camera_jpeg((300, 300))
    photo = process_photo(data, filename="me.jpg")
    assert photo.digest == hashlib.sha256(data).hexdigest()[:16]
    assert len(photo.digest) == 16
    other = process_photo(camera_jpeg((300, 300), colour=(10, 20, 30)), filename="me.jpg")
    assert other.digest != photo.digest
    square = photo.squares[96]
    assert square.filename == f"{hashlib.sha256(square.data).hexdigest()[:16]}-96.webp"
    assert photo.jpeg.filename.endswith("-192.jpg")
    assert photo.original.filename.endswith("-original.webp")


def test_recrop_moves_the_square_and_keeps_the_original_as_it_is() -> None:
    data = encoded(split((300, 100), (0, 0, 99, 99)), "PNG")
    photo = process_photo(data, filename="me.png")
    assert near(pixel(photo.squares[96], (48, 48)), BLUE)
    moved = recrop(photo.original.data, focus=(0, 0.5))
    assert moved.original == photo.original
    assert (moved.focus, moved.sizes, moved.width, moved.height) == ((0.0, 0.5), (48, 96), 300, 100)
    assert near(pixel(moved.squares[96], (48, 48)), RED)
    assert moved.squares[96].filename != photo.squares[96].filename
    back = recrop(io.BytesIO(photo.original.data), focus=(0.5, 0.5))
    assert near(pixel(back.squares[96], (48, 48)), BLUE)


def test_recrop_takes_only_an_original_process_photo_made() -> None:
    with pytest.raises(NotAnOriginalError):
        recrop(camera_jpeg((300, 300)), focus=(0.5, 0.5))  # a raw upload: its metadata would stay
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    with pytest.raises(NotAnOriginalError):
        recrop(encoded(Image.new("RGB", (300, 300)), "WEBP", exif=exif), focus=(0.5, 0.5))
    with pytest.raises(NotAnOriginalError):
        recrop(encoded(Image.new("RGB", (2100, 600)), "WEBP"), focus=(0.5, 0.5))


def test_an_uploaded_file_is_read_and_its_declared_type_and_name_are_ignored() -> None:
    upload = SimpleUploadedFile("me.svg", camera_jpeg((200, 200)), content_type="image/svg+xml")
    upload.read(10)  # a form's validator may have looked at it already
    photo = process_photo(upload, filename=upload.name)
    assert photo.sizes == (48, 96, 192)
    assert photo.digest == hashlib.sha256(camera_jpeg((200, 200))).hexdigest()[:16]


def test_pillows_own_bomb_guard_becomes_a_refusal(monkeypatch, recwarn) -> None:
    import warnings

    data = encoded(Image.new("RGB", (200, 100)), "PNG")
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)  # 20,000 pixels: Pillow's error
    with pytest.raises(UploadError) as refused:
        process_photo(data, filename="me.png")
    assert str(refused.value) == "me.png: is 200 × 100 pixels, more than this server decodes"
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 15_000)  # over it but not twice: a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UploadError) as refused:
            process_photo(data, filename="me.png")
    assert str(refused.value) == "me.png: is 200 × 100 pixels, more than this server decodes"
