"""check_slides: what a speaker's file really is, from its bytes; every refusal's message."""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
import zlib
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile, TemporaryUploadedFile
from pypdf import PdfWriter

from confsched.core.errors import UploadError
from confsched.speakers.slides import MAX_SLIDE_BYTES, SlideFile, check_slides, download_names
from tests.speakers.fixtures import (
    DOCX_MAIN,
    PPSX_MAIN,
    PPTM_MAIN,
    XLSX_MAIN,
    content_types,
    deflated_zeros_zip,
    make_keynote,
    make_odf,
    make_ole,
    make_ooxml,
    make_pdf,
    make_zip,
    raw_zip,
)

PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
MACROS = (
    "It contains macros (VBA code), which we do not accept: save it without macros, as "
    ".{} (or export a PDF), and upload that."
)
PASSWORD = (
    "It is protected with a password (encrypted), so nobody could open it from the schedule: "
    "save it without a password and upload it again."
)
DAMAGED_ZIP = (
    "It is damaged or incomplete: its ZIP structure does not hold together. Save or export it "
    "again."
)
NOT_ACCEPTED = (
    "Its content is not one we accept: slides must be a PDF, PowerPoint (.pptx, .ppsx, .ppt), "
    "Keynote (.key), OpenDocument (.odp, .odt, .ods), Word or Excel file."
)


def refusal(data: bytes, filename: str = "talk.pdf") -> str:
    with pytest.raises(UploadError) as raised:
        check_slides(data, filename=filename)
    assert raised.value.filename == filename
    return raised.value.message


