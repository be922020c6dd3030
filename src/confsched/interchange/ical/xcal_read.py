"""xCal, the XML form of iCalendar, in the two shapes found in the wild.

The frab/pentabarf dialect is what frab and pretalx serve as `schedule.xcal` and what the phone
apps read (Giggity's xCal reader): a root <iCalendar> declaring the prefixes xCal
("urn:ietf:params:xml:ns:xcal") and pentabarf, its elements in no namespace, one <vevent> per
session whose properties are flat elements holding their text (<uid>, <summary>,
<dtstart>20260407T114500</dtstart> in the event's wall-clock time, <location> the room alone,
<attendee> a speaker's name). Giggity drops an event that lacks any of uid, summary, location,
dtstart and dtend, so all five are always written. `render_pentabarf` writes it.

RFC 6321 is the standard form: `<icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0">
<vcalendar>` with the calendar's <properties> (prodid, version, calscale, method, x-wr-calname,
x-wr-timezone) and one <vevent> per session in <components>. `render` writes it.

Both carry the iCalendar feed's values (`confsched.interchange.ical`): UID "{key}@{uid_domain}",
SUMMARY "Kind: Title", DESCRIPTION the speakers line, a blank line and the abstract,
CATEGORIES (the dialect: <category>) the track, ATTACH (a uri) each of its links. RFC 6321
LOCATION is "Room, {location}" as in the feed. Its times are UTC date-times
("2026-04-07T07:45:00Z"), which RFC 6321 allows and which need no VTIMEZONE component (whose
XML form few readers handle); the programme's zone travels in x-wr-timezone (in both forms).
Sessions without a start, or flagged for review, are left out; cancelled ones are kept with
STATUS CANCELLED so that calendars drop them. The output depends on the arguments only, byte
for byte.

Reading: both forms, by the same rules as the iCalendar reader
(`confsched.interchange.ical.read`), for what these writers produce and what other xCal
writers commonly do: <date-time> in UTC, with a tzid parameter (an IANA name) or floating,
<date> for all-day events, <duration>, several <text> in <categories>, <attendee> with a cn
parameter as a speaker; in the dialect, times as "20260407T114500" (floating: read in
x-wr-timezone, else the zone given for floating times) or with a trailing "Z" (UTC). The XML
goes through `documents.read_xml` (defusedxml: no entity expansion, no external DTD; an unknown
declared encoding is refused).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET  # noqa: S405 - writes only; reading goes through defusedxml
from collections.abc import Callable
from datetime import UTC, date, datetime, tzinfo
from urllib.parse import quote, urlsplit

from icalendar import vDuration

from confsched.core.errors import ParseError
from confsched.interchange.documents import read_xml
from confsched.interchange.ical.read import (
    EventFields,
    TimeValue,
    attendee_speaker,
    build_programme,
    describe_event,
)
from confsched.interchange.ical.write import FALLBACK_DTSTAMP, PRODID, calendar_description
from confsched.interchange.programme import Programme, Session, Speaker
from confsched.interchange.zones import programme_zone

FORMAT_NAME = "xcal"
DESCRIPTION = "xCal (RFC 6321): iCalendar as XML, the schedule.xcal of frab and pretalx"
NAMESPACE = "urn:ietf:params:xml:ns:icalendar-2.0"
# The frab/pentabarf dialect declares these prefixes on its root and puts nothing in them but
# a few pentabarf:* elements.
DIALECT_XCAL_NAMESPACE = "urn:ietf:params:xml:ns:xcal"
PENTABARF_NAMESPACE = "http://pentabarf.org"

_NS = f"{{{NAMESPACE}}}"
# XML 1.0 cannot carry these characters at all, not even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ROOT_TAG = re.compile(
    r"^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--.*?-->|<!DOCTYPE[^>]*>)\s*)*"
    r"<(?:[A-Za-z_][\w.-]*:)?(?P<name>icalendar)\b(?P<attributes>[^>]*)>",
    re.DOTALL | re.IGNORECASE,
)
_DATE_TIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)$")
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_BASIC_DATE_TIME = re.compile(r"^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$")


def looks_like(head: str) -> bool:
    """True for an XML document whose root element is xCal's <icalendar> in its namespace, or
    the frab/pentabarf dialect's <iCalendar> declaring the xCal prefix."""
    match = _ROOT_TAG.match(head.lstrip("\ufeff"))
    if match is None:
        return False
    if match["name"] == "icalendar" and NAMESPACE in match["attributes"]:
        return True
    return DIALECT_XCAL_NAMESPACE in match["attributes"].replace(NAMESPACE, "")


