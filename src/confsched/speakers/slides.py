"""Checks a speaker's slides before they are kept: what the file really is, from its bytes.

`check_slides(file, filename=..., size=...)` returns a `SlideFile` (kind, IANA content type,
extension, safe download names, size, SHA-256, a PDF's page count) or raises
`confsched.core.errors.UploadError` with a message for the person who uploaded it.

Accepted: PDF; PowerPoint (.pptx, .ppsx, .ppt), Keynote (.key, the ZIP form), OpenDocument
(.odp, .odt, .ods), Word (.docx, .doc) and Excel (.xlsx, .xls); at most 50 MB. The kind comes
from the content only (magic numbers, then the container's own parts: office.py), never from
the name or the browser's content type. A name whose extension disagrees with the content is
not refused: the file is kept and offered under the content's extension ("talk.ppt" holding a
PDF downloads as "talk.pdf"), since the content is what a visitor's program opens.

Refused, each with its own message: HTML, JavaScript, SVG and other text (whatever the name);
executables (ELF, PE/MZ, Mach-O, scripts with #!); polyglots (a PDF whose `%PDF-` is not at
byte 0, that carries HTML markers in its first kilobyte or a ZIP directory at its end; an
office file with `%PDF-` in its first kilobyte); PDFs that are encrypted (even with an empty
password: we neither ask nor strip it), damaged, cut off (no `%%EOF` at the end) or empty of
pages; office files that are ZIP bombs, have unsafe paths, macros or passwords.

The file is read in chunks and seeks: a 50 MB upload is never held in memory whole, except by
pypdf when it must rebuild a damaged PDF's cross-reference table.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import re
import unicodedata
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from django.utils.translation import gettext, gettext_noop

from confsched.core.errors import UploadError
from confsched.speakers import office

MAX_SLIDE_BYTES = 50 * 1024 * 1024
HEAD_BYTES = 1024  # PDF readers find %PDF- anywhere in the first kilobyte
HASH_CHUNK = 1024 * 1024

CONTENT_TYPES = {
    "pdf": "application/pdf",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "ppsx": "application/vnd.openxmlformats-officedocument.presentationml.slideshow",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "odp": "application/vnd.oasis.opendocument.presentation",
    "odt": "application/vnd.oasis.opendocument.text",
    "ods": "application/vnd.oasis.opendocument.spreadsheet",
    "ppt": "application/vnd.ms-powerpoint",
    "doc": "application/msword",
    "xls": "application/vnd.ms-excel",
    "key": "application/vnd.apple.keynote",
}

_EXECUTABLES = (
    (b"\x7fELF", gettext_noop("a Linux program (ELF)")),
    (b"MZ", gettext_noop("a Windows program (PE/MZ)")),
    (b"\xfe\xed\xfa\xce", gettext_noop("a macOS program (Mach-O)")),
    (b"\xfe\xed\xfa\xcf", gettext_noop("a macOS program (Mach-O)")),
    (b"\xce\xfa\xed\xfe", gettext_noop("a macOS program (Mach-O)")),
    (b"\xcf\xfa\xed\xfe", gettext_noop("a macOS program (Mach-O)")),
    (b"\xca\xfe\xba\xbe", gettext_noop("a macOS program (Mach-O)")),
    (b"\x00asm", gettext_noop("a WebAssembly program")),
    (b"#!", gettext_noop("a script")),
)
_IMAGES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")
_HTML_MARKERS = (b"<!doctype html", b"<html", b"<head", b"<body", b"<script", b"<iframe")
_POLYGLOT_MARKERS = (*_HTML_MARKERS, b"<svg", b"<?xml-stylesheet")
_JS_STARTS = re.compile(
    rb"(?:'use strict'|\"use strict\"|(?:async\s+)?function[\s*(]|var\s|let\s|const\s|"
    rb"import[\s{(]|export\s|!function|\(function|\(\(\)\s*=>|window\.|document\.|"
    rb"module\.exports|require\()"
)
_PDF_VERSION = re.compile(rb"%PDF-[12]\.\d")
# Extensions dropped from the given name before the content's own is put on.
_TYPE_EXTENSIONS = {
    *CONTENT_TYPES,
    *("pptm", "ppsm", "pps", "pot", "potx", "docm", "xlsm", "rtf", "txt", "zip", "html", "htm"),
    *("js", "svg", "exe", "sh", "bat", "png", "jpg", "jpeg"),
}
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul"} | {
    f"{p}{n}" for p in ("com", "lpt") for n in range(10)
}


@dataclass(frozen=True)
class SlideFile:
    """An accepted slide file. `filename` is a safe name for a download (Unicode, no path,
    no control or bidi characters, the content's extension); `ascii_filename` its ASCII
    fallback (for Content-Disposition's plain `filename=` and storage names)."""

    kind: str
    content_type: str
    extension: str
    filename: str
    ascii_filename: str
    size: int
    sha256: str
    pages: int | None = None


def check_slides(
    source: BinaryIO | str | os.PathLike[str] | bytes,
    *,
    filename: str,
    size: int | None = None,
) -> SlideFile:
    """What the uploaded `source` (a seekable binary file such as Django's UploadedFile, a
    path, or bytes) is, once checked; `filename` is the name the person gave it, `size` the
    size the upload declared (a file of another size was not received whole). Leaves a file
    object at its start; UploadError (naming `filename`) when the file is refused."""
    shown = _clean_name(filename) or gettext("the file")
    with ExitStack() as stack:
        if isinstance(source, bytes | bytearray | memoryview):
            file: BinaryIO = io.BytesIO(source)
        elif isinstance(source, str | os.PathLike):
            file = stack.enter_context(Path(source).open("rb"))
        else:
            file = source
        try:
            kind, pages, actual = _inspect(file, size)
            digest = _sha256(file)
        except UploadError as error:
            raise UploadError(error.message, filename=shown) from None
        finally:
            file.seek(0)
    unicode_name, ascii_name = download_names(filename, kind)
    return SlideFile(
        kind=kind,
        content_type=CONTENT_TYPES[kind],
        extension=kind,
        filename=unicode_name,
        ascii_filename=ascii_name,
        size=actual,
        sha256=digest,
        pages=pages,
    )


def _inspect(file: BinaryIO, declared: int | None) -> tuple[str, int | None, int]:
    file.seek(0, os.SEEK_END)
    size = file.tell()
    if declared is not None and declared != size:
        raise UploadError(
            gettext(
                "It was not received whole (%(got)s of %(declared)s bytes): the upload was "
                "cut off. Please upload it again."
            )
            % {"got": f"{size:,}", "declared": f"{declared:,}"}
        )
    if size == 0:
        raise UploadError(gettext("It is empty (0 bytes)."))
    if size > MAX_SLIDE_BYTES:
        raise UploadError(too_large_message(size))
    file.seek(0)
    head = file.read(HEAD_BYTES)
    if head.startswith(b"%PDF-"):
        return "pdf", _check_pdf(file, size, head), size
    if b"%PDF-" in head:
        raise UploadError(_pdf_elsewhere(head))
    if head.startswith(office.ZIP_MAGIC):
        return office.check_zip(file, size), None, size
    if head.startswith(office.OLE_MAGIC):
        return office.check_ole(file), None, size
    raise UploadError(_what_else(head))


def _pdf_elsewhere(head: bytes) -> str:
    before = head[: head.index(b"%PDF-")]
    if before.startswith((office.ZIP_MAGIC, office.OLE_MAGIC)):
        return gettext(
            "It is an office file and a PDF at once (a polyglot file), which different "
            "programs open differently: export the slides again."
        )
    if any(marker in before.lower() for marker in _POLYGLOT_MARKERS):
        return gettext(
            "It is a web page (HTML) and a PDF at once (a polyglot file): browsers could run "
            "what it holds. Export the slides as a PDF again."
        )
    return gettext(
        "It has %(count)s bytes of something else before its PDF header, where a PDF starts "
        "with %%PDF- at the very first byte: export it as a PDF again."
    ) % {"count": len(before)}


def _check_pdf(file: BinaryIO, size: int, head: bytes) -> int:
    """The page count of a PDF that is only a PDF, whole, unencrypted and readable."""
    if not _PDF_VERSION.match(head):
        raise UploadError(gettext("Its PDF header is not valid: export it as a PDF again."))
    if any(marker in head.lower() for marker in _POLYGLOT_MARKERS):
        raise UploadError(
            gettext(
                "It is a PDF with web page (HTML or SVG) markup at its start, so that a browser "
                "could take it for a page and run it (a polyglot file): export it again."
            )
        )
    file.seek(max(0, size - 0x10000 - 22))
    tail_start = file.tell()
    tail = file.read()
    if office.zip_directory_end(tail, tail_start) is not None:
        raise UploadError(
            gettext(
                "It is a PDF and a ZIP archive at once (a polyglot file), which different "
                "programs open differently: export the slides as a PDF again."
            )
        )
    if b"%%EOF" not in tail[-1024:]:
        raise UploadError(
            gettext(
                "The PDF is incomplete: it does not end as a PDF ends (%%EOF), as if the upload "
                "or the export was cut off. Export it and upload it again."
            )
        )
    from pypdf import PdfReader  # noqa: PLC0415 - 25 MB a web worker needs only for an upload

    file.seek(0)
    try:
        reader = PdfReader(file, strict=False)
        encrypted = reader.is_encrypted
        pages = 0 if encrypted else len(reader.pages)
        if pages:
            reader.pages[0].mediabox  # noqa: B018 - the first page's size must be readable
    except Exception:  # noqa: BLE001 - pypdf raises many kinds on a damaged file
        raise UploadError(
            gettext("The PDF is damaged and cannot be read. Export it as a PDF again.")
        ) from None
    if encrypted:
        raise UploadError(
            gettext(
                "The PDF is encrypted (protected by a password or by restrictions on printing "
                "or copying): export it again without protection."
            )
        )
    if not pages:
        raise UploadError(gettext("The PDF has no pages."))
    return pages


def _what_else(head: bytes) -> str:
    """Why content that is none of the accepted kinds is refused: what it is."""
    for magic, what in _EXECUTABLES:
        if head.startswith(magic):
            return gettext(
                "It is %(what)s, not slides: programs and scripts are never accepted."
            ) % {"what": gettext(what)}
    if head.startswith(_IMAGES) or head[8:12] == b"WEBP":
        return gettext(
            "It is an image, not slides: upload the presentation itself (PDF, PowerPoint, "
            "Keynote or OpenDocument)."
        )
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    if b"<svg" in text[:HEAD_BYTES] and text.startswith((b"<svg", b"<?xml", b"<!doctype svg")):
        return gettext(
            "It is an SVG image, which can carry scripts that would run in visitors' "
            "browsers: export your slides as a PDF instead."
        )
    if text.startswith(b"<") and any(marker in text for marker in _HTML_MARKERS):
        return gettext(
            "It is a web page (HTML), not a PDF or a presentation, whatever its name says: "
            "export your slides as a PDF."
        )
    if _JS_STARTS.match(text) or text.startswith((b"//", b"/*")):
        return gettext(
            "It is JavaScript, not a PDF or a presentation, whatever its name says: export "
            "your slides as a PDF."
        )
    return gettext(
        "Its content is not one we accept: slides must be a PDF, PowerPoint (.pptx, .ppsx, "
        ".ppt), Keynote (.key), OpenDocument (.odp, .odt, .ods), Word or Excel file."
    )


def too_large_message(size: int | None = None, *, limit: int = MAX_SLIDE_BYTES) -> str:
    """ "It is over 50 MB" for a person, with the size when known; uploads.py says it too."""
    megabytes = limit // (1024 * 1024)
    if size is None:
        return gettext("It is over %(limit)s MB, the most slides may be.") % {"limit": megabytes}
    return gettext("It is %(size)s MB, over the %(limit)s MB slides may be.") % {
        "size": f"{math.ceil(size * 10 / (1024 * 1024)) / 10:.1f}",  # 50 MB + 1 byte: 50.1
        "limit": megabytes,
    }


def _sha256(file: BinaryIO) -> str:
    file.seek(0)
    digest = hashlib.sha256()
    while chunk := file.read(HASH_CHUNK):
        digest.update(chunk)
    return digest.hexdigest()


def _clean_name(name: str) -> str:
    """The last path segment of `name`, NFC, without control, format (bidi, zero-width) or
    private characters, characters Windows refuses, or runs of spaces; at most 120 long."""
    base = re.split(r"[/\\]", name or "")[-1]
    base = unicodedata.normalize("NFC", base)
    base = "".join(
        " " if unicodedata.category(ch) in {"Zl", "Zp"} else ch
        for ch in base
        if unicodedata.category(ch)[0] != "C"
    )
    base = " ".join(re.sub(r'[<>:"|?*]', "_", base).split())
    return base[:120].strip(" .")


def download_names(name: str, extension: str) -> tuple[str, str]:
    """(Unicode name, ASCII fallback) to offer a file called `name` under, with `extension`:
    no path, no control characters, the given extension replaced when it names a file type
    ("talk.pptx" holding a PDF becomes "talk.pdf"), "slides" when nothing is left."""
    base = _clean_name(name)
    stem, dot, given = base.rpartition(".")
    if dot and stem and given.lower() in _TYPE_EXTENSIONS:
        base = stem.strip(" .")
    if base.split(".")[0].lower() in _WINDOWS_RESERVED:
        base = f"_{base}"
    plain = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode("ascii")
    plain = " ".join(re.sub(r"[^A-Za-z0-9._ ()+,=@~-]", "_", plain).split()).strip(" .")
    if not plain.strip("_"):
        plain = "slides"
    return f"{base or 'slides'}.{extension}", f"{plain}.{extension}"
