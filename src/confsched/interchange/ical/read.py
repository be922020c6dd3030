"""iCalendar (RFC 5545) calendars read as a programme: Sched's `all.ics`, other tools' feeds,
and confsched's own feed (`confsched.interchange.ical.render_ical`) read back.

Reading goes in three steps, each naming the line it stumbles on:

1. Bytes to content lines. Folds are undone on the bytes, because RFC 5545 3.1 folds at
   octets and a fold may split a UTF-8 character; then each line is decoded as UTF-8, and a
   line that is not UTF-8 (older Windows tools) is read as Windows-1252, with a warning. CRLF
   and LF end a line, and so does a bare CR in a file without LF (classic Mac OS), with a
   warning. Elsewhere a bare CR is content, not a line end: a conference system writes
   "\r\r\n" after each folded DESCRIPTION line, and CRs right before a line end are dropped.
2. The structure, checked here because the `icalendar` package is lenient to the point of
   silence (a stray line or an unbalanced END is dropped without a word): a file that is not
   iCalendar, a line that is no `NAME[;PARAM=…]:value` content line, and BEGIN/END that do not
   pair up are refused with the line number.
3. Values. The `icalendar` package reads one property at a time, so whatever it trips over is
   reported with the line, the property and the event. It is never asked to resolve a TZID:
   its own lookup hands any string to the file system and keeps the VTIMEZONEs of every file it
   ever read in one process-wide cache. A TZID is, in this order: an IANA name (checked by
   `core.timezones`, the one gate for zone names from outside), a VTIMEZONE of the same file, a
   Windows zone name, or a "globally unique" TZID ending in an IANA name
   ("/freeassociation.sourceforge.net/Europe/Berlin"). VTIMEZONE rules must repeat yearly
   (FREQ=YEARLY with one BYMONTH and one BYDAY, or up to seven BYMONTHDAY, as in the wild):
   a rule firing every second would cost minutes for each time converted.

Mapping, per VEVENT:

* UID is the session key, less a trailing "@{uid_domain}" when the caller names the domain
  (confsched's own feeds then round-trip to the same keys), invisible characters dropped.
  Without a UID the key is the slug of SUMMARY and the start in the event's zone
  (`default_timezone`, else X-WR-TIMEZONE, else the most common TZID, else UTC; see
  `identity.derived_key`), whatever zone the time is written in. Events repeating a UID
  (RECURRENCE-ID overrides, careless exporters) are told apart by their content, not their
  place (`identity.unique_keys`): the first by start, room and title keeps the key, the
  others get "-2", "-3" … and a warning.
  RRULE is not expanded: the first occurrence is read, with a warning.
* SUMMARY is the title; a leading "Kind: " for a kind in `sched.titles.KINDS` becomes the kind
  ("Lightning Talk: X", as render_ical writes it). HTML entities are unescaped: Sched writes
  "Q&amp;A" in summaries.
* DESCRIPTION is the abstract; HTML (lca2020's feed) becomes plain text, keeping paragraphs
  and link URLs. A first line "Speakers: A (Org), B" (render_ical) or "Speaker: A" (Symposion,
  lca2020), or the same label in another language ("Referenten:", "Intervenants :",
  "Ponentes:"; `SPEAKER_LABELS`), gives the speakers, "Name (Affiliation)", split at commas
  outside parentheses. Sched's export carries no speakers at all: its sessions come without.
* ATTENDEE;CN=Ada Lovelace:mailto:… adds the CN as a speaker after those of the description;
  the address is not kept. An ATTENDEE with ROLE=NON-PARTICIPANT or CUTYPE=ROOM/RESOURCE is no
  one on stage, and one without CN names nobody.
* LOCATION is the room, without the trailing comma Sched leaves when a venue has no address
  ("Whole Ship,") and without ", {location}" when the caller names the event's location
  (render_ical appends it). CATEGORIES gives the track: the first non-empty one (Sched writes
  an empty CATEGORIES on most events). STATUS:CANCELLED marks the session cancelled.
* DTSTART/DTEND: a TZID is resolved as above (lca2020 writes TZID=Australia/Brisbane and no
  VTIMEZONE); an unknown TZID is refused. "Z" is UTC. Floating times (no TZID, no Z) are read
  in the calendar's X-WR-TIMEZONE, else in `default_timezone`, else refused. No DTEND:
  DTSTART + DURATION (days nominal, hours exact: PT2H lasts two real hours across a change
  of clocks), else a zero-length session (Sched has those too, as DTEND = DTSTART).
  A local time the clocks skip moves forward by the gap, with a warning.
  Times must fall between 0001-01-02 and 9999-12-30 (UTC), so that every time zone can show
  them; an event beyond is refused.
* All-day events (DTSTART;VALUE=DATE) have no time to put in a grid: they are kept
  unscheduled and flagged for review, their dates in the review note.
* A property the library cannot read is a warning naming its line, unless the session needs
  it (DTSTART, DTEND, DURATION): then the file is refused.

The calendar: X-WR-CALNAME (or RFC 7986 NAME) is the programme's name, as written (Sched's
JoCo Cruise calendar is "jococruise2019" for January 2020 dates); X-WR-TIMEZONE, when it is
an IANA name, is the programme's zone (another name is ignored, with a warning), else the most
common IANA TZID of the events.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import cast

from icalendar import (
    Component,
    Timezone,
    TimezoneDaylight,
    TimezoneStandard,
    vCategory,
    vRecur,
)
from icalendar.timezone import tzp
from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from confsched.core.errors import ParseError
from confsched.core.text import slugify
from confsched.core.timezones import get_zone, is_zone_name, zone_problem
from confsched.interchange.ical.descriptions import split_description, split_kind
from confsched.interchange.ical.lines import (
    _FOLD,
    _LIBRARY_ERRORS,
    _Component,
    _content_lines,
    _problem,
    _Property,
    _property_name,
    _read_property,
    _read_structure,
    _shown_tzid,
    _snippet,
)
from confsched.interchange.identity import derived_key, unique_keys, visible
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.zones import plus_duration, skipped_time, wall_time

FORMAT_NAME = "ical"
DESCRIPTION = "iCalendar (.ics): Sched's all.ics export, other tools' feeds, confsched's own"

_FLOATING_HELP = (
    "give the zone with --timezone (an IANA name such as Europe/Paris), "
    "or add X-WR-TIMEZONE to the calendar"
)

# The event needs these; whatever else the library cannot read is only a warning.
_TIME_PROPERTIES = frozenset({"DTSTART", "DTEND", "DURATION"})

# Every zone is less than a day from UTC: a time a day inside the datetime range can be shown
# in any of them (and stored in UTC) without overflowing.
_EARLIEST = datetime.min.replace(tzinfo=UTC) + timedelta(days=1)
_LATEST = datetime.max.replace(tzinfo=UTC) - timedelta(days=1)

# VTIMEZONE observances as calendar programs write them: once a year, at most.
_YEARLY_RULE_PARTS = frozenset({"FREQ", "BYMONTH", "BYDAY", "BYMONTHDAY", "UNTIL", "COUNT", "WKST"})


@dataclass(frozen=True)
class TimeValue:
    """A DTSTART or DTEND as read: aware when the source resolved its zone, else naive."""

    value: date | datetime
    tzid: str = ""
    text: str = ""  # as written, for messages
    line: int | None = None


@dataclass
class EventFields:
    """What a reader found in one event; shared with the xCal reader, which fills the same."""

    uid: str = ""
    summary: str = ""
    description: str = ""
    location: str = ""
    categories: list[str] = field(default_factory=list)
    start: TimeValue | None = None
    end: TimeValue | None = None
    duration: timedelta | None = None
    duration_text: str = ""  # as written, for messages
    duration_line: int | None = None
    status: str = ""
    url: str = ""
    repeats: bool = False
    attendees: list[str] = field(default_factory=list)  # names of the speaking ATTENDEEs
    line: int | None = None  # where the event begins
    # Session fields the event says nothing about (no LOCATION, no CATEGORIES …): unknown,
    # not empty (Session.unknown).
    unknown: set[str] = field(default_factory=set)


def looks_like(head: str) -> bool:
    """True for text that starts with BEGIN:VCALENDAR, after any byte-order mark and blanks,
    once folded lines are joined (the reader unfolds "BEGIN:VCAL" CRLF " ENDAR" too)."""
    start = head.lstrip("\ufeff \t\r\n")[:400]
    return _FOLD.sub("", start)[:15].upper() == "BEGIN:VCALENDAR"


def parse(
    data: bytes | str,
    *,
    source: str,
    default_timezone: str = "",
    uid_domain: str = "",
    location: str = "",
) -> Programme:
    """Read one VCALENDAR; floating times need X-WR-TIMEZONE or `default_timezone`."""
    warnings: list[str] = []
    notes: list[str] = []
    lines = _content_lines(data, source=source, warnings=warnings)
    calendar, components = _read_structure(lines, source)
    zones = _Zones(calendar, source=source, notes=notes)
    events = [
        _event_fields(component, zones=zones, source=source, warnings=warnings)
        for component in components
        if component.name == "VEVENT"
    ]
    own = _calendar_properties(calendar, source=source, warnings=warnings)
    programme = build_programme(
        events,
        source=source,
        name=own.get("X-WR-CALNAME") or own.get("NAME", ""),
        declared_timezone=own.get("X-WR-TIMEZONE", "").strip(),
        default_timezone=default_timezone,
        uid_domain=uid_domain,
        location=location,
        unknown_zone_hint="is neither an IANA time zone name nor defined by a VTIMEZONE in the "
        "file",
    )
    programme.warnings[:0] = warnings
    programme.notes[:0] = notes
    return programme


def _calendar_properties(
    calendar: _Component, *, source: str, warnings: list[str]
) -> dict[str, str]:
    """The calendar's own X-WR-CALNAME, NAME and X-WR-TIMEZONE: the first of each."""
    found: dict[str, str] = {}
    for number, content in calendar.properties:
        name = _property_name(content)
        if name in {"X-WR-CALNAME", "NAME", "X-WR-TIMEZONE"} and name not in found:
            prop = _read_property(number, content)
            if prop.problem:
                warnings.append(
                    f"{source}, line {number}: the calendar's {_snippet(content)!r} ignored: "
                    f"{prop.problem}"
                )
            found[name] = prop.text
    return found


