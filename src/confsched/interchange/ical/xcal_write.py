"""xCal, the XML form of iCalendar, written in the two shapes found in the wild (the reader
is `ical.xcal_read`).

The frab/pentabarf dialect is what frab and pretalx serve as `schedule.xcal` and what the phone
apps read (Giggity's xCal reader): a root <iCalendar> declaring the prefixes xCal
("urn:ietf:params:xml:ns:xcal") and pentabarf, its elements in no namespace, one <vevent> per
session whose properties are flat elements holding their text (<uid>, <summary>,
<dtstart tzid="Europe/Paris">20260407T114500</dtstart> in the event's wall-clock time and
zone, <location> the room alone, <attendee> a speaker's name). Giggity drops an event that
lacks any of uid, summary, location, dtstart and dtend, so all five are always written.
`render_pentabarf` writes it.

RFC 6321 is the standard form: `<icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0">
<vcalendar>` with the calendar's <properties> (prodid, version, calscale, x-wr-calname,
x-wr-timezone) and one <vevent> per session in <components>. `render` writes it.

Both carry the iCalendar feed's values (`ical.write`): UID "{key}@{uid_domain}",
SUMMARY "Kind: Title" ("Cancelled: Kind: Title" for a cancelled session, which Giggity shows
as it ignores STATUS), DESCRIPTION the speakers line, a blank line and the abstract,
CATEGORIES (the dialect: <category>) the track, ATTACH (a uri) each of its links. RFC 6321
LOCATION is "Room, {location}" as in the feed, the calendar's name without either. Its times
are UTC date-times ("2026-04-07T07:45:00Z"), which RFC 6321 allows and which need no VTIMEZONE
component (whose XML form few readers handle); the programme's zone travels in x-wr-timezone
(in both forms) and, in the dialect, in each time's tzid attribute.
Sessions without a start, or flagged for review, are left out; cancelled ones are kept with
STATUS CANCELLED so that calendars drop them. The output depends on the arguments only, byte
for byte.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET  # noqa: S405 - writes only; reading goes through defusedxml
from collections.abc import Callable
from datetime import UTC, datetime, tzinfo
from urllib.parse import quote, urlsplit

from confsched.interchange.ical.write import (
    FALLBACK_DTSTAMP,
    PRODID,
    calendar_description,
    calendar_location,
    calendar_summary,
)
from confsched.interchange.ical.xcal_read import (
    DIALECT_XCAL_NAMESPACE,
    NAMESPACE,
    PENTABARF_NAMESPACE,
)
from confsched.interchange.identity import export_ids, export_slug
from confsched.interchange.pieces import Context, Keeper, Slots, billed, build_all, joined
from confsched.interchange.programme import Programme, Session, Speaker
from confsched.interchange.zones import programme_zone

# XML 1.0 cannot carry these characters at all, not even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def render(
    programme: Programme,
    *,
    slug: str,
    base_url: str = "",
    now: datetime | None = None,
    uid_domain: str = "",
    url_for: Callable[[str], str] | None = None,
    keep: Keeper = build_all,
) -> bytes:
    """The programme's scheduled sessions as one xCal document, UTF-8 with a declaration; each
    <vevent> asked of `keep` (interchange/pieces.py).

    UIDs are "{key}@{uid_domain}", the domain defaulting to base_url's host; with neither, the
    bare key. Session URLs come from `url_for`, else "{base_url}/{slug}/sessions/{key}/".
    """
    if now is not None:
        now = _utc(now, "now")
    domain = uid_domain or urlsplit(base_url).hostname or ""
    root = ET.Element("icalendar", xmlns=NAMESPACE)
    vcalendar = ET.SubElement(root, "vcalendar")
    properties = ET.SubElement(vcalendar, "properties")
    _add(properties, "prodid", "text", PRODID)
    _add(properties, "version", "text", "2.0")
    _add(properties, "calscale", "text", "GREGORIAN")
    # No method, as in the iCalendar feed (`ical.write`): PUBLISH would need an organizer.
    _add(properties, "x-wr-calname", "text", programme.name or slug)
    if programme.timezone:
        _add(properties, "x-wr-timezone", "text", programme.timezone)
    components = ET.SubElement(vcalendar, "components")
    speakers = {speaker.key: speaker for speaker in programme.speakers}
    slots = Slots()
    wanted: list[tuple[Session, Context]] = []
    for session in _scheduled(programme):
        components.append(ET.Comment(slots.slot(len(wanted))))
        context = (
            (programme.location, programme.name or slug), billed(session.speakers, speakers),
            f"{session.key}@{domain}" if domain else session.key,
            _session_url(session, slug=slug, base_url=base_url, url_for=url_for), now,
        )  # fmt: skip
        wanted.append((session, context))
    return _joined(root, slots, keep(f"{__name__}:vevent", wanted, render_vevent))


def render_vevent(session: Session, context: Context) -> bytes:
    """One session's RFC 6321 <vevent>, indented as it stands under <components>."""
    (location, calendar_name), billing, uid, url, now = context
    speakers = {key: speaker for key, speaker in billing if speaker is not None}
    vevent = _event(
        session, location=location, calendar_name=calendar_name, speakers=speakers, uid=uid,
        url=url, now=now,
    )  # fmt: skip
    return _piece(vevent, level=3)


