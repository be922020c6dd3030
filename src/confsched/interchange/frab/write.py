"""frab/pentabarf `schedule.xml`, written (the reader is `frab.read`).

Writing follows the XSD and validates against it. Only sessions with a start, not cancelled
(frab has no cancelled state, so a cancelled session is left out rather than shown as on) and
not awaiting review are written. Days are local days in the programme's zone (UTC without
one), with a day change at midnight; an event belongs to the day of its local start; every
date between the programme's start and end dates gets a day, empty or not. Rooms come in
`Programme.rooms` order, then by name, sessions without a room last (`<room name="">`); events
by start, then key. A session without an end gets `00:00`; lengths past 99:59 are cut there,
the most the XSD's duration pattern can say. Ids:

* `event/@guid`, `event/@id` and `<slug>` are the session's in every export
  (`interchange.identity`: `export_guid`, `export_ids`, `export_slug`): the key when it is a
  UUID, else a uuid5; the key when it is a positive 31-bit integer, else 31 bits of its
  SHA-256; frab's "<event>-<id>-<title>". Room guids are
  uuid5(NAMESPACE_URL, "confsched:<slug>:room:<name>"). `person/@id` is the speaker key when a
  positive 31-bit integer, else 31 bits of its SHA-256; `person/@guid` is written when the
  speaker key is a UUID.
* `<version>` is the first 12 hex digits of the SHA-256 of the document as written with an
  empty `<version>`, so the output depends on the arguments only, byte for byte; `now` is
  accepted for the writers' common signature and does not change the output.
* `<acronym>` is the event slug when it fits the XSD (4 or more characters).
* `base_url` is the site's address ("https://host/"), as for every writer (xCal too) and as
  the web view and `confsched export --base-url` give it; the event's page
  "<base_url>/<slug>/" is the conference's `<base_url>`, and each event's `<url>` is the
  session page "<base_url>/<slug>/sessions/<key>/"; its `<feedback_url>` (last, where frab
  puts it) is that page's "feedback/", which Giggity and EventFahrplan link to. Without an
  http(s) base_url no URLs.
* A session's kind, track, language and abstract go to `<type>`, `<track>`, `<language>` and
  `<abstract>`; its links to `<links>`, each `<link href type>` with its title as the text
  (the address when it has none) and its kind as the c3voc type (slides, media, web), which
  phone apps show. A file the site holds (slides a speaker uploaded) is also an
  `<attachment href type>` in `<attachments>`, as frab lists its uploads; it stays among the
  links, the only list Giggity and ConfClerk read. Speaker affiliations, levels, a speaker's
  picture (`<person>` has no place for one) and a "slides attached" flag without a link have no
  place in the format.
"""

from __future__ import annotations

import math
import re
import uuid
from datetime import date, datetime, time, timedelta, tzinfo
from urllib.parse import quote
from xml.etree.ElementTree import Comment, Element, SubElement, indent, tostring

from confsched.core.text import slugify
from confsched.interchange.frab.read import _HTTP
from confsched.interchange.identity import export_guid, export_ids, export_number, export_slug
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
from confsched.interchange.programme import Programme, Session, Speaker
from confsched.interchange.zones import programme_zone

_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
# Patterns of the XSD's `acronym` and `voc-slug-new` types (XSD patterns match whole values).
_ACRONYM = re.compile(r"[a-z0-9_-]{4,}")
# Characters XML 1.0 cannot carry even escaped; an abstract pasted from a PDF may hold some.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

MAX_DURATION = timedelta(hours=99, minutes=59)  # the most the XSD's H:MM pattern can say


