"""The hub: a programme as plain data, what every parser returns and every renderer takes.

Datetimes are always timezone-aware. Rooms, tracks and levels are referred to by name;
speakers by their `key`, which is stable across imports of the same source. A session's links
(slides, recordings, other pages) are its own, in the source's order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime


@dataclass(frozen=True)
class SessionSpeaker:
    """A speaker on a session, with the affiliation the session was billed under."""

    speaker_key: str
    affiliation: str = ""


# What a session link is: its slides, a recording of it, or any other page about it.
SLIDES, VIDEO, LINK = "slides", "video", "link"
LINK_KINDS = (SLIDES, VIDEO, LINK)


@dataclass(frozen=True)
class SessionLink:
    """A page or file about a session. `title` is "" when the source gives none.

    `is_attachment`: a file the programme's own site holds (slides a speaker uploaded; what
    the frab family lists as an attachment), not a page elsewhere. Comparisons ignore it: the
    database keeps no such column (snapshot() tells it from the address, core/files.py) and
    formats without attachments cannot say it, so a round trip through them is still equal."""

    url: str
    title: str = ""
    kind: str = LINK  # one of LINK_KINDS
    is_attachment: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in LINK_KINDS:
            raise ValueError(f"link {self.url!r}: kind {self.kind!r} is not one of {LINK_KINDS}")


@dataclass(frozen=True)
class Speaker:
    key: str
    name: str
    company: str = ""
    position: str = ""
    bio: str = ""
    avatar_url: str = ""
    # The speaker's own pages: a homepage, and social or other links in their order (what a
    # speaker may set themselves; few formats carry them: "speaker.homepage", "speaker.links").
    homepage: str = ""
    links: tuple[SessionLink, ...] = ()
    # Set by snapshot(): a digest of the row the speaker was read from ("" otherwise), so that
    # what keeps writers' pieces need not digest the speaker's every field (interchange/pieces).
    fingerprint: str = field(default="", compare=False, repr=False)


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
    links: tuple[SessionLink, ...] = ()
    is_cancelled: bool = False
    needs_review: bool = False
    review_note: str = ""
    # Seats to reserve: a number means a reservation is required; None means open entry. Only
    # formats that say so (Programme.carries holds "seats") set it on import.
    seats: int | None = None
    # Fields the source says nothing about for this session although its format can (a Sched
    # listing filtered by type shows no level; a frab event without a <track> element): "not in
    # this file" is unknown, not empty, and a re-import leaves them as they are. Names as in
    # Programme.carries.
    unknown: frozenset[str] = field(default=frozenset(), compare=False)
    # Set by snapshot() from the database, for writers (iCalendar SEQUENCE and LAST-MODIFIED);
    # parsers leave them alone and comparisons ignore them.
    sequence: int = field(default=0, compare=False)
    last_modified: datetime | None = field(default=None, compare=False)
    # Set by snapshot(): a digest of the rows the session was read from and of the zone its
    # times are in ("" otherwise): it changes whenever any other field may (see Speaker's).
    fingerprint: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("starts_at", "ends_at"):
            value = getattr(self, name)
            if value is not None and value.utcoffset() is None:
                raise ValueError(f"session {self.key!r}: {name} must be timezone-aware")
        if self.starts_at and self.ends_at and self.ends_at < self.starts_at:
            raise ValueError(f"session {self.key!r}: ends before it starts")
        if self.seats is not None and self.seats < 0:
            raise ValueError(f"session {self.key!r}: {self.seats} seats")
        if not self.has_slides and any(link.kind == SLIDES for link in self.links):
            # A session with a slides link has slides, whatever flag the source also gives.
            object.__setattr__(self, "has_slides", True)


# Every name Programme.carries may hold: the session fields, "speakers", "affiliations",
# "links", and "speaker.X" for what a format says about people beyond their names.
EVERY_FIELD = frozenset(
    {"title", "kind", "abstract", "starts_at", "ends_at", "room", "track", "level"}
    | {"has_slides", "language", "is_cancelled", "needs_review", "review_note"}
    | {"speakers", "affiliations", "links"}
    | {"speaker.name", "speaker.company", "speaker.position", "speaker.bio", "speaker.avatar_url"}
)
# A speaker's own pages: no reader takes them yet (a format naming its fields without them
# leaves them alone); a programme that carries everything (None) or a draft's copy does.
SPEAKER_PAGES = frozenset({"speaker.homepage", "speaker.links"})


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
    # Seats per room name, for the rooms whose source says (c3voc rooms' `capacity`).
    room_capacities: dict[str, int] = field(default_factory=dict)
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
