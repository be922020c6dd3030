"""A speaker's photo, from what they upload to the files the pages show.

Pure functions, no Django models or storage: the caller keeps the bytes returned and names
the files after their digests. What an upload goes through, in order, each step refusing with
an UploadError that tells the person what is wrong and what the limit is:

1. size: at most MAX_BYTES, counted before anything is decoded (a file object is read only up
   to one byte past the limit);
2. type and structure (photo_bytes.identify): JPEG, PNG or WebP judged from the bytes alone,
   complete, nothing appended; the dimensions read from the header;
3. dimensions, still before decoding: at most MAX_PIXELS, at least the smallest square size
   on the short side, at most MAX_ASPECT times as long as wide (a portrait, not a banner);
4. decoding, with JPEG's DCT scaling (Image.draft) when the picture is to shrink by half or
   more, then EXIF orientation applied (ImageOps.exif_transpose) so that it is upright;
5. colour: an embedded ICC profile (a phone's Display P3, a printer's CMYK) is converted to
   sRGB and then dropped, so the outputs carry no profile and browsers show them as sRGB,
   which is what an untagged image is taken to be; a profile that cannot be read is ignored;
6. the normalized original: upright, sRGB, RGB (or RGBA when the photo has transparency),
   at most ORIGINAL_LONG_SIDE pixels on its long side, re-encoded as WebP with no metadata
   at all (no EXIF, so no GPS position or camera serial number; no XMP; no ICC). It is what
   to keep instead of the upload, and what recrop() re-renders from;
7. the square crop: the largest square of the short side, placed so that its centre is as
   close as the picture allows to the focal point the speaker chose (the centre by default),
   rendered at every size of SIZES that is not larger than that square, as WebP, and the
   largest of them also as JPEG (transparency flattened onto white) for what cannot read
   WebP (exports, link previews). Never upscaled: a source whose short side is 150 pixels
   gives 48 and 96 only; one under 48 is refused.

Steps 1 to 3 read no pixel and cost milliseconds: check_upload() runs them alone, in the upload's
request, so that a refused file is refused at once; the rest is the worker's (speakers/
photo_uploads.py), since it takes up to a second of CPU for a phone's photo.

Because a photo is at most MAX_ASPECT times as long as wide, its normalized original keeps a
short side of at least min(source's short side, ORIGINAL_LONG_SIDE / MAX_ASPECT = 512), so
re-rendering from the original gives the same sizes as from the upload.
"""

from __future__ import annotations

import hashlib
import io
import math
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from django.utils.translation import gettext
from PIL import ExifTags, Image, ImageCms, ImageFile, ImageOps

from confsched.core.errors import UploadError
from confsched.speakers.photo_bytes import JPEG, PNG, WEBP, Header, identify

MAX_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 40_000_000
SIZES = (48, 96, 192, 400)  # the square sizes the pages use (avatars 48/96, profile 192/400)
ORIGINAL_LONG_SIDE = 2048
MAX_ASPECT = 4
WEBP_QUALITY = 82
ORIGINAL_QUALITY = 90  # the original is re-rendered from: one generation of loss, kept small
JPEG_QUALITY = 85
DIGEST_LENGTH = 16  # hex digits of sha256: 64 bits, plenty to name one site's photos
CENTRE = (0.5, 0.5)
WEBP_TYPE, JPEG_TYPE = "image/webp", "image/jpeg"
CONTENT_TYPES = {JPEG: JPEG_TYPE, PNG: "image/png", WEBP: WEBP_TYPE}
SWAPPING_ORIENTATIONS = frozenset({5, 6, 7, 8})  # EXIF orientations that turn by 90°
RESAMPLE = Image.Resampling.LANCZOS


class NotAnOriginalError(ValueError):
    """recrop() was given something other than an original process_photo() made."""

    def __init__(self) -> None:
        super().__init__("recrop() takes the original rendition that process_photo() made")


class Readable(Protocol):
    """A file object, such as Django's UploadedFile."""

    def read(self, size: int = -1, /) -> bytes: ...


@dataclass(frozen=True)
class Rendition:
    """One encoded file: a square of `label` pixels, or the normalized "original"."""

    label: str
    content_type: str
    width: int
    height: int
    data: bytes = field(repr=False)

    @property
    def extension(self) -> str:
        return "webp" if self.content_type == WEBP_TYPE else "jpg"

    @property
    def filename(self) -> str:
        """A name that changes whenever the bytes do (cache forever, never serve a stale one)."""
        digest = hashlib.sha256(self.data).hexdigest()[:DIGEST_LENGTH]
        return f"{digest}-{self.label}.{self.extension}"


