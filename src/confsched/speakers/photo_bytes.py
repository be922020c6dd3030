"""What an uploaded photo's bytes are, read from the bytes alone, before any pixel is decoded.

photos.py decodes only what passes here. The checks are cheap walks over the file's structure
(JPEG markers, PNG chunks, RIFF chunks of WebP), with no image library, so that:

- the type comes from the content, never from the file's name or the browser's content type;
- the dimensions come from the header, so that a decompression bomb (a small file that says
  it is 50,000 × 50,000 pixels) is refused before Pillow allocates anything;
- a file cut off before its end is refused with a message that says so, not a decoder's error;
- a polyglot (a valid image with a web page, a ZIP archive or a program after its end, which
  some browsers or tools read as that other thing) is refused even though we re-encode every
  photo: the stored files are ours, but the refusal tells a person what is wrong with theirs.

The one thing allowed after a JPEG's end is another complete JPEG (phones and cameras append
their preview and depth images that way, the "Multi-Picture Format") and padding of zero or
0xFF bytes some cameras add; after a WebP's RIFF, only zero padding; after a PNG's IEND,
nothing.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

from django.utils.translation import gettext

from confsched.core.errors import UploadError

JPEG, PNG, WEBP = "JPEG", "PNG", "WEBP"
NAMES = {JPEG: "JPEG", PNG: "PNG", WEBP: "WebP"}

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the size.
SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # not DHT, JPG, DAC
STANDALONE_MARKERS = frozenset({0x01, *range(0xD0, 0xD8)})  # TEM and the restart markers
# In entropy-coded data 0xFF is followed by 0x00 (a stuffed byte), a restart marker or more
# 0xFF (fill); anything else is the next marker. One search in C instead of a Python loop.
NEXT_MARKER = re.compile(rb"\xff+[^\x00\xd0-\xd7\xff]")
PADDING = re.compile(rb"[\x00\xff]*\Z")
ZEROS = re.compile(rb"\x00*\Z")


@dataclass(frozen=True)
class Header:
    """The format and the stored (not yet EXIF-rotated) size a file's header declares."""

    format: str
    width: int
    height: int


def identify(data: bytes, *, filename: str) -> Header:
    """The photo's format and size, or UploadError saying what the bytes are instead.

    Also refuses a file cut off or damaged in its structure, and one with other content after
    the image's end (a polyglot).
    """
    if data.startswith(b"\xff\xd8\xff"):
        header, end = _walk_jpeg(data, filename)
        while end < len(data) and data.startswith(b"\xff\xd8\xff", end):
            end = _walk_jpeg(data, filename, start=end)[1]  # an appended preview or depth map
        _refuse_trailing(data, end, JPEG, PADDING, filename)
        return header
    if data.startswith(PNG_SIGNATURE):
        header, end = _walk_png(data, filename)
        _refuse_trailing(data, end, PNG, None, filename)
        return header
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        header, end = _walk_webp(data, filename)
        _refuse_trailing(data, end, WEBP, ZEROS, filename)
        return header
    kind = looks_like(data)
    if kind:
        message = gettext("is not a JPEG, PNG or WebP image (it looks like %(kind)s)")
        raise UploadError(message % {"kind": kind}, filename=filename)
    raise UploadError(gettext("is not a JPEG, PNG or WebP image"), filename=filename)


