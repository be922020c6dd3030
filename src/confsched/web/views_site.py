"""The site's own pages beside the events: what confsched is, and its icon."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

# The same icon as static/confsched/icon.svg, as a .ico (16, 32 and 48 px) for what asks for
# /favicon.ico: browsers without SVG icons, feed readers, bookmarks. scripts/make_icons.py
# makes it from the SVG.
FAVICON = Path(__file__).resolve().parent / "static" / "confsched" / "favicon.ico"
# Browsers fetch the icon on every site they open; it changes once in years.
FAVICON_MAX_AGE = 365 * 24 * 3600


@cache
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


@require_safe
def about(request: HttpRequest) -> HttpResponse:
    return render(request, "confsched/about.html")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_favicon_bytes(), content_type="image/vnd.microsoft.icon")
    patch_cache_control(response, public=True, max_age=FAVICON_MAX_AGE)
    return response