@pytest.mark.parametrize(
    ("kind", "data", "content_type"),
    [
        ("pdf", make_pdf(pages=3), "application/pdf"),
        ("pptx", make_ooxml(), PPTX),
        (
            "ppsx",
            make_ooxml(main_type=PPSX_MAIN),
            "application/vnd.openxmlformats-officedocument.presentationml.slideshow",
        ),
        (
            "docx",
            make_ooxml("word/document.xml", DOCX_MAIN),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
        (
            "xlsx",
            make_ooxml("xl/workbook.xml", XLSX_MAIN),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
        ("odp", make_odf(), "application/vnd.oasis.opendocument.presentation"),
        (
            "odt",
            make_odf(b"application/vnd.oasis.opendocument.text"),
            "application/vnd.oasis.opendocument.text",
        ),
        (
            "ods",
            make_odf(b"application/vnd.oasis.opendocument.spreadsheet"),
            "application/vnd.oasis.opendocument.spreadsheet",
        ),
        ("key", make_keynote(), "application/vnd.apple.keynote"),
        (
            "ppt",
            make_ole({"Current User": b"\x00" * 8, "PowerPoint Document": b"\x0f\x00\xe8\x03"}),
            "application/vnd.ms-powerpoint",
        ),
        ("doc", make_ole({"WordDocument": b"\xec\xa5\xc1\x00"}), "application/msword"),
        (
            "xls",
            make_ole({"Workbook": b"\x09\x08\x10\x00\x00\x06\x05\x00" + b"\x00" * 12}),
            "application/vnd.ms-excel",
        ),
    ],
)
def test_each_accepted_kind_is_told_from_its_bytes_not_its_name(
    kind: str, data: bytes, content_type: str
) -> None:
    checked = check_slides(data, filename="My talk.bin")
    assert checked == SlideFile(
        kind=kind,
        content_type=content_type,
        extension=kind,
        filename=f"My talk.bin.{kind}",
        ascii_filename=f"My talk.bin.{kind}",
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        pages=3 if kind == "pdf" else None,
    )


def test_a_name_that_disagrees_with_the_content_gets_the_contents_extension() -> None:
    checked = check_slides(make_pdf(), filename="talk.pptx")
    assert (checked.kind, checked.filename, checked.ascii_filename) == (
        "pdf",
        "talk.pdf",
        "talk.pdf",
    )
    assert check_slides(make_ooxml(), filename="talk.ppt").filename == "talk.pptx"


@pytest.mark.parametrize(
    ("given", "unicode_name", "ascii_name"),
    [
        ("../../etc/passwd", "passwd.pdf", "passwd.pdf"),
        ("C:\\Users\\ana\\Über die Zukunft.PDF", "Über die Zukunft.pdf", "Uber die Zukunft.pdf"),
        ("evil\u202egpj.pdf", "evilgpj.pdf", "evilgpj.pdf"),  # the right-to-left override goes
        ("a\x00b\r\nc\u200b.pdf", "abc.pdf", "abc.pdf"),
        ('what <is> "it"?.pdf', "what _is_ _it__.pdf", "what _is_ _it__.pdf"),
        ("talk.v2", "talk.v2.pdf", "talk.v2.pdf"),
        ("CON.pdf", "_CON.pdf", "_CON.pdf"),
        ("日本語のスライド.pdf", "日本語のスライド.pdf", "slides.pdf"),
        ("", "slides.pdf", "slides.pdf"),
        ("...", "slides.pdf", "slides.pdf"),
        ("  spaced   out  .pdf ", "spaced out.pdf", "spaced out.pdf"),
    ],
)
def test_download_names_have_no_path_no_control_characters_and_an_ascii_fallback(
    given: str, unicode_name: str, ascii_name: str
) -> None:
    assert download_names(given, "pdf") == (unicode_name, ascii_name)


def test_a_long_name_is_cut_to_120_characters_before_the_extension() -> None:
    name, plain = download_names("x" * 500 + ".pdf", "pdf")
    assert name == "x" * 120 + ".pdf"
    assert plain == name


def test_it_reads_a_path_a_django_upload_and_a_file_left_at_its_start(tmp_path: Path) -> None:
    data = make_pdf(pages=2)
    path = tmp_path / "talk.pdf"
    path.write_bytes(data)
    assert check_slides(path, filename="talk.pdf").pages == 2
    assert check_slides(str(path), filename="talk.pdf").pages == 2
    memory = SimpleUploadedFile("talk.pdf", data, content_type="text/html")  # the browser lies
    assert check_slides(memory, filename=memory.name, size=memory.size).kind == "pdf"
    assert memory.tell() == 0
    upload = TemporaryUploadedFile("talk.pdf", "application/pdf", len(data), None)
    upload.write(data)
    upload.seek(100)
    checked = check_slides(upload, filename=upload.name, size=len(data))
    assert (checked.pages, checked.sha256) == (2, hashlib.sha256(data).hexdigest())
    assert upload.tell() == 0
    upload.close()


def test_size_is_checked_first_refused_past_50_mb_and_against_the_declared_size(
    tmp_path: Path,
) -> None:
    path = tmp_path / "huge.pdf"
    with path.open("wb") as out:  # sparse: nothing is written but the head
        out.write(make_pdf())
        out.truncate(MAX_SLIDE_BYTES + 1)
    with pytest.raises(UploadError) as raised:
        check_slides(path, filename="huge.pdf")
    assert str(raised.value) == "huge.pdf: It is 50.1 MB, over the 50 MB slides may be."
    with path.open("r+b") as out:  # exactly 50 MB passes the size check and fails the next
        out.truncate(MAX_SLIDE_BYTES)
    with pytest.raises(UploadError) as raised:
        check_slides(path, filename="huge.pdf")
    assert raised.value.message.startswith("The PDF is incomplete")
    data = make_pdf()
    with pytest.raises(UploadError) as raised:
        check_slides(data, filename="talk.pdf", size=len(data) + 10)
    assert raised.value.message == (
        f"It was not received whole ({len(data):,} of {len(data) + 10:,} bytes): the upload "
        "was cut off. Please upload it again."
    )
    assert refusal(b"") == "It is empty (0 bytes)."


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x7fELF\x02\x01\x01" + bytes(64), "It is a Linux program (ELF), not slides"),
        (b"MZ\x90\x00\x03" + bytes(64), "It is a Windows program (PE/MZ), not slides"),
        (b"\xcf\xfa\xed\xfe\x07\x00" + bytes(64), "It is a macOS program (Mach-O), not slides"),
        (b"\xca\xfe\xba\xbe\x00\x00" + bytes(64), "It is a macOS program (Mach-O), not slides"),
        (b"#!/bin/sh\nrm -rf ~\n", "It is a script, not slides"),
    ],
)
def test_executables_are_refused_whatever_their_name(data: bytes, message: str) -> None:
    expected = f"{message}: programs and scripts are never accepted."
    assert refusal(data, "talk.pdf") == expected