def _piece(element: ET.Element, *, level: int) -> bytes:
    ET.indent(element, level=level)
    return ET.tostring(element, encoding="utf-8")


def _joined(root: ET.Element, slots: Slots, pieces: list[bytes]) -> bytes:
    ET.indent(root)
    skeleton = ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
    return joined(slots.split(skeleton, before=b"<!--", after=b"-->"), pieces)


def render_pentabarf(
    programme: Programme,
    *,
    slug: str,
    base_url: str = "",
    uid_domain: str = "",
    url_for: Callable[[str], str] | None = None,
    keep: Keeper = build_all,
) -> bytes:
    """The programme's scheduled sessions in the frab/pentabarf xCal dialect (Giggity's), UTF-8
    with a declaration; UIDs and URLs as `render` makes them; each <vevent> asked of `keep`.

    Times are the wall-clock time in the programme's zone, as frab and pretalx write them,
    and name it: in x-wr-timezone and in a tzid attribute of <dtstart> and <dtend> (Giggity
    reads it; without it a reader takes the times as floating, in its own zone). A programme
    without a zone is written in UTC, with a trailing "Z".
    """
    domain = uid_domain or urlsplit(base_url).hostname or ""
    zone = programme_zone(programme.timezone) if programme.timezone else None
    # Prefixed names written as they are: ElementTree would invent "ns0:" prefixes.
    root = ET.Element(
        "iCalendar",
        {"xmlns:pentabarf": PENTABARF_NAMESPACE, "xmlns:xCal": DIALECT_XCAL_NAMESPACE},
    )
    vcalendar = ET.SubElement(root, "vcalendar")
    name = programme.name or slug
    for tag, text in (
        ("version", "2.0"), ("prodid", PRODID), ("x-wr-caldesc", name), ("x-wr-calname", name),
        ("x-wr-timezone", programme.timezone),
    ):  # fmt: skip
        if text:
            _flat(vcalendar, tag, text)
    speakers = {speaker.key: speaker for speaker in programme.speakers}
    # The session's slug as schedule.xml and schedule.json give it (interchange/identity.py).
    ids = export_ids(session.key for session in programme.sessions)
    slots = Slots()
    wanted: list[tuple[Session, Context]] = []
    for session in _scheduled(programme):
        vcalendar.append(ET.Comment(slots.slot(len(wanted))))
        context = (
            zone, billed(session.speakers, speakers),
            f"{session.key}@{domain}" if domain else session.key,
            _session_url(session, slug=slug, base_url=base_url, url_for=url_for),
            export_slug(slug, number=ids[session.key], title=session.title),
        )  # fmt: skip
        wanted.append((session, context))
    return _joined(root, slots, keep(f"{__name__}:pentabarf-vevent", wanted, render_flat_vevent))


