"""What every event page does: find the event, render with the event, the viewer's zone and
its description (and the 400 page for a ?tz= that is not a zone)."""

from __future__ import annotations

from datetime import datetime, time
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from confsched.core.timezones import describe_zone
from confsched.programme import queries
from confsched.programme.models import Event
from confsched.web.site.fragments import zone_options
from confsched.web.site.languages import use_event_language
from confsched.web.site.shared_cache import cache_publicly, is_public_view
from confsched.web.site.zones import UnknownZoneError, ViewerZone, remember_zone, viewer_zone


def event_or_404(slug: str) -> Event:
    """The event at this address, or a 404 page."""
    event = queries.event_for_slug(slug)
    if event is None:
        raise Http404(f"No event {slug!r}")
    use_event_language(event)  # the page in the event's language from here on
    return event


def event_page(
    request: HttpRequest,
    template: str,
    *,
    event: Event,
    viewer: ViewerZone | None = None,
    status: int = 200,
    shared: bool = False,
    max_age: int | None = None,
    **context: Any,
) -> HttpResponse:
    """Render with what every event page shows: the event, the zone, its description.

    `shared`: a page that is the same for every visitor nobody knows yet (shared_cache.py).
    Asked for without any of the site's cookies, it holds no CSRF token (its star form is
    checked by origin) and sets no cookie, so a cache in front may keep it for `max_age`
    seconds (the site's default when None).
    """
    use_event_language(event)
    viewer = viewer or viewer_zone(request, event)
    public = shared and status == 200 and is_public_view(request, viewer)
    if public:
        context["csrf_token"] = ""  # above the context processor's, which would set the cookie
    moment = context.pop("moment", None) or event_moment(event)
    context.update(
        event=event,
        viewer=viewer,
        zone_label=describe_zone(viewer.zone, moment),
        event_zone_label=describe_zone(viewer.event_zone, moment),
        zone_options=zone_options(event.timezone, viewer.zone.key),
    )
    with timezone.override(viewer.zone):  # every date and time on the page in the viewer's zone
        response = render(request, template, context, status=status)
    response["Vary"] = "Cookie, HX-Request"
    if public:
        return cache_publicly(response, max_age=max_age)
    return remember_zone(response, viewer)


def unknown_zone_page(request: HttpRequest, error: UnknownZoneError) -> HttpResponse:
    """400: the page's ?tz= is not a zone; say so, and offer the picker and the event's zone."""
    event = error.event
    others = request.GET.copy()
    others.pop("tz", None)
    return event_page(
        request,
        "confsched/unknown_zone.html",
        event=event,
        viewer=ViewerZone(zone=event.zone, event_zone=event.zone),
        status=400,
        problem=str(error),
        event_zone_url=request.path + (f"?{others.urlencode()}" if others else ""),
    )


def event_moment(event: Event) -> datetime:
    """A moment during the event, to name the zone's abbreviation and offset then."""
    day = event.start_date
    if day is None:
        return datetime.now(tz=event.zone)
    return datetime.combine(day, time(12), tzinfo=event.zone)


def site_address(request: HttpRequest) -> str:
    """The site's address without a trailing slash, for links that leave the page (a mail, an
    export, a file's address): CONFSCHED_BASE_URL, else the one this request came to."""
    return settings.CONFSCHED_BASE_URL or request.build_absolute_uri("/").rstrip("/")
