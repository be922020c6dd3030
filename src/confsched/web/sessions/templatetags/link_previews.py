"""Link previews: the Open Graph and Twitter card tags chat apps and social sites read.

Schedule, session and speaker pages are built once per schedule version and address (see
web/site/stencils.py), so nothing here depends on the person or the clock; times are in the
event's zone whatever zone the viewer reads the page in, since a preview is read by everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django import template
from django.urls import reverse
from django.utils import dateformat

from confsched.core import files
from confsched.core.timezones import format_offset
from confsched.programme.models import Event, Session, Speaker
from confsched.speakers.showing import SQUARE_SIZES, shown_photo
from confsched.web.sessions import og_image

register = template.Library()

SEPARATOR = " · "
PHOTO_SIZE = SQUARE_SIZES[-1]  # the largest square a photo has, and its JPEG's size


def event_dates(start: date | None, end: date | None) -> str:
    """'7 April 2026', '7–8 April 2026', '30 March – 2 April 2026', across years in full."""
    if start is None:
        return ""
    if end is None or end <= start:
        return dateformat.format(start, "j F Y")
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}–{dateformat.format(end, 'j F Y')}"
    if start.year == end.year:
        return f"{dateformat.format(start, 'j F')} – {dateformat.format(end, 'j F Y')}"
    return f"{dateformat.format(start, 'j F Y')} – {dateformat.format(end, 'j F Y')}"


def event_description(event: Event) -> str:
    """'Schedule · 7–8 April 2026 · Paris, France' (dates and place when known)."""
    parts = ["Schedule", event_dates(event.start_date, event.end_date), event.location]
    return SEPARATOR.join(part for part in parts if part)


def _zone_label(local: datetime) -> str:
    # 'CEST' where the zone has a name for it; 'UTC+03:00' where tzdata gives only '+03'.
    name = local.tzname() or ""
    return name if name.isalpha() else format_offset(local.utcoffset())


def session_when(session: Session, *, event: Event) -> str:
    """'Tuesday 7 April 2026, 11:00–11:25 CEST' in the event's zone; the end's day named when
    the session ends on another day; '' when it has no time."""
    if session.starts_at is None:
        return ""
    start = session.starts_at.astimezone(event.zone)
    text = dateformat.format(start, "l j F Y, H:i")
    if session.ends_at and session.ends_at != session.starts_at:
        end = session.ends_at.astimezone(event.zone)
        if end.date() == start.date():
            text += f"–{dateformat.format(end, 'H:i')}"
        else:
            text += f" – {dateformat.format(end, 'l j F, H:i')}"
    return f"{text} {_zone_label(start)}"


def session_description(session: Session, *, event: Event) -> str:
    """When (in the event's zone), where, and who: 'Tuesday 7 April 2026, 11:00–11:25 CEST ·
    Master Stage · Ada Lovelace (Analytical Engines), Charles Babbage'."""
    speakers = ", ".join(
        f"{link.speaker.name} ({link.company})" if link.company else link.speaker.name
        for link in session.speaker_links.all()
    )
    parts = [
        "Cancelled" if session.is_cancelled else "",
        session_when(session, event=event),
        session.room.name if session.room else "",
        speakers,
    ]
    return SEPARATOR.join(part for part in parts if part)


def speaker_description(speaker: Speaker, *, event: Event, session_count: int) -> str:
    """'Research Engineer, Meta · 2 sessions at PyTorch Conference Europe 2026'."""
    role = ", ".join(part for part in (speaker.position, speaker.company) if part)
    if session_count:
        sessions = f"{session_count} session{'s' if session_count != 1 else ''} at {event.name}"
    else:
        sessions = f"Speaker at {event.name}"
    return SEPARATOR.join(part for part in (role, sessions) if part)


def event_card(event: Event) -> og_image.Card:
    """The event's name, its dates and its place."""
    footer = SEPARATOR.join(
        part for part in (event_dates(event.start_date, event.end_date), event.location) if part
    )
    return og_image.Card(kicker="Schedule", title=event.name, footer=footer)


def session_card(session: Session, *, event: Event) -> og_image.Card:
    """The event's name, the session's title, its speakers, and when and where (in the event's
    zone, as the link preview's text)."""
    people = ", ".join(link.speaker.name for link in session.speaker_links.all())
    footer = SEPARATOR.join(
        part
        for part in (
            "Cancelled" if session.is_cancelled else "",
            session_when(session, event=event),
            session.room.name if session.room else "",
        )
        if part
    )
    return og_image.Card(kicker=event.name, title=session.full_title, people=people, footer=footer)


@dataclass(frozen=True)
class Image:
    """What og:image names: where, what type, how large; a generated card unless said."""

    address: str
    alt: str
    content_type: str = "image/png"
    width: int = og_image.WIDTH
    height: int = og_image.HEIGHT
    # X's card: a wide image shows large; a square photo shows as a summary's thumbnail.
    twitter_card: str = "summary_large_image"


def _tags(context: Any, *, kind: str, title: str, description: str, image: Image) -> dict[str, Any]:
    request = context.get("request")
    event: Event = context["event"]
    return {
        "og_type": kind,
        "title": title,
        "description": description,
        "site_name": event.name,
        # The address as asked: a filtered view previews as that view. Built per address, as
        # the page itself is.
        "url": request.build_absolute_uri() if request is not None else "",
        # A generated card (web/sessions/cards.py) or a speaker's photo; consumers want an
        # absolute address.
        "image": request.build_absolute_uri(image.address)
        if request is not None
        else image.address,
        "image_type": image.content_type,
        "image_width": image.width,
        "image_height": image.height,
        "image_alt": image.alt,
        "twitter_card": image.twitter_card,
    }


def _event_image(event: Event) -> Image:
    return Image(reverse("web:event_card", kwargs={"event": event.slug}), event_card(event).alt)


def speaker_image(speaker: Speaker, *, event: Event) -> Image:
    """The speaker's uploaded photo (its square JPEG, the file exports name), else the event's
    card: an imported picture's type and size are unknown."""
    photo = shown_photo(speaker)
    if photo is None:
        return _event_image(event)
    # The JPEG is the largest square (400 px; a small upload has none larger than itself).
    side = max((int(size) for size in photo.squares), default=PHOTO_SIZE)
    return Image(
        files.url(photo.jpeg), alt=speaker.name, content_type="image/jpeg",
        width=side, height=side, twitter_card="summary",
    )  # fmt: skip


@register.inclusion_tag("confsched/_link_preview.html", takes_context=True)
def event_link_preview(context: Any) -> dict[str, Any]:
    """The event-level tags every event page carries unless it names its own."""
    event: Event = context["event"]
    return _tags(
        context, kind="website", title=event.name, description=event_description(event),
        image=_event_image(event),
    )  # fmt: skip


@register.inclusion_tag("confsched/_link_preview.html", takes_context=True)
def session_link_preview(context: Any, session: Session) -> dict[str, Any]:
    event: Event = context["event"]
    image = reverse("web:session_card", kwargs={"event": event.slug, "key": session.key})
    return _tags(
        context,
        kind="website",
        title=session.full_title,
        description=session_description(session, event=event),
        image=Image(image, alt=session_card(session, event=event).alt),
    )


@register.inclusion_tag("confsched/_link_preview.html", takes_context=True)
def speaker_link_preview(
    context: Any, speaker: Speaker, sessions: Sequence[Session]
) -> dict[str, Any]:
    event: Event = context["event"]
    return _tags(
        context,
        kind="profile",
        title=speaker.name,
        description=speaker_description(speaker, event=event, session_count=len(sessions)),
        image=speaker_image(speaker, event=event),
    )
