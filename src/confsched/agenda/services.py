"""Writes for attendees: stars, merging a visitor's stars into their account, agenda links."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction

from confsched.agenda.models import AgendaItem, AgendaLinks, new_token
from confsched.programme.models import Event, Session


def session_fingerprint(session: Session) -> dict[str, str]:
    """What an attendee relies on: when, where and what. Compared later to tell what moved."""
    return {
        "starts_at": session.starts_at.isoformat() if session.starts_at else "",
        "ends_at": session.ends_at.isoformat() if session.ends_at else "",
        "room": session.room.name if session.room else "",
        "title": session.title,
    }


def star_session(user: User, session: Session) -> AgendaItem:
    """Star for the user; starring twice changes nothing."""
    item, _ = AgendaItem.objects.get_or_create(
        user=user, session=session, defaults={"seen": session_fingerprint(session)}
    )
    return item


def unstar_session(user: User, session: Session) -> None:
    AgendaItem.objects.filter(user=user, session=session).delete()


@transaction.atomic
def merge_stars(user: User, session_ids: Iterable[int]) -> int:
    """Add a visitor's stars to their account, none lost and none doubled; returns how many."""
    wanted = set(session_ids) - set(
        AgendaItem.objects.filter(user=user).values_list("session_id", flat=True)
    )
    sessions = Session.objects.filter(pk__in=wanted).select_related("room")
    AgendaItem.objects.bulk_create(
        [AgendaItem(user=user, session=s, seen=session_fingerprint(s)) for s in sessions],
        ignore_conflicts=True,  # a star made meanwhile in another tab is the same star
    )
    return len(sessions)


def agenda_links(user: User, event: Event) -> AgendaLinks:
    links, _ = AgendaLinks.objects.get_or_create(user=user, event=event)
    return links


def reset_feed_token(user: User, event: Event) -> AgendaLinks:
    """A new secret feed URL; the old one stops working at once."""
    links = agenda_links(user, event)
    links.feed_token = new_token()
    links.save(update_fields=["feed_token"])
    return links


@transaction.atomic
def set_sharing(
    user: User, event: Event, *, is_on: bool, display_name: str | None = None
) -> AgendaLinks:
    """Turn the read-only public link on (a fresh one; one that is on stays as it is: a form
    sent twice, or sent again after its answer was lost, gives one link) or off (the old link
    dies).

    `display_name` (when given) is the name the shared page shows, kept as the account's first
    name; empty shows no name. The username is never shown: it is half of a log-in.
    """
    links = agenda_links(user, event)
    if not (is_on and links.share_token):
        links.share_token = new_token() if is_on else None
        links.save(update_fields=["share_token"])
    if display_name is not None:
        user.first_name = clean_display_name(display_name)
        user.save(update_fields=["first_name"])
    return links


def clean_display_name(text: str) -> str:
    """One line of at most User.first_name's length, spaces collapsed."""
    limit = User._meta.get_field("first_name").max_length or 150
    return " ".join(text.split())[:limit]
