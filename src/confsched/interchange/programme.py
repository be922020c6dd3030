"""The hub: a programme as plain data, what every parser returns and every renderer takes.

Datetimes are always timezone-aware. Rooms, tracks and levels are referred to by name;
speakers by their `key`, which is stable across imports of the same source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime


@dataclass(frozen=True)
class Speaker:
    key: str
    name: str
    company: str = ""
    position: str = ""
    bio: str = ""
    avatar_url: str = ""


@dataclass(frozen=True)
class SessionSpeaker:
    """A speaker on a session, with the affiliation the session was billed under."""

    speaker_key: str
    affiliation: str = ""


@dataclass(frozen=True)
class Session:
    key: str
    title: str
    kind: str = ""
    abstract: str = ""
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    room: str = ""
    track: str = ""
    level: str = ""
    has_slides: bool = False
    language: str = ""  # as the source writes it ("en", "English"); "" when unknown
    speakers: tuple[SessionSpeaker, ...] = ()
    is_cancelled: bool = False
    needs_review: bool = False
    review_note: str = ""
    # Set by snapshot() from the database, for writers (iCalendar SEQUENCE and LAST-MODIFIED);
    # parsers leave them alone and comparisons ignore them.
    sequence: int = field(default=0, compare=False)
    last_modified: datetime | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in ("starts_at", "ends_at"):
            value = getattr(self, name)
            if value is not None and value.utcoffset() is None:
                raise ValueError(f"session {self.key!r}: {name} must be timezone-aware")
        if self.starts_at and self.ends_at and self.ends_at < self.starts_at:
            raise ValueError(f"session {self.key!r}: ends before it starts")


@dataclass
class Programme:
    """One event's programme. `timezone` is an IANA name, or "" when the source gives none."""

    name: str = ""
    timezone: str = ""
    start_date: date | None = None
    end_date: date | None = None
    location: str = ""
    # Room names in the source's order (for grids and exports); rooms only named by sessions
    # come after, by name.
    rooms: list[str] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    speakers: list[Speaker] = field(default_factory=list)
    # Session fields the source format can say anything about ("speakers" and "affiliations"
    # included); None for all. A re-import leaves the fields it does not carry as they are.
    carries: frozenset[str] | None = None
    warnings: list[str] = field(default_factory=list)  # problems worth a person's look
    notes: list[str] = field(default_factory=list)  # what the reader inferred, for the log

    def speaker(self, key: str) -> Speaker:
        return next(speaker for speaker in self.speakers if speaker.key == key)

    def session(self, key: str) -> Session:
        return next(session for session in self.sessions if session.key == key)
