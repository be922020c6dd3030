"""Reads for agendas. Each costs a fixed number of queries."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Count

from confsched.agenda.models import AgendaItem, AgendaLinks, Reservation
from confsched.agenda.reminders import reminder_setting
from confsched.agenda.reservations import position
from confsched.core.prepared import Prepared
from confsched.interchange.ical.write import Personal
from confsched.programme.models import Event, Session
from confsched.programme.queries import Outline, published_outline, published_sessions

# Every signed-in page of an event reads the person's stars: compiled once.
_STARRED = Prepared(
    AgendaItem,
    lambda user, event: (
        AgendaItem.objects.filter(user_id=user, session__event_id=event)
        .order_by()
        .values_list("session_id")
    ),
    user=int,
    event=int,
)


def starred_ids(user: User, event: Event) -> set[int]:
    return {session_id for (session_id,) in _STARRED.rows(user=user.pk, event=event.pk)}


def agenda_sessions(event: Event, session_ids: set[int]) -> list[Session]:
    """The starred sessions among the published ones, in time order, without abstracts and
    bios: only those are read (reading the whole programme to keep 20 of 5,000 cost half a
    second a page)."""
    if not session_ids:
        return []
    return published_sessions(event, pks=session_ids, with_texts=False)


def agenda_outline(event: Event, session_ids: set[int]) -> list[Outline]:
    """The same as outlines (what the agenda page lays out; each card is kept whole), in two
    queries."""
    return published_outline(event, pks=session_ids) if session_ids else []


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


def reserved_ids(user: User, event: Event) -> set[int]:
    """Sessions the person holds a seat in or waits for."""
    return set(
        Reservation.objects.filter(user=user, session__event=event).values_list(
            "session_id", flat=True
        )
    )


def personal_calendar(user: User, event: Event, session_ids: set[int]) -> dict[str, Personal]:
    """By session key, what the person's private feed adds: the seat's status and check-in
    code or the place on the waitlist, and the reminder they chose. Bounded: three queries,
    plus one per waitlisted session."""
    minutes = reminder_setting(user, event).minutes
    held = {
        row.session_id: row for row in Reservation.objects.filter(user=user, session__event=event)
    }
    entries = {}
    for pk, key in Session.objects.filter(pk__in=session_ids | held.keys()).values_list(
        "pk", "key"
    ):
        row = held.get(pk)
        if row is None:
            if minutes:
                entries[key] = Personal(alarm_minutes=minutes)
        elif row.is_confirmed:
            entries[key] = Personal(
                status="CONFIRMED",
                note=f"Your seat is reserved. Check-in code: {row.code}",
                alarm_minutes=minutes,
            )
        else:
            entries[key] = Personal(
                status="TENTATIVE",
                note=f"On the waitlist: number {position(row)}. A freed seat goes to the first "
                "on the waitlist, with a mail.",
                alarm_minutes=minutes,
            )
    return entries
