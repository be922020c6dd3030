"""Reads for agendas. Each costs a fixed number of queries."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Count

from confsched.agenda.models import AgendaItem, AgendaLinks
from confsched.programme.models import Event, Session
from confsched.programme.queries import published_sessions


def starred_ids(user: User, event: Event) -> set[int]:
    return set(
        AgendaItem.objects.filter(user=user, session__event=event).values_list(
            "session_id", flat=True
        )
    )


def agenda_sessions(event: Event, session_ids: set[int]) -> list[Session]:
    """The starred sessions among the published ones, in time order, fully loaded."""
    return [session for session in published_sessions(event) if session.pk in session_ids]


def agenda_items(user: User, event: Event) -> dict[int, AgendaItem]:
    return {
        item.session_id: item for item in AgendaItem.objects.filter(user=user, session__event=event)
    }


def links_for_feed(event: Event, token: str) -> AgendaLinks | None:
    return AgendaLinks.objects.filter(event=event, feed_token=token).select_related("user").first()


def links_for_share(event: Event, token: str) -> AgendaLinks | None:
    return AgendaLinks.objects.filter(event=event, share_token=token).select_related("user").first()


def star_counts(event: Event) -> list[tuple[Session, int]]:
    """Sessions by how many attendees starred them, for sizing rooms; no names."""
    rows = (
        Session.objects.filter(event=event)
        .annotate(stars=Count("agenda_items"))
        .select_related("room")
        .order_by("-stars", "starts_at")
    )
    return [(row, row.stars) for row in rows]
