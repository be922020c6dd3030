"""Responses that are one person's: never kept by a cache, shared or the browser's own."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers


def keep_private(response: HttpResponse, *, is_secret_address: bool = False) -> HttpResponse:
    """`private, no-store` (the page may show secrets: a feed address, a name), varying by the
    cookie that says whose it is; with `is_secret_address` (a shared agenda, a private feed, an
    unsubscribe link), no link on the page passes the address on as a Referer either."""
    if "Cache-Control" in response:
        del response["Cache-Control"]
    patch_cache_control(response, private=True, no_store=True)
    patch_vary_headers(response, ("Cookie",))
    if is_secret_address:
        response["Referrer-Policy"] = "no-referrer"
    return response
