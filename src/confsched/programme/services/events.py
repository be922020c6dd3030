"""Events: creating one, with a slug the site can serve and a real time zone."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError

from confsched.core.errors import InvalidEventError
from confsched.core.text import one_line, slugify
from confsched.core.timezones import get_zone
from confsched.programme.models import Event, language_code_list, validate_language_codes

# First path segments the site uses itself: an event there could never be reached.
RESERVED_SLUGS = frozenset(
    {"admin", "accounts", "api", "static", "media", "about", "language", "speaker"}
)


def create_event(
    *, slug: str, name: str, timezone: str, start_date: date | None = None,
    end_date: date | None = None, location: str = "", languages: str = "",
) -> Event:  # fmt: skip
    """A new event; InvalidEventError when the slug is taken or the zone is not an IANA name.
    Its name is kept on one line and to the column's length (an imported file's title may be
    neither).

    `languages` ("en, fr, de") are those its pages are offered in, the first the default;
    empty: English only."""
    get_zone(timezone)
    codes = language_code_list(languages) or ["en"]
    try:
        validate_language_codes(",".join(codes))
    except ValidationError as error:
        raise InvalidEventError(f"languages: {error.messages[0]}") from error
    if slug in RESERVED_SLUGS:
        raise InvalidEventError(f"event slug {slug!r} is reserved for the site's own pages")
    if slugify(slug) != slug:
        raise InvalidEventError(f"event slug {slug!r} must be lower-case letters, digits and '-'")
    if Event.objects.filter(slug=slug).exists():
        raise InvalidEventError(f"an event with the slug {slug!r} exists already")
    longest = Event._meta.get_field("name").max_length or 200
    return Event.objects.create(
        slug=slug, name=one_line(name)[:longest] or slug, timezone=timezone,
        start_date=start_date, end_date=end_date, location=location, default_language=codes[0],
        languages=", ".join(codes) if len(codes) > 1 else "",
    )  # fmt: skip
