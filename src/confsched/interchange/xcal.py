"""xCal (RFC 6321), the XML representation of iCalendar, as frab and pretalx publish it in
`schedule.xcal`: one VEVENT per scheduled session, the same events as the iCalendar feed.

Writing: `<icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar>` with the
calendar's <properties> (prodid, version, calscale, method, x-wr-calname, x-wr-timezone) and
one <vevent> per session in <components>. Values follow the iCalendar feed
(`confsched.interchange.ical`): UID "{key}@{uid_domain}", SUMMARY "Kind: Title",
DESCRIPTION the speakers line, a blank line and the abstract, LOCATION "Room, {location}",
CATEGORIES the track, ATTACH (a uri) each of its links. Times are UTC date-times
("2026-04-07T07:45:00Z"), which RFC 6321 allows and which need no VTIMEZONE component (whose
XML form few readers handle); the
programme's zone travels in x-wr-timezone. Sessions without a start, or flagged for review,
are left out; cancelled ones are kept with STATUS CANCELLED so that calendars drop them.
The output depends on the arguments only, byte for byte.

Reading: the same rules as the iCalendar reader (`confsched.interchange.ical_reader`), for
what this writer produces and what other xCal writers commonly do: <date-time> in UTC, with a
tzid parameter (an IANA name) or floating, <date> for all-day events, <duration>, several
<text> in <categories>, <attendee> with a cn parameter as a speaker. The XML goes through
`documents.read_xml` (defusedxml: no entity expansion, no external DTD; an unknown declared
encoding is refused).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET  # noqa: S405 - writes only; reading goes through defusedxml
from collections.abc import Callable
from datetime import UTC, date, datetime
from urllib.parse import quote, urlsplit

from icalendar import vDuration

from confsched.core.errors import ParseError
from confsched.interchange.documents import read_xml
from confsched.interchange.ical import FALLBACK_DTSTAMP, PRODID, calendar_description
from confsched.interchange.ical_reader import (
    EventFields,
    TimeValue,
    attendee_speaker,
    build_programme,
    describe_event,
)
from confsched.interchange.programme import Programme, Session, Speaker

FORMAT_NAME = "xcal"
DESCRIPTION = "xCal (RFC 6321): iCalendar as XML, the schedule.xcal of frab and pretalx"
NAMESPACE = "urn:ietf:params:xml:ns:icalendar-2.0"

_NS = f"{{{NAMESPACE}}}"
# XML 1.0 cannot carry these characters at all, not even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ROOT_TAG = re.compile(
    r"^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--.*?-->|<!DOCTYPE[^>]*>)\s*)*"
    r"<(?:[A-Za-z_][\w.-]*:)?icalendar\b(?P<attributes>[^>]*)>",
    re.DOTALL,
)
_DATE_TIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)$")
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def looks_like(head: str) -> bool:
    """True for an XML document whose root element is xCal's <icalendar> in its namespace."""
    match = _ROOT_TAG.match(head.lstrip("\ufeff"))
    return match is not None and NAMESPACE in match["attributes"]


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
    # One VEVENT per key, as in the iCalendar feed: two with one UID read as copies of one.
    by_key = {
        session.key: session
        for session in programme.sessions
        if session.starts_at is not None and not session.needs_review
    }
    scheduled = sorted(by_key.values(), key=lambda session: (session.starts_at, session.key))

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
    for session in scheduled:
        if url_for is not None:
            url = url_for(session.key)
        elif base_url:
            url = f"{base_url.rstrip('/')}/{slug}/sessions/{quote(session.key, safe='@')}/"
        else:
            url = ""
        _add_event(
            components,
            session,
            programme=programme,
            speakers=speakers,
            uid=f"{session.key}@{domain}" if domain else session.key,
            url=url,
            now=now,
        )
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


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
