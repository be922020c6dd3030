"""iCalendar responses: the whole event, one session, a filtered view, a personal agenda.

Calendar apps poll feeds every few minutes, so each response carries an ETag computed before
any rendering from what the feed depends on; a matching If-None-Match gets a bare 304.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control

from confsched.interchange.ical.write import Personal, render_ical
from confsched.programme.models import Event
from confsched.programme.services import snapshot
from confsched.web.site.compression import Rendition
from confsched.web.site.fragments import session_urls
from confsched.web.site.shared_cache import cache_publicly
from confsched.web.site.stencils import calendar_entries, kept


def event_etag(event: Event, *parts: object) -> str:
    raw = ":".join(str(part) for part in (event.pk, event.updated_at.isoformat(), *parts))
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def _matching(request: HttpRequest, etag: str) -> str:
    """The tag of If-None-Match that names `etag` (weak or strong, as the client holds it)."""
    asked = request.headers.get("If-None-Match", "")
    return next(
        (tag.strip() for tag in asked.split(",") if tag.strip().removeprefix("W/") == f'"{etag}"'),
        "",
    )


def conditional_response(
    request: HttpRequest, *, etag: str, render: Callable[[], HttpResponse]
) -> HttpResponse:
    """A bare 304 when the client holds `etag`, else what `render` makes; either way tagged."""
    if held := _matching(request, etag):
        # The tag the client holds: a 304 names the response it confirms (a cache in front
        # keeps the 200's headers and must find the same tag).
        not_modified = HttpResponseNotModified()
        not_modified["ETag"] = held
        return not_modified
    response = render()
    # Weak when gzipped: the same entity as the plain body, not the same bytes.
    response["ETag"] = f'W/"{etag}"' if response.has_header("Content-Encoding") else f'"{etag}"'
    return response


def calendar_response(
    request: HttpRequest, *, event: Event, keys: set[str] | None, name: str, filename: str,
    etag: str, is_private: bool = False, personal: Mapping[str, Personal] | None = None,
) -> HttpResponse:  # fmt: skip
    """The .ics of `keys` (every session when None), or 304 when the client has it already."""

    def render() -> HttpResponse:
        # The ETag names everything the calendar depends on; the host names its links.
        key = f"ics:{etag}:{request.scheme}://{request.get_host()}"
        rendition = kept(key, lambda: Rendition(build()))
        response = rendition.response(request, "text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        return response

    def build() -> bytes:
        programme = snapshot(event)
        chosen = [
            s for s in programme.sessions
            if s.starts_at and not s.needs_review and (keys is None or s.key in keys)
        ]  # fmt: skip
        return render_ical(
            programme,
            sessions=chosen,
            uid_domain=event.uid_domain,
            calendar_name=name,
            rendered=calendar_entries,
            personal=personal,
            url_for=session_urls("web:session", event, request.build_absolute_uri),
        )

    response = conditional_response(request, etag=etag, render=render)
    if is_private:
        patch_cache_control(response, private=True, max_age=300)
        response["X-Robots-Tag"] = "noindex"
    else:
        cache_publicly(response, max_age=300)
    return response
