"""A reader shaped like Giggity's (the Android schedule app): its `Schedule.loadIcal`, which
turns each iCalendar line into an XML element, and its `XcalParser` (SAX), which reads both
that and xCal, as in github.com/Wilm0r/giggity app/src/main/java/net/gaast/giggity/
Schedule.java. What matters to confsched's exports:

- an event lacking any of uid, summary, location, dtstart, and dtend or duration is dropped
  ("Invalid event, some attributes are missing");
- a time ending in "Z" is UTC; any other is read in the zone of the tzid attribute (the TZID
  parameter, in iCalendar) of <dtstart>, else in the phone's zone: floating;
- STATUS is not read: a cancelled session is listed as any other, under its SUMMARY.

And its `PentabarfParser`, which reads schedule.xml: of a session's files and pages only the
`<link href>` elements (one per address), of a person only the name (`read_pentabarf`).
"""

from __future__ import annotations

import io
import xml.sax  # noqa: S406 - reads confsched's own exports in tests
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from xml.sax.handler import ContentHandler, feature_namespaces
from xml.sax.xmlreader import AttributesNSImpl


@dataclass(frozen=True)
class Item:
    uid: str
    title: str
    location: str
    starts_at: datetime
    ends_at: datetime


@dataclass
class Read:
    items: list[Item] = field(default_factory=list)
    dropped: list[list[str]] = field(default_factory=list)  # what each dropped event had
    unparsed: int = 0  # "Can't parse date"


class _Parser:
    """XcalParser: elements' text by local name; a <vevent> made an item at its end."""

    def __init__(self, phone_zone: tzinfo) -> None:
        self.phone_zone = phone_zone
        self.read = Read()
        self.event: dict[str, str] | None = None
        self.attributes: dict[str, dict[str, str]] = {}
        self.text = ""

    def start(self, name: str, attributes: dict[str, str]) -> None:
        self.text = ""
        if name == "vevent":
            self.event, self.attributes = {}, {}
        elif attributes and self.event is not None:
            self.attributes[name] = attributes

    def characters(self, text: str) -> None:
        self.text += text

    def end(self, name: str) -> None:
        if name == "vevent" and self.event is not None:
            self._item(self.event)
            self.event = None
        elif self.event is not None:
            self.event[name] = self.text

    def _item(self, event: dict[str, str]) -> None:
        needed = ("uid", "summary", "location", "dtstart")
        if any(name not in event for name in needed) or (
            "dtend" not in event and "duration" not in event
        ):
            self.read.dropped.append(sorted(event))
            return
        tz = self.attributes.get("dtstart", {}).get("tzid")
        try:
            start = self._time(event["dtstart"], tz)
            end = self._time(event["dtend"], tz) if "dtend" in event else start
        except (ValueError, KeyError):
            self.read.unparsed += 1
            return
        self.read.items.append(Item(event["uid"], event["summary"], event["location"], start, end))

    def _time(self, text: str, tz: str | None) -> datetime:
        # dfUtc ("yyyyMMdd'T'HHmmss'Z'"), else dfLocal in the tzid's zone or the phone's.
        if len(text) >= 16 and text[15] == "Z":  # noqa: PLR2004
            return datetime.strptime(text[:15], "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
        from zoneinfo import ZoneInfo

        zone = ZoneInfo(tz) if tz is not None else self.phone_zone
        return datetime.strptime(text[:15], "%Y%m%dT%H%M%S").replace(tzinfo=zone)


def read_ical(data: bytes, *, phone_zone: tzinfo) -> Read:
    """loadIcal: each unfolded line "KEY;PARAM=V:value" becomes <key param="V">value</key>."""
    parser = _Parser(phone_zone)
    line = ""
    for raw in [*data.decode("utf-8").split("\n"), None]:
        text = raw.rstrip("\r") if raw is not None else None
        if text is not None and text.startswith(" "):
            line += text[1:]
            continue
        if ":" in line:
            head, value = line.split(":", 1)
            key = head.lower()
            if key == "begin":
                parser.start(value.lower(), {})
            elif key == "end":
                parser.end(value.lower())
            else:
                bits = head.split(";")
                attributes = {
                    kv[0].lower(): kv[1] for bit in bits[1:] if len(kv := bit.split("=", 1)) == 2
                }
                value = (
                    value.replace("\\n", "\n")
                    .replace("\\,", ",")
                    .replace("\\;", ";")
                    .replace("\\\\", "\\")
                )
                name = bits[0].lower()
                parser.start(name, attributes)
                parser.characters(value)
                parser.end(name)
        if text is None:
            break
        line = text
    return parser.read


class _Sax(ContentHandler):
    def __init__(self, parser: _Parser) -> None:
        super().__init__()
        self.parser = parser

    def startElementNS(  # noqa: N802 - SAX's name
        self, name: tuple[str | None, str], qname: str | None, attrs: AttributesNSImpl
    ) -> None:
        attributes = {attrs.getQNameByName(key): attrs.getValue(key) for key in attrs.getNames()}
        self.parser.start(name[1], attributes)

    def endElementNS(self, name: tuple[str | None, str], qname: str | None) -> None:  # noqa: N802
        self.parser.end(name[1])

    def characters(self, content: str) -> None:
        self.parser.characters(content)


def read_xcal(data: bytes, *, phone_zone: tzinfo) -> Read:
    """loadXcal: a namespace-aware SAX parse, elements by local name."""
    head = data[:1024].decode("utf-8", "replace").lower()
    assert "<icalendar" in head and "<vcalendar" in head, "Giggity would not take it for xCal"
    parser = _Parser(phone_zone)
    sax = xml.sax.make_parser()  # noqa: S317 - confsched's own output
    sax.setFeature(feature_namespaces, True)
    sax.setContentHandler(_Sax(parser))
    sax.parse(io.BytesIO(data))
    return parser.read


@dataclass
class PentabarfItem:
    """What Giggity keeps of a schedule.xml <event>: its title, speakers by name and links
    (address, title); nothing else of a person (no picture) and no <attachments>."""

    title: str
    speakers: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)


