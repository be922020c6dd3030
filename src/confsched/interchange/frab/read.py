"""frab/pentabarf `schedule.xml`, read (the writer is `frab.write`).

The format is the one pentabarf published first, frab extended, and pretalx, wafer and osem
export; phone apps (Giggity, EventFahrplan, ConfClerk) read it. Its schema is the c3voc XSD
(voc/schedule, validator/xsd/schedule.xml.xsd; media type application/vnd.c3voc.schedule+xml).

Reading is lenient; real exports break the XSD in many ways and these are handled:

* pentabarf-era files put `<event>` directly under `<day>` with no `<room>` wrapper; the
  event's own `<room>` names its room (it wins over the wrapper's name when both are given).
* `guid`, `version` and `<date>` may be missing; `<type>`, `<language>` and `<subtitle>` may
  be empty; unknown elements (recording, do_not_record, logo, …) are ignored.
* Links: each `<links><link href>` and `<attachments><attachment href>` is a session link, in
  that order; its text is the title ("" when it only repeats the address), its `type`
  attribute or else its title and address tell its kind (see `links.link_kind`). A relative
  href is read against the conference's `<base_url>`; one without href (nor an address as its
  text) is left out with a warning. An attachment whose href a link gave already marks that
  link as an attachment rather than repeating it (`links.with_attachments`).
* Times. An event's `<date>` with a UTC offset is trusted over everything else: wafer
  (DebConf 23) declares Asia/Kolkata, writes every `<date>` in UTC and puts each event under
  the `<day>` before its own. Without a `<date>`, the start is the day's date plus `<start>`,
  rolled to the next day when `<start>` is earlier than the day's start (the day's `start`
  attribute, else the conference's `<day_change>`), because a frab day runs past midnight;
  in a day with neither, when its `<room>`'s list goes back in time (00:00 after 23:00), for
  that event and the room's later ones.
  Times without an offset are read in the conference's `<time_zone_name>` (or `<timezone>`)
  when it is an IANA name, else in `default_timezone`; with neither, the file is refused.
* `<duration>` is H:MM, HH:MM or HH:MM:SS, added in absolute time (a two-hour talk from 01:30
  on the night clocks change lasts two hours); a missing one leaves the session without an
  end. A local time the clocks skip moves forward by the gap, with a warning.
* Fields an event does not carry (no `<track>`, `<language>`, `<type>`, `<room>`, `<persons>`,
  `<links>` nor `<attachments>`, no text at all) are unknown for it (`Session.unknown`), not
  empty; an element present but empty says "none".
* Text: the subtitle, abstract and description become one abstract, in that order, blank lines
  between (a description equal to the abstract is kept once). HTML becomes plain text; text
  with only inline tags (pretalx Markdown may carry `<strong>` or `<a>`) keeps its line breaks.
  The indentation pretty-printers add to continuation lines is removed; Markdown stays.
* The conference's `<title>` (else `<acronym>`) is the name; `<venue>` and `<city>` the
  location; `<start>`/`<end>` (dates or date-times) the dates, else the sessions' dates.
  `Programme.timezone` is the declared zone when it is an IANA name, never `default_timezone`.

Identity: a session's key is the event's `guid`, else its `id` attribute (invisible characters
dropped), else the slug of its title and its start in the event's zone (`default_timezone`,
else the declared one, else UTC: "opening-2024-01-01-1000", as every reader makes it, see
`identity.derived_key`); events repeating a key are told apart by
their content, not their place (`identity.unique_keys`): "-2", "-3" and a warning. A
speaker's key is the person's `guid`, else `id`, else the slug of the name; files
merged from several sub-schedules reuse person ids, so a second name under one id is another
person, keyed "<id>~<slug of the name>" with a warning (see `PersonKeys`).

Refused, with the element's path: XML that `documents.read_xml` refuses (unknown encodings,
entities); a document without any `<event>` (the message names what it holds instead, so a
homegrown `<schedule><day><entry>` file is not taken for an empty programme); times that leave
the years 1 to 9999 once converted to UTC or to the programme's zone, or once the duration is
added. A declared zone that is not in the tz database ("Europe", a 300-letter name) is ignored
with a warning; such a `default_timezone` is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from xml.etree.ElementTree import Element

from confsched.core.errors import ParseError
from confsched.core.text import slugify
from confsched.core.timezones import get_zone, is_zone_name, zone_problem
from confsched.interchange.documents import read_xml
from confsched.interchange.frab.elements import (
    _absolute,
    _after_midnight,
    _children,
    _clean,
    _clock,
    _date,
    _datetime,
    _line,
    _no_events,
    _plus,
    _quoted,
    _text,
    _unknown,
)
from confsched.interchange.identity import PersonKeys, derived_key, unique_keys, visible
from confsched.interchange.links import link_kind, with_attachments
from confsched.interchange.programme import (
    Programme,
    Session,
    SessionLink,
    SessionSpeaker,
    Speaker,
)
from confsched.interchange.zones import (
    skipped_time,
    wall_time,
    zone_out_of_reach,
)

FORMAT_NAME = "frab-xml"
DESCRIPTION = "frab/pentabarf schedule.xml (frab, pretalx, wafer; read by Giggity, EventFahrplan)"

_ROOT = re.compile(
    r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--.*?-->|<!DOCTYPE[^>]*>)\s*)*<(?:[\w.-]+:)?schedule[\s>/]",
    re.DOTALL,
)
_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")
_DURATION = re.compile(r"(?P<h>\d{1,3}):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?")
_HTTP = re.compile(r"https?://\S+")


# --------------------------------------------------------------------------------------------
# Reading


def looks_like(head: str) -> bool:
    """True when the text starts with a <schedule> root holding a conference or days."""
    return bool(_ROOT.match(head)) and ("<conference" in head or "<day" in head)


def parse(data: bytes, *, source: str, default_timezone: str = "") -> Programme:
    """Read one schedule.xml; ParseError naming the element and field when it is broken."""
    fallback = _given_zone(default_timezone, source)
    root = read_xml(data, source=source, what="a schedule.xml")
    for element in root.iter():
        if isinstance(element.tag, str) and "}" in element.tag:
            element.tag = element.tag.rsplit("}", 1)[1]
    if root.tag != "schedule":
        raise ParseError(
            f"not a frab schedule.xml: the root element is <{root.tag}>, expected <schedule>",
            source=source,
        )
    return _Reader(source, default_timezone, fallback).read(root)


def _given_zone(name: str, source: str) -> tzinfo | None:
    if not name:
        return None
    if not is_zone_name(name):
        raise ParseError(f"--timezone: {zone_problem(name)}", source=source)
    return get_zone(name)


@dataclass
class _Day:
    """A <day>: its attributes are read only when an event needs them."""

    path: str
    element: Element
    day_change: time | None


@dataclass
class _Reader:
    source: str
    default_name: str
    fallback: tzinfo | None
    zone: tzinfo | None = None
    zone_name: str = ""
    used_fallback: bool = False
    offset_dates: int = 0
    rolled: int = 0
    base_url: str = ""  # the conference's <base_url>, for relative link addresses
    hrefless: list[str] = field(default_factory=list)  # paths of links without an address
    programme: Programme = field(default_factory=Programme)
    people: PersonKeys = field(default_factory=PersonKeys)

    def error(self, message: str) -> ParseError:
        return ParseError(message, source=self.source)

    def read(self, root: Element) -> Programme:
        programme = self.programme
        conference = root.find("conference")
        if conference is None:
            conference = Element("conference")
        declared = _text(conference, "time_zone_name") or _text(conference, "timezone")
        if declared and is_zone_name(declared):
            self.zone = get_zone(declared)
            self.zone_name = programme.timezone = declared
        elif declared:
            programme.warnings.append(
                f"the declared time zone {_quoted(declared)} is not an IANA name; ignored"
            )
        if self.zone is None and self.fallback is not None:
            self.zone, self.zone_name = self.fallback, self.default_name
        programme.name = _text(conference, "title") or _text(conference, "acronym")
        base_url = _text(conference, "base_url")
        self.base_url = base_url if _HTTP.fullmatch(base_url) else ""
        programme.location = ", ".join(
            part for part in (_text(conference, "venue"), _text(conference, "city")) if part
        )
        day_change = self.clock_or_none(conference, "schedule/conference", "day_change")

        rooms: dict[str, None] = {}
        read: list[tuple[Session, str]] = []  # with the path of its <event>
        speakers: dict[str, Speaker] = {}
        for day_path, day_element in _children(root, "schedule", "day"):
            day = _Day(day_path, day_element, day_change)
            counts: dict[str, int] = {}
            for child in day_element:
                if child.tag not in ("room", "event"):
                    continue
                counts[child.tag] = counts.get(child.tag, 0) + 1
                child_path = f"{day_path}/{child.tag}[{counts[child.tag]}]"
                if child.tag == "event":
                    events = [(child_path, child)]
                    wrapper = ""
                else:
                    wrapper = " ".join((child.get("name") or "").split())
                    if wrapper:
                        rooms.setdefault(wrapper)
                    events = list(_children(child, child_path, "event"))
                # Only a room's list in a day with no start and no <day_change> (events
                # directly under <day>, pentabarf's, are in no order).
                watch = child.tag == "room" and not (day_element.get("start") or "").strip()
                late = _after_midnight(events, watch=watch and day_change is None)
                for (path, element), after_midnight in zip(events, late, strict=True):
                    session = self.session(
                        element, path, day, wrapper, speakers, after_midnight=after_midnight
                    )
                    if session.room:
                        rooms.setdefault(session.room)
                    read.append((session, path))

        if not read:
            raise self.error(_no_events(root))
        if warning := self.people.warning():
            programme.warnings.append(warning)
        if self.hrefless:
            count = len(self.hrefless)
            programme.warnings.append(
                f"{count} link{'s' if count > 1 else ''} without an href left out "
                f"(first: {self.hrefless[0]})"
            )
        programme.rooms = list(rooms)
        paths = {id(session): path for session, path in read}

        def repeated(session: Session, key: str) -> None:
            programme.warnings.append(
                f"{paths[id(session)]}: two events share the id {_quoted(session.key)}; this "
                f"one is kept as {_quoted(key)}"
            )

        programme.sessions = unique_keys([session for session, _ in read], on_repeat=repeated)
        programme.speakers = list(speakers.values())
        programme.start_date, programme.end_date = self.dates(conference, programme.sessions)
        self.take_notes()
        return programme

    def take_notes(self) -> None:
        notes = self.programme.notes
        if self.used_fallback:
            notes.append(f"times without a UTC offset read in {self.zone_name} (--timezone)")
        if self.offset_dates and self.programme.timezone:
            notes.append(
                f"times taken from each event's <date> and its UTC offset; the declared "
                f"{self.programme.timezone} applies only to times written without one"
            )
        if self.rolled:
            notes.append(
                f"{self.rolled} events start after midnight and were moved to the next day"
            )

    def session(
        self, element: Element, path: str, day: _Day, wrapper: str, speakers: dict[str, Speaker],
        *, after_midnight: bool = False,
    ) -> Session:  # fmt: skip
        title = _line(_text(element, "title"))
        if not title:
            raise self.error(f"{path}/title: missing or empty; every event needs a title")
        starts_at = self.start(element, path, day, after_midnight=after_midnight)
        ends_at = self.end(element, path, starts_at)
        key = visible(element.get("guid") or "") or visible(element.get("id") or "")
        if not key:
            key = derived_key(title, starts_at, zone=self.fallback or self.zone)
        return Session(
            key=key,
            title=title,
            kind=_line(_text(element, "type")),
            abstract=self.abstract(element),
            starts_at=starts_at,
            ends_at=ends_at,
            room=_line(_text(element, "room")) or wrapper,
            track=_line(_text(element, "track")),
            language=_line(_text(element, "language")),
            speakers=self.persons(element, speakers),
            links=self.links(element, path),
            unknown=_unknown(element, wrapper),
        )

    def abstract(self, element: Element) -> str:
        parts = [_clean(_text(element, name)) for name in ("subtitle", "abstract", "description")]
        subtitle, abstract, description = parts
        if description == abstract:
            description = ""
        return "\n\n".join(part for part in (subtitle, abstract, description) if part)

    def links(self, element: Element, path: str) -> tuple[SessionLink, ...]:
        found: list[SessionLink] = []
        for group, tag in (("links", "link"), ("attachments", "attachment")):
            parent = element.find(group)
            if parent is None:
                continue
            for item_path, item in _children(parent, f"{path}/{group}", tag):
                text = _line("".join(item.itertext()))
                href = (item.get("href") or "").strip() or (text if _HTTP.fullmatch(text) else "")
                if not href:
                    self.hrefless.append(item_path)
                    continue
                url = _absolute(self.base_url, href)
                title = "" if text in (href, url) else text
                is_attachment = tag == "attachment"
                kind = link_kind(
                    url, title, declared=item.get("type") or "", is_attachment=is_attachment
                )
                found.append(
                    SessionLink(url=url, title=title, kind=kind, is_attachment=is_attachment)
                )
        return with_attachments(found)

    def persons(self, element: Element, speakers: dict[str, Speaker]) -> tuple[SessionSpeaker, ...]:
        persons = element.find("persons")
        keys: dict[str, None] = {}
        for person in persons.findall("person") if persons is not None else ():
            name = _line(person.text or "")
            if not name:
                continue
            guid = (person.get("guid") or "").strip()
            number = (person.get("id") or "").strip()
            if guid or number:
                key = self.people.key(guid or number, name, label="guid" if guid else "id")
            else:
                key = slugify(name)
            speakers.setdefault(key, Speaker(key=key, name=name))
            keys.setdefault(key)
        return tuple(SessionSpeaker(speaker_key=key) for key in keys)

    def start(
        self, element: Element, path: str, day: _Day, *, after_midnight: bool = False
    ) -> datetime:
        """The event's start; `after_midnight`: its room's list went back in time before it in
        a day without a start (see `read`), so a clock without a date is the next date's."""
        date_text = _text(element, "date")
        start_text = _text(element, "start")
        base: date | None = None
        if date_text and _DATE_ONLY.fullmatch(date_text):
            base = _date(date_text)
        elif date_text:
            value = _datetime(date_text)
            if value is None:
                raise self.error(
                    f"{path}/date: expected a date and time with a UTC offset such as "
                    f"2024-12-27T10:30:00+01:00, not {_quoted(date_text)}"
                )
            if value.tzinfo is None:
                return self.localize(value, f"{path}/date", date_text)
            self.offset_dates += 1
            return self.checked(value, f"{path}/date", date_text)
        if not start_text:
            raise self.error(
                f"{path}/start: missing; every event needs a start (a <date> with a time, "
                "or a <start>)"
            )
        clock = _clock(start_text)
        if clock is None:
            raise self.error(f"{path}/start: expected HH:MM or HH:MM:SS, not {_quoted(start_text)}")
        if base is None:
            base = self.day_date(day)
            day_start = self.day_start(day)
            if (day_start is not None and clock < day_start) or (
                day_start is None and after_midnight
            ):
                if base == date.max:
                    raise self.error(
                        f"{path}/start: {_quoted(start_text)} falls after midnight of {base}, "
                        "outside the years 1 to 9999"
                    )
                base += timedelta(days=1)
                self.rolled += 1
        return self.localize(datetime.combine(base, clock), f"{path}/start", start_text)

    def end(self, element: Element, path: str, starts_at: datetime) -> datetime | None:
        text = _text(element, "duration")
        if not text:
            return None
        match = _DURATION.fullmatch(text)
        if match is None:
            raise self.error(
                f"{path}/duration: expected H:MM, HH:MM or HH:MM:SS, not {_quoted(text)}"
            )
        duration = timedelta(
            hours=int(match["h"]), minutes=int(match["m"]), seconds=int(match["s"] or 0)
        )
        ends_at = _plus(starts_at, duration)
        if ends_at is None or self.outside(ends_at):
            raise self.error(
                f"{path}/duration: {_quoted(text)} from the start {starts_at.isoformat()} ends "
                "outside the years 1 to 9999"
            )
        return ends_at

    def day_date(self, day: _Day) -> date:
        text = (day.element.get("date") or "").strip()
        value = _date(text) if _DATE_ONLY.fullmatch(text) else None
        if value is None:
            raise self.error(
                f"{day.path}/@date: expected a date such as 2024-12-27 (its events give only "
                f"<start>), not {_quoted(text)}"
            )
        return value

    def day_start(self, day: _Day) -> time | None:
        text = (day.element.get("start") or "").strip()
        if not text:
            return day.day_change
        value = _datetime(text)
        if value is None:
            raise self.error(
                f"{day.path}/@start: expected a date and time such as 2024-12-27T10:00:00+01:00, "
                f"not {_quoted(text)}"
            )
        if value.tzinfo is not None:
            value = self.checked(value, f"{day.path}/@start", text)
            if self.zone is not None:
                value = value.astimezone(self.zone)
        return value.time()

    def clock_or_none(self, parent: Element, path: str, name: str) -> time | None:
        text = _text(parent, name)
        if not text:
            return None
        value = _clock(text)
        if value is None:
            raise self.error(f"{path}/{name}: expected HH:MM or HH:MM:SS, not {_quoted(text)}")
        return value

    def localize(self, value: datetime, where: str, raw: str) -> datetime:
        if self.zone is None:
            raise self.error(
                f"{where}: the file has times without a UTC offset and declares no time zone; "
                "give the event's zone with --timezone (an IANA name such as Europe/Brussels)"
            )
        if self.zone is self.fallback and not self.programme.timezone:
            self.used_fallback = True
        self.checked(value.replace(tzinfo=self.zone), where, raw)
        moved, skipped = wall_time(value, self.zone)
        if skipped:
            self.programme.warnings.append(skipped_time(f"{where}:", raw, self.zone, moved))
        return moved

    def checked(self, value: datetime, where: str, raw: str) -> datetime:
        """`value`, or a refusal when it cannot be converted to UTC or to the zone."""
        if zone := self.outside(value):
            raise self.error(f"{where}: {_quoted(raw)} falls outside the years 1 to 9999 in {zone}")
        return value

    def outside(self, value: datetime) -> str:
        """The zone `value` cannot be converted to (UTC, as stored, or the programme's), or "".

        Near the years 1 and 9999 an offset can push an instant beyond what datetime holds;
        the conversions that would fail later, in the database or a writer, are tried here.
        """
        return zone_out_of_reach(value, (UTC, self.zone))

    def dates(
        self, conference: Element, sessions: list[Session]
    ) -> tuple[date | None, date | None]:
        found: list[date | None] = []
        for name in ("start", "end"):
            text = _text(conference, name)
            if not text:
                found.append(None)
                continue
            value = _date(text) if _DATE_ONLY.fullmatch(text) else None
            if value is None:
                moment = _datetime(text)
                if moment is None:
                    raise self.error(
                        f"schedule/conference/{name}: expected a date such as 2024-12-27 or a "
                        f"date and time, not {_quoted(text)}"
                    )
                if moment.tzinfo is not None:
                    moment = self.checked(moment, f"schedule/conference/{name}", text)
                    if self.zone is not None:
                        moment = moment.astimezone(self.zone)
                value = moment.date()
            found.append(value)
        start, end = found
        local = [
            (s.starts_at.astimezone(self.zone) if self.zone else s.starts_at).date()
            for s in sessions
            if s.starts_at is not None
        ]
        if local and (start is None or end is None):
            self.programme.notes.append("conference dates taken from the sessions")
            start = start or min(local)
            end = end or max(local)
        return start, end
