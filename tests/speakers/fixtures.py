"""Real slide files made in memory for the speakers' tests: PDFs written by hand (every byte
known), OOXML, OpenDocument and Keynote ZIPs, an OLE2 compound file, ZIP bombs and lying
ZIP headers. Nothing binary is committed."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

PPTX_MAIN = "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"
PPSX_MAIN = "application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml"
DOCX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
XLSX_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
PPTM_MAIN = "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml"


def make_pdf(
    *,
    pages: int = 1,
    width: float = 600,
    height: float = 400,
    fill: tuple[float, float, float] = (0.8, 0.1, 0.2),
    corner: tuple[float, float, float] | None = None,
    header: bytes = b"%PDF-1.7\n",
    trailer_extra: bytes = b"",
    end: bytes = b"%%EOF\n",
) -> bytes:
    """A valid PDF of `pages` pages of width x height points, each filled with `fill` (RGB,
    0..1) and, if `corner` is given, a 100 pt square of that colour at the bottom right."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{3 + 2 * index} 0 R" for index in range(pages))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode())
    for index in range(pages):
        content = "{} {} {} rg 0 0 {} {} re f\n".format(*fill, width, height)
        if corner is not None:
            content += "{} {} {} rg {} 0 100 100 re f\n".format(*corner, width - 100)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] "
            f"/Contents {4 + 2 * index} 0 R /Resources << >> >>".encode()
        )
        data = content.encode()
        objects.append(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
    out = bytearray(header + b"%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\n" % (len(objects) + 1, trailer_extra)
    out += b"startxref\n%d\n" % xref + end
    return bytes(out)


def make_zip(parts: list[tuple[str, bytes]], *, stored: tuple[str, ...] = ()) -> bytes:
    """A ZIP of `parts` in order, deflated except the names in `stored`."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in parts:
            method = zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED
            archive.writestr(zipfile.ZipInfo(name, (2026, 4, 7, 9, 0, 0)), data, method)
    return buffer.getvalue()


def content_types(main_part: str, main_type: str, *extra: str) -> bytes:
    overrides = "".join(extra)
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/{main_part}" ContentType="{main_type}"/>{overrides}</Types>'
    ).encode()


def make_ooxml(
    main_part: str = "ppt/presentation.xml",
    main_type: str = PPTX_MAIN,
    *,
    extra: list[tuple[str, bytes]] = (),  # type: ignore[assignment]
) -> bytes:
    """A minimal Office Open XML package whose main part is `main_part` of `main_type`."""
    rels = (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
        "schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
        f'" Target="{main_part}"/></Relationships>'
    ).encode()
    return make_zip(
        [
            ("[Content_Types].xml", content_types(main_part, main_type)),
            ("_rels/.rels", rels),
            (main_part, b'<?xml version="1.0"?><root/>'),
            *extra,
        ]
    )


def make_odf(mimetype: bytes = b"application/vnd.oasis.opendocument.presentation") -> bytes:
    """A minimal OpenDocument package: `mimetype` first and stored, then content.xml."""
    manifest = b'<?xml version="1.0"?><manifest:manifest/>'
    return make_zip(
        [
            ("mimetype", mimetype),
            ("content.xml", b'<?xml version="1.0"?><office:document-content/>'),
            ("META-INF/manifest.xml", manifest),
        ],
        stored=("mimetype",),
    )


def make_keynote() -> bytes:
    return make_zip(
        [
            ("Index/Document.iwa", b"\x00" * 64),
            ("Metadata/Properties.plist", b"bplist00"),
            ("preview.jpg", b"\xff\xd8\xff\xe0"),
        ]
    )


def make_ole(streams: dict[str, bytes], storages: tuple[str, ...] = ()) -> bytes:
    """A Compound File Binary (version 3, 512-byte sectors) holding `streams` (each padded
    to at least 4,096 bytes so none lives in the mini stream) and empty `storages`, at its
    root: what olefile and Office read."""
    sector = 512
    free, end_of_chain, fat_sector, no_stream = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF
    datas = [data.ljust(4096, b"\x00") for data in streams.values()]
    names = list(streams) + list(storages)
    entry_count = 1 + len(names)
    dir_sectors = -(-entry_count // 4)
    fat = [fat_sector] + [0] * dir_sectors
    for index in range(1, dir_sectors + 1):
        fat[index] = index + 1 if index < dir_sectors else end_of_chain
    starts = []
    for data in datas:
        first, count = len(fat), -(-len(data) // sector)
        starts.append(first)
        fat += [first + step + 1 for step in range(count - 1)] + [end_of_chain]
    assert len(fat) <= 128
    fat += [free] * (128 - len(fat))

    def entry(name: str, kind: int, child: int, right: int, start: int, size: int) -> bytes:
        encoded = name.encode("utf-16-le") + b"\x00\x00" if name else b""
        return (
            encoded.ljust(64, b"\x00")
            + struct.pack("<HBB3L", len(encoded), kind, 1, no_stream, right, child)
            + b"\x00" * 16  # CLSID
            + struct.pack("<L", 0)  # state bits
            + b"\x00" * 16  # creation and modification times
            + struct.pack("<LQ", start, size)
        )

    entries = [entry("Root Entry", 5, 1 if names else no_stream, no_stream, end_of_chain, 0)]
    for index, name in enumerate(names, start=1):
        right = index + 1 if index < len(names) else no_stream
        if index <= len(datas):
            data = datas[index - 1]
            entries.append(entry(name, 2, no_stream, right, starts[index - 1], len(data)))
        else:
            entries.append(entry(name, 1, no_stream, right, 0, 0))
    while len(entries) % 4:
        entries.append(entry("", 0, no_stream, no_stream, 0, 0))
    header = (
        bytes.fromhex("d0cf11e0a1b11ae1")
        + b"\x00" * 16
        + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
        + b"\x00" * 6
        + struct.pack("<LLLLLLLLL", 0, 1, 1, 0, 4096, end_of_chain, 0, end_of_chain, 0)
        + struct.pack("<L", 0)
        + struct.pack("<L", free) * 108
    )
    assert len(header) == sector
    body = struct.pack("<128L", *fat) + b"".join(entries)
    body += b"".join(data.ljust(-(-len(data) // sector) * sector, b"\x00") for data in datas)
    return header + body


def deflated_zeros_zip(name: str, size: int, *, declared: int | None = None) -> bytes:
    """A ZIP of one part: `size` zero bytes deflated as a stream (never all in memory), whose
    headers declare `declared` bytes (default: the truth) with the CRC of that many zeros."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    chunks, crc, zeros = [], 0, bytes(1024 * 1024)
    for done in range(0, size, len(zeros)):
        piece = zeros[: min(len(zeros), size - done)]
        chunks.append(compressor.compress(piece))
    chunks.append(compressor.flush())
    data = b"".join(chunks)
    declared = size if declared is None else declared
    crc = zlib.crc32(bytes(declared)) if declared < 64 * 1024 * 1024 else _zeros_crc(declared)
    return raw_zip([(name, data, 8, crc, declared)])


def _zeros_crc(count: int) -> int:
    crc, zeros = 0, bytes(1024 * 1024)
    for done in range(0, count, len(zeros)):
        crc = zlib.crc32(zeros[: min(len(zeros), count - done)], crc)
    return crc


def raw_zip(
    parts: list[tuple[str, bytes, int, int, int]], *, flags: int = 0, prefix: bytes = b""
) -> bytes:
    """A ZIP written field by field from (name, packed data, method, CRC, declared size)
    tuples: headers may say what the data is not."""
    out, directory = bytearray(prefix), bytearray()
    for name, data, method, crc, declared in parts:
        encoded = name.encode()
        offset = len(out)
        out += struct.pack(
            "<4s5H3L2H", b"PK\x03\x04", 20, flags, method, 0, 0x5C87, crc, len(data), declared,
            len(encoded), 0,
        )  # fmt: skip
        out += encoded + data
        directory += struct.pack(
            "<4s6H3L5H2L", b"PK\x01\x02", 20, 20, flags, method, 0, 0x5C87, crc, len(data),
            declared, len(encoded), 0, 0, 0, 0, 0, offset,
        )  # fmt: skip
        directory += encoded
    start = len(out)
    out += directory
    out += struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, len(parts), len(parts), len(directory), start, 0
    )
    return bytes(out)
