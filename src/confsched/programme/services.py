"""Writes: the one door into the database (`load_programme`) and the one door out (`snapshot`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from itertools import count
from typing import TypeVar

from django.db import transaction

from confsched.core.errors import InvalidEventError
from confsched.core.text import slugify
from confsched.core.timezones import format_offset, get_zone
from confsched.interchange import programme as pm
from confsched.programme.models import (
    Event,
    Facet,
    Level,
    Room,
    Session,
    SessionSpeaker,
    Speaker,
    Track,
)

FacetT = TypeVar("FacetT", bound=Facet)

SESSION_FIELDS = (
    "title", "kind", "abstract", "starts_at", "ends_at", "room", "track", "level",
    "has_slides", "language", "is_cancelled", "needs_review", "review_note",
)  # fmt: skip
SPEAKER_FIELDS = ("name", "company", "position", "bio", "avatar_url")
# First path segments the site uses itself: an event there could never be reached.
RESERVED_SLUGS = frozenset({"admin", "accounts", "api", "static", "media"})


@dataclass
class LoadReport:
    """What one load did, for the person who ran it."""

    created: list[str] = field(default_factory=list)
    updated: list[tuple[str, list[str]]] = field(default_factory=list)
    unchanged: int = 0
    flagged: list[tuple[str, str]] = field(default_factory=list)
    speakers_created: int = 0
    speakers_updated: int = 0
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def has_changes(self) -> bool:
        return bool(self.created or self.updated or self.speakers_created or self.speakers_updated)


def create_event(
    *, slug: str, name: str, timezone: str, start_date: date | None = None,
    end_date: date | None = None, location: str = "",
) -> Event:  # fmt: skip
    """A new event; InvalidEventError when the slug is taken or the zone is not an IANA name."""
    get_zone(timezone)
    if slug in RESERVED_SLUGS:
        raise InvalidEventError(f"event slug {slug!r} is reserved for the site's own pages")
    if slugify(slug) != slug:
        raise InvalidEventError(f"event slug {slug!r} must be lower-case letters, digits and '-'")
    if Event.objects.filter(slug=slug).exists():
        raise InvalidEventError(f"an event with the slug {slug!r} exists already")
    return Event.objects.create(
        slug=slug, name=name or slug, timezone=timezone, start_date=start_date,
        end_date=end_date, location=location,
    )  # fmt: skip


def _facets(
    model: type[FacetT], event: Event, names: list[str], *, order: list[str] | None = None
) -> dict[str, FacetT]:
    """Rows for every name, creating the missing ones with unique slugs after the existing ones.

    New names come in `order` first (the source's own order), then by name.
    """
    rows = {row.name: row for row in model.objects.filter(event=event)}
    slugs = {row.slug for row in rows.values()}
    positions = count(max((row.position for row in rows.values()), default=-1) + 1)
    missing = set(names) - set(rows) - {""}
    ordered = [name for name in dict.fromkeys(order or []) if name in missing]
    for name in ordered + sorted(missing - set(ordered)):
        slug = base = slugify(name)
        for suffix in count(2):
            if slug not in slugs:
                break
            slug = f"{base}-{suffix}"
        slugs.add(slug)
        rows[name] = model.objects.create(
            event=event, name=name, slug=slug, position=next(positions)
        )
    return rows


def _offset_warnings(event: Event, programme: pm.Programme) -> list[str]:
    """Times written at an offset the event's zone does not have then point at a wrong zone."""
    zone = event.zone
    seen: set[tuple[str, str]] = set()
    for session in programme.sessions:
        if session.starts_at is None:
            continue
        written = session.starts_at.utcoffset()
        expected = session.starts_at.astimezone(zone).utcoffset()
        if written != expected:
            seen.add((format_offset(written), format_offset(expected)))
    return [
        f"the source writes times at {written} but {event.timezone} is at {expected} then; "
        "times are stored as written: check the event's time zone"
        for written, expected in sorted(seen)
    ]


@transaction.atomic
def load_programme(event: Event, programme: pm.Programme) -> LoadReport:
    """Bring the event in line with `programme`: create, update, never duplicate (keys decide)."""
    report = LoadReport(
        warnings=[*programme.warnings, *_offset_warnings(event, programme)],
        notes=list(programme.notes),
    )
    event_changes = {
        "start_date": programme.start_date or event.start_date,
        "end_date": programme.end_date or event.end_date,
        "location": programme.location or event.location,
    }
    if any(getattr(event, name) != value for name, value in event_changes.items()):
        for name, value in event_changes.items():
            setattr(event, name, value)
        event.save()
    rooms = _facets(Room, event, [s.room for s in programme.sessions], order=programme.rooms)
    tracks = _facets(Track, event, [s.track for s in programme.sessions])
    levels = _facets(Level, event, [s.level for s in programme.sessions])

    speakers = {row.key: row for row in Speaker.objects.filter(event=event)}
    for incoming in programme.speakers:
        values = {name: getattr(incoming, name) for name in SPEAKER_FIELDS}
        row = speakers.get(incoming.key)
        if row is None:
            speakers[incoming.key] = Speaker.objects.create(event=event, key=incoming.key, **values)
            report.speakers_created += 1
        elif changed := [name for name, value in values.items() if getattr(row, name) != value]:
            for name in changed:
                setattr(row, name, values[name])
            row.save(update_fields=changed)
            report.speakers_updated += 1

    sessions = {
        row.key: row
        for row in Session.objects.filter(event=event).prefetch_related("speaker_links")
    }
    for incoming in programme.sessions:
        values = {
            "title": incoming.title,
            "kind": incoming.kind,
            "abstract": incoming.abstract,
            "starts_at": incoming.starts_at,
            "ends_at": incoming.ends_at,
            "room": rooms.get(incoming.room),
            "track": tracks.get(incoming.track),
            "level": levels.get(incoming.level),
            "has_slides": incoming.has_slides,
            "language": incoming.language,
            "is_cancelled": incoming.is_cancelled,
            "needs_review": incoming.needs_review,
            "review_note": incoming.review_note,
        }
        links = [(speakers[link.speaker_key].pk, link.affiliation) for link in incoming.speakers]
        row = sessions.get(incoming.key)
        if row is None:
            row = Session.objects.create(event=event, key=incoming.key, **values)
            _set_links(row, links)
            report.created.append(row.full_title)
        else:
            changed = [name for name in SESSION_FIELDS if getattr(row, name) != values[name]]
            current = [(link.speaker_id, link.affiliation) for link in row.speaker_links.all()]
            if current != links:
                _set_links(row, links)
            if changed or current != links:
                for name in changed:
                    setattr(row, name, values[name])
                row.sequence += 1
                row.save(update_fields=[*changed, "sequence", "updated_at"])
            if current != links:
                changed.append("speakers")
            if changed:
                report.updated.append((row.full_title, changed))
            else:
                report.unchanged += 1
        if incoming.needs_review:
            report.flagged.append((row.full_title, incoming.review_note))
    if report.has_changes:
        event.save(update_fields=["updated_at"])
    return report


def _set_links(session: Session, links: list[tuple[int, str]]) -> None:
    SessionSpeaker.objects.filter(session=session).delete()
    SessionSpeaker.objects.bulk_create(
        SessionSpeaker(
            session=session, speaker_id=speaker_id, position=index, affiliation=affiliation
        )
        for index, (speaker_id, affiliation) in enumerate(links)
    )


def snapshot(event: Event) -> pm.Programme:
    """The event as a Programme, for every renderer; times in the event's zone."""
    zone = event.zone
    rows = (
        Session.objects.filter(event=event)
        .select_related("room", "track", "level")
        .prefetch_related("speaker_links__speaker")
        .order_by("starts_at", "key")
    )
    sessions = [
        pm.Session(
            key=row.key,
            title=row.title,
            kind=row.kind,
            abstract=row.abstract,
            starts_at=row.starts_at.astimezone(zone) if row.starts_at else None,
            ends_at=row.ends_at.astimezone(zone) if row.ends_at else None,
            room=row.room.name if row.room else "",
            track=row.track.name if row.track else "",
            level=row.level.name if row.level else "",
            has_slides=row.has_slides,
            language=row.language,
            is_cancelled=row.is_cancelled,
            speakers=tuple(
                pm.SessionSpeaker(speaker_key=link.speaker.key, affiliation=link.affiliation)
                for link in row.speaker_links.all()
            ),
            needs_review=row.needs_review,
            review_note=row.review_note,
            sequence=row.sequence,
            last_modified=row.updated_at,
        )
        for row in rows
    ]
    speakers = [
        pm.Speaker(
            key=row.key,
            name=row.name,
            company=row.company,
            position=row.position,
            bio=row.bio,
            avatar_url=row.avatar_url,
        )  # fmt: skip
        for row in Speaker.objects.filter(event=event).order_by("key")
    ]
    return pm.Programme(
        name=event.name, timezone=event.timezone, start_date=event.start_date,
        end_date=event.end_date, location=event.location, sessions=sessions, speakers=speakers,
        rooms=list(Room.objects.filter(event=event).values_list("name", flat=True)),
    )  # fmt: skip
