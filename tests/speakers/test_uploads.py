"""SlideUploadHandler through Django's test client: refused past the limit while the body
arrives, whole under it, a cut-off upload told apart; CSRF checked after installing it.

The views and URLs live here (ROOT_URLCONF is this module). MIDDLEWARE is cut to CSRF's: the
project's RequestBodyLimitMiddleware (1 MB) and NulCharacterMiddleware (which reads
request.POST) would answer or read first; the slides' URL is to be let through them.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from django.core.files.uploadedfile import TemporaryUploadedFile
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.test import Client, override_settings
from django.urls import path

from confsched.core.errors import UploadError
from confsched.speakers.slides import MAX_SLIDE_BYTES
from confsched.speakers.uploads import (
    CUT_OFF,
    TOO_LARGE,
    install_upload_limit,
    limited_upload,
    received_slides,
    upload_handler,
)

BOUNDARY = "----confschedTestBoundary7MA4YWxkTrZu0gW"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"
SMALL = 1024 * 1024
TOKEN = "a" * 32
TOO_LARGE_MESSAGE = "talk.pdf: It is over 50 MB, the most slides may be."
CUT_OFF_MESSAGE = (
    "talk.pdf: The upload was cut off before the whole file arrived, so nothing was changed: "
    "please upload it again."
)
seen: dict[str, object] = {}


def answer(request: HttpRequest) -> HttpResponse:
    handler = upload_handler(request)
    assert handler is not None
    seen["handler"] = handler
    try:
        upload = received_slides(request)
    except UploadError as error:
        return JsonResponse({"error": str(error), "received": handler.received}, status=400)
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    return JsonResponse(
        {
            "name": upload.name,
            "size": upload.size,
            "sha256": digest.hexdigest(),
            "received": handler.received,
            "on_disk": isinstance(upload, TemporaryUploadedFile),
            "title": request.POST.get("title", ""),
        }
    )


upload = limited_upload(answer)
small = limited_upload(limit=SMALL)(answer)
urlpatterns = [path("upload/", upload), path("small/", small)]

pytestmark = pytest.mark.usefixtures("_only_csrf")


@pytest.fixture
def _only_csrf():  # noqa: ANN202 - a fixture
    seen.clear()
    with override_settings(
        ROOT_URLCONF=__name__, MIDDLEWARE=["django.middleware.csrf.CsrfViewMiddleware"]
    ):
        yield


def body(data: bytes, *, filename: str = "talk.pdf", title: str = "My talk") -> bytes:
    """A browser's multipart body: the CSRF token and a title first, then the file."""
    fields = b"".join(
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in (("csrfmiddlewaretoken", TOKEN), ("title", title))
    )
    head = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="slides"; filename="{filename}"\r\n'
        "Content-Type: application/pdf\r\n\r\n"
    ).encode()
    return fields + head + data + f"\r\n--{BOUNDARY}--\r\n".encode()


def post(url: str, payload: bytes, client: Client | None = None) -> HttpResponse:
    return (client or Client()).generic("POST", url, payload, content_type=MULTIPART)


def test_a_file_under_the_limit_arrives_whole_on_disk() -> None:
    data = os.urandom(3 * 1024 * 1024 + 7)
    response = post("/upload/", body(data))
    assert response.status_code == 200
    assert response.json() == {
        "name": "talk.pdf",
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "received": len(data),
        "on_disk": True,
        "title": "My talk",
    }


def test_a_file_of_exactly_the_limit_arrives_and_one_byte_more_is_refused() -> None:
    data = os.urandom(SMALL)
    response = post("/small/", body(data))
    assert (response.status_code, response.json()["size"]) == (200, SMALL)
    response = post("/small/", body(data + b"x"))
    assert response.status_code == 400
    assert response.json()["error"] == "talk.pdf: It is over 1 MB, the most slides may be."
    assert seen["handler"].refusal == TOO_LARGE
    assert SMALL < response.json()["received"] <= SMALL + 64 * 1024