def render_flat_vevent(session: Session, context: Context) -> bytes:
    """One session's <vevent> in the frab/pentabarf dialect, indented as under <vcalendar>."""
    zone, named, uid, url, event_slug = context
    speakers = {key: speaker for key, speaker in named if speaker is not None}
    assert session.starts_at is not None  # only scheduled sessions get here
    vevent = ET.Element("vevent")
    _flat(vevent, "method", "PUBLISH")
    _flat(vevent, "uid", uid)
    _flat(vevent, "pentabarf:event-slug", event_slug)
    _flat(vevent, "pentabarf:title", session.title)
    if session.language:
        _flat(vevent, "pentabarf:language-code", session.language)
    for tag, moment in (("dtstart", session.starts_at), ("dtend", session.ends_at)):
        _flat(vevent, tag, _wall_clock(moment or session.starts_at, zone))
        if zone is not None:
            # The zone as the dialect's readers take it, the iCalendar parameter as an
            # attribute (Giggity: <dtstart tzid="…">): without it they read floating times in
            # the phone's zone.
            vevent[-1].set("tzid", str(zone))
    _flat(vevent, "summary", calendar_summary(session))
    _flat(vevent, "description", calendar_description(session, speakers))
    _flat(vevent, "class", "PUBLIC")
    _flat(vevent, "status", "CANCELLED" if session.is_cancelled else "CONFIRMED")
    if session.track:
        _flat(vevent, "category", session.track)
    if url:
        _flat(vevent, "url", url)
    # Giggity's rooms are the locations: the room alone, and present even when empty.
    _flat(vevent, "location", session.room)
    for billing in session.speakers:
        speaker = speakers.get(billing.speaker_key)
        _flat(vevent, "attendee", speaker.name if speaker else billing.speaker_key)
    for link in session.links:
        _flat(vevent, "attach", link.url)
    return _piece(vevent, level=2)


def _scheduled(programme: Programme) -> list[Session]:
    # One VEVENT per key, as in the iCalendar feed: two with one UID read as copies of one.
    by_key = {
        session.key: session
        for session in programme.sessions
        if session.starts_at is not None and not session.needs_review
    }
    return sorted(by_key.values(), key=lambda session: (session.starts_at, session.key))


def _session_url(
    session: Session, *, slug: str, base_url: str, url_for: Callable[[str], str] | None
) -> str:
    if url_for is not None:
        return url_for(session.key)
    if base_url:
        return f"{base_url.rstrip('/')}/{slug}/sessions/{quote(session.key, safe='@')}/"
    return ""


def _flat(parent: ET.Element, tag: str, text: str) -> None:
    ET.SubElement(parent, tag).text = _NOT_XML.sub("", text)


def _wall_clock(value: datetime, zone: tzinfo | None) -> str:
    if zone is None:
        return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return value.astimezone(zone).strftime("%Y%m%dT%H%M%S")


def _event(
    session: Session,
    *,
    location: str,
    calendar_name: str,
    speakers: dict[str, Speaker],
    uid: str,
    url: str,
    now: datetime | None,
) -> ET.Element:
    assert session.starts_at is not None  # only scheduled sessions get here
    last_modified = (
        _utc(session.last_modified, f"session {session.key!r}: last_modified")
        if session.last_modified is not None
        else None
    )
    vevent = ET.Element("vevent")
    properties = ET.SubElement(vevent, "properties")
    _add(properties, "uid", "text", uid)
    _add(properties, "dtstamp", "date-time", _stamp(last_modified or now or FALLBACK_DTSTAMP))
    _add(properties, "dtstart", "date-time", _stamp(session.starts_at))
    _add(properties, "dtend", "date-time", _stamp(session.ends_at or session.starts_at))
    _add(properties, "summary", "text", calendar_summary(session))
    if description := calendar_description(session, speakers):
        _add(properties, "description", "text", description)
    _add(properties, "location", "text", calendar_location(session, location, calendar_name))
    if session.track:
        _add(properties, "categories", "text", session.track)
    if url:
        _add(properties, "url", "uri", url)
    for link in session.links:
        _add(properties, "attach", "uri", link.url)
    _add(properties, "sequence", "integer", str(session.sequence))
    _add(properties, "status", "text", "CANCELLED" if session.is_cancelled else "CONFIRMED")
    if last_modified is not None:
        _add(properties, "last-modified", "date-time", _stamp(last_modified))
    return vevent


def _add(properties: ET.Element, name: str, value_type: str, value: str) -> None:
    ET.SubElement(ET.SubElement(properties, name), value_type).text = _NOT_XML.sub("", value)


def _stamp(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _utc(value: datetime, what: str) -> datetime:
    # A naive time would be read in the server's zone: refuse rather than guess.
    if value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware")
    return value.astimezone(UTC)