# --- time zones ----------------------------------------------------------------------------


class _Zones:
    """The TZIDs of one file as zones; see the module's docstring for the order of lookup."""

    def __init__(self, calendar: _Component, *, source: str, notes: list[str]) -> None:
        self.source = source
        self.notes = notes
        self.defined: dict[str, _Component] = {}
        for child in calendar.children:
            if child.name == "VTIMEZONE":
                tzid = next(
                    (
                        _read_property(number, content).text.strip("/")
                        for number, content in child.properties
                        if _property_name(content) == "TZID"
                    ),
                    "",
                )
                if tzid:
                    self.defined.setdefault(tzid, child)
        self.resolved: dict[str, tzinfo | None] = {}

    def resolve(self, tzid: str, *, who: str, line: int) -> tzinfo | None:
        """The zone a TZID names, None when nothing defines it."""
        if tzid not in self.resolved:
            self.resolved[tzid] = self._lookup(tzid, who=who, line=line)
        return self.resolved[tzid]

    def _lookup(self, tzid: str, *, who: str, line: int) -> tzinfo | None:
        name = tzid.strip("/")
        if is_zone_name(name):
            return get_zone(name)
        if name in self.defined:
            return self._from_vtimezone(name, who=who, line=line)
        guesses = [(WINDOWS_TO_OLSON.get(name, ""), "a Windows zone name")]
        if tzid.startswith("/"):
            # "/vendor/…/Area/Place": IANA names have at most three parts, longest first.
            parts = name.split("/")
            guesses += [
                ("/".join(parts[-size:]), "a globally unique TZID, less its vendor prefix")
                for size in (3, 2, 1)
                if len(parts) > size
            ]
        for candidate, how in guesses:
            if is_zone_name(candidate):
                self.notes.append(
                    f"{self.source}: TZID {_shown_tzid(tzid)!r} read as {candidate} ({how})"
                )
                return get_zone(candidate)
        return None

    def _from_vtimezone(self, name: str, *, who: str, line: int) -> tzinfo:
        component = self.defined[name]
        try:
            # The package annotates this as `datetime.tzinfo` with `datetime` the class.
            zone = cast("tzinfo", tzp.create_timezone(_library_timezone(component)))
            zone.utcoffset(datetime(2000, 1, 1))  # noqa: DTZ001 - a naive probe, as zones take it
        except _LIBRARY_ERRORS as exc:
            problem = str(exc) if isinstance(exc, _UnreadableTimezone) else _problem(exc)
            raise ParseError(
                f"{who}: TZID {_shown_tzid(name)!r} is defined by the VTIMEZONE of line "
                f"{component.line}, which cannot be read: {problem}",
                source=self.source,
                line=line,
            ) from exc
        return zone


