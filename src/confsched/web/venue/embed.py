"""The embeddable schedule: a compact list other sites may show in a frame.

It is the same for everyone who asks for the same address (no account corner, no stars, no
token), so the whole page is kept per schedule version and address, like the schedule pages.
Only the sites the organizer lists in `Event.embed_origins` may frame it; every other page of
the site keeps refusing frames (X-Frame-Options DENY, CSP frame-ancestors 'none').
"""

from __future__ import annotations

import hashlib
from typing import cast

from csp.decorators import csp_replace
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from confsched.core.timezones import describe_zone
from confsched.programme import queries
from confsched.programme.filtering import apply_filters, facet_rows, parse_filters
from confsched.programme.layout import days_and_slots
from confsched.programme.models import Event, embed_origin_list
from confsched.web.schedule.pages import (
    SCHEDULE_PARAMETERS,
    canonical_query,
    without_unknown_parameters,
)
from confsched.web.site.compression import Rendition
from confsched.web.site.languages import page_language
from confsched.web.site.pages import event_moment, event_or_404
from confsched.web.site.stencils import kept
from confsched.web.site.zones import viewer_zone

# Browsers and proxies may reuse the page this long before asking again (then a 304).
EMBED_MAX_AGE = 300


@xframe_options_exempt
@require_safe
def embed(request: HttpRequest, event: str) -> HttpResponse:
    """The sessions by day and time, filtered like the schedule, links opening a new tab."""
    event_row = event_or_404(event)
    # The zone from ?tz= only, never a cookie: the page must be the same for everyone.
    viewer = viewer_zone(request, event_row, use_saved=False)
    if redirect_away := without_unknown_parameters(request, SCHEDULE_PARAMETERS):
        return redirect_away
    query, _ = canonical_query(request, SCHEDULE_PARAMETERS)
    url = f"{request.scheme}://{request.get_host()}{request.path}?{query}"
    key = hashlib.sha256(
        f"embed\n{event_row.pk}\n{event_row.updated_at.isoformat()}\n{page_language()}\n{url}".encode()
    ).hexdigest()
    etag = f'"{key[:32]}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        page = kept(f"embed:{key}", lambda: Rendition(_render(request, event_row, viewer.zone)))
        response = page.response(request, "text/html; charset=utf-8")
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=EMBED_MAX_AGE)
    origins = embed_origin_list(event_row.embed_origins)
    # csp_replace's own way of setting this response's policy; no origin listed: no framing.
    allow = csp_replace({"frame-ancestors": origins or ["'none'"]})
    return cast(HttpResponse, allow(lambda _request: response)(request))


def _render(request: HttpRequest, event: Event, zone) -> bytes:  # noqa: ANN001 - a ZoneInfo
    filters = parse_filters(dict(request.GET.lists()))
    sessions = queries.published_sessions(event)
    known = {
        facet: {row.slug for row in facet_rows(sessions, facet)}
        for facet in ("room", "track", "level")
    }
    result = apply_filters(sessions, filters, zone=zone, known=known)
    schedule_url = request.build_absolute_uri(reverse("web:schedule", kwargs={"event": event.slug}))
    for session in result.sessions:
        session.url = request.build_absolute_uri(session.get_absolute_url())
    with timezone.override(zone):
        html = render_to_string(
            "confsched/embed.html",
            {
                "event": event,
                "filters": filters,
                "result": result,
                "days": days_and_slots(result.sessions, zone),
                "zone_label": describe_zone(zone, event_moment(event)),
                "schedule_url": schedule_url
                + (f"?{request.GET.urlencode()}" if request.GET else ""),
            },
        )
    return html.encode()