@dataclass(frozen=True)
class ProcessedPhoto:
    """Everything kept of a photo: the original to re-crop from and the squares to show.

    width and height are the upright size of the picture the crop was taken from (the upload
    for process_photo, the normalized original for recrop); digest is sha256 of the bytes
    given, short, to name the photo's files after.
    """

    width: int
    height: int
    focus: tuple[float, float]
    digest: str
    original: Rendition
    squares: Mapping[int, Rendition]  # size in pixels -> WebP, smallest first
    jpeg: Rendition  # the largest square as JPEG

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(self.squares)

    def square(self, size: int) -> Rendition:
        """The WebP square for a place `size` pixels wide: that size, else the largest below
        it (a small source has no larger one), else the smallest."""
        fitting = [each for each in self.squares if each <= size]
        return self.squares[max(fitting) if fitting else min(self.squares)]


@dataclass(frozen=True)
class CheckedUpload:
    """An upload that passed the checks needing no decoding: its bytes and what its header
    declares. It may still be refused once decoded (pixels that end early)."""

    content: bytes = field(repr=False)
    header: Header

    @property
    def content_type(self) -> str:
        return CONTENT_TYPES[self.header.format]


def check_upload(data: bytes | Readable, *, filename: str) -> CheckedUpload:
    """Steps 1 to 3 alone (size, type and structure, dimensions): UploadError (with filename)
    with the same message process_photo would give, and no pixel decoded."""
    content = _read(data, filename)
    header = identify(content, filename=filename)
    _check_dimensions(header, filename)
    return CheckedUpload(content, header)


def process_photo(
    data: bytes | Readable, *, filename: str, focus: tuple[float, float] = CENTRE
) -> ProcessedPhoto:
    """Check an upload, and make the normalized original and the squares of it.

    Raises UploadError (with filename) for a file refused, ValueError for a focal point that is
    not two numbers from 0 to 1 (the form's fault, not the file's).
    """
    focus = checked_focus(focus)
    checked = check_upload(data, filename=filename)
    content, header = checked.content, checked.header
    image, upright = _decode(content, header, filename)
    original = _encode(image, "original", ORIGINAL_QUALITY)
    return _photo(image, upright, focus, content, original)


def recrop(
    original: bytes | Readable, *, focus: tuple[float, float], filename: str = ""
) -> ProcessedPhoto:
    """The squares again, around a new focal point, from the original process_photo made.

    The original is kept as it is (no second generation of loss). ValueError when `original`
    is not one (a raw upload would bring its metadata back).
    """
    focus = checked_focus(focus)
    content = _read(original, filename)
    header = identify(content, filename=filename)
    if header.format != WEBP or max(header.width, header.height) > ORIGINAL_LONG_SIDE:
        raise NotAnOriginalError()
    _check_dimensions(header, filename)
    image, upright = _decode(content, header, filename, normalized=True)
    kept = Rendition("original", WEBP_TYPE, header.width, header.height, content)
    return _photo(image, upright, focus, content, kept)


def checked_focus(focus: object) -> tuple[float, float]:
    """The focal point as two floats from 0 to 1, or ValueError saying what is expected."""
    message = f"the focal point must be two numbers from 0 to 1 (x, y), not {focus!r}"
    if not isinstance(focus, tuple | list) or len(focus) != 2:
        raise ValueError(message)
    numbers = []
    for value in focus:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(message)
        if not 0 <= value <= 1:  # also refuses NaN
            raise ValueError(message)
        numbers.append(float(value))
    return numbers[0], numbers[1]


def crop_box(width: int, height: int, focus: tuple[float, float]) -> tuple[int, int, int, int]:
    """The largest square of the short side, its centre as near the focal point as it fits."""
    side = min(width, height)

    def start(fraction: float, length: int) -> int:
        return min(max(round(fraction * length - side / 2), 0), length - side)

    left, top = start(focus[0], width), start(focus[1], height)
    return left, top, left + side, top + side


