"""Rendered fragments kept in the cache (shared by every app process when REDIS_URL is set).

A session card is the bulk of a schedule page and the same on every filtered view, so it is
rendered once per event version, zone and heading level. The event's `updated_at` moves on
every import and admin edit, which retires every cached card of that event at once.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Sequence
from functools import lru_cache
from urllib.parse import quote

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from confsched.programme.models import Event, Session
from confsched.web.site.languages import page_language

CARD_TTL = 24 * 3600


_KEY_MARK = "confsched-key-placeholder"


def attach_star_urls(sessions: Sequence[Session], *, event: Event) -> None:
    """Set `session.star_url`: one reverse() for the page instead of two per session.

    The key is quoted exactly as reverse() quotes a path segment.
    """
    pattern = reverse("web:star", kwargs={"event": event.slug, "key": _KEY_MARK})
    for session in sessions:
        session.star_url = pattern.replace(
            _KEY_MARK, quote(session.key, safe=RFC3986_SUBDELIMS + "/~:@")
        )


def attach_cards(
    sessions: Sequence[Session], *, event: Event, zone: zoneinfo.ZoneInfo, heading: int
) -> None:
    """Set `session.card` to its rendered card for every session, rendering only what is missing."""
    version = event.updated_at.isoformat()
    language = page_language()  # a card's words, and which titles it marks with lang=
    # "Likely full" moves with the stars, not with the version: a card that says it is kept
    # apart from the one that does not (the caller sets `is_likely_full` when the event shows it).
    keys = {
        session.pk: f"card:{event.pk}:{version}:{zone.key}:{language}:{heading}:{session.pk}"
        + (":full" if getattr(session, "is_likely_full", False) else "")
        for session in sessions
    }
    found = cache.get_many(keys.values())
    missing = {}
    with timezone.override(zone):
        for session in sessions:
            html = found.get(keys[session.pk])
            if html is None:
                html = render_to_string(
                    "confsched/_card.html", {"session": session, "heading": heading}
                )
                missing[keys[session.pk]] = html
            session.card = mark_safe(html)  # noqa: S308 - our own template's escaped output
    if missing:
        cache.set_many(missing, CARD_TTL)


# The zones most attendees read schedules in, west to east; every other zone is one link away
# (the zones page), so the picker on every page is 50 options, not 430 (20 KB of HTML).
COMMON_ZONES = (
    "Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Denver",
    "America/Chicago", "America/New_York", "America/Halifax", "America/Sao_Paulo",
    "America/Argentina/Buenos_Aires", "Atlantic/Azores", "UTC", "Europe/London",
    "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Brussels", "Europe/Amsterdam",
    "Europe/Berlin", "Europe/Zurich", "Europe/Madrid", "Europe/Rome", "Europe/Vienna",
    "Europe/Prague", "Europe/Warsaw", "Europe/Stockholm", "Europe/Athens", "Europe/Helsinki",
    "Europe/Kyiv", "Europe/Istanbul", "Africa/Lagos", "Africa/Cairo", "Africa/Johannesburg",
    "Africa/Nairobi", "Asia/Dubai", "Asia/Tehran", "Asia/Karachi", "Asia/Kolkata",
    "Asia/Kathmandu", "Asia/Dhaka", "Asia/Bangkok", "Asia/Jakarta", "Asia/Singapore",
    "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Seoul", "Asia/Tokyo",
    "Australia/Perth", "Australia/Adelaide", "Australia/Brisbane", "Australia/Sydney",
    "Pacific/Auckland",
)  # fmt: skip


def zone_options(event_zone: str, selected: str) -> SafeString:
    """The <option>s of the zone picker: the event's zone first, then the common zones (and
    the chosen one when it is not among them), in the page's language."""
    return _zone_options(event_zone, selected, page_language())


@lru_cache(maxsize=256)
def _zone_options(event_zone: str, selected: str, language: str) -> SafeString:
    mark = " selected"
    label = gettext("Event time ({zone})").format(zone=event_zone)
    first = (
        f'<option value="{escape(event_zone)}"{mark if selected == event_zone else ""}>'
        f"{escape(label)}</option>"
    )
    names = list(COMMON_ZONES)
    if selected != event_zone and selected not in names:
        names.insert(0, selected)
    rest = "".join(
        f"<option{mark if name == selected != event_zone else ''}>{escape(name)}</option>"
        for name in names
    )
    return mark_safe(first + rest)  # noqa: S308 - names escaped above
