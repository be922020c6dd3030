"""Request bodies over CONFSCHED_MAX_REQUEST_BYTES are refused with 413 before Django parses them."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import MemoryFileUploadHandler
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings

from confsched.web.site.middleware import RequestBodyLimitMiddleware

pytestmark = pytest.mark.django_db

SIGNUP = "/accounts/signup/"
PASSWORD = "correct horse battery staple 42"
ACCOUNT = {
    "username": "eve",
    "email": "e@example.org",
    "password1": PASSWORD,
    "password2": PASSWORD,
}
TOO_LARGE = "Request body too large: this site accepts at most 1048576 bytes.\n"
MB = 1024 * 1024


class RecordingUploadHandler(MemoryFileUploadHandler):
    """Django's in-memory upload handler, noting each time the multipart parser starts one."""

    started: list[str] = []

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        RecordingUploadHandler.started.append(request.path if request else "")


@pytest.fixture
def upload_handlers():  # noqa: ANN201
    RecordingUploadHandler.started = []
    handler = f"{__name__}.RecordingUploadHandler"
    with override_settings(FILE_UPLOAD_HANDLERS=[handler]):
        yield RecordingUploadHandler.started


def test_the_limits_follow_one_setting() -> None:
    assert (
        settings.CONFSCHED_MAX_REQUEST_BYTES,
        settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        settings.FILE_UPLOAD_MAX_MEMORY_SIZE,
        settings.DATA_UPLOAD_MAX_NUMBER_FIELDS,
        settings.DATA_UPLOAD_MAX_NUMBER_FILES,
    ) == (MB, MB, MB, 500, 10)


def test_a_2_mb_upload_to_signup_is_refused_unread(client: Client, upload_handlers) -> None:  # noqa: ANN001
    picture = SimpleUploadedFile("big.bin", b"\0" * (2 * MB))
    response = client.post(SIGNUP, {**ACCOUNT, "picture": picture})
    assert (response.status_code, response["Content-Type"], response.content.decode()) == (
        413,
        "text/plain; charset=utf-8",
        TOO_LARGE,
    )
    assert upload_handlers == []  # the multipart parser never started: nothing was spooled
    assert not User.objects.filter(username="eve").exists()


def test_a_small_upload_reaches_the_parser(client: Client, upload_handlers) -> None:  # noqa: ANN001
    # The same request under the limit: proves the recorder above would have seen a parse.
    picture = SimpleUploadedFile("small.bin", b"\0" * 1000)
    response = client.post(SIGNUP, {**ACCOUNT, "picture": picture})
    assert (response.status_code, upload_handlers) == (302, [SIGNUP])
    assert User.objects.filter(username="eve").exists()


def test_a_2_mb_form_is_refused(client: Client) -> None:
    response = client.post(SIGNUP, {**ACCOUNT, "bio": "x" * (2 * MB)})
    assert (response.status_code, response.content.decode()) == (413, TOO_LARGE)
    assert not User.objects.filter(username="eve").exists()


@override_settings(CONFSCHED_MAX_REQUEST_BYTES=1000)
@pytest.mark.parametrize(("size", "status"), [(1000, 200), (1001, 413)])
def test_the_limit_is_inclusive(client: Client, size: int, status: int) -> None:
    body = b"username=" + b"x" * (size - 9)
    response = client.generic(
        "POST", SIGNUP, body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == status


@pytest.mark.parametrize("declared", ["12abc", "-1", "1e9", "²", " 12"])
def test_a_content_length_that_is_no_number_is_refused(client: Client, declared: str) -> None:
    response = client.generic("POST", SIGNUP, b"", CONTENT_LENGTH=declared)
    assert (response.status_code, response.content.decode()) == (
        400,
        "The Content-Length header is not a number of bytes.\n",
    )


def test_an_absurd_content_length_is_too_large_not_a_crash(client: Client) -> None:
    response = client.generic("POST", SIGNUP, b"", CONTENT_LENGTH="9" * 5000)
    assert (response.status_code, response.content.decode()) == (413, TOO_LARGE)


def _chunked(body: bytes) -> ASGIRequest:
    """A request as an ASGI server hands it on: chunked, so without a Content-Length."""
    scope = {
        "type": "http", "method": "POST", "path": SIGNUP, "query_string": b"",
        "headers": [
            (b"transfer-encoding", b"chunked"),
            (b"content-type", b"application/x-www-form-urlencoded"),
        ],
    }  # fmt: skip
    return ASGIRequest(scope, io.BytesIO(body))


def test_a_chunked_body_over_the_limit_is_cut_off() -> None:
    seen: list[HttpRequest] = []
    middleware = RequestBodyLimitMiddleware(lambda request: seen.append(request) or HttpResponse())
    response = middleware(_chunked(b"username=" + b"x" * (2 * MB)))
    assert (response.status_code, response.content.decode(), seen) == (413, TOO_LARGE, [])


def test_a_chunked_body_under_the_limit_is_handed_on_whole() -> None:
    seen: list[HttpRequest] = []
    middleware = RequestBodyLimitMiddleware(lambda request: seen.append(request) or HttpResponse())
    response = middleware(_chunked(b"username=" + b"x" * 500_000 + b"&email=e%40example.org"))
    assert response.status_code == 200
    (request,) = seen
    assert (len(request.POST["username"]), request.POST["email"]) == (500_000, "e@example.org")
