"""The time zone a viewer reads the schedule in: ?tz=, else their saved choice, else the event's."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse

from confsched.core.errors import InvalidEventError
from confsched.core.timezones import get_zone
from confsched.programme.models import Event

COOKIE = "confsched_tz"
COOKIE_MAX_AGE = 365 * 24 * 3600


@dataclass(frozen=True)
class ViewerZone:
    zone: zoneinfo.ZoneInfo
    event_zone: zoneinfo.ZoneInfo
    problem: str = ""  # set when the asked-for zone was not a zone
    chosen: str = ""  # the valid zone named in this request's ?tz=, to save

    @property
    def is_event_zone(self) -> bool:
        return self.zone.key == self.event_zone.key


def viewer_zone(request: HttpRequest, event: Event) -> ViewerZone:
    event_zone = event.zone
    asked = request.GET.get("tz", "").strip()
    if asked:
        try:
            return ViewerZone(zone=get_zone(asked), event_zone=event_zone, chosen=asked)
        except InvalidEventError as exc:
            return ViewerZone(zone=event_zone, event_zone=event_zone, problem=str(exc))
    saved = request.COOKIES.get(COOKIE, "")
    if saved:
        try:
            return ViewerZone(zone=get_zone(saved), event_zone=event_zone)
        except InvalidEventError:
            pass
    return ViewerZone(zone=event_zone, event_zone=event_zone)


def remember_zone(response: HttpResponse, viewer: ViewerZone) -> HttpResponse:
    """Keep a zone chosen with ?tz= for the viewer's next pages."""
    if viewer.chosen:
        response.set_cookie(
            COOKIE, viewer.chosen, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True
        )
    return response
