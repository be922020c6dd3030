"""What an office document really is, from its container: a ZIP archive (OOXML, OpenDocument,
Keynote) or an OLE2 compound file (PowerPoint 97-2003, Word, Excel). Used by slides.py.

A ZIP is judged from its central directory before anything is inflated (how many parts, how
large they say they are, how much they say they shrink, their paths), then every part is
inflated as a stream against the size its header declares, so that a header that lies is
caught too: no part ever gives more than it declared, nothing is extracted to disk, and
nested archives inside are read as plain bytes, never opened. Pure: a seekable binary file in,
a kind ("pptx", "odp", "ppt", ...) out, or UploadError with a message for a person.
"""

from __future__ import annotations

import posixpath
import struct
import zipfile
import zlib
from typing import BinaryIO

import olefile
from defusedxml import ElementTree
from django.utils.translation import gettext

from confsched.core.errors import UploadError

MAX_ENTRIES = 10_000
MAX_UNCOMPRESSED = 300 * 1024 * 1024
MAX_RATIO = 100  # for parts that inflate to more than RATIO_FLOOR
RATIO_FLOOR = 1024 * 1024
MAX_XML = 1024 * 1024  # [Content_Types].xml and ODF's mimetype are read whole, up to this
READ_CHUNK = 64 * 1024
INFLATE_CHUNK = 1024 * 1024  # at most this much inflated output in memory at a time

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_EOCD = struct.Struct("<4s4H2LH")  # end of central directory record
_LOCAL = struct.Struct("<4s5H3L2H")  # a part's local header

# The main part's content type in [Content_Types].xml, its folder, and the kind it makes.
OOXML_MAIN = {
    "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml": (
        "ppt/",
        "pptx",
    ),
    "application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml": (
        "ppt/",
        "ppsx",
    ),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": (
        "word/",
        "docx",
    ),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml": ("xl/", "xlsx"),
}
# Macro-enabled main parts: refused, with the format to save as instead.
OOXML_MACRO_MAIN = {
    "application/vnd.ms-powerpoint.presentation.macroenabled.main+xml": "pptx",
    "application/vnd.ms-powerpoint.slideshow.macroenabled.main+xml": "ppsx",
    "application/vnd.ms-word.document.macroenabled.main+xml": "docx",
    "application/vnd.ms-excel.sheet.macroenabled.main+xml": "xlsx",
}
ODF_MIMETYPES = {
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
}
# Keynote 2013 and later (Index/*.iwa, sometimes packed as Index.zip); Keynote '09 (index.apxl).
KEYNOTE_MARKERS = ("Index/Document.iwa", "Index.zip", "index.apxl", "index.apxl.gz")
_CT_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"


def zip_directory_end(tail: bytes, tail_start: int) -> tuple[int, int, int] | None:
    """(entries, directory size, directory offset) of the last end-of-central-directory record
    in `tail` (the file's last bytes, from offset `tail_start`) whose directory lies before it
    and starts with a central directory header: a ZIP that a ZIP reader would open. None when
    there is none, so that bytes that merely look like the record (inside a PDF's compressed
    streams, by chance) do not count."""
    at = len(tail)
    while (at := tail.rfind(b"PK\x05\x06", 0, at)) >= 0:
        if at + _EOCD.size <= len(tail):
            _, _, _, _, entries, cd_size, cd_offset, _ = _EOCD.unpack_from(tail, at)
            record = tail_start + at
            # Readers also look just before the record, for archives with bytes prepended.
            for start in {cd_offset, record - cd_size}:
                local = start - tail_start
                if cd_size and 0 <= start and start + cd_size <= record:
                    if 0 <= local and tail[local : local + 4] == b"PK\x01\x02":
                        return entries, cd_size, cd_offset
    return None


def check_zip(file: BinaryIO, size: int) -> str:
    """The kind of office document a ZIP archive is ("pptx", "ppsx", "docx", "xlsx", "odp",
    "odt", "ods", "key"), after checking that it is safe to open and whole; else UploadError."""
    file.seek(max(0, size - (_EOCD.size + 0xFFFF)))
    tail_start = file.tell()
    found = zip_directory_end(file.read(), tail_start)
    if found is not None:
        entries, cd_size, _ = found
        # Refused before the directory is read: too many parts take memory to list.
        if entries > MAX_ENTRIES or cd_size > MAX_ENTRIES * 512:
            raise UploadError(_too_many_parts())
    try:
        archive = zipfile.ZipFile(file)
        parts = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise UploadError(_damaged_zip()) from None
    _check_directory(parts)
    kind = _identify(file, size, parts)
    for part in parts:
        _inflate(file, size, part, keep=0)
    return kind


