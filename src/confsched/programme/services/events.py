"""Events: creating one, with a slug the site can serve and a real time zone."""

from __future__ import annotations

from datetime import date

from confsched.core.errors import InvalidEventError
from confsched.core.text import slugify
from confsched.core.timezones import get_zone
from confsched.programme.models import (
    Event,
)

# First path segments the site uses itself: an event there could never be reached.
RESERVED_SLUGS = frozenset({"admin", "accounts", "api", "static", "media", "about"})


def create_event(
    *, slug: str, name: str, timezone: str, start_date: date | None = None,
    end_date: date | None = None, location: str = "",
) -> Event:  # fmt: skip
    """A new event; InvalidEventError when the slug is taken or the zone is not an IANA name."""
    get_zone(timezone)
    if slug in RESERVED_SLUGS:
        raise InvalidEventError(f"event slug {slug!r} is reserved for the site's own pages")
    if slugify(slug) != slug:
        raise InvalidEventError(f"event slug {slug!r} must be lower-case letters, digits and '-'")
    if Event.objects.filter(slug=slug).exists():
        raise InvalidEventError(f"an event with the slug {slug!r} exists already")
    return Event.objects.create(
        slug=slug, name=name or slug, timezone=timezone, start_date=start_date,
        end_date=end_date, location=location,
    )  # fmt: skip