def _library_timezone(component: _Component) -> Timezone:
    """The VTIMEZONE as the library's component, built without its process-wide zone cache."""
    zone = Timezone()
    _add_properties(zone, component)
    for child in component.children:
        observance: Component
        if child.name == "STANDARD":
            observance = TimezoneStandard()
        elif child.name == "DAYLIGHT":
            observance = TimezoneDaylight()
        else:
            continue
        _add_properties(observance, child)
        zone.add_component(observance)
    return zone


class _UnreadableTimezone(ValueError):
    """A VTIMEZONE line that cannot be used; the message names it."""


def _add_properties(target: Component, component: _Component) -> None:
    for number, content in component.properties:
        prop = _read_property(number, content)
        if prop.value is None:
            raise _UnreadableTimezone(f"line {number}: {_snippet(content)!r}: {prop.problem}")
        if isinstance(prop.value, vRecur) and not _is_yearly(prop.value):
            raise _UnreadableTimezone(
                f"line {number}: {_snippet(content)!r} is not a rule confsched reads in a "
                "VTIMEZONE: FREQ=YEARLY with one BYMONTH and one BYDAY (or up to seven "
                "BYMONTHDAY), as calendar programs write them"
            )
        target.add(prop.name, prop.value, encode=False)


def _is_yearly(rule: vRecur) -> bool:
    """A few changes a year at most (one month, one weekday or a week of days in it): the
    zone walks its rules from their DTSTART up to each time it converts."""
    parts = {str(key).upper(): value for key, value in rule.items()}
    months = len(parts.get("BYMONTH", []))
    in_month = "BYDAY" in parts or "BYMONTHDAY" in parts
    return (
        [str(freq).upper() for freq in parts.get("FREQ", [])] == ["YEARLY"]
        and set(parts) <= _YEARLY_RULE_PARTS
        and (months == 1 or (months == 0 and not in_month))
        and len(parts.get("BYDAY", [])) <= 1
        and len(parts.get("BYMONTHDAY", [])) <= 7  # noqa: PLR2004 - a week: "second Sunday"
    )


