"""Receiving a speaker's slides: refused past 50 MB while they arrive, never after.

`SlideUploadHandler` is a TemporaryFileUploadHandler (the file goes to a temporary file as it
arrives, never to memory) that stops the upload as soon as it is known to be too large:

- when the request declares a body longer than the limit plus `FORM_ALLOWANCE` (the form's
  other fields and the multipart boundaries), before a byte of the file is taken;
- else when the file part declares a longer length, or its bytes pass the limit, at the first
  chunk past it (a body sent with a true length just over the limit).

It raises `StopUpload(connection_reset=True)`: Django reads no more of the body. (Behind the
deployment's nginx, which buffers the whole body first up to its client_max_body_size, the
browser still gets the answer; nginx itself answers 413 beyond that size, so the slides'
location needs a client_max_body_size a little over 50 MB, such as 51m.) The handler keeps what
happened (`refusal`: TOO_LARGE or CUT_OFF) and how many file bytes it was handed (`received`).

A cut-off upload (the client went away half-way) reaches Django either as a body that ends
early (the multipart parser then calls `upload_interrupted`, and the file is not in
request.FILES) or as an error while reading it (UnreadablePostError): `received_slides(request)`
tells both apart from a whole file and raises UploadError for each, so that the view keeps the
session's previous slides. It is the one function a view needs after installing the handler.

Installing: handlers must be set before anything reads request.POST or request.FILES, and
CsrfViewMiddleware reads POST in process_view. As Django's documentation on modifying upload
handlers on the fly says, the view is `csrf_exempt` and its body `csrf_protect`-ed after the
handler is installed; `limited_upload` does exactly that:

    @limited_upload
    def upload_slides(request, ...):
        upload = received_slides(request)           # UploadError: say why, keep the old file
        checked = check_slides(upload, filename=upload.name, size=upload.size)

In this project, two middlewares read the body before any view: RequestBodyLimitMiddleware
answers 413 to any body over CONFSCHED_MAX_REQUEST_BYTES (1 MB) unless it is a staff import,
and NulCharacterMiddleware reads request.POST and request.FILES. The slides' URL has to be let
through both (the size is judged here, and a file's bytes are not text) before this works.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import StopUpload, TemporaryFileUploadHandler
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from confsched.core.errors import UploadError
from confsched.speakers.slides import MAX_SLIDE_BYTES, too_large_message

FORM_ALLOWANCE = 64 * 1024  # the other fields and boundaries a slides form may add
TOO_LARGE = "too-large"
CUT_OFF = "cut-off"
FIELD = "slides"
_ATTRIBUTE = "_confsched_slide_upload"


class SlideUploadHandler(TemporaryFileUploadHandler):
    """Streams the upload to a temporary file and stops it once past `limit` bytes."""

    def __init__(self, request: HttpRequest | None = None, *, limit: int = MAX_SLIDE_BYTES):
        super().__init__(request)
        self.limit = limit
        self.received = 0  # file bytes handed to this handler, all files together
        self.refusal: str | None = None
        self.refused_name = ""
        self.declared_length: int | None = None

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict[str, Any],  # noqa: N803 - Django's name
        content_length: int,
        boundary: bytes,
        encoding: str | None = None,
    ) -> None:
        self.declared_length = content_length
        if content_length > self.limit + FORM_ALLOWANCE:
            # Surely too large; raised in new_file, where the parser expects StopUpload.
            self.refusal = TOO_LARGE

    def new_file(self, field_name: str, file_name: str, *args: Any, **kwargs: Any) -> None:
        content_length = args[1] if len(args) > 1 else kwargs.get("content_length")
        if self.refusal is not None or (content_length or 0) > self.limit:
            self._stop(TOO_LARGE, file_name)
        super().new_file(field_name, file_name, *args, **kwargs)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if start + len(raw_data) > self.limit:
            self._stop(TOO_LARGE, self.file_name or "")
        return super().receive_data_chunk(raw_data, start)

    def upload_interrupted(self) -> None:
        """The body ended inside a file: the client went away (Django calls this)."""
        if self.refusal is None:
            self.refusal = CUT_OFF
            self.refused_name = self.file_name or ""
        super().upload_interrupted()

    def _stop(self, refusal: str, file_name: str) -> None:
        self.refusal, self.refused_name = refusal, file_name
        if hasattr(self, "file"):  # the partial temporary file goes now, not at exit
            super().upload_interrupted()
        raise StopUpload(connection_reset=True)


def install_upload_limit(
    request: HttpRequest, *, limit: int = MAX_SLIDE_BYTES
) -> SlideUploadHandler:
    """Makes `request`'s files arrive through a SlideUploadHandler (its only handler), and
    returns it. Must run before anything reads request.POST or request.FILES."""
    handler = SlideUploadHandler(request, limit=limit)
    try:
        request.upload_handlers = [handler]
    except AttributeError:
        raise RuntimeError(
            "The request's body was read before the slides' upload handler was installed: "
            "use @limited_upload (csrf_exempt outside, csrf_protect inside) and let no "
            "middleware read request.POST or request.FILES on this URL."
        ) from None
    setattr(request, _ATTRIBUTE, handler)
    return handler


def upload_handler(request: HttpRequest) -> SlideUploadHandler | None:
    """The SlideUploadHandler installed on `request`, if any: its `refusal` and `received`."""
    return getattr(request, _ATTRIBUTE, None)


def limited_upload(
    view: Callable[..., HttpResponse] | None = None, *, limit: int = MAX_SLIDE_BYTES
) -> Any:
    """Decorates a view that takes slides: installs the handler on a POST, then checks CSRF
    (as `csrf_protect` does) only after that. `@limited_upload` or `@limited_upload(limit=N)`."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        protected = csrf_protect(view)

        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in {"GET", "HEAD", "OPTIONS", "TRACE"}:
                install_upload_limit(request, limit=limit)
            return protected(request, *args, **kwargs)

        return csrf_exempt(wrapper)

    return decorate(view) if view is not None else decorate


def received_slides(request: HttpRequest, field: str = FIELD) -> UploadedFile:
    """The file sent in `field`, whole and within the limit; else UploadError saying what
    happened (over the limit, cut off, unreadable, none sent), with nothing of it kept."""
    handler = upload_handler(request)
    if handler is None:
        raise RuntimeError("install_upload_limit (or @limited_upload) did not run on this request.")
    try:
        files = request.FILES
    except UnreadablePostError:  # the connection broke while the body was read
        handler.upload_interrupted()  # marks it cut off and removes the partial file
        files = None
    except MultiPartParserError:
        raise UploadError(
            gettext("The upload could not be read (the form's data is malformed): try again.")
        ) from None
    if handler.refusal == TOO_LARGE:
        raise UploadError(too_large_message(limit=handler.limit), filename=handler.refused_name)
    if handler.refusal == CUT_OFF or files is None:
        raise UploadError(
            gettext(
                "The upload was cut off before the whole file arrived, so nothing was changed: "
                "please upload it again."
            ),
            filename=handler.refused_name,
        )
    upload = files.get(field)
    if upload is None:
        raise UploadError(gettext("No file arrived: choose your slides and send them again."))
    return upload
