"""The site's own pages beside the events: the home page, what confsched is, its icon, and the
error pages."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from confsched.core import database
from confsched.core.database import Trouble
from confsched.programme import queries
from confsched.programme.models import Event
from confsched.web.site.languages import use_event_language
from confsched.web.site.private import keep_private

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


# The error pages: in the site's layout (the event's, where the address names one), and JSON
# under /api/, where clients read {"detail": ...} like every other API error.
API_PREFIX = "/api/"
# What a client is told to wait while the database is unreachable (a restart takes seconds),
# and after a write that did not get its lock in time (the crowd passes in moments).
RETRY_AFTER_SECONDS = 30
BUSY_RETRY_AFTER_SECONDS = 2


def _event_of(path: str) -> Event | None:
    """The event whose pages the address is under, if the database can say."""
    slug = path.strip("/").split("/", 1)[0]
    if not slug or not slug.replace("-", "").isalnum():
        return None
    try:
        return queries.event_for_slug(slug)
    except DatabaseError:
        return None


def _error_page(
    request: HttpRequest, *, status: int, heading: str, message: str, event: Event | None = None,
    is_database_up: bool = True,
) -> HttpResponse:  # fmt: skip
    if event is not None:
        use_event_language(event)
    if request.path.startswith(API_PREFIX):
        response: HttpResponse = JsonResponse({"detail": message}, status=status)
    else:
        frame = "confsched/base.html" if event else "confsched/site.html"
        context = {"frame": frame, "event": event, "heading": heading, "message": message}
        if is_database_up:
            response = render(request, "confsched/errors/page.html", context, status=status)
        else:
            # Without the context processors: the account corner's user cannot be read.
            page = get_template("confsched/errors/page.html").render(
                {**context, "request": request, "user": AnonymousUser()}
            )
            response = HttpResponse(page, status=status)
    patch_cache_control(response, no_store=True)
    return response


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: what is not here, and the ways back."""
    event = None if request.path.startswith(API_PREFIX) else _event_of(request.path)
    if request.path.startswith(API_PREFIX):  # the API answers in English
        heading, message = "Not found", f"There is no API operation at {request.path}."
    else:
        heading = gettext("Not found")
        message = gettext("There is no page at %(path)s.") % {"path": request.path}
    return _error_page(request, status=404, heading=heading, event=event, message=message)


def server_error(request: HttpRequest) -> HttpResponse:
    """500; or 503 with Retry-After when the database cannot be reached (a restart, a
    failover: a wait, not a fault, and the next request after it is back is served), or when it
    was too busy to take the write in time (nothing was saved: send it again)."""
    _, exception, _ = sys.exc_info()
    found = database.trouble(exception) if exception is not None else None
    if found is None:
        return _error_page(
            request, status=500, heading=gettext("Something went wrong"),
            message=gettext(
                "This page could not be shown because of an error on our side; it has been "
                "logged. Please try again later."
            ), is_database_up=False,
        )  # fmt: skip
    if found is Trouble.AWAY:
        heading, wait = gettext("Back in a moment"), RETRY_AFTER_SECONDS
        message = gettext(
            "The schedule's database cannot be reached right now. Please try again in half a "
            "minute."
        )
    else:
        heading, wait = gettext("Too busy to save this"), BUSY_RETRY_AFTER_SECONDS
        message = gettext(
            "Many people are saving at this moment and yours could not be saved in time; "
            "nothing was changed. Please send it again."
        )
    response = _error_page(
        request, status=503, heading=heading, message=message, is_database_up=False
    )
    response["Retry-After"] = str(wait)
    return response


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    events = queries.events_listed()
    # A message for the home page (an account just deleted) is shown here, not redirected away.
    is_told = len(get_messages(request)) > 0
    if not is_told:
        default = settings.CONFSCHED_DEFAULT_EVENT
        if default and any(event.slug == default for event in events):
            return redirect("web:schedule", event=default)
        if len(events) == 1:
            return redirect(events[0])
    response = render(request, "confsched/home.html", {"events": events})
    return keep_private(response) if is_told else response