def render(
    programme: Programme,
    *,
    slug: str,
    base_url: str = "",
    now: datetime | None = None,
    uid_domain: str = "",
    url_for: Callable[[str], str] | None = None,
) -> bytes:
    """The programme's scheduled sessions as one xCal document, UTF-8 with a declaration.

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
    _add(properties, "method", "text", "PUBLISH")
    _add(properties, "x-wr-calname", "text", programme.name or slug)
    if programme.timezone:
        _add(properties, "x-wr-timezone", "text", programme.timezone)
    components = ET.SubElement(vcalendar, "components")
    speakers = {speaker.key: speaker for speaker in programme.speakers}
    for session in _scheduled(programme):
        _add_event(
            components,
            session,
            programme=programme,
            speakers=speakers,
            uid=f"{session.key}@{domain}" if domain else session.key,
            url=_session_url(session, slug=slug, base_url=base_url, url_for=url_for),
            now=now,
        )
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def render_pentabarf(
    programme: Programme,
    *,
    slug: str,
    base_url: str = "",
    uid_domain: str = "",
    url_for: Callable[[str], str] | None = None,
) -> bytes:
    """The programme's scheduled sessions in the frab/pentabarf xCal dialect (Giggity's), UTF-8
    with a declaration; UIDs and URLs as `render` makes them.

    Times are the wall-clock time in the programme's zone (named in x-wr-timezone), as frab and
    pretalx write them; a programme without a zone is written in UTC, with a trailing "Z".
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
    for session in _scheduled(programme):
        assert session.starts_at is not None  # only scheduled sessions get here
        vevent = ET.SubElement(vcalendar, "vevent")
        _flat(vevent, "method", "PUBLISH")
        _flat(vevent, "uid", f"{session.key}@{domain}" if domain else session.key)
        _flat(vevent, "pentabarf:event-slug", session.key)
        _flat(vevent, "pentabarf:title", session.title)
        if session.language:
            _flat(vevent, "pentabarf:language-code", session.language)
        _flat(vevent, "dtstart", _wall_clock(session.starts_at, zone))
        _flat(vevent, "dtend", _wall_clock(session.ends_at or session.starts_at, zone))
        _flat(
            vevent, "summary", f"{session.kind}: {session.title}" if session.kind else session.title
        )
        _flat(vevent, "description", calendar_description(session, speakers))
        _flat(vevent, "class", "PUBLIC")
        _flat(vevent, "status", "CANCELLED" if session.is_cancelled else "CONFIRMED")
        if session.track:
            _flat(vevent, "category", session.track)
        if url := _session_url(session, slug=slug, base_url=base_url, url_for=url_for):
            _flat(vevent, "url", url)
        # Giggity's rooms are the locations: the room alone, and present even when empty.
        _flat(vevent, "location", session.room)
        for billing in session.speakers:
            speaker = speakers.get(billing.speaker_key)
            _flat(vevent, "attendee", speaker.name if speaker else billing.speaker_key)
        for link in session.links:
            _flat(vevent, "attach", link.url)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


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


def _add_event(
    parent: ET.Element,
    session: Session,
    *,
    programme: Programme,
    speakers: dict[str, Speaker],
    uid: str,
    url: str,
    now: datetime | None,
) -> None:
    assert session.starts_at is not None  # only scheduled sessions get here
    last_modified = (
        _utc(session.last_modified, f"session {session.key!r}: last_modified")
        if session.last_modified is not None
        else None
    )
    properties = ET.SubElement(ET.SubElement(parent, "vevent"), "properties")
    _add(properties, "uid", "text", uid)
    _add(properties, "dtstamp", "date-time", _stamp(last_modified or now or FALLBACK_DTSTAMP))
    _add(properties, "dtstart", "date-time", _stamp(session.starts_at))
    _add(properties, "dtend", "date-time", _stamp(session.ends_at or session.starts_at))
    summary = f"{session.kind}: {session.title}" if session.kind else session.title
    _add(properties, "summary", "text", summary)
    if description := calendar_description(session, speakers):
        _add(properties, "description", "text", description)
    if location := ", ".join(part for part in (session.room, programme.location) if part):
        _add(properties, "location", "text", location)
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


def _add(properties: ET.Element, name: str, value_type: str, value: str) -> None:
    ET.SubElement(ET.SubElement(properties, name), value_type).text = _NOT_XML.sub("", value)