# --- one VEVENT ----------------------------------------------------------------------------


def _event_fields(
    component: _Component, *, zones: _Zones, source: str, warnings: list[str]
) -> EventFields:
    read = [_read_property(number, content) for number, content in component.properties]
    by_name: dict[str, list[_Property]] = {}
    for prop in read:
        by_name.setdefault(prop.name, []).append(prop)

    def text(name: str) -> str:  # a property written twice: the first one counts
        return by_name[name][0].text if name in by_name else ""

    fields = EventFields(
        uid=text("UID").strip(),
        summary=text("SUMMARY").strip(),
        description=text("DESCRIPTION"),
        location=text("LOCATION").strip(),
        categories=[
            str(category)
            for prop in by_name.get("CATEGORIES", [])
            if isinstance(prop.value, vCategory)
            for category in prop.value.cats
        ],
        status=text("STATUS").strip().upper(),
        url=text("URL").strip(),
        repeats="RRULE" in by_name or any(prop.text for prop in by_name.get("RDATE", [])),
        attendees=[
            name
            for prop in by_name.get("ATTENDEE", [])
            if (
                name := attendee_speaker(
                    name=prop.param("CN"), role=prop.param("ROLE"), cutype=prop.param("CUTYPE")
                )
            )
        ],
        line=component.line,
    )
    # What the event does not say is unknown, not empty; an empty property still says "none".
    fields.unknown = {
        field_name
        for field_name, names in (
            ("room", ("LOCATION",)),
            ("track", ("CATEGORIES",)),
            ("abstract", ("DESCRIPTION",)),
            ("speakers", ("DESCRIPTION", "ATTENDEE")),
            ("affiliations", ("DESCRIPTION", "ATTENDEE")),
        )
        if not any(name in by_name for name in names)
    }
    who = describe_event(fields.uid, fields.summary)
    fields.start = _time_value(by_name, "DTSTART", who=who, source=source, zones=zones)
    fields.end = _time_value(by_name, "DTEND", who=who, source=source, zones=zones)
    if "DURATION" in by_name and fields.end is None:
        prop = by_name["DURATION"][0]
        duration = getattr(prop.value, "dt", None)
        if not isinstance(duration, timedelta):
            raise ParseError(
                f"{who}: {_snippet(prop.written)!r} cannot be read; expected a duration such as "
                "PT45M or PT1H30M",
                source=source,
                line=prop.line,
            )
        fields.duration = duration
        fields.duration_text = _snippet(prop.written)
        fields.duration_line = prop.line
    for prop in read:
        if prop.problem and prop.name not in _TIME_PROPERTIES:
            warnings.append(
                f"{source}, line {prop.line}: {who}: {_snippet(prop.written)!r} ignored: "
                f"{prop.problem}"
            )
    return fields