def _photo(
    image: Image.Image,
    upright: tuple[int, int],
    focus: tuple[float, float],
    content: bytes,
    original: Rendition,
) -> ProcessedPhoto:
    square = image.crop(crop_box(*image.size, focus))
    squares: dict[int, Rendition] = {}
    source = largest = square
    for size in sorted((each for each in SIZES if each <= square.width), reverse=True):
        if source.width != size:  # each from the one before: the same look, less work
            source = source.resize((size, size), RESAMPLE, reducing_gap=3.0)
        squares[size] = _encode(source, str(size), WEBP_QUALITY)
        if len(squares) == 1:
            largest = source
    jpeg = _encode(_on_white(largest), str(largest.width), JPEG_QUALITY, format=JPEG)
    return ProcessedPhoto(
        width=upright[0],
        height=upright[1],
        focus=focus,
        digest=hashlib.sha256(content).hexdigest()[:DIGEST_LENGTH],
        original=original,
        squares=MappingProxyType(dict(sorted(squares.items()))),
        jpeg=jpeg,
    )


def _read(upload: bytes | Readable, filename: str) -> bytes:
    """The upload's bytes, never more than one past the limit read into memory."""
    if isinstance(upload, bytes | bytearray | memoryview):
        content = bytes(upload)
        if len(content) > MAX_BYTES:
            raise _too_large(len(content), filename)
    elif callable(getattr(upload, "read", None)):
        size = getattr(upload, "size", None)  # Django's UploadedFile knows it
        if isinstance(size, int) and size > MAX_BYTES:
            raise _too_large(size, filename)
        if getattr(upload, "seekable", lambda: False)():
            size = upload.seek(0, io.SEEK_END)  # type: ignore[attr-defined]
            upload.seek(0)  # type: ignore[attr-defined]
            if size > MAX_BYTES:
                raise _too_large(size, filename)
        chunks, total = [], 0
        while total <= MAX_BYTES:
            chunk = upload.read(min(1 << 20, MAX_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > MAX_BYTES:
            raise _too_large(None, filename)
        content = b"".join(chunks)
    else:
        raise TypeError(f"a photo is bytes or a file object, not {type(upload).__name__}")
    if not content:
        raise UploadError(gettext("is empty"), filename=filename)
    return content


def _too_large(size: int | None, filename: str) -> UploadError:
    if size is None:
        return UploadError(
            gettext("is more than 10 MB; a photo may be at most 10 MB"), filename=filename
        )
    tenths = math.ceil(size * 10 / (1024 * 1024))  # up: over the limit never reads as 10.0
    message = gettext("is %(size)s MB; a photo may be at most 10 MB")
    return UploadError(message % {"size": f"{tenths / 10:.1f}"}, filename=filename)


def _check_dimensions(header: Header, filename: str) -> None:
    """Refuse from the header's size alone: nothing has been decoded yet."""
    width, height = header.width, header.height
    values = {"width": width, "height": height}
    if width * height > MAX_PIXELS:
        tenths = math.ceil(width * height / 100_000)
        values["megapixels"] = f"{tenths // 10}" if tenths % 10 == 0 else f"{tenths / 10:.1f}"
        message = gettext(
            "is %(width)s × %(height)s pixels (%(megapixels)s megapixels); a photo may be at "
            "most 40 megapixels"
        )
        raise UploadError(message % values, filename=filename)
    if min(width, height) < SIZES[0]:
        message = gettext(
            "is %(width)s × %(height)s pixels; a photo must be at least 48 pixels wide and 48 "
            "pixels high"
        )
        raise UploadError(message % values, filename=filename)
    if max(width, height) > MAX_ASPECT * min(width, height):
        message = gettext(
            "is %(width)s × %(height)s pixels; a photo may be at most 4 times as wide as it is "
            "high, or as high as it is wide"
        )
        raise UploadError(message % values, filename=filename)


def _damaged(header: Header, filename: str) -> UploadError:
    message = gettext("is cut off or damaged: it is not a complete %(format)s image")
    name = {"WEBP": "WebP"}.get(header.format, header.format)
    return UploadError(message % {"format": name}, filename=filename)


_TRUNCATION = threading.Lock()


@contextmanager
def _truncation_refused() -> Iterator[None]:
    """Pillow refuses pixel data that ends early, unless ImageFile.LOAD_TRUNCATED_IMAGES is
    set for the whole process, which importing WeasyPrint (the printable timetables) does: a
    cut-off photo would then be kept with its missing part grey. Refused again while one photo
    decodes, under a lock, and the setting put back as it was."""
    with _TRUNCATION:
        before = ImageFile.LOAD_TRUNCATED_IMAGES
        ImageFile.LOAD_TRUNCATED_IMAGES = False
        try:
            yield
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = before


def _decode(
    content: bytes, header: Header, filename: str, *, normalized: bool = False
) -> tuple[Image.Image, tuple[int, int]]:
    """The normalized picture (upright, sRGB, RGB or RGBA, within ORIGINAL_LONG_SIDE, no
    metadata) and the source's upright size."""
    try:
        with (
            _truncation_refused(),
            Image.open(io.BytesIO(content), formats=[header.format]) as opened,
        ):
            if opened.size != (header.width, header.height):
                raise _damaged(header, filename)
            if normalized and (opened.getexif() or {"icc_profile", "xmp"} & opened.info.keys()):
                raise NotAnOriginalError()
            scale = ORIGINAL_LONG_SIDE / max(opened.size)
            if header.format == JPEG and scale <= 0.5:  # DCT scaling: 1/2, 1/4 or 1/8
                wanted = (math.ceil(opened.width * scale), math.ceil(opened.height * scale))
                opened.draft("RGB", wanted)
            orientation = opened.getexif().get(ExifTags.Base.Orientation)
            opened.load()
            icc = opened.info.get("icc_profile")
            image = ImageOps.exif_transpose(opened)
    except (UploadError, NotAnOriginalError, MemoryError):
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        # Pillow's own guard, should someone have set its limit (MAX_IMAGE_PIXELS) below ours.
        message = gettext("is %(width)s × %(height)s pixels, more than this server decodes")
        values = {"width": header.width, "height": header.height}
        raise UploadError(message % values, filename=filename) from error
    except Exception as error:  # any decoder failure is the file's fault
        raise _damaged(header, filename) from error
    upright = (header.width, header.height)
    if orientation in SWAPPING_ORIENTATIONS:
        upright = (header.height, header.width)
    image = _fit(_plain_mode(image, icc), ORIGINAL_LONG_SIDE)
    if icc and image.mode in ("RGB", "RGBA"):
        image = _to_srgb(image, icc)
    if image.mode == "RGBA" and image.getchannel("A").getextrema() == (255, 255):
        image = image.convert("RGB")  # transparency declared, none used
    image.info = {}
    return image, upright


def _plain_mode(image: Image.Image, icc: bytes | None) -> Image.Image:
    """RGB, or RGBA when the picture has transparency, from any mode the three formats give."""
    mode = image.mode
    if mode == "CMYK":
        converted = _to_srgb(image, icc) if icc else image
        return converted if converted.mode == "RGB" else image.convert("RGB")
    if mode.startswith("I") or mode == "F":  # 16-bit grey PNG: 0..65535 down to 0..255
        grey = image.convert("I").point(lambda value: value * (1 / 257))
        return grey.convert("L").convert("RGB")
    if mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info:
        return image.convert("RGBA")
    return image if mode == "RGB" else image.convert("RGB")


def _to_srgb(image: Image.Image, icc: bytes) -> Image.Image:
    """The picture in sRGB per its ICC profile; unchanged when the profile is unusable."""
    modes = {"RGB ": ("RGB", "RGBA"), "CMYK": ("CMYK",)}
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        if image.mode not in modes.get(profile.profile.xcolor_space, ()):
            return image
        output = "RGBA" if image.mode == "RGBA" else "RGB"
        srgb = ImageCms.createProfile("sRGB")
        converted = ImageCms.profileToProfile(image, profile, srgb, outputMode=output)
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
        return image
    return converted if converted is not None else image


def _fit(image: Image.Image, long_side: int) -> Image.Image:
    scale = long_side / max(image.size)
    if scale >= 1:
        return image
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, RESAMPLE, reducing_gap=3.0)


def _on_white(image: Image.Image) -> Image.Image:
    """JPEG has no transparency: what is transparent becomes white, as the pages' background."""
    if image.mode != "RGBA":
        return image
    flat = Image.new("RGB", image.size, "white")
    flat.paste(image, mask=image.getchannel("A"))
    return flat


def _encode(image: Image.Image, label: str, quality: int, *, format: str = WEBP) -> Rendition:
    """Encode with nothing but pixels: no EXIF, XMP or ICC is passed to the encoder."""
    buffer = io.BytesIO()
    if format == WEBP:
        image.save(buffer, "WEBP", quality=quality, method=4)
    else:
        image.save(buffer, "JPEG", quality=quality, optimize=True)
    content_type = WEBP_TYPE if format == WEBP else JPEG_TYPE
    return Rendition(label, content_type, image.width, image.height, buffer.getvalue())
