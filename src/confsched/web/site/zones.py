"""The time zone a viewer reads the schedule in: ?tz=, else their saved choice, else the event's.

Names come from outside (the address, a cookie), so each passes `is_zone_name` before it becomes
a zone. A bad ?tz= is the visitor's own request and gets a 400 page saying so; a bad cookie was
not typed on this request, so it is ignored and deleted.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from confsched.core.timezones import SHOWN_MAX, get_zone, is_zone_name
from confsched.programme.models import Event

COOKIE = "confsched_tz"
COOKIE_MAX_AGE = 365 * 24 * 3600


def unknown_zone_problem(name: str) -> str:
    """core.timezones.zone_problem in the page's language."""
    shown = name if len(name) <= SHOWN_MAX else name[:SHOWN_MAX] + "…"
    problem = gettext("unknown time zone %(name)s: give an IANA name such as Europe/Paris")
    return problem % {"name": repr(shown)}


class UnknownZoneError(Exception):
    """?tz= named no IANA zone; web.middleware turns this into the event's 400 page."""

    def __init__(self, *, event: Event, asked: str) -> None:
        super().__init__(unknown_zone_problem(asked))
        self.event = event
        self.asked = asked


@dataclass(frozen=True)
class ViewerZone:
    zone: zoneinfo.ZoneInfo
    event_zone: zoneinfo.ZoneInfo
    chosen: str = ""  # the valid zone named in this request's ?tz=, to save
    is_saved_bad: bool = False  # the cookie held no zone: the response deletes it

    @property
    def is_event_zone(self) -> bool:
        return self.zone.key == self.event_zone.key


def viewer_zone(request: HttpRequest, event: Event, *, use_saved: bool = True) -> ViewerZone:
    """The zone to show `event` in; UnknownZoneError when ?tz= names none.

    `use_saved=False` reads the address only, for responses that must not depend on a cookie
    (calendar feeds are fetched by apps that have none, and are cached by address).
    """
    event_zone = event.zone
    asked = request.GET.get("tz", "").strip()
    if asked:
        if not is_zone_name(asked):
            raise UnknownZoneError(event=event, asked=asked)
        return ViewerZone(zone=get_zone(asked), event_zone=event_zone, chosen=asked)
    saved = request.COOKIES.get(COOKIE, "") if use_saved else ""
    if saved:
        if is_zone_name(saved):
            return ViewerZone(zone=get_zone(saved), event_zone=event_zone)
        return ViewerZone(zone=event_zone, event_zone=event_zone, is_saved_bad=True)
    return ViewerZone(zone=event_zone, event_zone=event_zone)


def remember_zone(response: HttpResponse, viewer: ViewerZone) -> HttpResponse:
    """Keep a zone chosen with ?tz= for the viewer's next pages; drop a saved one that is bad."""
    if viewer.chosen:
        response.set_cookie(
            COOKIE,
            viewer.chosen,
            max_age=COOKIE_MAX_AGE,
            samesite="Lax",
            httponly=True,
            # Like the session cookie: sent over HTTPS only when the site is served over HTTPS.
            secure=settings.SESSION_COOKIE_SECURE,
        )
    elif viewer.is_saved_bad:
        response.delete_cookie(COOKIE, samesite="Lax")
    return response
