"""c3voc schedule.json (v1), written (the reader is `c3voc.read`).

Writing follows the schema exactly, so that the output validates; its rules:

* Only sessions that have a start, are not cancelled and are not flagged for review are
  written: days hold only timed events, the format cannot mark a cancellation, and a session
  under review is not fit to publish. Speakers appear only as persons of written events.
* Days are the local calendar days of the programme's zone (UTC when it has none), midnight
  to midnight, from the programme's first date to its last; every known room is listed on
  every day, and a session without a room is listed under "".
* An event's guid, integer id and slug are the session's in every export (`interchange.identity`,
  as in schedule.xml): the key when a UUID, else uuid5(NAMESPACE_URL, "confsched:{slug}:{key}");
  the key when a positive 31-bit integer, else the first 31 bits of its SHA-256;
  "<event>-<id>-<title>". Its url is the session page `{base_url}/{slug}/sessions/{key}/` or,
  without base_url, "urn:uuid:{guid}"; with a base_url its `feedback_url` is that page's
  `feedback/` (schedule2 has no such field). Its `links` are the session's links as references
  {type, title, url}: the type is the kind in the schema's words (slides, media, web), the title
  is left out when empty; a file the site holds (slides a speaker uploaded) is also among its
  `attachments`, as frab lists its uploads (written only when there is one; schedule2 alike).
  `base_url` is the site's address ("https://host/"), as for every writer;
  the event's page `{base_url}/{slug}/` is written as `schedule.base_url` and `conference.url`. A
  room's guid is made as for an event whose key is "room:{name}".
* A person carries the speaker's key where a reader looks first: as `guid` when a UUID, as
  `id` when a whole number, as `code` when pretalx-like (A-Z, 0-9), nothing when it is the slug
  of the name (readers fall back to that), else a uuid5 guid as for events. `id` and
  `public_name` are never both written: the schema's oneOf would then match two kinds. The
  speaker's homepage is its `url`, their own links its `links` (references as a session's),
  each only when there is one.
* `acronym` is the slug when the schema's pattern accepts it, else the slug with other
  characters as "_", padded to 4; `time_zone_name` is written when its pattern accepts it.
* The output depends on the arguments only: keys in a fixed order, events sorted by start
  and key, and `version` is a hash of the rest of the document, not a clock.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import datetime, timedelta, tzinfo
from urllib.parse import quote, urljoin

import orjson

from confsched.core.text import slugify
from confsched.interchange.c3voc.layout import (
    _TIME_ZONE_NAME,
    _acronym,
    _dump,
    _is_uuid,
    _local_midnight,
    _room_json,
    _slug_and_url,
    _uuid_for,
    layout,
)
from confsched.interchange.identity import export_guid
from confsched.interchange.links import C3VOC_TYPES
from confsched.interchange.pieces import (
    Context,
    Keeper,
    Slots,
    billed,
    build_all,
    digest_of,
    joined,
)
from confsched.interchange.programme import Programme, Session, SessionLink, Speaker

SCHEMA_URL = "https://c3voc.de/schedule/schema.json"

# The schema's own patterns, applied as JSON Schema does (re.search, not anchored).
_CODE = re.compile(r"^[A-Z0-9]+$")
_WHOLE_NUMBER = re.compile(r"^[1-9][0-9]{0,17}$")


def render(
    programme: Programme, *, slug: str, base_url: str = "", now: datetime | None = None,
    keep: Keeper = build_all,
) -> bytes:  # fmt: skip
    """The programme's scheduled sessions as a schedule.json that validates against schema.json;
    each event asked of `keep` (interchange/pieces.py).

    `now` is accepted like the other writers' but not written: the format has no field for it,
    and leaving it out keeps identical programmes byte-identical.
    """
    del now
    laid = layout(programme, slug=slug, base_url=base_url, cancelled=False)
    zone, base_url, shown, rooms = laid.zone, laid.base_url, laid.sessions, laid.rooms
    by_day, first, last, speakers = laid.by_day, laid.first, laid.last, laid.speakers
    ids = laid.ids

    # Each event is a piece: a string holds its place in the skeleton (interchange/pieces.py).
    slots = Slots()
    wanted: list[tuple[Session, Context]] = []
    days = []
    for index in range((last - first).days + 1):
        day = first + timedelta(days=index)
        sessions = by_day.get(day, [])
        day_rooms: dict[str, list[str]] = {room: [] for room in rooms}
        for session in sessions:
            day_rooms.setdefault(session.room, []).append(slots.slot(len(wanted)))
            billing = billed(session.speakers, speakers)
            wanted.append((session, (slug, base_url, zone, billing, ids[session.key])))
        days.append(
            {
                "index": index + 1,
                "date": day.isoformat(),
                "day_start": _local_midnight(day, zone).isoformat(),
                "day_end": _local_midnight(day + timedelta(days=1), zone).isoformat(),
                "rooms": day_rooms,
            }
        )

    conference: dict[str, object] = {
        "acronym": _acronym(slug),
        "title": programme.name or slug,
        "start": first.isoformat(),
        "end": last.isoformat(),
        "daysCount": len(days),
        "timeslot_duration": _timeslot(shown, zone),
    }
    if programme.timezone and _TIME_ZONE_NAME.search(programme.timezone):
        conference["time_zone_name"] = programme.timezone
    if base_url:
        conference["url"] = base_url
    conference["rooms"] = [
        _room_json(room, slug=slug, capacity=programme.room_capacities.get(room)) for room in rooms
    ]
    tracks = sorted({s.track for s in shown if s.track})
    if tracks:
        conference["tracks"] = [{"name": track} for track in tracks]
    conference["days"] = days
    schedule: dict[str, object] = {"version": ""}
    if base_url:
        schedule["base_url"] = base_url
    schedule["conference"] = conference
    document = {"$schema": SCHEMA_URL, "generator": {"name": "confsched"}, "schedule": schedule}
    parts = slots.split(_dump(document), before=b'"', after=b'"')
    pieces = keep(f"{__name__}:event", wanted, render_event)
    # The version names the content: a hash of the document written with an empty version.
    return with_version(parts, pieces, "confsched-" + digest_of(parts, pieces)[:16])


def with_version(parts: list[bytes | int], pieces: list[bytes], version: str) -> bytes:
    """The document joined, its empty "version" (in its head, before any event) filled."""
    head = parts[0]
    assert isinstance(head, bytes)  # noqa: S101 - the document starts with its head
    filled = head.replace(b'"version": ""', b'"version": ' + orjson.dumps(version), 1)
    return joined([filled, *parts[1:]], pieces)


def render_event(session: Session, context: Context) -> bytes:
    """One event's JSON, indented as it stands in the document (in a room's list of a day)."""
    slug, base_url, zone, billing, event_id = context
    speakers = {key: speaker for key, speaker in billing if speaker is not None}
    event = _event_json(
        session, slug=slug, base_url=base_url, zone=zone, speakers=speakers, event_id=event_id
    )
    return _dump_at(event, depth=7)


def _dump_at(value: object, *, depth: int) -> bytes:
    """`value` as _dump writes it `depth` levels deep in a document (no final newline)."""
    return orjson.dumps(value, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n" + b"  " * depth)


def _event_json(
    session: Session, *, slug: str, base_url: str, zone: tzinfo, speakers: dict[str, Speaker],
    event_id: int,
) -> dict[str, object]:  # fmt: skip
    assert session.starts_at is not None  # only scheduled sessions get here
    starts_at = session.starts_at.astimezone(zone)
    ends_at = session.ends_at.astimezone(zone) if session.ends_at else None
    guid = export_guid(slug, session.key)
    minutes = int((ends_at - starts_at).total_seconds() // 60) if ends_at else 0
    event: dict[str, object] = {
        "guid": guid,
        "id": event_id,
        "date": starts_at.isoformat(timespec="seconds"),
        "start": starts_at.strftime("%H:%M"),
        "duration": f"{minutes // 60:02d}:{minutes % 60:02d}",
    }
    if ends_at is not None:
        event["end"] = ends_at.isoformat(timespec="seconds")
    event.update(
        {
            "room": session.room,
            **_slug_and_url(session, slug=slug, guid=guid, number=event_id, base_url=base_url),
            "title": session.title,
            "subtitle": "",
            "track": session.track or None,
            "type": session.kind,
            "language": session.language or None,
            "abstract": session.abstract,
            "description": "",
            "persons": [
                _person_json(link.speaker_key, speakers.get(link.speaker_key), slug=slug)
                for link in session.speakers
            ],
            "links": [_reference_json(link) for link in session.links],
        }
    )
    if attached := [link for link in session.links if link.is_attachment]:
        # Files the site holds, also as frab lists its uploads (interchange/links.py).
        event["attachments"] = [_reference_json(link) for link in attached]
    if base_url:
        # The session page's feedback form, which phone apps (Giggity, EventFahrplan) link to.
        event["feedback_url"] = urljoin(
            base_url, f"sessions/{quote(session.key, safe='')}/feedback/"
        )
    return event


def _reference_json(link: SessionLink) -> dict[str, str]:
    """A schema Reference: the kind in the schema's words, the title when there is one."""
    reference = {"type": C3VOC_TYPES[link.kind]}
    if link.title:
        reference["title"] = link.title
    reference["url"] = link.url
    return reference


