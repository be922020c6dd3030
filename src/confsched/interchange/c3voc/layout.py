"""The one layout of a programme for both c3voc writers (schedule.json v1 and schedule2).

Both write the same sessions the same way: the session of each key last given, with a start
and not flagged for review (v1 also leaves out the cancelled ones), sorted by start then key;
the rooms of `Programme.rooms` first, then the other rooms of those sessions by name; the
sessions by local day of their start in the programme's zone (UTC without one); the days from
the programme's first date (or session) to its last. And the same conventions of their JSON:
the event's page as `base_url`, the sessions' ids, guids and slugs (`interchange.identity`, the
same as in schedule.xml), the acronym, an event's url, a room entry, and the bytes of the
document.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, tzinfo
from urllib.parse import quote, urljoin

import orjson

from confsched.interchange.c3voc.values import _zone_or_none
from confsched.interchange.identity import export_ids, export_slug
from confsched.interchange.programme import Programme, Session, Speaker

# The schema's own patterns, applied as JSON Schema does (re.search, not anchored).
_ACRONYM = re.compile(r"^[a-z0-9_-][a-z0-9_]{3,}(-2[0-9]{3}-[a-z]+)?$")
_TIME_ZONE_NAME = re.compile(r"^([A-Z][a-z]+/[A-Z][a-z]+)|UTC$")


@dataclass(frozen=True)
class Layout:
    """What both c3voc writers write, prepared once."""

    zone: tzinfo
    base_url: str  # the event's page, what the format calls its base_url; "" without a site
    sessions: list[Session]  # written, by start then key
    rooms: list[str]
    by_day: dict[date, list[Session]]  # the sessions by local day of their start
    first: date
    last: date
    speakers: dict[str, Speaker]
    ids: dict[str, int]  # each session's integer id, by key (`identity.export_ids`)


def layout(programme: Programme, *, slug: str, base_url: str, cancelled: bool) -> Layout:
    """The programme laid out for a c3voc writer; `cancelled`: whether cancelled sessions are
    written. ValueError for an unknown zone or a programme with no dates and no sessions."""
    zone = _writer_zone(programme.timezone)
    # From here on, base_url is the event's page: what the format calls its base_url.
    base_url = f"{base_url.rstrip('/')}/{quote(slug, safe='')}/" if base_url else ""
    shown = sorted(
        (
            s
            for s in {s.key: s for s in programme.sessions}.values()
            if s.starts_at is not None and (cancelled or not s.is_cancelled) and not s.needs_review
        ),
        key=lambda s: (s.starts_at, s.key),
    )
    rooms = list(dict.fromkeys(room for room in programme.rooms if room))
    rooms += sorted({s.room for s in shown if s.room and s.room not in rooms})
    by_day: dict[date, list[Session]] = {}
    for session in shown:
        assert session.starts_at is not None  # `shown` holds scheduled sessions only
        by_day.setdefault(session.starts_at.astimezone(zone).date(), []).append(session)
    first, last = _date_range(programme, by_day)
    speakers = {speaker.key: speaker for speaker in programme.speakers}
    ids = export_ids(session.key for session in programme.sessions)
    return Layout(zone, base_url, shown, rooms, by_day, first, last, speakers, ids)


def _room_json(name: str, *, slug: str, capacity: int | None) -> dict[str, object]:
    """A conference.rooms entry; `capacity` only when known."""
    room: dict[str, object] = {"name": name, "guid": _uuid_for(slug, f"room:{name}")}
    if capacity is not None:
        room["capacity"] = capacity
    return room


def _dump(document: object) -> bytes:
    # What json.dumps(document, ensure_ascii=False, indent=2) writes, byte for byte, 20 times
    # faster: the standard library's indenting encoder is pure Python (0.35 s at 5,000 sessions).
    return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"


def _slug_and_url(
    session: Session, *, slug: str, guid: str, number: int, base_url: str
) -> dict[str, str]:
    """An event's "slug" and "url", the same in schedule.json and schedule2 (and the slug as in
    schedule.xml): the session's page under `base_url`, or its guid as a URN when there is no
    site to point to. `number` is the session's id."""
    return {
        "slug": export_slug(slug, number=number, title=session.title),
        "url": (
            urljoin(base_url, f"sessions/{quote(session.key, safe='')}/")
            if base_url
            else f"urn:uuid:{guid}"
        ),
    }


def _date_range(programme: Programme, by_day: dict[date, list[Session]]) -> tuple[date, date]:
    candidates = [d for d in (programme.start_date, programme.end_date) if d] + list(by_day)
    if not candidates:
        raise ValueError("nothing to write: the programme has no dates and no scheduled sessions")
    return min(candidates), max(candidates)


def _local_midnight(day: date, zone: tzinfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone)


def _acronym(slug: str) -> str:
    if _ACRONYM.search(slug):
        return slug
    # The schema allows "-" only first and in a "-2026-word" suffix: other characters become "_".
    acronym = re.sub(r"[^a-z0-9_]+", "_", slug.lower()).strip("_")
    return acronym.ljust(4, "_")


def _is_uuid(value: str) -> bool:
    if len(value) != 36 or any(value[i] != "-" for i in (8, 13, 18, 23)):
        return False
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def _uuid_for(slug: str, key: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{slug}:{key}"))


def _writer_zone(name: str) -> tzinfo:
    if not name:
        return UTC
    zone = _zone_or_none(name)
    if zone is None:
        raise ValueError(f"unknown time zone {name!r}; expected an IANA name")
    return zone
