"""Writes: the one door into the database (`load_programme`) and the one door out (`snapshot`)."""

from __future__ import annotations

import hashlib
import inspect
import re
import uuid
import zoneinfo
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from itertools import count
from typing import Any, TypeVar
from urllib.parse import urlsplit

from django.db import connection, models, transaction

from confsched.core.errors import InvalidEventError, InvalidProgrammeError
from confsched.core.text import fold, slugify
from confsched.core.timezones import format_offset, get_zone
from confsched.interchange import programme as pm
from confsched.programme.changes import DETAILS, describe_changes
from confsched.programme.models import (
    Change,
    ChangeKind,
    Event,
    Facet,
    Level,
    LinkKind,
    Room,
    ScheduleVersion,
    Session,
    SessionLink,
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
RESERVED_SLUGS = frozenset({"admin", "accounts", "api", "static", "media", "about"})


@dataclass
class LoadReport:
    """What one load did, for the person who ran it."""

    created: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    updated: list[tuple[str, list[str]]] = field(default_factory=list)
    unchanged: int = 0
    flagged: list[tuple[str, str]] = field(default_factory=list)
    speakers_created: int = 0
    speakers_updated: int = 0
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    version: ScheduleVersion | None = None

    @property
    def has_changes(self) -> bool:
        return bool(
            self.created or self.updated or self.cancelled or self.speakers_created
            or self.speakers_updated
        )  # fmt: skip


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
    rows = {row.name: row for row in model._default_manager.filter(event=event)}
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
        rows[name] = model._default_manager.create(
            event=event, name=name, slug=slug, position=next(positions)
        )
    return rows


def _set_capacities(rooms: dict[str, Room], capacities: dict[str, int]) -> None:
    """The seats the source gives; a room it says nothing about keeps the organizer's figure."""
    for name, seats in capacities.items():
        room = rooms.get(name)
        if room is not None and room.capacity != seats:
            room.capacity = seats
            room.save(update_fields=["capacity"])


def _offset_warnings(event: Event, programme: pm.Programme) -> list[str]:
    """Times written at an offset the event's zone does not have then point at a wrong zone."""
    zone = event.zone
    seen: set[tuple[str, str]] = set()
    for session in programme.sessions:
        if session.starts_at is None:
            continue
        written = session.starts_at.utcoffset()
        expected = session.starts_at.astimezone(zone).utcoffset()
        # UTC is a zone-neutral way to write any time (xCal, iCalendar "Z"): nothing to doubt.
        if written != expected and written:
            seen.add((format_offset(written), format_offset(expected)))
    return [
        f"the source writes times at {written} but {event.timezone} is at {expected} then; "
        "times are stored as written: check the event's time zone"
        for written, expected in sorted(seen)
    ]


def _facts(
    row: Session, speaker_names: list[str], links: tuple[pm.SessionLink, ...]
) -> dict[str, Any]:
    return {
        "title": row.title,
        "kind": row.kind,
        "abstract": row.abstract,
        "starts_at": row.starts_at,
        "ends_at": row.ends_at,
        "room": row.room.name if row.room else "",
        "track": row.track.name if row.track else "",
        "level": row.level.name if row.level else "",
        "has_slides": row.has_slides,
        "language": row.language,
        "is_cancelled": row.is_cancelled,
        "speakers": speaker_names,
        "links": links,
    }


def _describe(
    before: dict[str, Any], after: dict[str, Any], *, zone: zoneinfo.ZoneInfo
) -> list[tuple[str, str]]:
    """describe_changes, and "links" among the details when the session's links changed."""
    found = describe_changes(before, after, zone=zone)
    if before["links"] == after["links"]:
        return found
    for index, (kind, words) in enumerate(found):
        if kind == DETAILS:  # "slides attached" -> "slides attached; links changed"
            found[index] = (kind, words + "; links changed")
            return found
    return [*found, (DETAILS, "links changed")]


KEY_MAX_LENGTH = 200


def safe_key(key: str) -> str:
    """A key that fits a URL segment and the key column; others get a stable, readable stand-in.

    Sources use UIDs such as "12@pretalx.example/abc" or 300-character ids; the same key
    always gives the same stand-in, so identity across imports is kept.
    """
    if key and len(key) <= KEY_MAX_LENGTH and "/" not in key and key.strip() == key:
        return key
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return f"{slugify(key, max_length=100)}-{digest}"


def _with_safe_keys(programme: pm.Programme) -> pm.Programme:
    speaker_keys = {speaker.key: safe_key(speaker.key) for speaker in programme.speakers}
    if all(k == v for k, v in speaker_keys.items()) and all(
        safe_key(s.key) == s.key for s in programme.sessions
    ):
        return programme
    return replace(
        programme,
        speakers=[replace(sp, key=speaker_keys[sp.key]) for sp in programme.speakers],
        sessions=[
            replace(
                session,
                key=safe_key(session.key),
                speakers=tuple(
                    replace(
                        link,
                        speaker_key=speaker_keys.get(link.speaker_key, safe_key(link.speaker_key)),
                    )
                    for link in session.speakers
                ),
            )
            for session in programme.sessions
        ],
    )


# Times outside these years are mistakes in a schedule, and near year 1 or 9999 a zone's offset
# overflows Python's datetime on every page that shows them.
EARLIEST_YEAR, LATEST_YEAR = 1900, 2999
_WEB_ADDRESS = re.compile(r"https?://[^\s/]", re.IGNORECASE)
# C0 controls other than tab, line feed and carriage return: PostgreSQL refuses NUL in text, XML
# refuses them all. Lone surrogates (from JSON "\\ud800") cannot be written as UTF-8.
_UNWRITABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
# Characters that show nothing but make equal names differ: a second byte-order mark, a zero-width
# space pasted before a speaker's name, a word joiner. Removed from keys and one-line texts; at
# the ends of abstracts and bios.
_INVISIBLE = "\ufeff\u200b\u2060\u180e"
_INVISIBLES = re.compile(f"[{_INVISIBLE}]")
# A title, name or facet is one line: a break in it (CSV cells may hold them) ends mail subjects
# and calendar summaries early, or breaks them.
_LINE_BREAKS = re.compile(r"[ \t]*[\r\n\u2028\u2029\x85]+[ \t]*")


def _limit(model: type[models.Model], name: str) -> int | None:
    return model._meta.get_field(name).max_length  # type: ignore[union-attr]


@dataclass
class _Cleaner:
    """Fits one programme's texts to the database, counting what it had to change."""

    replaced: Counter[str] = field(default_factory=Counter)
    joined: Counter[str] = field(default_factory=Counter)
    shortened: dict[str, str] = field(default_factory=dict)  # "what" -> first example
    dropped: dict[str, str] = field(default_factory=dict)  # "what" -> first example

    def text(
        self, value: str, *, what: str, max_length: int | None = None, is_line: bool = True
    ) -> str:
        """`value` fit for its column: one line unless `is_line` is False (abstracts, bios)."""
        cleaned = _UNWRITABLE.sub("\ufffd", value)
        if cleaned != value:
            self.replaced[what] += 1
        if is_line:
            cleaned = _INVISIBLES.sub("", cleaned)
            if (one_line := _LINE_BREAKS.sub(" ", cleaned)) != cleaned:
                self.joined[what] += 1
                cleaned = one_line.strip()
        else:
            cleaned = cleaned.strip(_INVISIBLE)
        if max_length is not None and len(cleaned) > max_length:
            self.shortened.setdefault(what, cleaned[:40])
            cleaned = cleaned[: max_length - 1].rstrip() + "…"
        return cleaned

    def warnings(self) -> list[str]:
        found = [
            f"{count} {what} held control characters or broken Unicode, replaced by �"
            for what, count in sorted(self.replaced.items())
        ]
        found += [
            f"{count} {what} held line breaks, joined into one line"
            for what, count in sorted(self.joined.items())
        ]
        found += [
            f"a {what} was longer than the database keeps and was shortened (e.g. “{start}…”)"
            for what, start in sorted(self.shortened.items())
        ]
        found += [
            f"a {what} was left out (e.g. “{example[:40]}{'…' if len(example) > 40 else ''}”)"
            for what, example in sorted(self.dropped.items())
        ]
        return found


def _checked_time(value: datetime | None, *, session: str, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        stored = value.astimezone(UTC)
    except OverflowError:
        stored = None
    if stored is None or not EARLIEST_YEAR <= stored.year <= LATEST_YEAR:
        raise InvalidProgrammeError(
            f"session {session!r}: {name} {value.isoformat()} is not a time between the years "
            f"{EARLIEST_YEAR} and {LATEST_YEAR}; nothing was imported"
        )
    return stored


def _checked_links(
    links: tuple[pm.SessionLink, ...], clean: _Cleaner
) -> tuple[pm.SessionLink, ...]:
    """Links fit for the table: web addresses only, each once, titles cut to their column."""
    kept: dict[str, pm.SessionLink] = {}
    for link in links:
        url = clean.text(link.url.strip(), what="session link address")
        if not _is_web_address(url):
            # Pages link to it: javascript:, data:, relative and broken addresses never get there.
            clean.dropped.setdefault("session link that is not an http(s) URL", url)
            continue
        if len(url) > (_limit(SessionLink, "url") or 0):
            clean.dropped.setdefault("session link address too long to keep", url)
            continue
        title = clean.text(link.title, what="link title", max_length=_limit(SessionLink, "title"))
        kept.setdefault(url, replace(link, url=url, title=title))
    return tuple(kept.values())


def _is_web_address(url: str) -> bool:
    if not _WEB_ADDRESS.match(url) or any(character.isspace() for character in url):
        return False
    try:
        urlsplit(url)
    except ValueError:  # "http://[": a bracketed host left open
        return False
    return True


def _once_each(links: list[pm.SessionSpeaker], clean: _Cleaner) -> tuple[pm.SessionSpeaker, ...]:
    """A session's speakers, each once (the first mention): two spellings of one name that
    differ only by an invisible character are one person."""
    kept: dict[str, pm.SessionSpeaker] = {}
    for link in links:
        if link.speaker_key in kept:
            clean.dropped.setdefault("second mention of a speaker on one session", link.speaker_key)
        kept.setdefault(link.speaker_key, link)
    return tuple(kept.values())


def _first_of_each_key(speakers: list[pm.Speaker]) -> list[pm.Speaker]:
    """One person per key, as the file first gives them (keys may meet once cleaned)."""
    kept: dict[str, pm.Speaker] = {}
    for person in speakers:
        kept.setdefault(person.key, person)
    return list(kept.values())


def validate_programme(programme: pm.Programme) -> pm.Programme:
    """The programme made fit for the database, or InvalidProgrammeError naming the session.

    Every database sees the same values: texts lose the characters PostgreSQL or XML refuse and
    are shortened to their columns (each with a warning), times are converted to UTC (an offset
    such as -23:59 is fine there) and must lie between the years 1900 and 2999. Keys longer than
    their column are handled by safe_key. Picture and link addresses that are not http(s) URLs,
    or longer than their column, are left out with a warning; a session's links keep the first
    of each address.
    """
    clean = _Cleaner()

    def facet(name: str, what: str) -> str:
        return clean.text(name, what=what, max_length=_limit(Room, "name"))

    speakers = []
    for person in programme.speakers:
        avatar = clean.text(person.avatar_url, what="speaker picture address")
        if avatar and not _WEB_ADDRESS.match(avatar):
            # Pages and exports link to it: javascript:, data: and the like never get there.
            clean.dropped.setdefault("speaker picture address that is not an http(s) URL", avatar)
            avatar = ""
        if len(avatar) > (_limit(Speaker, "avatar_url") or 0):
            clean.dropped.setdefault("speaker picture address too long to keep", avatar)
            avatar = ""
        speakers.append(
            replace(
                person,
                key=clean.text(person.key, what="speaker key"),
                avatar_url=avatar,
                bio=clean.text(person.bio, what="speaker bio", is_line=False),
                **{
                    name: clean.text(
                        getattr(person, name),
                        what=f"speaker {name}",
                        max_length=_limit(Speaker, name),
                    )  # fmt: skip
                    for name in ("name", "company", "position")
                },
            )
        )
    sessions = []
    for session in programme.sessions:
        sessions.append(
            replace(
                session,
                key=clean.text(session.key, what="session key"),
                title=clean.text(session.title, what="title", max_length=_limit(Session, "title")),
                kind=clean.text(session.kind, what="type", max_length=_limit(Session, "kind")),
                language=clean.text(
                    session.language, what="language", max_length=_limit(Session, "language")
                ),
                abstract=clean.text(session.abstract, what="abstract", is_line=False),
                review_note=clean.text(session.review_note, what="review note", is_line=False),
                room=facet(session.room, "room name"),
                track=facet(session.track, "track name"),
                level=facet(session.level, "level name"),
                starts_at=_checked_time(session.starts_at, session=session.key, name="start"),
                ends_at=_checked_time(session.ends_at, session=session.key, name="end"),
                links=_checked_links(session.links, clean),
                speakers=_once_each(
                    [
                        replace(
                            link,
                            speaker_key=clean.text(link.speaker_key, what="speaker key"),
                            affiliation=clean.text(
                                link.affiliation,
                                what="affiliation",
                                max_length=_limit(SessionSpeaker, "affiliation"),
                            ),  # fmt: skip
                        )
                        for link in session.speakers
                    ],
                    clean,
                ),
            )
        )
    cleaned = replace(
        programme,
        name=clean.text(programme.name, what="event name", max_length=_limit(Event, "name")),
        location=clean.text(
            programme.location, what="event location", max_length=_limit(Event, "location")
        ),
        rooms=[facet(room, "room name") for room in programme.rooms],
        sessions=sessions,
        speakers=_first_of_each_key(speakers),
    )
    cleaned.warnings = [*programme.warnings, *clean.warnings()]
    return cleaned


def export_guid(slug: str, key: str) -> uuid.UUID:
    """The UUID confsched's frab and c3voc writers give a session whose key is not a UUID."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{slug}:{key}")


def _own_keys(event: Event, programme: pm.Programme) -> pm.Programme:
    """Our own schedule.xml/json read back: their uuid5 guids and integer person ids mean the
    event's own session and speaker keys, not new ones."""
    from confsched.interchange.frab.write import export_number

    sessions = {
        str(export_guid(event.slug, key)): key
        for key in Session.objects.filter(event=event).values_list("key", flat=True)
    }
    people = {
        str(export_number(key)): key
        for key in Speaker.objects.filter(event=event).values_list("key", flat=True)
    }
    people.update({str(export_guid(event.slug, key)): key for key in people.values()})
    if not any(s.key in sessions for s in programme.sessions) and not any(
        p.key in people for p in programme.speakers
    ):
        return programme
    return replace(
        programme,
        speakers=[replace(p, key=people.get(p.key, p.key)) for p in programme.speakers],
        sessions=[
            replace(
                s,
                key=sessions.get(s.key, s.key),
                speakers=tuple(
                    replace(link, speaker_key=people.get(link.speaker_key, link.speaker_key))
                    for link in s.speakers
                ),
            )
            for s in programme.sessions
        ],
    )


# A file that names the sessions an event has under other keys (a CSV saved without its `key`
# column, a feed whose UIDs changed) would add them again and cancel the ones attendees starred.
# From this many such sessions on, the import is refused unless the organizer accepts new keys.
REKEYED_LIMIT = 3


def _refuse_new_identities(programme: pm.Programme, *, stored: dict[str, Session]) -> None:
    """InvalidProgrammeError when new keys of the file name sessions the event has live under
    keys the file lacks (same title and start): an identity scheme that changed, not new talks.
    `stored` is the event's sessions by key."""
    incoming = {session.key for session in programme.sessions}
    live_absent: dict[tuple[str, datetime], str] = {}
    for key, row in stored.items():
        if key not in incoming and row.starts_at and row.is_published and not row.is_cancelled:
            live_absent.setdefault((fold(row.title), row.starts_at), key)
    rekeyed = [
        (live_absent[fact], session.key)
        for session in programme.sessions
        if session.key not in stored and session.starts_at
        and (fact := (fold(session.title), session.starts_at)) in live_absent
    ]  # fmt: skip
    if len(rekeyed) >= REKEYED_LIMIT:
        was, now = rekeyed[0]
        raise InvalidProgrammeError(
            f"{len(rekeyed)} sessions of this file are sessions the event has under other keys "
            f"(e.g. {was!r} is now {now!r}): the file identifies sessions differently from the "
            "imports before it (a CSV without its `key` column? changed guids or UIDs?). "
            "Importing it would add them again and leave attendees' stars on cancelled copies; "
            "nothing was imported. Restore the keys, or accept the new ones (confsched import "
            "--accept-new-keys, or the admin import page's checkbox)"
        )


# How long an import waits for another import of the same event on SQLite (PostgreSQL waits
# as long as the other holds its lock).
SQLITE_IMPORT_WAIT_MS = 300_000


def lock_imports(slug: str) -> None:
    """Hold the event's import lock until the transaction ends: imports of one event (and the
    creation of a new one) run one after the other, each applied to what the last one left.

    PostgreSQL: a transaction-scoped advisory lock keyed by the slug. SQLite: the database's
    one write lock, taken now by a write rather than at the first write after reading (where
    WAL would refuse a transaction whose reads another writer made stale).
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_imports needs a transaction to hold the lock")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            digest = hashlib.sha256(f"confsched import {slug}".encode()).digest()
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)]
            )
        elif connection.vendor == "sqlite":
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_IMPORT_WAIT_MS}")
            try:
                table = connection.ops.quote_name(Event._meta.db_table)
                # A write that changes nothing: the lock, whether or not the event exists.
                cursor.execute(f"UPDATE {table} SET slug = slug WHERE slug = %s", [slug])  # noqa: S608 - our own table name
            finally:
                cursor.execute("PRAGMA busy_timeout = 5000")


@transaction.atomic
def load_programme(
    event: Event,
    programme: pm.Programme,
    *,
    source: str = "",
    is_complete: bool = True,
    progress: Callable[[int, int], None] | None = None,
    accept_new_keys: bool = False,
) -> LoadReport:
    """Bring the event in line with `programme`, in one transaction, recording what changed.

    Keys decide identity: a known key updates its session, a new key adds one. When the
    programme is complete, a stored session it no longer holds is marked cancelled, never
    deleted, so that attendees' stars keep pointing at it. Any change makes a new
    ScheduleVersion with one Change per thing that changed; a load that changes nothing makes
    none. A file that gives the event's sessions other keys is refused unless `accept_new_keys`
    (see _refuse_new_identities).
    """
    lock_imports(event.slug)
    # What an import that held the lock before this one left, not what the caller read.
    event.refresh_from_db()
    checked = validate_programme(programme)
    # Offsets as the source wrote them, before validation stores every time in UTC.
    offset_warnings = _offset_warnings(event, programme)
    programme = _own_keys(event, _with_safe_keys(checked))
    keys = Counter(session.key for session in programme.sessions)
    if doubled := sorted(key for key, times in keys.items() if times > 1):
        raise InvalidProgrammeError(
            f"{len(doubled)} session key(s) appear more than once, e.g. {doubled[0]!r}; "
            "each session needs its own identity"
        )
    sessions = {row.key: row for row in Session.objects.filter(event=event)}
    if not accept_new_keys:
        _refuse_new_identities(programme, stored=sessions)
    report = LoadReport(
        warnings=[*programme.warnings, *offset_warnings],
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
    _set_capacities(rooms, programme.room_capacities)
    tracks = _facets(Track, event, [s.track for s in programme.sessions])
    levels = _facets(Level, event, [s.level for s in programme.sessions])
    speakers = _load_speakers(event, programme, report)
    names = {row.pk: row.name for row in speakers.values()}

    zone = event.zone
    # Speakers and facets by id, not joined into every row: an unchanged re-import of 5,000
    # sessions then builds 5,000 model objects instead of 35,000.
    stored_links = _speaker_links(event, "speaker_id")
    stored_refs = _session_links(event)
    new_refs: list[SessionLink] = []
    facet_rows: dict[str, dict[int, Facet]] = {
        "room": {row.pk: row for row in rooms.values()},
        "track": {row.pk: row for row in tracks.values()},
        "level": {row.pk: row for row in levels.values()},
    }

    def differs(row: Session, name: str, value: Any) -> bool:
        if name in facet_rows:
            return bool(getattr(row, f"{name}_id") != (value.pk if value else None))
        return bool(getattr(row, name) != value)

    changes: list[Change] = []
    total = len(programme.sessions)
    for index, incoming in enumerate(programme.sessions, start=1):
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
        # What the source tells about this session: its format's fields, less what this
        # session's entry leaves out (a filtered Sched listing shows no type).
        carried = programme.carries
        if incoming.unknown:
            carried = (carried or pm.EVERY_FIELD) - incoming.unknown
        carries_links = carried is None or "links" in carried
        carries_flag = carried is None or "has_slides" in carried
        row = sessions.get(incoming.key)
        if row is None:
            row = Session(event=event, key=incoming.key, **values)
            row.note_first_start()
            row.save(force_insert=True)
            _set_links(row, links)
            new_refs += _link_rows(row, incoming.links)
            report.created.append(row.full_title)
            changes.append(Change(session=row, kind=ChangeKind.ADDED, description="added"))
        else:
            current = stored_links.get(row.pk, [])
            refs = stored_refs.get(row.pk, ())
            refs_now = incoming.links if carries_links else refs
            # A flag without a slides link came from a source that only says "slides attached"
            # (Sched): a format that carries links but no flag (frab) keeps it.
            flag = incoming.has_slides if carries_flag else row.has_slides and not _slides(refs)
            values["has_slides"] = flag or _slides(refs_now)
            if carried is not None and "affiliations" not in carried:
                # A format without affiliations keeps the ones the event has.
                kept = dict(current)
                links = [(pk, kept.get(pk, affiliation)) for pk, affiliation in links]
            if carried is not None and "speakers" not in carried:
                links = current
            # Presence itself says "not cancelled": a format without a cancelled flag must still
            # bring back a session that an earlier import cancelled by leaving it out.
            changed = [
                name
                for name in SESSION_FIELDS
                if (
                    carried is None
                    or name in carried
                    or name == "is_cancelled"
                    or (name == "has_slides" and carries_links)
                )
                and differs(row, name, values[name])
            ]
            if changed or current != links or refs != refs_now:
                for name, table in facet_rows.items():  # what the row pointed at, loaded
                    setattr(row, name, table.get(getattr(row, f"{name}_id")))
                before = _facts(row, [names[pk] for pk, _ in current], refs)
                for name in changed:
                    setattr(row, name, values[name])
                if current != links:
                    _set_links(row, links)
                    changed.append("speakers")
                if refs != refs_now:
                    if refs:
                        SessionLink.objects.filter(session=row).delete()
                    new_refs += _link_rows(row, refs_now)
                    changed.append("links")
                row.sequence += 1
                first = ["first_starts_at"] if row.note_first_start() else []
                row.save(
                    update_fields=[f for f in changed if f not in ("speakers", "links")]
                    + ["sequence", "updated_at", *first]
                )
                after = _facts(row, [names[pk] for pk, _ in links], refs_now)
                changes += [
                    Change(session=row, kind=kind, description=words)
                    for kind, words in _describe(before, after, zone=zone)
                ]
                report.updated.append((row.full_title, changed))
            else:
                report.unchanged += 1
        if incoming.needs_review:
            report.flagged.append((row.full_title, incoming.review_note))
        if progress:
            progress(index, total)
    SessionLink.objects.bulk_create(new_refs, batch_size=500)
    if is_complete:
        present = {incoming.key for incoming in programme.sessions}
        for row in sessions.values():
            # Only what attendees could see is cancelled by absence: a session with no time or
            # waiting for review is in no export and in no format but Sched pages and CSV, so
            # a file without it (our own export included) says nothing about it.
            if row.key not in present and row.is_published and not row.is_cancelled:
                row.is_cancelled = True
                row.sequence += 1
                row.save(update_fields=["is_cancelled", "sequence", "updated_at"])
                report.cancelled.append(row.full_title)
                changes.append(
                    Change(session=row, kind=ChangeKind.CANCELLED, description="cancelled")
                )
    if changes:
        report.version = _record_version(event, changes, source=source or "import")
    if report.has_changes:
        event.save(update_fields=["updated_at"])
    return report


def session_facts(session: Session) -> dict[str, Any]:
    """The facts describe_changes compares, read from the database as they are now."""
    fresh = Session.objects.select_related("room", "track", "level").get(pk=session.pk)
    names = [
        link.speaker.name
        for link in SessionSpeaker.objects.filter(session=session).select_related("speaker")
    ]
    refs = tuple(
        pm.SessionLink(url=url, title=title, kind=kind)
        for url, title, kind in SessionLink.objects.filter(session=session)
        .order_by("position", "pk")
        .values_list("url", "title", "kind")
    )
    return _facts(fresh, names, refs)


@transaction.atomic
def record_edit(
    session: Session, before: dict[str, Any] | None, *, editor: str
) -> ScheduleVersion | None:
    """After an organizer's edit (or addition, when `before` is None): a version with what
    changed, and calendars told through SEQUENCE."""
    if before is None:
        found = [(ChangeKind.ADDED.value, "added")]
    else:
        found = _describe(before, session_facts(session), zone=session.event.zone)
    if session.note_first_start():
        session.save(update_fields=["first_starts_at"])
    if not found:
        return None
    changes = [Change(session=session, kind=kind, description=words) for kind, words in found]
    version = _record_version(session.event, changes, source=f"edit by {editor}")
    session.event.save(update_fields=["updated_at"])
    return version


def _load_speakers(event: Event, programme: pm.Programme, report: LoadReport) -> dict[str, Speaker]:
    speakers = {row.key: row for row in Speaker.objects.filter(event=event)}
    for incoming in programme.speakers:
        values = {name: getattr(incoming, name) for name in SPEAKER_FIELDS}
        if programme.carries is not None:
            # A format that tells less about people (no bio, no company) changes only what
            # it does tell.
            values = {
                name: value
                for name, value in values.items()
                if f"speaker.{name}" in programme.carries
            }
        row = speakers.get(incoming.key)
        if row is None:
            speakers[incoming.key] = Speaker.objects.create(
                event=event, key=incoming.key, **{"name": incoming.name, **values}
            )
            report.speakers_created += 1
        elif changed := [name for name, value in values.items() if getattr(row, name) != value]:
            for name in changed:
                setattr(row, name, values[name])
            row.save(update_fields=changed)
            report.speakers_updated += 1
    return speakers


def _record_version(event: Event, changes: list[Change], *, source: str) -> ScheduleVersion:
    """A new version holding `changes`, numbered after the event's last one."""
    last = ScheduleVersion.objects.filter(event=event).aggregate(models.Max("number"))
    counts = Counter(change.kind for change in changes)
    summary = ", ".join(
        f"{counts[kind]} {ChangeKind(kind).label.lower()}" for kind in ChangeKind if counts[kind]
    )
    version = ScheduleVersion.objects.create(
        event=event, number=(last["number__max"] or 0) + 1, source=source[:300], summary=summary
    )
    for change in changes:
        change.version = version
    Change.objects.bulk_create(changes)
    return version


def _speaker_links(event: Event, speaker: str) -> dict[int, list[tuple[Any, str]]]:
    """Per session id, its speakers (the `speaker` field of each) and affiliations in order.

    One join for the whole event, not a prefetch: a prefetch sends every id as a query
    parameter, and past ~1,000 speakers SQLite refuses the expression as too deep.
    """
    links: dict[int, list[tuple[Any, str]]] = {}
    for session_id, who, affiliation in (
        SessionSpeaker.objects.filter(session__event=event)
        .order_by("session_id", "position")
        .values_list("session_id", speaker, "affiliation")
    ):
        links.setdefault(session_id, []).append((who, affiliation))
    return links


def _session_links(event: Event) -> dict[int, tuple[pm.SessionLink, ...]]:
    """Per session id, its links in order: one query for the whole event (see _speaker_links)."""
    found: dict[int, list[pm.SessionLink]] = {}
    for session_id, url, title, kind in (
        SessionLink.objects.filter(session__event=event)
        .order_by("session_id", "position", "pk")
        .values_list("session_id", "url", "title", "kind")
    ):
        found.setdefault(session_id, []).append(pm.SessionLink(url=url, title=title, kind=kind))
    return {session_id: tuple(links) for session_id, links in found.items()}


def _slides(links: tuple[pm.SessionLink, ...]) -> bool:
    return any(link.kind == LinkKind.SLIDES for link in links)


def _link_rows(session: Session, links: tuple[pm.SessionLink, ...]) -> list[SessionLink]:
    return [
        SessionLink(session=session, position=index, kind=link.kind, title=link.title, url=link.url)
        for index, link in enumerate(links)
    ]


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
    # Plain rows, not model instances: at 5,000 sessions and 7,000 speakers building instances
    # was most of the 0.4 s every export paid first.
    rows = (
        Session.objects.filter(event=event)
        .order_by("starts_at", "key")
        .values_list(
            "pk", "key", "title", "kind", "abstract", "starts_at", "ends_at", "room__name",
            "track__name", "level__name", "has_slides", "language", "is_cancelled",
            "needs_review", "review_note", "sequence", "updated_at",
        )
    )  # fmt: skip
    links = {
        session_id: [pm.SessionSpeaker(speaker_key=k, affiliation=a) for k, a in pairs]
        for session_id, pairs in _speaker_links(event, "speaker__key").items()
    }
    refs = _session_links(event)
    sessions = [
        pm.Session(
            key=key, title=title, kind=kind, abstract=abstract,
            starts_at=starts_at.astimezone(zone) if starts_at else None,
            ends_at=ends_at.astimezone(zone) if ends_at else None,
            room=room or "", track=track or "", level=level or "", has_slides=has_slides,
            language=language, is_cancelled=is_cancelled, speakers=tuple(links.get(pk, ())),
            links=refs.get(pk, ()), needs_review=needs_review, review_note=review_note,
            sequence=sequence, last_modified=updated_at,
        )
        for (pk, key, title, kind, abstract, starts_at, ends_at, room, track, level, has_slides,
             language, is_cancelled, needs_review, review_note, sequence, updated_at) in rows
    ]  # fmt: skip
    speakers = [
        pm.Speaker(
            key=key, name=name, company=company, position=position, bio=bio,
            avatar_url=avatar_url,
        )
        for key, name, company, position, bio, avatar_url in Speaker.objects.filter(event=event)
        .order_by("key")
        .values_list("key", "name", "company", "position", "bio", "avatar_url")
    ]  # fmt: skip
    rooms = list(Room.objects.filter(event=event).values_list("name", "capacity"))
    return pm.Programme(
        name=event.name, timezone=event.timezone, start_date=event.start_date,
        end_date=event.end_date, location=event.location, sessions=sessions, speakers=speakers,
        rooms=[name for name, _ in rooms],
        room_capacities={name: seats for name, seats in rooms if seats is not None},
    )  # fmt: skip


def render_export(event: Event, extension: str, *, base_url: str = "") -> bytes:
    """The event in the writer registered for `extension` (xml, json, schedule2, xcal,
    rfc6321.xcal, csv)."""
    # Imported here, not at the top: the registry pulls in every format module, which admin
    # autodiscovery should not pay for on start-up.
    from confsched.interchange.formats import WRITERS

    writer = WRITERS[extension]
    options = {"slug": event.slug, "base_url": base_url}
    if "uid_domain" in inspect.signature(writer.render).parameters:
        options["uid_domain"] = event.uid_domain
    return writer.render(snapshot(event), **options)