def looks_like(data: bytes) -> str:
    """What other common content the bytes seem to be ("" when unknown), for the message."""
    magic = [
        ((b"GIF87a", b"GIF89a"), gettext("a GIF image")),
        ((b"%PDF",), gettext("a PDF document")),
        ((b"PK\x03\x04", b"PK\x05\x06"), gettext("a ZIP archive")),
        ((b"\x7fELF", b"MZ", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe"), gettext("a program")),
        ((b"BM",), gettext("a BMP image")),
        ((b"II*\x00", b"MM\x00*"), gettext("a TIFF image")),
        ((b"\x1f\x8b", b"7z\xbc\xaf", b"Rar!"), gettext("a compressed archive")),
        ((b"\xff\xd8\xff",), gettext("a JPEG image")),
        ((PNG_SIGNATURE,), gettext("a PNG image")),
    ]
    for prefixes, kind in magic:
        if data.startswith(prefixes):
            return kind
    if data[4:8] == b"ftyp":  # ISO media: iPhones' HEIC photos, AVIF, videos
        brand = data[8:12]
        if brand in (b"heic", b"heix", b"mif1", b"msf1", b"hevc"):
            return gettext("a HEIC image")
        return gettext("an AVIF image") if brand in (b"avif", b"avis") else gettext("a video")
    return _looks_like_text(data[:2048])


def _looks_like_text(head: bytes) -> str:
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 3:  # not just a character cut at the head's end
            return ""
        text = head[: error.start].decode("utf-8")
    text = text.lstrip("\ufeff \t\r\n").lower()
    if not text or any(ord(c) < 32 and c not in "\t\r\n\f" for c in text):
        return ""
    if "<svg" in text:
        return gettext("an SVG drawing")
    if text.startswith(("<!doctype html", "<html", "<head", "<body", "<script", "<!--")) or (
        text.startswith("<") and any(tag in text for tag in ("<script", "<body", "<iframe"))
    ):
        return gettext("HTML")
    if text.startswith("<?xml"):
        return gettext("XML")
    if text.startswith("#!"):
        return gettext("a script")
    javascript = ("function", "=>", "var ", "let ", "const ", "document.", "window.", "alert(")
    if any(word in text for word in javascript):
        return gettext("JavaScript")
    return gettext("text")


def _truncated(format: str, filename: str) -> UploadError:
    message = gettext("is cut off or damaged: it is not a complete %(format)s image")
    return UploadError(message % {"format": NAMES[format]}, filename=filename)


def _refuse_trailing(
    data: bytes, end: int, format: str, allowed: re.Pattern[bytes] | None, filename: str
) -> None:
    """Refuse content after the image's end, unless it is padding the pattern allows."""
    if end >= len(data) or (allowed is not None and allowed.match(data, end)):
        return
    kind = looks_like(data[end:])
    values = {"format": NAMES[format], "kind": kind}
    if kind:
        message = gettext(
            "has something else after the end of its %(format)s image (it looks like "
            "%(kind)s); a photo must be an image and nothing more"
        )
    else:
        message = gettext(
            "has something else after the end of its %(format)s image; a photo must be an "
            "image and nothing more"
        )
    raise UploadError(message % values, filename=filename)


def _walk_jpeg(data: bytes, filename: str, start: int = 0) -> tuple[Header, int]:
    """The first frame's size and the offset just after the end-of-image marker."""
    size: tuple[int, int] | None = None
    pos, length = start + 2, len(data)
    while True:
        if pos + 2 > length:
            raise _truncated(JPEG, filename)
        if data[pos] != 0xFF:
            raise _truncated(JPEG, filename)
        while data[pos + 1] == 0xFF:  # fill bytes before a marker
            pos += 1
            if pos + 2 > length:
                raise _truncated(JPEG, filename)
        marker = data[pos + 1]
        if marker == 0xD9:  # end of image
            if size is None:
                raise _truncated(JPEG, filename)
            return Header(JPEG, *size), pos + 2
        if marker in STANDALONE_MARKERS:
            pos += 2
            continue
        if marker == 0xD8 or pos + 4 > length:
            raise _truncated(JPEG, filename)
        segment_end = pos + 2 + int.from_bytes(data[pos + 2 : pos + 4], "big")
        if segment_end > length or segment_end < pos + 4:
            raise _truncated(JPEG, filename)
        if marker in SOF_MARKERS and size is None:
            if segment_end < pos + 9:
                raise _truncated(JPEG, filename)
            height = int.from_bytes(data[pos + 5 : pos + 7], "big")
            width = int.from_bytes(data[pos + 7 : pos + 9], "big")
            if not width or not height:
                raise _truncated(JPEG, filename)
            size = (width, height)
        pos = segment_end
        if marker == 0xDA:  # start of scan: entropy-coded data up to the next marker
            found = NEXT_MARKER.search(data, pos)
            if found is None:
                raise _truncated(JPEG, filename)
            pos = found.end() - 2


def _walk_png(data: bytes, filename: str) -> tuple[Header, int]:
    """IHDR's size and the offset after IEND; every chunk's length and CRC checked."""
    view = memoryview(data)
    size: tuple[int, int] | None = None
    pos, length = len(PNG_SIGNATURE), len(data)
    while True:
        if pos + 12 > length:
            raise _truncated(PNG, filename)
        chunk_length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8]
        end = pos + 12 + chunk_length
        if chunk_length > 0x7FFFFFFF or end > length:
            raise _truncated(PNG, filename)
        crc = int.from_bytes(data[end - 4 : end], "big")
        if zlib.crc32(view[pos + 4 : end - 4]) != crc:
            raise _truncated(PNG, filename)
        if size is None:
            if kind != b"IHDR" or chunk_length != 13:
                raise _truncated(PNG, filename)
            width = int.from_bytes(data[pos + 8 : pos + 12], "big")
            height = int.from_bytes(data[pos + 12 : pos + 16], "big")
            if not width or not height:
                raise _truncated(PNG, filename)
            size = (width, height)
        if kind == b"IEND":
            return Header(PNG, *size), end
        pos = end


def _walk_webp(data: bytes, filename: str) -> tuple[Header, int]:
    """The canvas size (VP8X, or the single VP8 or VP8L frame) and the RIFF's end."""
    end = 8 + int.from_bytes(data[4:8], "little")
    if end > len(data):
        raise _truncated(WEBP, filename)
    size: tuple[int, int] | None = None
    pos = 12
    while pos < end:
        if pos + 8 > end:
            raise _truncated(WEBP, filename)
        kind = data[pos : pos + 4]
        chunk_length = int.from_bytes(data[pos + 4 : pos + 8], "little")
        payload = data[pos + 8 : pos + 8 + min(chunk_length, 16)]
        if pos + 8 + chunk_length > end:
            raise _truncated(WEBP, filename)
        if size is None:
            size = _webp_size(kind, payload)
            if size is None:
                raise _truncated(WEBP, filename)
        pos += 8 + chunk_length + (chunk_length & 1)
    if size is None:
        raise _truncated(WEBP, filename)
    return Header(WEBP, *size), end


def _webp_size(kind: bytes, payload: bytes) -> tuple[int, int] | None:
    """The size the first chunk declares (None when it is not one that declares it)."""
    if kind == b"VP8X" and len(payload) >= 10:
        width = 1 + int.from_bytes(payload[4:7], "little")
        return width, 1 + int.from_bytes(payload[7:10], "little")
    if kind == b"VP8L" and len(payload) >= 5 and payload[0] == 0x2F:
        bits = int.from_bytes(payload[1:5], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8 " and len(payload) >= 10 and payload[3:6] == b"\x9d\x01\x2a":
        width = int.from_bytes(payload[6:8], "little") & 0x3FFF
        height = int.from_bytes(payload[8:10], "little") & 0x3FFF
        return (width, height) if width and height else None
    return None
