"""Speakers' slides: receiving a 50 MB upload and checking a 50 MB PDF and pptx.

Usage: DEBUG=1 PYTHONPATH=src python bench/uploads.py [--repeat 3]

1. A 50 MB file posted as multipart through Django's WSGI handler (the whole middleware of a
   request, cut to CSRF's as the tests do) with SlideUploadHandler installed by
   @limited_upload; the body is made as the server reads it, never held whole, so the peak
   RSS (ru_maxrss) shows what receiving costs: the handler streams to a temporary file.
2. check_slides on a 50 MB PDF (one page with a 50 MB image) and a 50 MB pptx (40 media parts
   of random bytes, deflated as PowerPoint does): each part is inflated and checked.

Prints MB/s (best of --repeat) and the growth of peak RSS over the start of each step.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
import zipfile
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
os.environ.setdefault("DEBUG", "1")
django.setup()

from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.http import HttpRequest, HttpResponse, JsonResponse  # noqa: E402
from django.test import override_settings  # noqa: E402
from django.urls import path  # noqa: E402

from confsched.speakers.slides import MAX_SLIDE_BYTES, check_slides  # noqa: E402
from confsched.speakers.uploads import limited_upload, received_slides  # noqa: E402

MB = 1024 * 1024
BOUNDARY = "----confschedBench"


@limited_upload
def receive(request: HttpRequest) -> HttpResponse:
    upload = received_slides(request)
    return JsonResponse({"size": upload.size})


urlpatterns = [path("upload/", receive)]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class MultipartInput:
    """A WSGI input producing a multipart body with a `size`-byte file, chunk by chunk."""

    def __init__(self, size: int) -> None:
        head = (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="slides"; '
            'filename="talk.pdf"\r\nContent-Type: application/pdf\r\n\r\n'
        ).encode()
        self.parts = [head, size, f"\r\n--{BOUNDARY}--\r\n".encode()]
        self.length = len(head) + size + len(self.parts[2])
        self.block = os.urandom(MB)

    def read(self, size: int = -1) -> bytes:
        out = bytearray()
        while self.parts and (size < 0 or len(out) < size):
            part = self.parts[0]
            want = size - len(out) if size >= 0 else None
            if isinstance(part, int):
                take = min(part, want if want is not None else part, len(self.block))
                out += self.block[:take]
                self.parts[0] = part - take
                if self.parts[0] == 0:
                    self.parts.pop(0)
            else:
                take = part[:want] if want is not None else part
                out += take
                self.parts[0] = part[len(take) :]
                if not self.parts[0]:
                    self.parts.pop(0)
        return bytes(out)

    def readline(self, size: int = -1) -> bytes:
        raise NotImplementedError


def bench_upload(repeat: int) -> None:
    best, before = float("inf"), peak_mb()
    with override_settings(
        ROOT_URLCONF=__name__, MIDDLEWARE=["django.middleware.csrf.CsrfViewMiddleware"]
    ):
        handler = WSGIHandler()  # its middleware as overridden
        handler.request_class = _no_csrf(handler.request_class)
        for _ in range(repeat):
            body = MultipartInput(MAX_SLIDE_BYTES)
            environ = {
                "REQUEST_METHOD": "POST",
                "PATH_INFO": "/upload/",
                "SERVER_NAME": "localhost",
                "SERVER_PORT": "80",
                "HTTP_HOST": "localhost",
                "wsgi.url_scheme": "http",
                "CONTENT_TYPE": f"multipart/form-data; boundary={BOUNDARY}",
                "CONTENT_LENGTH": str(body.length),
                "wsgi.input": body,
            }
            statuses: list[str] = []
            started = time.perf_counter()
            result = handler(environ, lambda status, headers, seen=statuses: seen.append(status))
            b"".join(result)
            best = min(best, time.perf_counter() - started)
            assert statuses == ["200 OK"], statuses
    print(
        f"upload handler, 50 MB multipart: {MAX_SLIDE_BYTES / MB / best:7.0f} MB/s "
        f"({best * 1000:.0f} ms); peak RSS {before:.0f} -> {peak_mb():.0f} MB"
    )


def _no_csrf(request_class: type) -> type:
    """A bench client sends no CSRF token (the tests check that CSRF is still asked)."""

    class Unchecked(request_class):  # type: ignore[misc, valid-type]
        _dont_enforce_csrf_checks = True

    return Unchecked


def write_pdf(target: Path, size: int) -> None:
    """A one-page PDF whose page shows one image of about `size` random bytes."""
    side = int((size / 3) ** 0.5)
    data_length = side * side * 3
    with target.open("wb") as out:
        offsets = []

        def obj(body: bytes) -> None:
            offsets.append(out.tell())
            out.write(b"%d 0 obj\n" % len(offsets) + body + b"\nendobj\n")

        out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        obj(b"<< /Type /Catalog /Pages 2 0 R >>")
        obj(b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        obj(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 400] /Contents 4 0 R "
            b"/Resources << /XObject << /Im1 5 0 R >> >> >>"
        )
        content = b"q 600 0 0 400 0 0 cm /Im1 Do Q"
        obj(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        offsets.append(out.tell())
        out.write(
            b"5 0 obj\n<< /Type /XObject /Subtype /Image /Width %d /Height %d "
            b"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Length %d >>\nstream\n"
            % (side, side, data_length)
        )
        left = data_length
        while left:
            chunk = os.urandom(min(MB, left))
            out.write(chunk)
            left -= len(chunk)
        out.write(b"\nendstream\nendobj\n")
        xref = out.tell()
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1))
        for offset in offsets:
            out.write(b"%010d 00000 n \n" % offset)
        out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (6, xref))


def write_pptx(target: Path, size: int) -> None:
    types = (
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.'
        'openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>'
    )
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", types)
        archive.writestr("ppt/presentation.xml", "<p:presentation/>")
        for number in range(40):
            archive.writestr(f"ppt/media/image{number}.jpg", os.urandom(size // 41))


def bench_check(kind: str, write: object, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / f"talk.{kind}"
        write(target, MAX_SLIDE_BYTES - 64 * 1024)  # type: ignore[operator]
        size = target.stat().st_size
        best, before = float("inf"), peak_mb()
        for _ in range(repeat):
            with target.open("rb") as file:
                started = time.perf_counter()
                checked = check_slides(file, filename=target.name, size=size)
                best = min(best, time.perf_counter() - started)
            assert checked.kind == kind, checked
        print(
            f"check_slides, {size / MB:.1f} MB {kind}: {size / MB / best:7.0f} MB/s "
            f"({best * 1000:.0f} ms); peak RSS {before:.0f} -> {peak_mb():.0f} MB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    bench_upload(repeat)
    bench_check("pdf", write_pdf, repeat)
    bench_check("pptx", write_pptx, repeat)


if __name__ == "__main__":
    main()