@pytest.mark.parametrize(
    "data",
    [
        b"<!DOCTYPE html>\n<html><body><script>fetch('/x')</script></body></html>",
        b"\xef\xbb\xbf  <html lang=en><head><title>talk</title></head></html>",
        b"<script>alert(document.cookie)</script>",
    ],
)
def test_html_named_pdf_is_refused_as_a_web_page(data: bytes) -> None:
    assert refusal(data) == (
        "It is a web page (HTML), not a PDF or a presentation, whatever its name says: export "
        "your slides as a PDF."
    )


@pytest.mark.parametrize(
    "data",
    [
        b"function steal() { return document.cookie }",
        b"'use strict';\nconst x = 1;",
        b"(function () { window.location = 'x' })()",
        b"// slides\nvar a = 1;",
    ],
)
def test_javascript_named_pdf_is_refused_as_javascript(data: bytes) -> None:
    assert refusal(data) == (
        "It is JavaScript, not a PDF or a presentation, whatever its name says: export your "
        "slides as a PDF."
    )


def test_svg_is_refused_with_why() -> None:
    svg = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'
    expected = (
        "It is an SVG image, which can carry scripts that would run in visitors' browsers: "
        "export your slides as a PDF instead."
    )
    assert refusal(svg, "talk.svg") == expected
    assert refusal(b"<svg onload='alert(1)'/>", "talk.pdf") == expected


def test_images_text_and_unknown_bytes_are_refused() -> None:
    image = (
        "It is an image, not slides: upload the presentation itself (PDF, PowerPoint, Keynote "
        "or OpenDocument)."
    )
    assert refusal(b"\x89PNG\r\n\x1a\n" + bytes(32)) == image
    assert refusal(b"\xff\xd8\xff\xe0" + bytes(32)) == image
    assert refusal(b"Hello, these are my notes.") == NOT_ACCEPTED
    assert refusal(os.urandom(4096).replace(b"%PDF-", b"")[:4096].lstrip(b"#<M")) == NOT_ACCEPTED


def test_a_pdf_header_anywhere_but_the_first_byte_is_refused() -> None:
    assert refusal(b"\n\n  " + make_pdf()) == (
        "It has 4 bytes of something else before its PDF header, where a PDF starts with %PDF- "
        "at the very first byte: export it as a PDF again."
    )
    assert refusal(b"<html><script>alert(1)</script>\n" + make_pdf()) == (
        "It is a web page (HTML) and a PDF at once (a polyglot file): browsers could run what "
        "it holds. Export the slides as a PDF again."
    )


def test_a_pdf_with_html_markup_in_its_first_kilobyte_is_a_polyglot() -> None:
    data = make_pdf(header=b"%PDF-1.7\n%<script>alert(1)</script>\n")
    assert refusal(data) == (
        "It is a PDF with web page (HTML or SVG) markup at its start, so that a browser could "
        "take it for a page and run it (a polyglot file): export it again."
    )


def test_a_pdf_that_is_also_a_zip_is_refused_and_zip_like_bytes_alone_are_not() -> None:
    assert refusal(make_pdf() + make_zip([("a.txt", b"hello")])) == (
        "It is a PDF and a ZIP archive at once (a polyglot file), which different programs open "
        "differently: export the slides as a PDF again."
    )
    # The record's signature by chance inside the last 64 KB, with no directory it points at.
    chance = make_pdf(header=b"%PDF-1.7\n%PK\x05\x06" + bytes(18) + b"\n")
    assert check_slides(chance, filename="a.pdf").pages == 1


def test_an_office_file_with_a_pdf_header_in_its_first_kilobyte_is_a_polyglot() -> None:
    data = make_zip([("a.pdf", make_pdf())], stored=("a.pdf",))
    assert refusal(data, "talk.pptx") == (
        "It is an office file and a PDF at once (a polyglot file), which different programs open "
        "differently: export the slides again."
    )