class _Pentabarf(ContentHandler):
    """PentabarfParser: per <event>, each <link href> is a link (Item.addLink keeps the first
    of an address), its text the title; each <person>'s text a speaker; other elements' text
    by name. <attachment> is no element it knows."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[PentabarfItem] = []
        self.properties: dict[str, str] | None = None
        self.links: list[list[str]] = []
        self.persons: list[str] = []
        self.text = ""

    def startElement(self, name: str, attrs: AttributesNSImpl) -> None:  # noqa: N802 - SAX's name
        self.text = ""
        if name in ("conference", "event"):
            self.properties, self.links, self.persons = {}, [], []
        elif name == "link" and self.properties is not None and attrs.get("href") is not None:
            self.links.append([attrs["href"], ""])

    def characters(self, content: str) -> None:
        self.text += content

    def endElement(self, name: str) -> None:  # noqa: N802 - SAX's name
        text = self.text.strip()
        if name == "event" and self.properties is not None:
            item = PentabarfItem(title=self.properties.get("title", ""), speakers=self.persons)
            for href, title in self.links:
                if all(known != href for known, _ in item.links):
                    item.links.append((href, title))
            self.items.append(item)
            self.properties = None
        elif name == "person":
            self.persons.append(text)
        elif name == "link":
            if self.links and text:
                self.links[-1][1] = text
        elif self.properties is not None:
            self.properties[name] = text


def read_pentabarf(data: bytes) -> list[PentabarfItem]:
    """loadPentabarf: a SAX parse of schedule.xml, elements by name."""
    handler = _Pentabarf()
    xml.sax.parseString(data, handler)  # noqa: S317 - confsched's own output
    return handler.items
