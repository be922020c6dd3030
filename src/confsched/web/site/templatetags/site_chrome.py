"""What the site's frame shows around the events: the footer's project link, the events home
page's upcoming and past events, and the locked-out page in the event's frame."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import ngettext

from confsched.programme.models import Event

register = template.Library()


@register.simple_tag
def project_url() -> str:
    """The footer's link: CONFSCHED_PROJECT_URL, else this site's own about page."""
    return settings.CONFSCHED_PROJECT_URL or reverse("about")


@dataclass
class EventsByTime:
    upcoming: list[Event] = field(default_factory=list)
    past: list[Event] = field(default_factory=list)


def _last_day(event: Event) -> date | None:
    return event.end_date or event.start_date


def split_events(events: Iterable[Event], *, now: datetime) -> EventsByTime:
    """Upcoming events (those on now count) soonest first, then those without dates; past
    events most recent first. An event is past once its last day is over in its own zone."""
    found = EventsByTime()
    for event in events:
        last = _last_day(event)
        if last is not None and last < now.astimezone(event.zone).date():
            found.past.append(event)
        else:
            found.upcoming.append(event)
    found.upcoming.sort(key=lambda event: (event.start_date is None, event.start_date, event.name))
    found.past.sort(key=lambda event: (_last_day(event), event.name), reverse=True)
    return found


@register.simple_tag
def events_by_time(events: Iterable[Event]) -> EventsByTime:
    return split_events(events, now=timezone.now())


def _hours(number: int) -> str:
    return ngettext("%(count)d hour", "%(count)d hours", number) % {"count": number}


def _minutes(number: int) -> str:
    return ngettext("%(count)d minute", "%(count)d minutes", number) % {"count": number}


@register.filter
def duration(value: timedelta) -> str:
    """A wait as people say it: "15 minutes", "1 hour", "2 hours 30 minutes" (to the minute,
    at least one)."""
    hours, minutes = divmod(max(1, round(value.total_seconds() / 60)), 60)
    words = ([_hours(hours)] if hours else []) + ([_minutes(minutes)] if minutes else [])
    return " ".join(words)
