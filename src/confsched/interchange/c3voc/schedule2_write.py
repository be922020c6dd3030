"""The c3voc "schedule2" JSON, written (the reader is `c3voc.schedule2_read`).

Writing (`render`, served as `/<event>/schedule2.json`) follows schema2.json exactly, so that the
output validates; it shares v1's conventions (`c3voc.write.render`): times in the programme's
zone, `base_url` the site's address, the same event and room guids (`session_guid`), keys in a
fixed order and `version` a hash of the rest. What differs, and why:

* Cancelled sessions are written, with `state` CANCELED (v1 cannot say so); the others are
  CONFIRMED. Sessions without a start and those flagged for review are left out, as in v1.
* `end` is required: a session without an end is written ending when it starts.
* `room` and `track` are required references. Rooms are declared in `conference.rooms` (name,
  guid) and referred to by name and guid; tracks in `conference.tracks` (name, slug: the slug of
  the name, made unique, else "track-" and a hash). A session without a room refers to the guid
  of the room "" with the name "", one without a track to the slug "no-track" with the name "";
  neither is declared, and this reader reads such references back as no room and no track.
* `type` is the schema's enum: the kind in upper case with "_" for spaces when it is one of
  them ("Lightning Talk" -> LIGHTNING_TALK), else OTHER. `language` is a two-letter code: the
  session's own, the code of a common language name ("English" -> "en"), else "en", as the
  schema requires one.
* Participants carry a uuid guid (the speaker key when a UUID, else uuid5 of
  "confsched:{slug}:speaker:{key}", as v1) and the role SPEAKER; read back, that guid is the
  speaker's key.
* `conference.start` is local midnight of the first day and `end` 23:59:59 of the last, so
  that both read back as the programme's dates.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, time, timedelta, tzinfo

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
from confsched.interchange.c3voc.write import _dump_at, with_version
from confsched.interchange.identity import export_guid
from confsched.interchange.links import C3VOC_TYPES
from confsched.interchange.pieces import Context, Keeper, Slots, billed, build_all, digest_of
from confsched.interchange.programme import Programme, Session, SessionLink, Speaker

SCHEMA_URL = "https://c3voc.de/schema/schedule2"  # the schema's own $id

_EVENT_TYPES = frozenset(
    "TALK WORKSHOP HANDS-ON MEETING DISCUSSION PERFORMANCE CONCERT GAME LIGHTNING_TALK".split()
)
_SLUG = re.compile(r"^[a-z0-9_-]+[a-z0-9]$")
_LANGUAGE_CODE = re.compile(r"^([A-Za-z]{2})(?:[-_][A-Za-z0-9]+)*$")
# Language names as programmes write them, in English and in the language itself.
_LANGUAGE_NAMES = {
    "english": "en", "german": "de", "deutsch": "de", "french": "fr", "français": "fr",
    "spanish": "es", "español": "es", "italian": "it", "italiano": "it", "dutch": "nl",
    "nederlands": "nl", "portuguese": "pt", "português": "pt", "polish": "pl", "polski": "pl",
    "russian": "ru", "japanese": "ja", "chinese": "zh", "korean": "ko",
}  # fmt: skip
_NO_TRACK = "no-track"


def session_guid(*, slug: str, key: str) -> str:
    """The c3voc guid of a session, as both c3voc writers and frab XML write it: the key when
    it is a UUID, else uuid5(NAMESPACE_URL, "confsched:{slug}:{key}")."""
    return export_guid(slug, key)


def render(
    programme: Programme, *, slug: str, base_url: str = "", now: datetime | None = None,
    keep: Keeper = build_all,
) -> bytes:  # fmt: skip
    """The programme's published sessions as a schedule2 document that validates against
    schema2.json (see the module's docstring for what the format makes of them); each event
    asked of `keep` (interchange/pieces.py).

    `now` is accepted like the other writers' but not written, so that identical programmes
    are identical bytes.
    """
    del now
    laid = layout(programme, slug=slug, base_url=base_url, cancelled=True)
    zone, base_url, shown, rooms = laid.zone, laid.base_url, laid.sessions, laid.rooms
    first, last, speakers = laid.first, laid.last, laid.speakers
    track_slugs = _track_slugs(sorted({s.track for s in shown if s.track}))

    conference: dict[str, object] = {
        "acronym": _acronym(slug),
        "title": programme.name or slug,
        "start": _local_midnight(first, zone).isoformat(),
        "end": datetime.combine(last, time(23, 59, 59), tzinfo=zone).isoformat(),
    }
    if programme.timezone and _TIME_ZONE_NAME.search(programme.timezone):
        conference["time_zone_name"] = programme.timezone
    if base_url:
        conference["url"] = base_url
    conference["rooms"] = [
        _room_json(room, slug=slug, capacity=programme.room_capacities.get(room)) for room in rooms
    ]
    conference["tracks"] = [{"name": name, "slug": value} for name, value in track_slugs.items()]
    conference["days"] = [
        {
            "index": index + 1,
            "date": (first + timedelta(days=index)).isoformat(),
            "start": _local_midnight(first + timedelta(days=index), zone).isoformat(),
            "end": _local_midnight(first + timedelta(days=index + 1), zone).isoformat(),
        }
        for index in range((last - first).days + 1)
    ]
    # Each event is a piece: a string holds its place in the skeleton (interchange/pieces.py).
    slots = Slots()
    events = [slots.slot(index) for index in range(len(shown))]
    wanted: list[tuple[Session, Context]] = [
        (session, (
            slug, base_url, zone, billed(session.speakers, speakers),
            track_slugs.get(session.track, ""), laid.ids[session.key],
        ))
        for session in shown
    ]  # fmt: skip
    schedule: dict[str, object] = {"version": "", "conference": conference, "events": events}
    document = {"$schema": SCHEMA_URL, "generator": {"name": "confsched"}, "schedule": schedule}
    parts = slots.split(_dump(document), before=b'"', after=b'"')
    pieces = keep(f"{__name__}:event", wanted, render_event)
    # The version names the content: a hash of the document written with an empty version.
    return with_version(parts, pieces, "confsched-" + digest_of(parts, pieces)[:16])


def render_event(session: Session, context: Context) -> bytes:
    """One event's JSON, indented as it stands in the document (in the list of events)."""
    slug, base_url, zone, billing, track_slug, event_id = context
    event = _event2_json(
        session, slug=slug, base_url=base_url, zone=zone, event_id=event_id,
        speakers={key: speaker for key, speaker in billing if speaker is not None},
        track_slugs={session.track: track_slug} if session.track else {},
    )  # fmt: skip
    return _dump_at(event, depth=3)


def _track_slugs(names: list[str]) -> dict[str, str]:
    """Each track's slug: its name's, when the schema's pattern accepts it, else a hash; unique,
    and never the slug that stands for "no track"."""
    slugs: dict[str, str] = {}
    taken = {_NO_TRACK}
    for name in names:
        candidate = slugify(name, max_length=60)
        if not _SLUG.match(candidate):
            candidate = "track-" + hashlib.sha256(name.encode()).hexdigest()[:8]
        value, number = candidate, 2
        while value in taken:
            value, number = f"{candidate}-{number}", number + 1
        taken.add(value)
        slugs[name] = value
    return slugs


def _event2_json(
    session: Session,
    *,
    slug: str,
    base_url: str,
    zone: tzinfo,
    speakers: dict[str, Speaker],
    track_slugs: dict[str, str],
    event_id: int,
) -> dict[str, object]:
    assert session.starts_at is not None  # only scheduled sessions get here
    starts_at = session.starts_at.astimezone(zone)
    ends_at = (session.ends_at or session.starts_at).astimezone(zone)
    guid = session_guid(slug=slug, key=session.key)
    event: dict[str, object] = {
        "guid": guid,
        "start": starts_at.isoformat(timespec="seconds"),
        "end": ends_at.isoformat(timespec="seconds"),
        "room": {"name": session.room, "guid": _uuid_for(slug, f"room:{session.room}")},
        **_slug_and_url(session, slug=slug, guid=guid, number=event_id, base_url=base_url),
        "title": session.title,
        "subtitle": "",
        "track": (
            {"slug": track_slugs[session.track], "name": session.track}
            if session.track
            else {"slug": _NO_TRACK, "name": ""}
        ),
        "type": _event_type(session.kind),
        "language": _language_code(session.language),
        "abstract": session.abstract,
        "participants": [
            _participant_json(link.speaker_key, speakers.get(link.speaker_key), slug=slug)
            for link in session.speakers
        ],
        "links": [_reference2_json(link) for link in session.links],
        "state": "CANCELED" if session.is_cancelled else "CONFIRMED",
    }
    if attached := [link for link in session.links if link.is_attachment]:
        # Files the site holds, also as frab lists its uploads (interchange/links.py); after
        # `state`, so that every other event's keys stay in their order.
        event["attachments"] = [_reference2_json(link) for link in attached]
    return event


def _event_type(kind: str) -> str:
    candidate = "_".join(kind.upper().split())
    if candidate == "HANDS_ON":
        candidate = "HANDS-ON"
    return candidate if candidate in _EVENT_TYPES else "OTHER"


def _language_code(language: str) -> str:
    # A bilingual talk is written "de, en" (38C3) or "de/en": the first language given is the
    # one it is held in.
    text = re.split(r"[,;/|]", language, maxsplit=1)[0].strip()
    match = _LANGUAGE_CODE.match(text)
    if match:
        return match[1].lower()
    return _LANGUAGE_NAMES.get(text.casefold(), "en")


def _participant_json(key: str, speaker: Speaker | None, *, slug: str) -> dict[str, str]:
    return {
        "guid": key if _is_uuid(key) else _uuid_for(slug, f"speaker:{key}"),
        "name": speaker.name if speaker else key,
        "role": "SPEAKER",
    }


def _reference2_json(link: SessionLink) -> dict[str, str]:
    """A schema Reference: the kind in the schema's (upper-case) words, the title when any."""
    reference = {"type": C3VOC_TYPES[link.kind].upper()}
    if link.title:
        reference["title"] = link.title
    reference["url"] = link.url
    return reference
