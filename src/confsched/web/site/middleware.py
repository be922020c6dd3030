"""Request guards that no view can skip: the request body's size, NUL characters, and the 400
for a bad ?tz=."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.urls import Resolver404, resolve

from confsched.core.numbers import BIG_INTEGER_MAX, parse_count
from confsched.programme.models import Event
from confsched.teams.access import can
from confsched.teams.rights import Right
from confsched.web.site.pages import unknown_zone_page
from confsched.web.site.uploads import prepare_upload, upload_limit
from confsched.web.site.views import API_PREFIX
from confsched.web.site.zones import UnknownZoneError

GetResponse = Callable[[HttpRequest], HttpResponse]


def _too_large(limit: int) -> HttpResponse:
    return HttpResponse(
        f"Request body too large: this site accepts at most {limit} bytes.\n",
        status=413,
        content_type="text/plain; charset=utf-8",
    )


# The admin's import page (admin/importing.py), where staff upload whole programmes.
IMPORT_VIEW = "admin:programme_event_import"


class RequestBodyLimitMiddleware:
    """413 for a body over CONFSCHED_MAX_REQUEST_BYTES, decided before anything parses it.

    Django's own limits (DATA_UPLOAD_MAX_MEMORY_SIZE) leave out file parts, and the multipart
    parser spools those to disk as it reads; so the size is judged here, first. A declared
    length is checked without reading a byte. A body without one (chunked) is read up to one
    byte past the limit and either refused or handed on from memory, with its length.

    Django reads a body only as far as its Content-Length (none: nothing), so a chunked body
    is read from the server's own input, which ends where the body does when the server says
    so (`wsgi.input_terminated`: gunicorn does). Where it does not (runserver's wsgiref), the
    body cannot be told from the next request: 411, never a body taken as empty.

    Organizers who may import into the event (Right.PROGRAMME) posting to the admin's import
    page may send up to CONFSCHED_MAX_IMPORT_BYTES (a programme of 5,000 sessions is about
    10 MB). So the middleware sits after the session and
    authentication ones, which read no body; CSRF reads it only in process_view, later.
    """

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit: int = settings.CONFSCHED_MAX_REQUEST_BYTES
        upload_view = _upload_view(request)
        if upload_view is not None:
            # A file a signed-in person sends to a view that takes one (site/uploads.py): as
            # large as the file may be; its handler refuses it past that as it arrives.
            limit = max(limit, upload_limit(upload_view, request) or 0)
            prepare_upload(upload_view, request)
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared:
            if not (declared.isascii() and declared.isdigit()):
                return HttpResponseBadRequest(
                    "The Content-Length header is not a number of bytes.\n",
                    content_type="text/plain; charset=utf-8",
                )
            if _over(declared, limit):
                limit = _staff_import_limit(request, limit)
                if _over(declared, limit):
                    return _too_large(limit)
        elif "transfer-encoding" in request.headers:
            stream = _whole_body(request)
            if stream is None:
                return HttpResponse(
                    "Send this request's body with a Content-Length: this server cannot read "
                    "a chunked one.\n",
                    status=411,
                    content_type="text/plain; charset=utf-8",
                )
            limit = _staff_import_limit(request, limit)
            body = _read_at_most(stream, limit + 1)
            if len(body) > limit:
                return _too_large(limit)
            # What was read is all there is: the rest of Django reads it again, by its length
            # (the multipart parser reads nothing without one).
            request._stream = io.BytesIO(body)
            request._read_started = False
            request.META["CONTENT_LENGTH"] = str(len(body))
        return self.get_response(request)


def _whole_body(request: HttpRequest) -> Any:
    """What a body without a length can be read from to its end: a WSGI server's own input
    when the server ends it where the body ends, else None; under ASGI the request itself (the
    server hands the body on whole)."""
    if "wsgi.input" not in request.META:
        return request
    return request.META["wsgi.input"] if request.META.get("wsgi.input_terminated") else None


def _read_at_most(stream: Any, size: int) -> bytes:
    """Up to `size` bytes of a terminated input, to its end if it is shorter."""
    parts: list[bytes] = []
    left = size
    while left > 0:
        part = stream.read(min(left, 64 * 1024))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _upload_view(request: HttpRequest) -> Any:
    """The view this POST goes to when it takes a file from a signed-in person, else None."""
    if request.method != "POST":
        return None
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return None
    return view if upload_limit(view, request) is not None else None


def _over(declared: str, limit: int) -> bool:
    return parse_count(declared, most=limit) is None


def _staff_import_limit(request: HttpRequest, limit: int) -> int:
    """The import limit for a POST to the import page by a person who may import into that
    event, else `limit`."""
    if request.method != "POST":
        return limit
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return limit
    user = getattr(request, "user", None)
    if match.view_name != IMPORT_VIEW or user is None or not user.is_authenticated:
        return limit
    # Only someone who may import into that event (Right.PROGRAMME) may send that much.
    number = parse_count(match.kwargs.get("object_id", ""), most=BIG_INTEGER_MAX)
    event = Event.objects.filter(pk=number).first() if number is not None else None
    if event is None or not can(user, event, Right.PROGRAMME):
        return limit
    return max(limit, settings.CONFSCHED_MAX_IMPORT_BYTES)


class NulCharacterMiddleware:
    """400 for a NUL character (U+0000) anywhere a view or the database could read it: the
    address, the query string, a cookie, a header, a form field's name or value, a JSON body
    (raw, or written as the escape \\u0000).

    No text the site keeps or looks up may hold one: PostgreSQL's text cannot, and psycopg
    refuses to send it, so a NUL that reached a query was a 500. Django's form fields refuse
    it, but a view that reads `request.GET`/`request.POST` itself does not; answering here
    leaves no view to forget. It reads the body, so it comes after RequestBodyLimitMiddleware
    (which refuses an oversized body unread); and before anything that queries with what the
    request sent (LanguageMiddleware reads the session its cookie names). A file's content is
    not text: an upload's bytes are left to the reader of its format.
    """

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = next(_places_with_nul(request), None)
        if where is None:
            return self.get_response(request)
        message = f"The request holds a NUL character (U+0000) in {where}: no text here may."
        if request.path_info.startswith(API_PREFIX):
            return JsonResponse({"detail": message}, status=400)
        return HttpResponseBadRequest(message + "\n", content_type="text/plain; charset=utf-8")


def _named(name: str) -> str:
    # A name is shown as sent, but a 100 KB one is not sent back whole.
    return repr(name if len(name) <= 64 else name[:64] + "…")


def _places_with_nul(request: HttpRequest) -> Iterator[str]:
    """Where the request holds a NUL, in words, first place first."""
    if "\x00" in request.path:
        yield "the address"
    for kind, pairs in (
        ("query parameter", request.GET.lists()),
        ("cookie", ((name, [value]) for name, value in request.COOKIES.items())),
        ("header", ((name, [value]) for name, value in request.headers.items())),
    ):
        for name, values in pairs:
            if "\x00" in name:
                yield f"a {kind}'s name"
            elif any("\x00" in value for value in values):
                yield f"the {kind} {_named(name)}"
    if request.META.get("CONTENT_LENGTH", "") in {"", "0"}:  # no body (a chunked one has one now)
        return
    if request.content_type in {"multipart/form-data", "application/x-www-form-urlencoded"}:
        try:
            fields, files = request.POST, request.FILES
        except OSError:  # the client went away mid-body: the view gets what Django makes of it
            return
        for name, values in fields.lists():
            if "\x00" in name:
                yield "a form field's name"
            elif any("\x00" in value for value in values):
                yield f"the form field {_named(name)}"
        if any("\x00" in name for name in files):
            yield "a form field's name"
        return
    body = request.body
    if b"\x00" in body:
        yield "the body"
    elif b"\\u0000" in body and "json" in request.content_type and _json_has_nul(body):
        yield "the JSON body"


def _json_has_nul(body: bytes) -> bool:
    """Whether a string or a key of the JSON document holds a NUL (written \\u0000); False for
    a body that is no JSON, which is its reader's to refuse."""
    try:
        document = json.loads(body)
    except ValueError:
        return False
    pending = [document]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return True
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


class UnknownZoneMiddleware:
    """Any event page whose ?tz= names no zone answers with the event's 400 page."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, UnknownZoneError):
            return unknown_zone_page(request, exception)
        return None


class HeadMiddleware:
    """HEAD wherever GET works (RFC 9110): the same status and headers, no body.

    The pages' views take HEAD (require_safe); the API's operations are declared for GET only,
    so a HEAD there is answered as its GET. The body is dropped here whatever the server does
    (gunicorn and runserver drop it too); Content-Length stays the GET's.
    """

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "HEAD":
            return self.get_response(request)
        if request.path_info.startswith(API_PREFIX):
            request.method = "GET"
        response = self.get_response(request)
        request.method = "HEAD"
        if not response.streaming:
            response.content = b""
        return response