def _check_directory(parts: list[zipfile.ZipInfo]) -> None:
    """Refuses what the central directory alone shows: a bomb, unsafe paths, passwords."""
    if len(parts) > MAX_ENTRIES:
        raise UploadError(_too_many_parts())
    total = 0
    for part in parts:
        name = part.orig_filename
        segments = name.replace("\\", "/").split("/")
        if (
            name.startswith(("/", "\\"))
            or "\\" in name
            or "\x00" in name
            or ".." in segments
            or (len(name) > 1 and name[1] == ":")
        ):
            raise UploadError(
                gettext(
                    "It holds a part with an unsafe path (%(path)s): absolute or leading out of "
                    "its folder. Office programs never write such paths; save the document again."
                )
                % {"path": repr(name[:80])}
            )
        if part.flag_bits & 0x1:
            raise UploadError(_password())
        if part.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise UploadError(
                gettext(
                    "It is compressed in a way office programs do not write (method %(method)s);"
                    " save it again from your presentation program."
                )
                % {"method": part.compress_type}
            )
        total += part.file_size
        if total > MAX_UNCOMPRESSED:
            raise UploadError(
                gettext("Its parts would take more than %(limit)s MB once unpacked (a ZIP bomb?).")
                % {"limit": MAX_UNCOMPRESSED // (1024 * 1024)}
            )
        if part.file_size > RATIO_FLOOR and part.file_size > MAX_RATIO * max(part.compress_size, 1):
            raise UploadError(
                gettext(
                    "One of its parts (%(path)s) unpacks to over %(ratio)s times its packed "
                    "size: a ZIP bomb, not slides."
                )
                % {"path": repr(name[:80]), "ratio": MAX_RATIO}
            )


def _identify(file: BinaryIO, size: int, parts: list[zipfile.ZipInfo]) -> str:
    names = {part.orig_filename: part for part in parts}
    first = min(parts, key=lambda part: part.header_offset, default=None)
    if first is not None and first.orig_filename == "mimetype" and first.header_offset == 0:
        return _identify_odf(file, size, first, names)
    if "[Content_Types].xml" in names:
        return _identify_ooxml(file, size, names)
    if any(marker in names for marker in KEYNOTE_MARKERS):
        return "key"
    raise UploadError(
        gettext(
            "It is a ZIP archive, not a presentation: send the slides themselves (PDF, "
            "PowerPoint, Keynote or OpenDocument), not a folder packed into a ZIP."
        )
    )


def _identify_odf(
    file: BinaryIO, size: int, mimetype: zipfile.ZipInfo, names: dict[str, zipfile.ZipInfo]
) -> str:
    declared = _inflate(file, size, mimetype, keep=MAX_XML).decode("ascii", "replace").strip()
    kind = ODF_MIMETYPES.get(declared)
    if mimetype.compress_type != zipfile.ZIP_STORED or "content.xml" not in names:
        raise UploadError(
            gettext("It claims to be an OpenDocument file but is not laid out as one.")
        )
    if kind is None:
        raise UploadError(
            gettext(
                "It is an OpenDocument file of a kind we do not take (%(type)s): send a "
                "presentation (.odp), text (.odt) or spreadsheet (.ods)."
            )
            % {"type": declared[:80] or "?"}
        )
    return kind


def _identify_ooxml(file: BinaryIO, size: int, names: dict[str, zipfile.ZipInfo]) -> str:
    xml = _inflate(file, size, names["[Content_Types].xml"], keep=MAX_XML)
    try:
        root = ElementTree.fromstring(xml)
    except Exception:  # noqa: BLE001 - defusedxml's refusals and any XML error alike
        raise UploadError(_damaged_office()) from None
    types: dict[str, str] = {}
    defaults: set[str] = set()
    for element in root:
        content_type = (element.get("ContentType") or "").strip().lower()
        if element.tag == f"{_CT_NS}Override":
            types[(element.get("PartName") or "").lstrip("/")] = content_type
        elif element.tag == f"{_CT_NS}Default":
            defaults.add(content_type)
    has_vba = any(posixpath.basename(name).lower() == "vbaproject.bin" for name in names)
    everything = set(types.values()) | defaults
    macro_main = [OOXML_MACRO_MAIN[t] for t in types.values() if t in OOXML_MACRO_MAIN]
    if has_vba or macro_main or any("vbaproject" in t for t in everything):
        instead = macro_main[0] if macro_main else "pptx"
        raise UploadError(_macros(instead))
    kinds = set()
    for part_name, content_type in types.items():
        if content_type in OOXML_MAIN:
            folder, kind = OOXML_MAIN[content_type]
            if part_name.startswith(folder) and part_name in names:
                kinds.add(kind)
    if len(kinds) != 1:
        raise UploadError(
            gettext(
                "It looks like an Office file but has no presentation, document or "
                "spreadsheet in it (or more than one): save it again, or export a PDF."
            )
        )
    return kinds.pop()


def _inflate(file: BinaryIO, size: int, part: zipfile.ZipInfo, *, keep: int) -> bytes:
    """Inflates one part as a stream, never past the size its directory entry declares, and
    checks its length and CRC-32; returns its first `keep` bytes."""
    file.seek(part.header_offset)
    header = file.read(_LOCAL.size)
    if len(header) != _LOCAL.size or header[:4] != ZIP_MAGIC:
        raise UploadError(_damaged_zip())
    name_length, extra_length = _LOCAL.unpack(header)[9:]
    encoding = "utf-8" if part.flag_bits & 0x800 else "cp437"
    if file.read(name_length).decode(encoding, "replace") != part.orig_filename:
        raise UploadError(_damaged_zip())
    start = part.header_offset + _LOCAL.size + name_length + extra_length
    if start + part.compress_size > size:
        raise UploadError(_damaged_zip())
    file.seek(start)
    deflated = part.compress_type == zipfile.ZIP_DEFLATED
    inflater = zlib.decompressobj(-zlib.MAX_WBITS) if deflated else None
    left, produced, crc, kept = part.compress_size, 0, 0, bytearray()
    while left:
        data = file.read(min(READ_CHUNK, left))
        if not data:
            raise UploadError(_damaged_zip())
        left -= len(data)
        while data:
            if inflater is None:
                out, data = data, b""
            else:
                # Never more than the declared size plus one byte: one more is a lie caught.
                budget = min(INFLATE_CHUNK, part.file_size - produced + 1)
                try:
                    out = inflater.decompress(data, budget)
                except zlib.error:
                    raise UploadError(_damaged_zip()) from None
                data = inflater.unconsumed_tail
            produced += len(out)
            if produced > part.file_size:
                raise UploadError(_lying_sizes(part.orig_filename))
            crc = zlib.crc32(out, crc)
            if len(kept) < keep:
                kept += out[: keep - len(kept)]
            if inflater is not None and inflater.eof:
                break
    if (inflater is not None and not inflater.eof) or produced != part.file_size:
        raise UploadError(_lying_sizes(part.orig_filename))
    if crc != part.CRC:
        raise UploadError(_damaged_zip())
    return bytes(kept)


def check_ole(file: BinaryIO) -> str:
    """The kind of a legacy Office file ("ppt", "doc", "xls"), from its streams; refuses other
    compound files (installers, mail), password-protected ones and Word or Excel macros."""
    file.seek(0)
    try:
        ole = olefile.OleFileIO(file)
    except Exception:  # noqa: BLE001 - olefile raises many kinds on a damaged file
        raise UploadError(_damaged_office()) from None
    try:
        streams = {"/".join(path).lower() for path in ole.listdir(streams=True, storages=True)}
        if "encryptedpackage" in streams or "encryptedsummary" in streams:
            raise UploadError(_password())
        if "powerpoint document" in streams:
            return "ppt"
        if "worddocument" in streams:
            flags = ole.openstream("WordDocument").read(12)[10:12]
            if len(flags) == 2 and int.from_bytes(flags, "little") & 0x0100:
                raise UploadError(_password())
            if "macros" in streams:
                raise UploadError(_macros("docx"))
            return "doc"
        book = "workbook" if "workbook" in streams else "book" if "book" in streams else None
        if book is not None:
            if _xls_encrypted(ole.openstream(book).read(4096)):
                raise UploadError(_password())
            if "_vba_project_cur" in streams:
                raise UploadError(_macros("xlsx"))
            return "xls"
        raise UploadError(
            gettext(
                "It is a Microsoft compound file but not a presentation, document or "
                "spreadsheet (an installer or a mail, perhaps)."
            )
        )
    except UploadError:
        raise
    except Exception:  # noqa: BLE001 - a stream that cannot be read is a damaged file
        raise UploadError(_damaged_office()) from None
    finally:
        ole.close()


def _xls_encrypted(head: bytes) -> bool:
    """Whether a BIFF workbook stream has a FILEPASS record among its first records."""
    at = 0
    for _ in range(32):
        if at + 4 > len(head):
            return False
        kind, length = struct.unpack_from("<2H", head, at)
        if kind == 0x002F:
            return True
        at += 4 + length
    return False


def _too_many_parts() -> str:
    return gettext(
        "It is packed from more than %(count)s parts, more than any real document has "
        "(a ZIP bomb?)."
    ) % {"count": f"{MAX_ENTRIES:,}"}


def _damaged_zip() -> str:
    return gettext(
        "It is damaged or incomplete: its ZIP structure does not hold together. Save or "
        "export it again."
    )


def _damaged_office() -> str:
    return gettext("It is damaged and cannot be read as an Office document. Save it again.")


def _lying_sizes(path: str) -> str:
    return gettext(
        "One of its parts (%(path)s) does not unpack to the size it declares: a damaged or "
        "crafted file."
    ) % {"path": repr(path[:80])}


def _password() -> str:
    return gettext(
        "It is protected with a password (encrypted), so nobody could open it from the "
        "schedule: save it without a password and upload it again."
    )


def _macros(extension: str) -> str:
    return gettext(
        "It contains macros (VBA code), which we do not accept: save it without macros, "
        "as .%(extension)s (or export a PDF), and upload that."
    ) % {"extension": extension}