def _stamp(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _utc(value: datetime, what: str) -> datetime:
    # A naive time would be read in the server's zone: refuse rather than guess.
    if value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware")
    return value.astimezone(UTC)


# --- reading -------------------------------------------------------------------------------


def parse(
    data: bytes | str,
    *,
    source: str,
    default_timezone: str = "",
    uid_domain: str = "",
    location: str = "",
) -> Programme:
    """Read an xCal document by the iCalendar reader's rules; refuses what is not xCal."""
    # Text is parsed as text (expat then ignores the declared encoding, as it should): read_xml
    # is annotated for bytes, but defusedxml takes both.
    root = read_xml(data, source=source, what="xCal")
    if not _namespace(root.tag) and _local(root.tag).lower() == "icalendar":
        return _parse_dialect(
            root, source=source, default_timezone=default_timezone, uid_domain=uid_domain,
            location=location,
        )  # fmt: skip
    if root.tag != f"{_NS}icalendar":
        raise ParseError(
            f"not xCal: the root element is <{_local(root.tag)}>"
            + (f" in namespace {_namespace(root.tag)!r}" if _namespace(root.tag) else "")
            + f'; expected <icalendar xmlns="{NAMESPACE}">',
            source=source,
        )
    calendars = root.findall(f"{_NS}vcalendar")
    if not calendars:
        raise ParseError("xCal without a <vcalendar> element under <icalendar>", source=source)
    calendar_properties = calendars[0].find(f"{_NS}properties")
    events = [
        _event_fields(vevent, source=source)
        for calendar in calendars
        for vevent in calendar.findall(f"{_NS}components/{_NS}vevent")
    ]
    return build_programme(
        events,
        source=source,
        name=_value(calendar_properties, "x-wr-calname") or _value(calendar_properties, "name"),
        declared_timezone=_value(calendar_properties, "x-wr-timezone").strip(),
        default_timezone=default_timezone,
        uid_domain=uid_domain,
        location=location,
        unknown_zone_hint="is not an IANA time zone name (confsched reads only those in xCal)",
    )


def _parse_dialect(
    root: ET.Element, *, source: str, default_timezone: str, uid_domain: str, location: str
) -> Programme:
    """The frab/pentabarf dialect: flat elements named as the properties, holding their text."""
    calendars = [child for child in root if _local(child.tag) == "vcalendar"]
    if not calendars:
        raise ParseError("xCal without a <vcalendar> element under <iCalendar>", source=source)
    calendar = _flat_values(calendars[0])
    events = [
        _dialect_event(vevent, source=source)
        for each in calendars
        for vevent in each
        if _local(vevent.tag) == "vevent"
    ]
    return build_programme(
        events,
        source=source,
        name=calendar.get("x-wr-calname", [""])[0] or calendar.get("x-wr-caldesc", [""])[0],
        declared_timezone=calendar.get("x-wr-timezone", [""])[0].strip(),
        default_timezone=default_timezone,
        uid_domain=uid_domain,
        location=location,
        unknown_zone_hint="is not an IANA time zone name (confsched reads only those in xCal)",
    )


def _flat_values(parent: ET.Element) -> dict[str, list[str]]:
    """The text of each child in no namespace, by lower-case name, in document order."""
    values: dict[str, list[str]] = {}
    for child in parent:
        if not _namespace(child.tag) and _local(child.tag) not in {"vevent", "vcalendar"}:
            values.setdefault(_local(child.tag).lower(), []).append(child.text or "")
    return values


def _dialect_event(vevent: ET.Element, *, source: str) -> EventFields:
    values = _flat_values(vevent)

    def first(name: str) -> str:
        return values.get(name, [""])[0]

    uid, summary = first("uid").strip(), first("summary").strip()
    who = describe_event(uid, summary)
    fields = EventFields(
        uid=uid,
        summary=summary,
        description=first("description"),
        location=first("location").strip(),
        categories=values.get("category", []) + values.get("categories", []),
        status=first("status").strip().upper(),
        url=first("url").strip(),
        repeats="rrule" in values or "rdate" in values,
        attendees=[
            name
            for written in values.get("attendee", [])
            if (name := attendee_speaker(name=written, role="", cutype=""))
        ],
    )
    # What the event does not say is unknown, not empty (as in the iCalendar reader).
    fields.unknown = {
        field_name
        for field_name, names in (
            ("room", ("location",)),
            ("track", ("category", "categories")),
            ("abstract", ("description",)),
            ("speakers", ("description", "attendee")),
            ("affiliations", ("description", "attendee")),
        )
        if not any(name in values for name in names)
    }
    for name in ("dtstart", "dtend"):
        if name not in values:
            continue
        written = first(name).strip()
        match = _BASIC_DATE_TIME.match(written) or _DATE_TIME.match(written)
        moment = _build(datetime, match.groups()[:6]) if match else None
        if not isinstance(moment, datetime):
            raise ParseError(
                f"{who}: <{name}>{written}</{name}> cannot be read; expected a time such as "
                f"<{name}>20260407T114500</{name}> (the event's local time) or "
                f"<{name}>20260407T094500Z</{name}> (UTC)",
                source=source,
            )
        assert match is not None
        value = TimeValue(
            value=moment.replace(tzinfo=UTC) if match[7] else moment,
            text=f"<{name}>{written}</{name}>",
        )
        if name == "dtstart":
            fields.start = value
        else:
            fields.end = value
    return fields


def _event_fields(vevent: ET.Element, *, source: str) -> EventFields:
    properties = vevent.find(f"{_NS}properties")
    uid = _value(properties, "uid").strip()
    summary = _value(properties, "summary").strip()
    who = describe_event(uid, summary)
    fields = EventFields(
        uid=uid,
        summary=summary,
        description=_value(properties, "description"),
        location=_value(properties, "location").strip(),
        categories=[
            value.text or ""
            for prop in _properties(properties, "categories")
            for value in prop
            if _local(value.tag) != "parameters"
        ],
        status=_value(properties, "status").strip().upper(),
        url=_value(properties, "url").strip(),
        repeats=bool(_properties(properties, "rrule") or _properties(properties, "rdate")),
        attendees=[
            name
            for prop in _properties(properties, "attendee")
            if (
                name := attendee_speaker(
                    name=_parameter(prop, "cn"),
                    role=_parameter(prop, "role"),
                    cutype=_parameter(prop, "cutype"),
                )
            )
        ],
    )
    # What the event does not say is unknown, not empty (as in the iCalendar reader).
    fields.unknown = {
        field_name
        for field_name, names in (
            ("room", ("location",)),
            ("track", ("categories",)),
            ("abstract", ("description",)),
            ("speakers", ("description", "attendee")),
            ("affiliations", ("description", "attendee")),
        )
        if not any(_properties(properties, name) for name in names)
    }
    fields.start = _time_value(properties, "dtstart", who=who, source=source)
    fields.end = _time_value(properties, "dtend", who=who, source=source)
    if (written := _value(properties, "duration").strip()) and fields.end is None:
        fields.duration_text = f"<duration>{written}</duration>"
        try:
            fields.duration = vDuration.from_ical(written)
        except (ValueError, OverflowError) as exc:  # the library refuses "impractical" lengths
            raise ParseError(
                f"{who}: {fields.duration_text} cannot be read; expected a duration "
                "such as PT45M or PT1H30M",
                source=source,
            ) from exc
    return fields


def _time_value(
    properties: ET.Element | None, name: str, *, who: str, source: str
) -> TimeValue | None:
    found = _properties(properties, name)
    if not found:
        return None
    prop = found[0]
    tzid = _parameter(prop, "tzid")
    value = next((child for child in prop if _local(child.tag) != "parameters"), None)
    written = (value.text or "").strip() if value is not None else ""
    kind = _local(value.tag) if value is not None else ""
    shown = f"<{name}><{kind}>{written}</{kind}></{name}>" if kind else f"<{name}/>"
    parsed: date | datetime | None = None
    if kind == "date-time" and (match := _DATE_TIME.match(written)):
        moment = _build(datetime, match.groups()[:6])
        parsed = moment.replace(tzinfo=UTC) if isinstance(moment, datetime) and match[7] else moment
    elif kind == "date" and (match := _DATE.match(written)):
        parsed = _build(date, match.groups())
    if parsed is None:
        raise ParseError(
            f"{who}: {shown} cannot be read; expected <date-time>2026-04-07T07:45:00Z"
            "</date-time> (UTC; local with a tzid parameter or floating without one) or "
            "<date>2026-04-07</date>",
            source=source,
        )
    return TimeValue(value=parsed, tzid=tzid, text=shown)


def _build(kind: type[date] | type[datetime], parts: tuple[str, ...]) -> date | None:
    try:
        return kind(*(int(part) for part in parts))  # type: ignore[arg-type]  # year, month, …
    except ValueError:  # 2026-02-30, 25:00
        return None


def _parameter(prop: ET.Element, name: str) -> str:
    """The text of a property's parameter (the last, if given twice), "" without it."""
    found = prop.findall(f"{_NS}parameters/{_NS}{name}")
    return "".join(found[-1].itertext()).strip() if found else ""


def _properties(properties: ET.Element | None, name: str) -> list[ET.Element]:
    return [] if properties is None else properties.findall(f"{_NS}{name}")


def _value(properties: ET.Element | None, name: str) -> str:
    """Text of a property's first value element, whatever its type (text, unknown, uri…)."""
    for prop in _properties(properties, name):
        for value in prop:
            if _local(value.tag) != "parameters":
                return value.text or ""
    return ""


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _namespace(tag: str) -> str:
    return tag[1:].partition("}")[0] if tag.startswith("{") else ""
