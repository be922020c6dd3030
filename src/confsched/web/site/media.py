"""/media/<name>: the files people upload, served by the app from the site's storage.

In production on the file system nginx serves /media/ itself with the same headers
(deploy/nginx/confsched-locations.conf), and with an object store the bucket's public address
or a CDN may (CONFSCHED_MEDIA_URL); this view serves them everywhere else: the development
server, and an object store without a public address. A file is streamed as it is read, never
held whole in memory (slides reach 50 MB).

The file is someone's upload, so the browser is told to treat it as nothing more than what
its allow-listed type says: `nosniff`, a sandbox that runs nothing even when a file is opened
on its own, a PDF or an image shown in the page and an office document saved; anything else is
bytes to download. Names are content (core/files.py): cached for a year as immutable, with a
strong ETag. No cookie is set and nothing varies with one, so every cache may share it:
LanguageMiddleware leaves MEDIA_PREFIX alone, nothing here reads the session or the user, and
SharedFileMiddleware takes off what the session and CSRF middleware add to any response when
the request brought a stale cookie (deleting it, replacing it: a Set-Cookie, Vary: Cookie).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_safe

from confsched.core import files

# Where the view is routed (confsched/urls.py), outside every event's pages ("media" is a
# reserved event slug). CONFSCHED_MEDIA_URL moves where the pages link, not this route.
MEDIA_PREFIX = "/media/"
# Nothing in the file may run, load or be framed, even opened at its own address.
SANDBOX = "default-src 'none'; sandbox"
# Set on every response of the view: SharedFileMiddleware sends it without cookies.
SHARED = "confsched_shared_file"


class SharedFileMiddleware:
    """A response of `media` leaves with no Set-Cookie and no Vary: Cookie.

    Sits outside (above) the session and CSRF middleware, which answer a stale or malformed
    cookie on any request by deleting or replacing it, and so say `Vary: Cookie`. On a file
    kept for a year by shared caches that would hand one browser's cookie to everyone, or keep
    a copy per cookie; the browser's next page cleans the cookie up as before.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if getattr(response, SHARED, False):
            response.cookies.clear()
            vary = [v.strip() for v in response.get("Vary", "").split(",") if v.strip()]
            kept = [v for v in vary if v.lower() != "cookie"]
            if kept:
                response["Vary"] = ", ".join(kept)
            elif "Vary" in response:
                del response["Vary"]
        return response


def _shared(response: HttpResponseBase) -> HttpResponseBase:
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = SANDBOX
    setattr(response, SHARED, True)
    return response


def _not_found() -> HttpResponseBase:
    return _shared(
        HttpResponse("No such file.\n", status=404, content_type="text/plain; charset=utf-8")
    )


@require_safe
def media(request: HttpRequest, name: str) -> HttpResponseBase:
    """One stored file, or 404 (for a name save() never makes too, such as a path with ..)."""
    try:
        stored = files.open_file(name)
    except FileNotFoundError:
        return _not_found()
    # A browser re-checking what it holds gets a 304, and the stream is closed unread.
    unchanged = get_conditional_response(request, etag=stored.etag)
    if unchanged is not None:
        stored.stream.close()
        unchanged["Cache-Control"] = files.CACHE_CONTROL
        unchanged["ETag"] = stored.etag
        return _shared(unchanged)
    kind = stored.file_type
    response = FileResponse(
        stored.stream,
        content_type=kind.content_type,
        as_attachment=not kind.inline,
        filename=stored.filename,
    )
    response["Content-Length"] = str(stored.size)
    response["Content-Disposition"] = stored.content_disposition
    response["Cache-Control"] = files.CACHE_CONTROL
    response["ETag"] = stored.etag
    return _shared(response)
