"""Reads for pages and the API. Each costs a fixed number of queries, whatever the event's size."""

from __future__ import annotations

from django.db.models import F, Prefetch, Q, QuerySet

from confsched.programme.models import (
    Change,
    Event,
    ScheduleVersion,
    Session,
    SessionSpeaker,
    Speaker,
)


def _with_details(sessions: QuerySet[Session]) -> QuerySet[Session]:
    return sessions.select_related("room", "track", "level").prefetch_related(
        Prefetch(
            "speaker_links",
            queryset=SessionSpeaker.objects.select_related("speaker").order_by("position"),
        )
    )


def _attach(rows: list, event: Event) -> list:
    """Give rows their (already loaded) event, so building their URLs costs no query each."""
    for row in rows:
        row.event = event
    return rows


def event_for_slug(slug: str) -> Event | None:
    return Event.objects.filter(slug=slug).first()


def events_listed() -> list[Event]:
    # Newest first; events without dates last on every database (PostgreSQL sorts NULL first).
    return list(Event.objects.order_by(F("start_date").desc(nulls_last=True), "name"))


def published_sessions(event: Event) -> list[Session]:
    """Every session attendees may see, in time order, with room, track, level and speakers."""
    rows = _with_details(Session.objects.filter(event=event).published()).order_by(
        "starts_at", "room__position", "room__name", "title"
    )
    return _attach(_with_speaker_events(list(rows), event), event)


def _with_speaker_events(sessions: list[Session], event: Event) -> list[Session]:
    for session in sessions:
        _attach([link.speaker for link in session.speaker_links.all()], event)
    return sessions


def session_for_key(event: Event, key: str) -> Session | None:
    rows = list(_with_details(Session.objects.filter(event=event, key=key).published()))
    return _attach(_with_speaker_events(rows, event), event)[0] if rows else None


def sessions_in_track(session: Session, *, limit: int) -> tuple[list[Session], int]:
    """Up to `limit` other published sessions of the session's track, those starting next
    first (then the ones before it, the latest first), and how many there are in all."""
    if session.track_id is None:
        return [], 0
    others = (
        Session.objects.filter(event_id=session.event_id, track_id=session.track_id)
        .published()
        .exclude(pk=session.pk)
    )
    after = others.filter(
        Q(starts_at__gt=session.starts_at) | Q(starts_at=session.starts_at, title__gt=session.title)
    )
    rows = list(_with_details(after).order_by("starts_at", "title")[:limit])
    if len(rows) < limit:
        before = others.exclude(pk__in=[row.pk for row in rows]).order_by("-starts_at", "-title")
        rows += reversed(list(_with_details(before)[: limit - len(rows)]))
        rows.sort(key=lambda row: (row.starts_at, row.title))
    return _attach(rows, session.event), others.count()


def speakers_listed(event: Event) -> list[Speaker]:
    """Speakers of published sessions, by name."""
    rows = (
        Speaker.objects.filter(
            event=event, sessions__needs_review=False, sessions__starts_at__isnull=False
        )
        .distinct()
        .order_by("name")
    )
    return _attach(list(rows), event)


def speaker_for_key(event: Event, key: str) -> Speaker | None:
    rows = list(Speaker.objects.filter(event=event, key=key))
    return _attach(rows, event)[0] if rows else None


def sessions_of_speaker(speaker: Speaker) -> list[Session]:
    rows = _with_details(Session.objects.filter(speakers=speaker).published()).order_by("starts_at")
    return _attach(list(rows), speaker.event)


def versions_with_changes(event: Event, *, limit: int = 50) -> list[ScheduleVersion]:
    """The newest versions first, each with its changes and their sessions."""
    return list(
        ScheduleVersion.objects.filter(event=event)
        .prefetch_related(
            Prefetch(
                "changes",
                # Sessions without a time last on every database (PostgreSQL sorts NULL first).
                queryset=Change.objects.select_related("session__event").order_by(
                    F("session__starts_at").asc(nulls_last=True), "session__title", "pk"
                ),
            )
        )
        .order_by("-number")[:limit]
    )
