"""Reads of the live state: each room full or open now, the team's current announcements, and
the stamps that name each (kept in the cache, so a page keyed by them costs no query to check)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.db.models import Q

from confsched.live.models import Announcement, is_full_at
from confsched.programme.models import Event, Room


@dataclass(frozen=True)
class RoomState:
    """A room as the pages and the apps see it at one moment."""

    name: str
    slug: str
    is_full: bool
    how: str  # "hand" or "checkins"; "" for a room nobody has marked yet
    changed_at: datetime | None


def stamp_key(event_id: int) -> str:
    return f"live:rooms:{event_id}"


def news_key(event_id: int) -> str:
    return f"live:news:{event_id}"


def states_stamp(event_id: int) -> str:
    """A name for the event's room states, new after every change (services.py sets it).

    Never a query: when the cache lost it, a new one is made, so that no page kept under an
    older stamp is taken for the current state."""
    return _stamp(stamp_key(event_id))


def news_stamp(event_id: int) -> str:
    """A name for the event's announcements, new after every one made or ended (services.py
    sets it); never a query, as `states_stamp`."""
    return _stamp(news_key(event_id))


def _stamp(key: str) -> str:
    stamp = cache.get(key)
    if stamp is None:
        cache.add(key, uuid.uuid4().hex, None)
        stamp = cache.get(key) or "lost"  # another process's, if it added first
    return str(stamp)


def room_states(event: Event, *, now: datetime) -> list[RoomState]:
    """Every room of the event in the schedule's order, full or open at `now`; one query."""
    rows = (
        Room.objects.filter(event=event)
        .order_by("position", "name")
        .values_list(
            "name", "slug", "live_status__is_full", "live_status__until",
            "live_status__how", "live_status__changed_at",
        )
    )  # fmt: skip
    return [
        RoomState(
            name=name,
            slug=slug,
            is_full=is_full_at(is_full, until, now),
            how=how or "",
            changed_at=changed_at,
        )
        for name, slug, is_full, until, how, changed_at in rows
    ]


@dataclass(frozen=True)
class News:
    """An announcement as the pages, the JSON and the feed show it: plain values."""

    pk: int
    texts: tuple[tuple[str, str], ...]  # (language, text), the default language first
    link: str
    created_at: datetime
    ends_at: datetime | None

    def text_in(self, language: str, *, default: str) -> str:
        """The text in `language`, else in the event's `default` language."""
        texts = dict(self.texts)
        return texts.get(language) or texts.get(default) or ""

    def is_current_at(self, moment: datetime) -> bool:
        return self.created_at <= moment and (self.ends_at is None or moment < self.ends_at)


# Per process: {event pk: (the stamp they were read under, the announcements not ended then)}.
# A stamp moves with every write, so a page of an event nobody announced at since costs no query.
_read: dict[int, tuple[str, tuple[News, ...]]] = {}


def as_news(row: Announcement) -> News:
    return News(
        pk=row.pk, texts=tuple(row.texts.items()), link=row.link, created_at=row.created_at,
        ends_at=row.ends_at,
    )  # fmt: skip


def current_announcements(event: Event, *, now: datetime) -> list[News]:
    """The announcements shown at `now`, newest first: one query per process after each
    write (or after the cache lost the stamp), none otherwise."""
    stamp = news_stamp(event.pk)
    kept = _read.get(event.pk)
    if kept is None or kept[0] != stamp:
        rows = (
            Announcement.objects.filter(event_id=event.pk)
            .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
            .order_by("-created_at", "-pk")
        )
        kept = (stamp, tuple(as_news(row) for row in rows))
        _read[event.pk] = kept
    return [news for news in kept[1] if news.is_current_at(now)]


def announcements_for_team(event: Event, *, limit: int = 50) -> list[Announcement]:
    """The event's announcements for its team's page, newest first, with who made and ended
    each; one query."""
    return list(
        Announcement.objects.filter(event=event)
        .select_related("created_by", "ended_by")
        .order_by("-created_at", "-pk")[:limit]
    )


def announcements_for_feed(event: Event, *, limit: int = 30) -> list[News]:
    """The event's latest announcements, ended ones too (a feed keeps what was said)."""
    rows = Announcement.objects.filter(event=event).order_by("-created_at", "-pk")[:limit]
    return [as_news(row) for row in rows]