def render(
    programme: Programme, *, slug: str, base_url: str = "", now: datetime | None = None,
    keep: Keeper = build_all,
) -> bytes:  # fmt: skip
    """The programme's scheduled sessions as a schedule.xml valid against the c3voc XSD; each
    `<event>` asked of `keep` (interchange/pieces.py)."""
    del now  # the version is a hash of the content, so output never depends on the clock
    zone = programme_zone(programme.timezone)
    chosen = {
        session.key: session
        for session in programme.sessions
        if session.starts_at is not None and not session.is_cancelled and not session.needs_review
    }
    sessions = sorted(chosen.values(), key=lambda session: (session.starts_at, session.key))
    ids = export_ids(session.key for session in programme.sessions)
    speakers = {speaker.key: speaker for speaker in programme.speakers}
    prefix = slugify(slug)
    site = base_url.rstrip("/") if _HTTP.fullmatch(base_url) else ""
    base = f"{site}/{quote(slug, safe='')}" if site else ""  # the event's page, no final "/"

    by_day: dict[date, list[Session]] = {}
    for session in sessions:
        by_day.setdefault(_local(session.starts_at, zone).date(), []).append(session)
    if programme.start_date and programme.end_date:
        span = (programme.end_date - programme.start_date).days
        for offset in range(span + 1 if 0 <= span <= 366 else 0):
            by_day.setdefault(programme.start_date + timedelta(days=offset), [])
    if not by_day:
        # The XSD requires one <day>; an empty programme gets its start date or the epoch.
        by_day[programme.start_date or date(1970, 1, 1)] = []
    days = sorted(by_day)
    room_order = {name: index for index, name in enumerate(programme.rooms)}

    root = Element("schedule")
    SubElement(root, "generator", name="confsched")
    SubElement(root, "version")
    conference = SubElement(root, "conference")
    if _ACRONYM.fullmatch(prefix):
        _add(conference, "acronym", prefix)
    _add(conference, "title", programme.name or slug)
    _add(conference, "start", days[0].isoformat())
    _add(conference, "end", days[-1].isoformat())
    _add(conference, "days", str(len(days)))
    _add(conference, "timeslot_duration", _clock_text(_timeslot(sessions, zone)))
    if programme.timezone:
        _add(conference, "time_zone_name", programme.timezone)
    if base:
        _add(conference, "base_url", base + "/")
    for track in sorted({session.track for session in sessions if session.track}):
        SubElement(conference, "track", name=_safe(track))

    # Each <event> is a piece (interchange/pieces.py): a comment holds its place in the
    # skeleton, indented as the event would be, and the event's own text replaces it.
    slots = Slots()
    wanted: list[tuple[Session, Context]] = []
    for index, day in enumerate(days, start=1):
        day_start = datetime.combine(day, time(0), tzinfo=zone)
        day_end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone)
        day_element = SubElement(
            root,
            "day",
            index=str(index),
            date=day.isoformat(),
            start=_stamp(day_start),
            end=_stamp(day_end),
        )
        rooms: dict[str, list[Session]] = {}
        for session in by_day[day]:
            rooms.setdefault(session.room, []).append(session)
        for room in sorted(
            rooms, key=lambda name: (not name, room_order.get(name, len(room_order)), name)
        ):
            room_guid = uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{slug}:room:{room}")
            room_element = SubElement(day_element, "room", name=_safe(room), guid=str(room_guid))
            for session in rooms[room]:
                room_element.append(Comment(slots.slot(len(wanted))))
                context = (
                    zone,
                    slug,
                    ids[session.key],
                    base,
                    billed(session.speakers, speakers),
                )
                wanted.append((session, context))

    indent(root, space="  ")
    parts = slots.split(_serialize(root), before=b"<!--", after=b"-->")
    pieces = keep(f"{__name__}:event", wanted, render_event)
    # The version is a hash of the document with an empty version, written into it afterwards.
    head = parts[0]
    assert isinstance(head, bytes)  # noqa: S101 - the document starts with its head
    stamp = digest_of(parts, pieces)[:12]
    parts[0] = head.replace(b"<version />", f"<version>{stamp}</version>".encode(), 1)
    return joined(parts, pieces)


