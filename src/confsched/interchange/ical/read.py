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

The parts: `ical.lines` (steps 1 and 2, and one property read by the library), `ical.times`
(TZIDs, VTIMEZONEs, DTSTART and DTEND), `ical.descriptions` (the kind in SUMMARY, the speakers
line of DESCRIPTION) and `ical.events` (the mapping, shared with the xCal reader); this module
reads the calendar and its VEVENTs with them.
"""

from __future__ import annotations

from datetime import timedelta

from icalendar import vCategory

from confsched.core.errors import ParseError
from confsched.interchange.ical.events import (
    EventFields,
    attendee_speaker,
    build_programme,
    describe_event,
)
from confsched.interchange.ical.lines import (
    _FOLD,
    _Component,
    _content_lines,
    _Property,
    _property_name,
    _read_property,
    _read_structure,
    _snippet,
)
from confsched.interchange.ical.times import _time_value, _Zones
from confsched.interchange.programme import Programme

FORMAT_NAME = "ical"
DESCRIPTION = "iCalendar (.ics): Sched's all.ics export, other tools' feeds, confsched's own"

# The event needs these; whatever else the library cannot read is only a warning.
_TIME_PROPERTIES = frozenset({"DTSTART", "DTEND", "DURATION"})


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