def _time_value(
    by_name: dict[str, list[_Property]], name: str, *, who: str, source: str, zones: _Zones
) -> TimeValue | None:
    if name not in by_name:
        return None
    prop, count = by_name[name][0], len(by_name[name])
    if count > 1:
        raise ParseError(
            f"{who}: {name} is given {count} times; expected one", source=source, line=prop.line
        )
    value = getattr(prop.value, "dt", None)
    if not isinstance(value, date):  # datetime is a date; a time, period or duration is not
        raise ParseError(
            f"{who}: {_snippet(prop.written)!r} cannot be read; expected a date-time such as "
            "20260407T094500 (local, with TZID) or 20260407T074500Z (UTC), or a date such as "
            "20260407",
            source=source,
            line=prop.line,
        )
    tzid = prop.param("TZID")
    # A TZID on a date is meaningless (RFC 5545 3.3.4): an all-day event stays one.
    if tzid and isinstance(value, datetime) and value.tzinfo is None:
        zone = zones.resolve(tzid, who=who, line=prop.line)
        if zone is not None:
            value = value.replace(tzinfo=zone)
    return TimeValue(value=value, tzid=tzid, text=_snippet(prop.written), line=prop.line)


# --- shared with the xCal reader -----------------------------------------------------------


def describe_event(uid: str, summary: str) -> str:
    """How messages name an event: its UID, with its SUMMARY when it has one."""
    if uid:
        return f"event {_snippet(uid)!r}" + (f" ({_snippet(summary)!r})" if summary else "")
    if summary:
        return f"event {_snippet(summary)!r} (no UID)"
    return "an event with no UID and no SUMMARY"