def test_damaged_cut_off_encrypted_and_empty_pdfs_are_refused() -> None:
    assert refusal(make_pdf(header=b"%PDF-x.y\n")) == (
        "Its PDF header is not valid: export it as a PDF again."
    )
    assert refusal(make_pdf()[:-200]) == (
        "The PDF is incomplete: it does not end as a PDF ends (%%EOF), as if the upload or the "
        "export was cut off. Export it and upload it again."
    )
    assert refusal(b"%PDF-1.7\n" + bytes(300) + b"\n%%EOF\n") == (
        "The PDF is damaged and cannot be read. Export it as a PDF again."
    )
    assert refusal(make_pdf(pages=0)) == "The PDF has no pages."
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    for user_password in ("secret", ""):  # even one any reader opens without asking
        writer.encrypt(user_password, "owner", algorithm="RC4-128")
        out = io.BytesIO()
        writer.write(out)
        assert refusal(out.getvalue()) == (
            "The PDF is encrypted (protected by a password or by restrictions on printing or "
            "copying): export it again without protection."
        )


def test_office_files_with_macros_are_refused_asking_for_the_macro_free_format() -> None:
    pptm = make_ooxml(main_type=PPTM_MAIN, extra=[("ppt/vbaProject.bin", b"\xcc" * 64)])
    assert refusal(pptm, "talk.pptm") == MACROS.format("pptx")
    docm_type = "application/vnd.ms-word.document.macroEnabled.main+xml"
    assert refusal(make_ooxml("word/document.xml", docm_type), "a.docm") == MACROS.format("docx")
    # A .pptx's content type with the macros' part slipped in is refused as well.
    sneaky = make_ooxml(extra=[("ppt/vbaProject.bin", b"\xcc" * 64)])
    assert refusal(sneaky, "talk.pptx") == MACROS.format("pptx")
    assert refusal(make_ole({"WordDocument": b"\xec\xa5"}, ("Macros",)), "a.doc") == (
        MACROS.format("docx")
    )
    xls = make_ole({"Workbook": b"\x09\x08\x02\x00\x00\x06"}, ("_VBA_PROJECT_CUR",))
    assert refusal(xls, "a.xls") == MACROS.format("xlsx")


def test_zip_bomb_by_ratio_is_refused_from_the_directory_before_inflating() -> None:
    bomb = deflated_zeros_zip("ppt/media/image1.png", 200 * 1024 * 1024)
    assert len(bomb) < 400_000
    assert refusal(bomb, "talk.pptx") == (
        "One of its parts ('ppt/media/image1.png') unpacks to over 100 times its packed size: a "
        "ZIP bomb, not slides."
    )


def test_zip_declaring_more_than_300_mb_in_all_is_refused() -> None:
    packed = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    noise = packed.compress(os.urandom(2 * 1024 * 1024)) + packed.flush()
    declared = 160 * 1024 * 1024  # 80 times its packed size: under the ratio's cap
    bomb = raw_zip([(f"ppt/media/{n}.bin", noise, 8, 0, declared) for n in (1, 2)])
    assert refusal(bomb, "talk.pptx") == (
        "Its parts would take more than 300 MB once unpacked (a ZIP bomb?)."
    )


def test_zip_of_more_than_10000_parts_is_refused() -> None:
    data = make_zip([(f"ppt/slides/s{n}.xml", b"") for n in range(10_001)])
    assert refusal(data, "talk.pptx") == (
        "It is packed from more than 10,000 parts, more than any real document has (a ZIP bomb?)."
    )


def test_a_lying_size_header_is_caught_by_inflating_and_pythons_zipfile_is_fooled() -> None:
    # Five megabytes of zeros whose headers say 1,000 bytes, with the CRC of 1,000 zeros.
    liar = deflated_zeros_zip("ppt/presentation.xml", 5 * 1024 * 1024, declared=1000)
    with zipfile.ZipFile(io.BytesIO(liar)) as archive:
        assert archive.read("ppt/presentation.xml") == bytes(1000)
    parts = [
        ("[Content_Types].xml", *_packed(content_types("ppt/presentation.xml", PPSX_MAIN))),
        ("ppt/presentation.xml", *_packed_liar(liar)),
    ]
    assert refusal(raw_zip(parts), "talk.ppsx") == (
        "One of its parts ('ppt/presentation.xml') does not unpack to the size it declares: a "
        "damaged or crafted file."
    )


def _packed(data: bytes) -> tuple[bytes, int, int, int]:
    packer = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush(), 8, zlib.crc32(data), len(data)


def _packed_liar(liar: bytes) -> tuple[bytes, int, int, int]:
    with zipfile.ZipFile(io.BytesIO(liar)) as archive:
        info = archive.infolist()[0]
    start = 30 + len(info.filename)
    return liar[start : start + info.compress_size], 8, info.CRC, info.file_size


