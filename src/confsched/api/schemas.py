"""What the JSON API returns: plain shapes, times as ISO 8601 with the event's offset."""

from datetime import date, datetime

from ninja import Schema


class EventOut(Schema):
    slug: str
    name: str
    timezone: str
    start_date: date | None
    end_date: date | None
    location: str
    url: str


class FacetOut(Schema):
    slug: str
    name: str


class SessionSpeakerOut(Schema):
    key: str
    name: str
    company: str


class SessionLinkOut(Schema):
    kind: str  # "slides", "video" or "link"
    title: str  # "" when the source gives none
    url: str


class SessionOut(Schema):
    key: str
    title: str
    kind: str
    abstract: str
    starts_at: datetime | None
    ends_at: datetime | None
    room: FacetOut | None
    track: FacetOut | None
    level: FacetOut | None
    has_slides: bool
    language: str
    is_cancelled: bool
    speakers: list[SessionSpeakerOut]
    links: list[SessionLinkOut]
    url: str
    sequence: int
    updated_at: datetime
    # A number: attendees reserve one of that many seats; null: open entry.
    seats: int | None
    reservations_close_at: datetime | None


class ReservationOut(Schema):
    session: str
    status: str  # "confirmed" or "waitlisted"
    position: int  # place on the waitlist from 1; 0 when confirmed
    code: str | None  # the check-in code of a confirmed seat
    checked_in_at: datetime | None


class AgendaOut(Schema):
    starred: list[str]
    reservations: list[ReservationOut]
    reminder_minutes: int


class SpeakerOut(Schema):
    key: str
    name: str
    company: str
    position: str
    bio: str
    avatar_url: str
    homepage: str  # the speaker's own page, "" when none
    links: list[SessionLinkOut]  # their social and other pages, in their order
    url: str


class ChangeOut(Schema):
    version: int
    # The version's name when a release made it ("Final programme"); "" for other versions.
    version_name: str
    session_key: str
    session_title: str
    kind: str
    description: str
    created_at: datetime


class VersionOut(Schema):
    """One version: `created_at` is when it was released; who released it is for the team
    (the admin), not for this public API."""

    number: int
    # A release's name ("Final programme"); "" for a version an import or a sync made.
    name: str
    created_at: datetime
    # Its page: its programme by day and its changes (the exports as it served them are there).
    url: str
    source: str
    summary: str
    changes: list[ChangeOut]


class ErrorOut(Schema):
    """Every error the API answers (400, 404, 422): what was wrong and where, for a person."""

    detail: str


class IndexLinksOut(Schema):
    docs: str
    openapi: str
    events: str
    event: str
    sessions: str
    speakers: str
    rooms: str
    tracks: str
    levels: str
    versions: str
    changes: str


class IndexOut(Schema):
    name: str
    version: str
    confsched_version: str
    links: IndexLinksOut


class PlannedSessionOut(Schema):
    key: str
    title: str
    starts_at: datetime
    ends_at: datetime | None
    room: str | None  # the room's slug
    weight: int


class PlanOut(Schema):
    sessions: list[PlannedSessionOut]  # in time order, no two overlapping
    total: int
    walk_minutes: int
    must_clashes: list[tuple[str, str]]  # pairs of must-see keys that cannot both be seen
