"""Anonymous pages a shared cache may keep (nginx, a CDN), and stars without a CSRF cookie.

A request that carries none of the site's cookies (no session, no CSRF token, no saved zone or
language) is a visitor nobody knows yet: every such visitor asking for one address gets the
same bytes. Those responses set no cookie, hold no CSRF token, and say `Cache-Control: public`
with a short max-age, so the cache in front answers them without reaching Python. As soon as a
request carries one of those cookies (a visitor who starred, anyone signed in), its pages are
private again, as before. See docs/caching.md.

Visitors can star before they have any cookie: the star form of a public page holds no token,
and the star view is protected by the browser's own word on where the request comes from
(`Sec-Fetch-Site`, else `Origin`), which a page on another site cannot forge; a request with
neither header (an old browser, a script) falls back to Django's token check.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.cache import patch_cache_control
from django.views.decorators.csrf import csrf_exempt

from confsched.web.site.zones import COOKIE as ZONE_COOKIE
from confsched.web.site.zones import ViewerZone


def site_cookies() -> tuple[str, ...]:
    """The cookies whose presence makes a page someone's own (nginx bypasses on the same)."""
    return (
        settings.SESSION_COOKIE_NAME,
        settings.CSRF_COOKIE_NAME,
        settings.LANGUAGE_COOKIE_NAME,
        ZONE_COOKIE,
    )


def is_anonymous_visit(request: HttpRequest) -> bool:
    """A safe request with none of the site's cookies: its response may be shared."""
    return request.method in ("GET", "HEAD") and not any(
        name in request.COOKIES for name in site_cookies()
    )


def is_public_view(request: HttpRequest, viewer: ViewerZone) -> bool:
    """An anonymous visit in the event's own zone (none chosen by the address, none refused):
    the page everyone like this visitor gets, which a cache in front may keep."""
    return is_anonymous_visit(request) and not viewer.chosen and not viewer.is_saved_bad


def cache_publicly(response: HttpResponse, *, max_age: int | None = None) -> HttpResponse:
    """`Cache-Control: public` for a short while, and served stale while it is refreshed when
    CONFSCHED_PUBLIC_STALE allows it (0, the default: never)."""
    stale = {"stale_while_revalidate": settings.CONFSCHED_PUBLIC_STALE}
    patch_cache_control(
        response,
        public=True,
        max_age=settings.CONFSCHED_PUBLIC_MAX_AGE if max_age is None else max_age,
        **(stale if settings.CONFSCHED_PUBLIC_STALE else {}),
    )
    return response


def _own_origins(request: HttpRequest) -> set[str]:
    return {f"{request.scheme}://{request.get_host()}", *settings.CSRF_TRUSTED_ORIGINS}


def cross_site_refusal(request: HttpRequest) -> HttpResponse | None:
    """None when the browser says the request comes from this site, else a 403 that says why.

    Browsers send `Sec-Fetch-Site` (and `Origin`) with every POST and no page can set either;
    without both, the request is judged as Django always did: by its CSRF token and cookie.
    """
    fetch_site = request.headers.get("Sec-Fetch-Site", "")
    if fetch_site:
        if fetch_site == "same-origin":
            return None
        return HttpResponseForbidden(
            f"Refused: this form was sent from another site (Sec-Fetch-Site: {fetch_site[:40]}).\n",
            content_type="text/plain; charset=utf-8",
        )
    origin = request.headers.get("Origin", "")
    if origin:
        if origin in _own_origins(request):
            return None
        return HttpResponseForbidden(
            f"Refused: this form was sent from another site (Origin: {origin[:200]}).\n",
            content_type="text/plain; charset=utf-8",
        )
    # Neither header: the CSRF token and cookie, as for every other form.
    checker = CsrfViewMiddleware(lambda _request: HttpResponse())
    return checker.process_view(request, lambda _request: HttpResponse(), (), {})


def same_site_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For forms a visitor without cookies sends (the star): `cross_site_refusal` instead of
    the CSRF token check, which would need a cookie and a token in the cached page."""

    @csrf_exempt
    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = cross_site_refusal(request)
        if refusal is not None:
            return refusal
        return view(request, *args, **kwargs)

    return checked
