"""Reads for pages and the API. Each costs a fixed number of queries, whatever the event's size."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from django.db.models import Exists, F, OuterRef, Prefetch, QuerySet

from confsched.core.prepared import Prepared
from confsched.core.text import fold
from confsched.programme.models import (
    Change,
    Event,
    ScheduleVersion,
    Session,
    SessionSpeaker,
    Speaker,
    VersionSnapshot,
)
from confsched.programme.outlines import (  # noqa: F401 - pages read these through queries
    LAYOUT_COLUMNS,
    PHOTO,
    SCHEDULE_ORDER,
    SMALLEST_SQUARE,
    Outline,
    Outlined,
    outline_after,
    outlined,
    published_outline,
    sessions_touched,
)


def _with_details(
    sessions: QuerySet[Session], *, with_links: bool = False, with_texts: bool = True
) -> QuerySet[Session]:
    billing = SessionSpeaker.objects.select_related("speaker", f"speaker__{PHOTO}").order_by(
        "position", "pk"
    )
    if not with_texts:
        # Cards show neither abstracts nor bios: at 5,000 sessions and 7,000 speakers they
        # were most of what a page build held in memory.
        sessions = sessions.defer("abstract", "review_note")
        billing = billing.defer("speaker__bio")
    sessions = sessions.select_related("room", "track", "level").prefetch_related(
        Prefetch("speaker_links", queryset=billing)
    )
    # Only the pages that show links pay their query: lists show a "slides attached" tag.
    return sessions.prefetch_related("links") if with_links else sessions


def _attach(rows: list, event: Event) -> list:
    """Give rows their (already loaded) event, so building their URLs costs no query each."""
    for row in rows:
        row.event = event
    return rows


# Every page of an event looks it up by its address first: compiled once (core/prepared.py).
_EVENT_BY_SLUG = Prepared(Event, lambda slug: Event.objects.filter(slug=slug).order_by(), slug=str)


def event_for_slug(slug: str) -> Event | None:
    found = _EVENT_BY_SLUG.instances(slug=slug)
    return found[0] if found else None


def events_listed() -> list[Event]:
    # Newest first; events without dates last on every database (PostgreSQL sorts NULL first).
    return list(Event.objects.order_by(F("start_date").desc(nulls_last=True), "name"))


def published_sessions(
    event: Event, *, with_links: bool = False, with_texts: bool = True,
    starting: tuple[datetime, datetime] | None = None, pks: Collection[int] | None = None,
) -> list[Session]:  # fmt: skip
    """Every session attendees may see, in time order, with room, track, level and speakers
    (and their links when asked; without abstracts and bios when told; only those starting in
    [from, to) when `starting` is given; only those of `pks` when given)."""
    rows = Session.objects.filter(event=event).published()
    if starting is not None:
        rows = rows.filter(starts_at__gte=starting[0], starts_at__lt=starting[1])
    if pks is not None:
        rows = rows.filter(pk__in=pks)
    ordered = _with_details(rows, with_links=with_links, with_texts=with_texts).order_by(
        *SCHEDULE_ORDER
    )
    return _attach(_with_speaker_events(list(ordered), event), event)


def _with_speaker_events(sessions: list[Session], event: Event) -> list[Session]:
    for session in sessions:
        _attach([link.speaker for link in session.speaker_links.all()], event)
    return sessions


def session_for_key(event: Event, key: str) -> Session | None:
    """A published session with its room, track, level, speakers and links."""
    rows = list(
        _with_details(Session.objects.filter(event=event, key=key).published(), with_links=True)
    )
    return _attach(_with_speaker_events(rows, event), event)[0] if rows else None


def track_neighbours(
    outline: Sequence[Outline], session: Session, *, limit: int
) -> tuple[list[Outline], int]:
    """Up to `limit` other sessions of the session's track in the published `outline`, those
    starting next first (then the ones before it, the latest first), in time order; and how many
    there are in all. Read from the outline a process holds: no query."""
    if session.track_id is None:
        return [], 0
    others = [row for row in in_track(outline, session.track_id) if row.pk != session.pk]
    mark = (session.starts_at, session.title)
    after = sorted((row for row in others if (row.starts_at, row.title) > mark), key=_in_time)
    chosen = after[:limit]
    if len(chosen) < limit:
        before = sorted((row for row in others if (row.starts_at, row.title) <= mark), key=_in_time)
        chosen = before[max(0, len(before) - (limit - len(chosen))) :] + chosen
    return chosen, len(others)


def in_track(outline: Sequence[Outline], track: int) -> list[Outline]:
    """The sessions of the track with id `track` in the published `outline`."""
    return [row for row in outline if row.track is not None and row.track.id == track]


def _in_time(row: Outline) -> tuple[Any, ...]:
    return (row.starts_at, row.title, row.pk)


def outlines_in_order(outline: Sequence[Outline], pks: Sequence[int]) -> list[Outline]:
    """The sessions of `pks` in the published `outline`, in the order of `pks` (those not in
    it left out)."""
    wanted = set(pks)
    found = {row.pk: row for row in outline if row.pk in wanted}
    return [found[pk] for pk in pks if pk in found]


def _speakers_shown(event: Event) -> QuerySet[Speaker]:
    """The event's speakers attendees may read of: those billed on a published session. The
    one rule for the directory, a speaker's page and the API: a person billed only on sessions
    waiting for review or without a time is no one's to look up, by name or by key."""
    billed = Session.objects.filter(speakers=OuterRef("pk")).published()
    return Speaker.objects.filter(event=event).filter(Exists(billed))