def test_50_mb_and_one_byte_is_refused_at_the_first_chunk_past_the_limit() -> None:
    """A body that declares a length within the limit plus the form's allowance can hold a
    file of exactly 50 MB: the file's own bytes decide, refused at the chunk that passes the
    limit. Nothing past it is written, and the partial temporary file is removed."""
    payload = body(bytes(MAX_SLIDE_BYTES + 1))
    response = post("/upload/", payload)
    assert response.status_code == 400
    assert response.json()["error"] == TOO_LARGE_MESSAGE
    handler = seen["handler"]
    assert MAX_SLIDE_BYTES < handler.received <= MAX_SLIDE_BYTES + handler.chunk_size
    assert not Path(handler.file.temporary_file_path()).exists()


def test_a_body_declared_over_the_limit_is_refused_before_the_handler_takes_a_byte() -> None:
    payload = body(bytes(MAX_SLIDE_BYTES + 1), title="x" * (64 * 1024))
    response = post("/upload/", payload)
    assert response.status_code == 400
    assert response.json() == {"error": TOO_LARGE_MESSAGE, "received": 0}
    payload = body(bytes(60 * 1024 * 1024))
    assert post("/upload/", payload).json() == {"error": TOO_LARGE_MESSAGE, "received": 0}


def test_an_upload_cut_off_inside_the_file_is_told_apart_and_not_kept() -> None:
    whole = body(os.urandom(2 * 1024 * 1024))
    response = post("/upload/", whole[: len(whole) // 2])  # the client went away half-way
    assert response.status_code == 400
    assert response.json()["error"] == CUT_OFF_MESSAGE
    handler = seen["handler"]
    assert handler.refusal == CUT_OFF
    assert not Path(handler.file.temporary_file_path()).exists()


class BreakingInput:
    """A server's input whose connection breaks after `good` bytes."""

    def __init__(self, data: bytes, good: int) -> None:
        self.data, self.good, self.at = data, good, 0

    def read(self, size: int = -1) -> bytes:
        if self.at >= self.good:
            raise OSError("connection reset by peer")
        size = self.good - self.at if size < 0 else min(size, self.good - self.at)
        self.at += size
        return self.data[self.at - size : self.at]

    def readline(self, size: int = -1) -> bytes:
        raise NotImplementedError


def test_a_connection_that_breaks_while_reading_is_cut_off_too() -> None:
    payload = body(os.urandom(1024 * 1024))
    request = WSGIRequest(
        {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": "/upload/",
            "SERVER_NAME": "testserver",
            "SERVER_PORT": "80",
            "wsgi.url_scheme": "http",
            "CONTENT_TYPE": MULTIPART,
            "CONTENT_LENGTH": str(len(payload)),
            "wsgi.input": BreakingInput(payload, 300_000),
        }
    )
    request._dont_enforce_csrf_checks = True
    response = upload(request)
    assert response.status_code == 400
    assert json.loads(response.content)["error"] == CUT_OFF_MESSAGE
    assert seen["handler"].refusal == CUT_OFF
    assert not Path(seen["handler"].file.temporary_file_path()).exists()


def test_no_file_is_its_own_message() -> None:
    payload = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n'
    response = post("/upload/", (payload + f"--{BOUNDARY}--\r\n").encode())
    assert response.json() == {
        "error": "No file arrived: choose your slides and send them again.",
        "received": 0,
    }


def test_csrf_is_still_checked_after_the_handler_is_installed() -> None:
    strict = Client(enforce_csrf_checks=True)
    data = os.urandom(10_000)
    assert post("/upload/", body(data), strict).status_code == 403  # no cookie
    strict.cookies["csrftoken"] = TOKEN
    response = post("/upload/", body(data), strict)
    assert (response.status_code, response.json()["size"]) == (200, len(data))


def test_installing_after_the_body_was_read_is_a_clear_programming_error() -> None:
    request = WSGIRequest(
        {
            "REQUEST_METHOD": "POST",
            "CONTENT_TYPE": MULTIPART,
            "CONTENT_LENGTH": "0",
            "wsgi.input": BreakingInput(b"", 0),
        }
    )
    assert request.FILES == {}
    with pytest.raises(RuntimeError, match="read before the slides' upload handler"):
        install_upload_limit(request)