def _person_json(key: str, speaker: Speaker | None, *, slug: str) -> dict[str, object]:
    """A PretalxPerson (name, never both id and public_name) carrying the key where readers look."""
    name = speaker.name if speaker else key
    person: dict[str, object] = {}
    if _is_uuid(key):
        person["guid"] = key
    elif _WHOLE_NUMBER.match(key):
        person["id"] = int(key)
    elif _CODE.match(key):
        person["code"] = key
    elif key != slugify(name):
        person["guid"] = _uuid_for(slug, f"speaker:{key}")
    person["name"] = name
    if "id" not in person:
        person["public_name"] = name  # for readers older than pretalx's "name"
    person["biography"] = speaker.bio if speaker and speaker.bio else None
    if speaker and speaker.avatar_url:
        person["avatar"] = speaker.avatar_url
    # The speaker's own pages (the schema's Person `url` and `links`), only when there are.
    if speaker and speaker.homepage:
        person["url"] = speaker.homepage
    if speaker and speaker.links:
        person["links"] = [_reference_json(link) for link in speaker.links]
    return person


def _timeslot(sessions: Iterable[Session], zone: tzinfo) -> str:
    """The largest slot (a divisor of an hour) that every start and length is a multiple of."""
    step = 0
    for session in sessions:
        assert session.starts_at is not None
        local = session.starts_at.astimezone(zone)
        step = math.gcd(step, local.hour * 60 + local.minute)
        if session.ends_at:
            step = math.gcd(step, int((session.ends_at - session.starts_at).total_seconds()) // 60)
    minutes = math.gcd(step, 60)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"