def speakers_listed(event: Event, *, q: str = "") -> list[Speaker]:
    """Speakers of published sessions, by name, with their photos; with `q`, those whose name
    or company has a word starting with each of its words ("ada love" finds Ada Lovelace),
    accents and case ignored on every database."""
    people = list(_speakers_shown(event).select_related(PHOTO).order_by("name"))
    if words := fold(q).split():
        # In memory, as the schedule's search: an event has at most a few thousand speakers.
        patterns = [re.compile(rf"\b{re.escape(word)}") for word in words]
        people = [
            person
            for person in people
            if all(p.search(fold(f"{person.name} {person.company}")) for p in patterns)
        ]
    return _attach(people, event)


def speaker_for_key(event: Event, key: str) -> Speaker | None:
    """The speaker `key` (with their photo) when attendees may read of them (_speakers_shown),
    else None."""
    rows = list(_speakers_shown(event).filter(key=key).select_related(PHOTO))
    return _attach(rows, event)[0] if rows else None


def sessions_of_speaker(speaker: Speaker) -> list[Session]:
    rows = _with_details(Session.objects.filter(speakers=speaker).published()).order_by("starts_at")
    return _attach(list(rows), speaker.event)


def changes_in_order() -> QuerySet[Change]:
    """Changes with their sessions, in the programme's order: by time, then title."""
    # Sessions without a time last on every database (PostgreSQL sorts NULL first).
    return Change.objects.select_related("session__event").order_by(
        F("session__starts_at").asc(nulls_last=True), "session__title", "pk"
    )


def versions_with_changes(
    event: Event, *, limit: int = 50, number: int | None = None, with_changes: bool = True
) -> list[ScheduleVersion]:
    """The newest versions first (or only `number`), each with `has_programme` (whether its
    programme was kept, snapshots.py) and, unless told not to, its changes and their sessions."""
    chosen = ScheduleVersion.objects.filter(event=event).annotate(
        has_programme=Exists(VersionSnapshot.objects.filter(version=OuterRef("pk")))
    )
    if number is not None:
        chosen = chosen.filter(number=number)
    if with_changes:
        chosen = chosen.prefetch_related(Prefetch("changes", queryset=changes_in_order()))
    return list(chosen.order_by("-number")[:limit])


def version_for_number(
    event: Event, number: int, *, with_changes: bool = True
) -> ScheduleVersion | None:
    """The event's version `number`, as versions_with_changes gives it."""
    rows = versions_with_changes(event, limit=1, number=number, with_changes=with_changes)
    return rows[0] if rows else None


def neighbour_versions(version: ScheduleVersion) -> tuple[int | None, int | None]:
    """The numbers of the versions just before and just after `version`, if any."""
    numbers = ScheduleVersion.objects.filter(event_id=version.event_id)
    before = numbers.filter(number__lt=version.number).order_by("-number").first()
    after = numbers.filter(number__gt=version.number).order_by("number").first()
    return (before.number if before else None, after.number if after else None)
