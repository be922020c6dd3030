"""Responses that are one person's: never kept by a cache, shared or the browser's own.

Views that show secrets (a feed's address, a check-in code) say so with `keep_private`. Every
other page a signed-in person (or a visitor with stars in their session) is shown carries at
least their name in the account corner or their stars: `PersonalPagesMiddleware` makes each of
those `private, no-store` too, whatever its view said or forgot to say. Such a page may still be
kept in the person's own offline copy (the event's service worker, per account, dropped at
log-out): it says so with OFFLINE_HEADER, which `keep_private`'s pages never carry.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac

# Read by the service worker (venue/templates/confsched/sw.js): "account" lets it keep the page
# in the offline copy of the person signed in, although no HTTP cache may store it.
OFFLINE_HEADER = "X-Confsched-Offline"
# Sent by the service worker in OFFLINE_HEADER when it asks for the copy it keeps of a page
# that is otherwise never kept (the agenda): the view leaves the secrets out of that copy.
OFFLINE_COPY = "copy"
# On such a copy: whose it is (account_marker), so that the worker keeps it only
# while that person is still the one signed in.
OFFLINE_ACCOUNT_HEADER = "X-Confsched-Offline-Account"


# The marker of a person not signed in: visitors of one browser share its cookies anyway.
VISITOR = "visitor"


def account_marker(request: HttpRequest) -> str:
    """Whose offline copy pages belong in: a stable name per account that reveals neither
    who it is nor anything secret (not the session key, not a feed token)."""
    user = request.user
    if not user.is_authenticated:
        return VISITOR
    return "a" + salted_hmac("confsched.offline.account", str(user.pk)).hexdigest()[:24]


def keep_private(response: HttpResponse, *, is_secret_address: bool = False) -> HttpResponse:
    """`private, no-store` (the page may show secrets: a feed address, a name), varying by the
    cookie that says whose it is; with `is_secret_address` (a shared agenda, a private feed, an
    unsubscribe link, a speaker's link), no link on the page passes the address on to another
    site as a Referer either. `same-origin`, not `no-referrer`: under `no-referrer` a browser
    posts the page's forms with `Origin: null`, which Django's CSRF check refuses (403)."""
    if "Cache-Control" in response:
        del response["Cache-Control"]
    patch_cache_control(response, private=True, no_store=True)
    patch_vary_headers(response, ("Cookie",))
    if is_secret_address:
        response["Referrer-Policy"] = "same-origin"
    return response


def _is_personal(request: HttpRequest) -> bool:
    """A signed-in person, or a visitor whose session holds their stars."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return True
    return settings.SESSION_COOKIE_NAME in request.COOKIES


class PersonalPagesMiddleware:
    """A page shown to a person is `private, no-store`, never a copy a browser or proxy keeps.

    The schedule's own pages said `private, no-cache` (kept, revalidated by ETag) and the
    search, change log, print, home and account pages said nothing: each showed the person's
    name. A page its view left to the cache's judgement may go in the person's offline copy
    (OFFLINE_HEADER), as it did; a page its view made `no-store` (keep_private) may not.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        is_page = response.get("Content-Type", "").startswith("text/html")
        if not is_page or not _is_personal(request):
            return response
        said = response.get("Cache-Control", "")
        if "no-store" not in said:
            response[OFFLINE_HEADER] = "account"
        keep_private(response)
        return response