def attendee_speaker(*, name: str, role: str, cutype: str) -> str:
    """The speaker an ATTENDEE names: its CN, unless it is a room, a resource or an observer."""
    if role.strip().upper() == "NON-PARTICIPANT" or cutype.strip().upper() in {"ROOM", "RESOURCE"}:
        return ""
    return " ".join(name.split())


def build_programme(
    events: Sequence[EventFields],
    *,
    source: str,
    name: str,
    declared_timezone: str,
    default_timezone: str,
    uid_domain: str,
    location: str,
    unknown_zone_hint: str,
) -> Programme:
    """The Programme of events read by an iCalendar or xCal reader, by the rules above."""
    declared = _iana(declared_timezone)
    default = _iana(default_timezone)
    if default_timezone and default is None:
        raise ParseError(
            f"the time zone given for floating times, {_shown_tzid(default_timezone)!r}, is not "
            "an IANA time zone name such as Europe/Paris",
            source=source,
        )
    programme = Programme(name=name.strip(), location=location)
    if declared_timezone and declared is None:
        programme.warnings.append(
            f"{source}: X-WR-TIMEZONE ignored: {zone_problem(declared_timezone)}"
        )
    floating = declared or default
    common = Counter(
        event.start.tzid
        for event in events
        if event.start is not None and event.start.tzid and _iana(event.start.tzid)
    )
    reader = _EventReader(
        source=source,
        floating=floating,
        floating_name=declared_timezone if declared else default_timezone,
        unknown_zone_hint=unknown_zone_hint,
        uid_domain=uid_domain,
        location=location,
        programme=programme,
        # The event's zone for keys made from times (identity.derived_key).
        key_zone=default or declared or (_iana(common.most_common(1)[0][0]) if common else None),
    )
    for event in events:
        reader.read(event)
    programme.sessions = unique_keys(
        [session for session, _ in reader.sessions], on_repeat=reader.repeated
    )
    programme.speakers = list(reader.speakers.values())
    if declared is not None:
        programme.timezone = declared_timezone
        programme.notes.append(f"{source}: time zone {declared_timezone} from X-WR-TIMEZONE")
    else:
        if common:
            programme.timezone = common.most_common(1)[0][0]
            programme.notes.append(
                f"{source}: time zone {programme.timezone}, the most common TZID of the events"
            )
    if not events:
        programme.warnings.append(f"{source}: the calendar has no events")
    zone = _iana(programme.timezone)
    local_days = sorted(
        (session.starts_at.astimezone(zone) if zone else session.starts_at).date()
        for session in programme.sessions
        if session.starts_at is not None
    )
    if local_days:
        programme.start_date, programme.end_date = local_days[0], local_days[-1]
    return programme