@pytest.mark.parametrize("path", ["../../evil.xml", "/etc/evil.xml", "C:/evil.xml", "ppt\\x.xml"])
def test_parts_with_absolute_or_escaping_paths_are_refused(path: str) -> None:
    data = make_ooxml(extra=[(path, b"<x/>")])
    assert refusal(data, "talk.pptx") == (
        f"It holds a part with an unsafe path ({path!r}): absolute or leading out of its folder. "
        "Office programs never write such paths; save the document again."
    )


def test_nested_archives_inside_are_allowed_and_not_opened() -> None:
    inner = deflated_zeros_zip("bomb.bin", 200 * 1024 * 1024)
    data = make_ooxml(extra=[("ppt/embeddings/inner.zip", inner)])
    assert check_slides(data, filename="talk.pptx").kind == "pptx"


def test_encrypted_parts_other_compression_and_corruption_are_refused() -> None:
    xml = content_types("ppt/presentation.xml", PPSX_MAIN)
    encrypted = raw_zip([("[Content_Types].xml", *_packed(xml))], flags=1)
    assert refusal(encrypted, "talk.pptx") == PASSWORD
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_BZIP2) as archive:
        archive.writestr("[Content_Types].xml", xml)
    assert refusal(buffer.getvalue(), "talk.pptx") == (
        "It is compressed in a way office programs do not write (method 12); save it again from "
        "your presentation program."
    )
    packed, method, crc, size = _packed(xml)
    assert refusal(raw_zip([("[Content_Types].xml", packed, method, crc ^ 1, size)])) == (
        DAMAGED_ZIP
    )
    assert refusal(b"PK\x03\x04" + os.urandom(200), "talk.pptx") == DAMAGED_ZIP
    truncated = make_ooxml()
    assert refusal(truncated[: len(truncated) // 2], "talk.pptx") == DAMAGED_ZIP


def test_zips_that_are_no_office_document_are_refused() -> None:
    assert refusal(make_zip([("slides/talk.pdf", b"x")]), "talk.zip") == (
        "It is a ZIP archive, not a presentation: send the slides themselves (PDF, PowerPoint, "
        "Keynote or OpenDocument), not a folder packed into a ZIP."
    )
    no_main = make_zip([("[Content_Types].xml", content_types("ppt/presentation.xml", PPSX_MAIN))])
    assert refusal(no_main, "talk.pptx") == (
        "It looks like an Office file but has no presentation, document or spreadsheet in it (or "
        "more than one): save it again, or export a PDF."
    )
    graphics = make_odf(b"application/vnd.oasis.opendocument.graphics")
    assert refusal(graphics, "a.odg") == (
        "It is an OpenDocument file of a kind we do not take "
        "(application/vnd.oasis.opendocument.graphics): send a presentation (.odp), text "
        "(.odt) or spreadsheet (.ods)."
    )
    packed_mimetype = make_zip(
        [("mimetype", b"application/vnd.oasis.opendocument.presentation"), ("content.xml", b"")]
    )
    assert refusal(packed_mimetype, "a.odp") == (
        "It claims to be an OpenDocument file but is not laid out as one."
    )


def test_legacy_office_files_that_are_encrypted_or_no_document_are_refused() -> None:
    assert refusal(make_ole({"EncryptedPackage": b"\x01", "EncryptionInfo": b"\x04"})) == PASSWORD
    assert refusal(make_ole({"WordDocument": b"\xec\xa5" + bytes(8) + b"\x00\x01"})) == PASSWORD
    filepass = b"\x09\x08\x02\x00\x00\x06" + b"\x2f\x00\x02\x00\x00\x00"
    assert refusal(make_ole({"Workbook": filepass})) == PASSWORD
    assert refusal(make_ole({"EncryptedSummary": b"\x00", "PowerPoint Document": b""})) == (
        PASSWORD
    )
    assert refusal(make_ole({"\x05SummaryInformation": b"\x00"}), "setup.msi") == (
        "It is a Microsoft compound file but not a presentation, document or spreadsheet (an "
        "installer or a mail, perhaps)."
    )
    assert refusal(bytes.fromhex("d0cf11e0a1b11ae1") + os.urandom(1000), "a.ppt") == (
        "It is damaged and cannot be read as an Office document. Save it again."
    )