def render_event(session: Session, context: Context) -> bytes:
    """One session's `<event>` element, indented as it stands in the document (under
    schedule/day/room), without the whitespace after it."""
    zone, slug, event_id, base, billing = context
    element = _event(
        session, zone=zone, slug=slug, event_id=event_id, base=base,
        speakers={key: speaker for key, speaker in billing if speaker is not None},
    )  # fmt: skip
    indent(element, space="  ", level=3)
    return tostring(element, encoding="unicode").encode()


def _event(
    session: Session,
    *,
    zone: tzinfo,
    slug: str,
    event_id: int,
    base: str,
    speakers: dict[str, Speaker],
) -> Element:
    assert session.starts_at is not None  # only scheduled sessions get here
    starts_at = _local(session.starts_at, zone)
    length = (session.ends_at - session.starts_at) if session.ends_at else timedelta(0)
    element = Element(
        "event",
        guid=export_guid(slug, session.key),
        id=str(event_id),
    )
    _add(element, "date", _stamp(starts_at))
    _add(element, "start", starts_at.strftime("%H:%M"))
    _add(element, "duration", _clock_text(min(length, MAX_DURATION)))
    _add(element, "room", session.room)
    _add(element, "slug", export_slug(slug, number=event_id, title=session.title))
    if base:
        _add(element, "url", f"{base}/sessions/{quote(session.key, safe='')}/")
    _add(element, "title", session.title)
    _add(element, "subtitle", "")
    _add(element, "track", session.track)
    _add(element, "type", session.kind)
    if session.language:
        _add(element, "language", session.language)
    _add(element, "abstract", session.abstract)
    persons = SubElement(element, "persons")
    for billing in session.speakers:
        speaker = speakers.get(billing.speaker_key)
        attributes = {"id": str(export_number(billing.speaker_key))}
        if _UUID.fullmatch(billing.speaker_key):
            attributes["guid"] = billing.speaker_key
        person = SubElement(persons, "person", attributes)
        person.text = _safe(speaker.name if speaker else billing.speaker_key)
    if session.links:
        links = SubElement(element, "links")
        for link in session.links:
            written = SubElement(links, "link", href=_safe(link.url), type=C3VOC_TYPES[link.kind])
            written.text = _safe(link.title or link.url)
    if attached := [link for link in session.links if link.is_attachment]:
        # Files the site holds, also as frab lists its uploads (interchange/links.py).
        attachments = SubElement(element, "attachments")
        for link in attached:
            written = SubElement(
                attachments, "attachment", href=_safe(link.url), type=C3VOC_TYPES[link.kind]
            )
            written.text = _safe(link.title or link.url)
    if base:
        _add(element, "feedback_url", f"{base}/sessions/{quote(session.key, safe='')}/feedback/")
    return element


def _add(parent: Element, tag: str, text: str) -> Element:
    element = SubElement(parent, tag)
    element.text = _safe(text)
    return element


def _safe(text: str) -> str:
    return _NOT_XML.sub("", text)


def _serialize(root: Element) -> bytes:
    body = tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'.encode()


def _local(value: datetime | None, zone: tzinfo) -> datetime:
    assert value is not None
    return value.astimezone(zone)


def _stamp(value: datetime) -> str:
    return value.isoformat(timespec="seconds")


def _clock_text(value: timedelta) -> str:
    seconds = int(value.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


def _timeslot(sessions: list[Session], zone: tzinfo) -> timedelta:
    """The grid step: the largest step every start and length fits, between 5 and 15 minutes."""
    step = 0
    for session in sessions:
        starts_at = _local(session.starts_at, zone)
        step = math.gcd(step, starts_at.hour * 60 + starts_at.minute)
        if session.ends_at and session.starts_at:
            step = math.gcd(step, int((session.ends_at - session.starts_at).total_seconds()) // 60)
    return timedelta(minutes=min(15, max(5, step)) if step else 15)