@dataclass
class _EventReader:
    """Turns EventFields into sessions and speakers, keeping keys unique."""

    source: str
    floating: tzinfo | None
    floating_name: str
    unknown_zone_hint: str
    uid_domain: str
    location: str
    programme: Programme
    key_zone: tzinfo | None = None
    sessions: list[tuple[Session, EventFields]] = field(default_factory=list)
    speakers: dict[str, Speaker] = field(default_factory=dict)
    used_floating: bool = False
    events_by_session: dict[int, EventFields] = field(default_factory=dict)  # for warnings

    def read(self, event: EventFields) -> None:
        who = describe_event(event.uid, event.summary)
        summary = html.unescape(event.summary)
        kind, title = split_kind(summary)
        if not title:
            title = "Untitled event"
            self.programme.warnings.append(
                f"{self._where(event)}: {who}: no title, shown as {title!r}"
            )
        starts_at, ends_at, all_day = self._times(event, who)
        key = self._key(event, summary or title, starts_at or all_day)
        billed, abstract = split_description(event.description, base_url=event.url)
        billed += [(attendee, "") for attendee in event.attendees]
        links: dict[str, SessionSpeaker] = {}  # by key: one look-up per name, not one per pair
        for speaker_name, affiliation in billed:
            speaker = Speaker(key=slugify(speaker_name), name=speaker_name, company=affiliation)
            known = self.speakers.setdefault(speaker.key, speaker)
            if not known.company and affiliation:
                self.speakers[speaker.key] = Speaker(known.key, known.name, company=affiliation)
            links.setdefault(
                speaker.key, SessionSpeaker(speaker_key=speaker.key, affiliation=affiliation)
            )
        review_note = ""
        if all_day is not None:
            first, last = all_day
            days = first.isoformat() if first == last else f"{first} to {last}"
            review_note = (
                f"{self._where(event)}: an all-day event ({days}) with no time of day; "
                "kept unscheduled: give it a time, or leave it off the grid"
            )
        if event.repeats:
            self.programme.warnings.append(
                f"{self._where(event)}: {who} repeats (RRULE/RDATE); only its first occurrence "
                "is read"
            )
        session = Session(
            key=key,
            title=title,
            kind=kind,
            abstract=abstract,
            starts_at=starts_at,
            ends_at=ends_at,
            room=self._room(html.unescape(event.location)),
            track=next((name.strip() for name in event.categories if name.strip()), ""),
            speakers=tuple(links.values()),
            is_cancelled=event.status == "CANCELLED",
            needs_review=bool(review_note),
            review_note=review_note,
            unknown=frozenset(event.unknown),
        )
        self.sessions.append((session, event))

    def _where(self, event: EventFields) -> str:
        return f"{self.source}, line {event.line}" if event.line else self.source

    def _key(
        self, event: EventFields, summary: str, when: datetime | tuple[date, date] | None
    ) -> str:
        """The UID (less our own domain), else the key `identity.derived_key` makes; keys
        repeated in the file are told apart by `identity.unique_keys` once all are read."""
        key = visible(event.uid)
        suffix = f"@{self.uid_domain}"
        if self.uid_domain and key.endswith(suffix) and len(key) > len(suffix):
            key = key.removesuffix(suffix)
        if not key:
            key = derived_key(
                summary, when[0] if isinstance(when, tuple) else when, zone=self.key_zone
            )
        return key

    def repeated(self, session: Session, key: str) -> None:
        """Warn about an event kept under another key: it repeats another event's identity."""
        if len(self.events_by_session) != len(self.sessions):
            self.events_by_session = {id(kept): event for kept, event in self.sessions}
        event = self.events_by_session[id(session)]
        self.programme.warnings.append(
            f"{self._where(event)}: {describe_event(event.uid, event.summary)} repeats the "
            f"identity of another event; kept as {key}"
        )

    def _room(self, written: str) -> str:
        room = written.strip().rstrip(",").strip()  # Sched: "Venue, " with no address
        if self.location:
            if room == self.location:
                return ""
            room = room.removesuffix(f", {self.location}")
        return room

    def _times(
        self, event: EventFields, who: str
    ) -> tuple[datetime | None, datetime | None, tuple[date, date] | None]:
        """Start and end, or the first and last day of an all-day event.

        The one place where an event's times meet date arithmetic: a result outside what
        every time zone can show, or an overflow on the way, is refused here.
        """
        try:
            starts_at, ends_at, all_day = self._read_times(event, who)
        except OverflowError as exc:  # DTSTART + DURATION, or an all-day end, past the range
            raise self._out_of_range(event, who, at_end=True) from exc
        if starts_at is not None and not _EARLIEST <= starts_at <= _LATEST:
            raise self._out_of_range(event, who, at_end=False)
        if ends_at is not None and not _EARLIEST <= ends_at <= _LATEST:
            raise self._out_of_range(event, who, at_end=True)
        return starts_at, ends_at, all_day

    def _read_times(
        self, event: EventFields, who: str
    ) -> tuple[datetime | None, datetime | None, tuple[date, date] | None]:
        if event.start is None:
            return None, None, None
        if not isinstance(event.start.value, datetime):
            first = event.start.value
            last = first
            if event.end is not None and not isinstance(event.end.value, datetime):
                last = max(first, event.end.value - timedelta(days=1))  # DTEND is exclusive
            elif event.duration is not None and event.duration.days > 1:
                last = first + timedelta(days=event.duration.days - 1)
            return None, None, (first, last)
        starts_at = self._aware(event.start, who)
        if event.end is not None:
            if not isinstance(event.end.value, datetime):
                raise ParseError(
                    f"{who}: {event.end.text!r} is a date but DTSTART is a date-time; "
                    "expected both to be date-times",
                    source=self.source,
                    line=event.end.line,
                )
            ends_at = self._aware(event.end, who)
        elif event.duration is not None:
            # RFC 5545 3.3.6: days and weeks are nominal (the same wall-clock time), hours,
            # minutes and seconds exact: PT2H from 01:30 on the night clocks change lasts two
            # real hours.
            ends_at = plus_duration(
                starts_at + timedelta(days=event.duration.days),
                event.duration - timedelta(days=event.duration.days),
            )
        else:
            ends_at = starts_at
        if ends_at < starts_at:
            raise ParseError(
                f"{who}: it ends ({event.end.text if event.end else event.duration}) before it "
                f"starts ({event.start.text})",
                source=self.source,
                line=event.end.line if event.end else event.start.line,
            )
        return starts_at, ends_at, None

    def _out_of_range(self, event: EventFields, who: str, *, at_end: bool) -> ParseError:
        assert event.start is not None  # only events with times get here
        written, line = repr(event.start.text), event.start.line
        if at_end and event.end is not None:
            written, line = repr(event.end.text), event.end.line
        elif at_end and event.duration is not None:
            duration = event.duration_text or str(event.duration)
            written, line = f"{written} plus {duration!r}", event.duration_line or line
        return ParseError(
            f"{who}: {written} falls outside the dates confsched can show in every time zone "
            f"({_EARLIEST.date().isoformat()} to {_LATEST.date().isoformat()}, UTC)",
            source=self.source,
            line=line or event.line,
        )

    def _aware(self, time_value: TimeValue, who: str) -> datetime:
        """The time as an instant; a local time the clocks skip moves forward, with a warning."""
        value = self._zoned(time_value, who)
        zone = value.tzinfo
        assert zone is not None  # _zoned makes every time aware
        moved, skipped = wall_time(value.replace(tzinfo=None), zone)
        if skipped:
            where = (
                f"{self.source}, line {time_value.line}:" if time_value.line else f"{self.source}:"
            )
            self.programme.warnings.append(
                skipped_time(f"{where} {who}:", time_value.text, zone, moved)
            )
            return moved
        return value

    def _zoned(self, time_value: TimeValue, who: str) -> datetime:
        value = time_value.value
        assert isinstance(value, datetime)  # only date-times get here
        if value.utcoffset() is not None:
            return value
        if time_value.tzid:
            zone = _iana(time_value.tzid)
            if zone is None:
                raise ParseError(
                    f"{who}: {time_value.text!r}: TZID {_shown_tzid(time_value.tzid)!r} "
                    f"{self.unknown_zone_hint}",
                    source=self.source,
                    line=time_value.line,
                )
            return value.replace(tzinfo=zone)
        if self.floating is None:
            raise ParseError(
                f"the file has naive local times with no time zone ({who}: "
                f"{time_value.text!r} has neither a TZID nor a trailing Z) and no "
                f"X-WR-TIMEZONE; {_FLOATING_HELP}",
                source=self.source,
                line=time_value.line,
            )
        if not self.used_floating:
            self.used_floating = True
            self.programme.notes.append(
                f"{self.source}: floating times read in {self.floating_name}"
            )
        return value.replace(tzinfo=self.floating)


def _iana(name: str) -> tzinfo | None:
    """The zone for an IANA name from outside, None for anything else (never a file path)."""
    return get_zone(name) if is_zone_name(name) else None
