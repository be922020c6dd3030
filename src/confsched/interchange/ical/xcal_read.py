"""xCal, the XML form of iCalendar, read in the two shapes found in the wild (the writers are
in `ical.xcal_write`).

Reading: both forms, by the same rules as the iCalendar reader
(`confsched.interchange.ical.read`), for what these writers produce and what other xCal
writers commonly do: <date-time> in UTC, with a tzid parameter (an IANA name) or floating,
<date> for all-day events, <duration>, several <text> in <categories>, <attendee> with a cn
parameter as a speaker; in the dialect, times as "20260407T114500" in the zone of a tzid
attribute, else floating (read in x-wr-timezone, else the zone given for floating times), or
with a trailing "Z" (UTC). The XML
goes through `documents.read_xml` (defusedxml: no entity expansion, no external DTD; an unknown
declared encoding is refused).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET  # noqa: S405 - writes only; reading goes through defusedxml
from datetime import UTC, date, datetime

from icalendar import vDuration

from confsched.core.errors import ParseError
from confsched.interchange.documents import read_xml
from confsched.interchange.ical.events import (
    EventFields,
    TimeValue,
    attendee_speaker,
    build_programme,
    describe_event,
)
from confsched.interchange.programme import Programme

FORMAT_NAME = "xcal"
DESCRIPTION = "xCal (RFC 6321): iCalendar as XML, the schedule.xcal of frab and pretalx"
NAMESPACE = "urn:ietf:params:xml:ns:icalendar-2.0"
# The frab/pentabarf dialect declares these prefixes on its root and puts nothing in them but
# a few pentabarf:* elements.
DIALECT_XCAL_NAMESPACE = "urn:ietf:params:xml:ns:xcal"
PENTABARF_NAMESPACE = "http://pentabarf.org"

_NS = f"{{{NAMESPACE}}}"
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
        # A zone named as an attribute (<dtstart tzid="Europe/Paris">, as confsched and
        # Giggity write and read it) is the time's, as a TZID parameter in iCalendar.
        element = next(c for c in vevent if not _namespace(c.tag) and _local(c.tag).lower() == name)
        tzid = element.get("tzid", element.get("TZID", "")).strip()
        value = TimeValue(
            value=moment.replace(tzinfo=UTC) if match[7] else moment,
            tzid=tzid,
            text=f"<{name}{f' tzid={tzid!r}' if tzid else ''}>{written}</{name}>",
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
