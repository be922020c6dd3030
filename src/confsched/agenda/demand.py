"""The demand for an event's sessions: their stars (accounts' and visitors') beside their
rooms and seats, and which sessions are likely to be full.

What the team's insight page charts (web/staff) and what the schedule and session pages mark
as "likely full" for everyone: one domain reading, so that no page asks another page's views.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Count

from confsched.agenda.models import VisitorStar
from confsched.programme.insight import SessionStars, likely_full_keys
from confsched.programme.models import Event, Session

# The public "likely full" mark may lag the stars by this long: one aggregate a minute per
# event, whatever the traffic on session pages.
LIKELY_FULL_SECONDS = 60


def session_stars(event: Event) -> list[SessionStars]:
    """Published, not cancelled sessions with their stars (accounts' and visitors'), two queries."""
    visitor_stars = dict(
        VisitorStar.objects.filter(session__event=event)
        .values_list("session_id")
        .annotate(total=Count("id"))
        .values_list("session_id", "total")
    )
    rows = (
        Session.objects.published()
        .filter(event=event, is_cancelled=False)
        .annotate(account_stars=Count("agenda_items"))
        .values_list("pk", "key", "title", "starts_at", "room__name", "room__capacity",
                     "account_stars", "seats")
    )  # fmt: skip
    return [
        SessionStars(
            pk=pk, key=key, title=title, starts_at=starts_at, room=room or "",
            capacity=capacity, stars=account + visitor_stars.get(pk, 0), seats=seats,
        )
        for pk, key, title, starts_at, room, capacity, account, seats in rows
    ]  # fmt: skip


def likely_full_session_keys(event: Event) -> frozenset[str]:
    """Keys of the event's likely-full sessions, kept a minute: session pages ask this often."""
    key = f"likely-full:{event.pk}:{event.attendees_per_star}"
    found = cache.get(key)
    if found is None:
        found = likely_full_keys(session_stars(event), attendees_per_star=event.attendees_per_star)
        cache.set(key, found, LIKELY_FULL_SECONDS)
    return frozenset(found)
