"""iCalendar (RFC 5545) calendars read as a programme: Sched's `all.ics`, other tools' feeds,
and confsched's own feed (`confsched.interchange.ical.render_ical`) read back.

The `icalendar` package parses; a pre-check of our own comes first because the library is
lenient to the point of silence (a stray line or an unbalanced END is dropped without a word)
and never says where it stumbled. The pre-check unfolds lines (CRLF, LF-only and CR endings;
folded or not, at any length), and refuses with the line number a file that is not
iCalendar, a line that is no `NAME[;PARAM=…]:value` content line, and BEGIN/END that do not
pair up.

Mapping, per VEVENT:

* UID is the session key, less a trailing "@{uid_domain}" when the caller names the domain
  (confsched's own feeds then round-trip to the same keys). Without a UID the key is the slug
  of SUMMARY and the local start. A UID seen twice (RECURRENCE-ID overrides, careless
  exporters) keeps the first event under that key; the next get "-2", "-3" … and a warning.
  RRULE is not expanded: the first occurrence is read, with a warning.
* SUMMARY is the title; a leading "Kind: " for a kind in `sched_pages.KINDS` becomes the kind
  ("Lightning Talk: X", as render_ical writes it). HTML entities are unescaped: Sched writes
  "Q&amp;A" in summaries.
* DESCRIPTION is the abstract; HTML (lca2020's feed) becomes plain text, keeping paragraphs
  and link URLs. A first line "Speakers: A (Org), B" (render_ical) or "Speaker: A" (Symposion,
  lca2020) gives the speakers, "Name (Affiliation)", split at commas outside parentheses.
  Sched's export carries no speakers at all: its sessions come without any.
* LOCATION is the room, without the trailing comma Sched leaves when a venue has no address
  ("Whole Ship,") and without ", {location}" when the caller names the event's location
  (render_ical appends it). CATEGORIES gives the track: the first non-empty one (Sched writes
  an empty CATEGORIES on most events). STATUS:CANCELLED marks the session cancelled.
* DTSTART/DTEND: a TZID is resolved by a VTIMEZONE in the file, else as an IANA name with
  zoneinfo (lca2020 writes TZID=Australia/Brisbane and no VTIMEZONE; the library also maps
  Windows zone names); an unknown TZID is refused. "Z" is UTC. Floating times (no TZID, no Z)
  are read in the calendar's X-WR-TIMEZONE, else in `default_timezone`, else refused. No DTEND:
  DTSTART + DURATION, else a zero-length session (Sched has those too, as DTEND = DTSTART).
* All-day events (DTSTART;VALUE=DATE) have no time to put in a grid: they are kept
  unscheduled and flagged for review, their dates in the review note.

The calendar: X-WR-CALNAME (or RFC 7986 NAME) is the programme's name, as written (Sched's
JoCo Cruise calendar is "jococruise2019" for January 2020 dates); X-WR-TIMEZONE, when it is
an IANA name, is the programme's zone, else the most common IANA TZID of the events.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from icalendar import Calendar, Component
from icalendar.prop import vDDDTypes

from confsched.core.errors import ParseError
from confsched.core.text import slugify
from confsched.interchange.html_text import html_to_text as _html_to_text
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.sched_pages import KINDS

FORMAT_NAME = "ical"
DESCRIPTION = "iCalendar (.ics): Sched's all.ics export, other tools' feeds, confsched's own"

# RFC 5545 3.1: a name of letters, digits and dashes, then parameters or the value.
_CONTENT_LINE = re.compile(r"^[A-Za-z0-9-]+[;:]")
_SPEAKERS_LINE = re.compile(r"^Speakers?:[ \t]*(?P<names>[^\n]*)(?:\n|$)")
_HTML_TAG = re.compile(
    r"</?(?:p|br|a|em|strong|b|i|u|s|strike|del|ins|small|ul|ol|li|dl|dt|dd|div|span|h[1-6]"
    r"|blockquote|pre|code|table|thead|tbody|tr|td|th|img|hr|sup|sub)\b[^>]*>",
    re.IGNORECASE,
)
_FLOATING_HELP = (
    "give the zone with --timezone (an IANA name such as Europe/Paris), "
    "or add X-WR-TIMEZONE to the calendar"
)
_SNIPPET = 120  # characters of a line quoted in a message


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
    status: str = ""
    url: str = ""
    repeats: bool = False
    line: int | None = None  # where the event begins


def looks_like(head: str) -> bool:
    """True for text that starts with BEGIN:VCALENDAR, after any byte-order mark and blanks."""
    return head.lstrip("\ufeff \t\r\n")[:15].upper() == "BEGIN:VCALENDAR"


def parse(
    data: bytes | str,
    *,
    source: str,
    default_timezone: str = "",
    uid_domain: str = "",
    location: str = "",
) -> Programme:
    """Read one VCALENDAR; floating times need X-WR-TIMEZONE or `default_timezone`."""
    text = _decode(data, source)
    lines, event_lines = _check_structure(text, source)
    try:
        calendar = Calendar.from_ical("\r\n".join(content for _, content in lines) + "\r\n")
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        # The pre-check passes nearly everything the library refuses; this is the remainder.
        raise ParseError(f"cannot be read as iCalendar: {exc}", source=source) from exc
    components = calendar.walk("VEVENT")
    if len(components) != len(event_lines):  # nested oddities: give up on line numbers only
        event_lines = [{} for _ in components]
    warnings: list[str] = []
    events = [
        _event_fields(component, lines_of=where, source=source, warnings=warnings)
        for component, where in zip(components, event_lines, strict=True)
    ]
    programme = build_programme(
        events,
        source=source,
        name=_text(calendar.get("X-WR-CALNAME") or calendar.get("NAME")),
        declared_timezone=_text(calendar.get("X-WR-TIMEZONE")).strip(),
        default_timezone=default_timezone,
        uid_domain=uid_domain,
        location=location,
        unknown_zone_hint="is neither an IANA time zone name nor defined by a VTIMEZONE in the "
        "file",
    )
    programme.warnings[:0] = warnings
    return programme


# --- the pre-check -------------------------------------------------------------------------


def _decode(data: bytes | str, source: str) -> str:
    if isinstance(data, str):
        text = data.lstrip("\ufeff")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParseError(
                f"not UTF-8 text (byte {exc.start} cannot be decoded); iCalendar is UTF-8 "
                "(RFC 5545 3.1.4)",
                source=source,
                line=data[: exc.start].count(b"\n") + 1,
            ) from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _check_structure(
    text: str, source: str
) -> tuple[list[tuple[int, str]], list[dict[str, tuple[int, str]]]]:
    """Unfolded content lines with their line numbers, and each VEVENT's property lines."""
    lines: list[tuple[int, str]] = []
    # Blanks before BEGIN:VCALENDAR are tolerated (looks_like does too), and still counted.
    body = text.lstrip()
    first_number = text[: len(text) - len(body)].count("\n") + 1
    for number, physical in enumerate(body.split("\n"), start=first_number):
        if physical[:1] in (" ", "\t") and lines and lines[-1][1]:
            lines[-1] = (lines[-1][0], lines[-1][1] + physical[1:])  # RFC 5545 3.1 folding
        else:
            lines.append((number, physical))
    lines = [(number, content) for number, content in lines if content.strip()]
    if not lines or lines[0][1].strip().upper() != "BEGIN:VCALENDAR":
        first = lines[0] if lines else (None, "")
        found = f"it starts with {_snippet(first[1])!r}" if first[1] else "it is empty"
        raise ParseError(
            f"not iCalendar: expected the file to start with BEGIN:VCALENDAR, but {found}",
            source=source,
            line=first[0],
        )
    stack: list[tuple[str, int]] = []
    events: list[dict[str, tuple[int, str]]] = []
    current: dict[str, tuple[int, str]] | None = None
    for number, content in lines:
        if not stack and number != lines[0][0]:
            raise ParseError(
                f"{_snippet(content)!r} comes after END:VCALENDAR; expected one calendar per "
                "file and nothing after it",
                source=source,
                line=number,
            )
        if not _CONTENT_LINE.match(content) or ":" not in content:
            raise ParseError(
                f"{_snippet(content)!r} is not an iCalendar content line (NAME:value or "
                "NAME;PARAM=value:value); a line continuing the one before must start with a "
                "space (folding, RFC 5545 3.1)",
                source=source,
                line=number,
            )
        name, _, value = content.partition(":")
        name = name.split(";", 1)[0].upper()
        if name == "BEGIN":
            stack.append((value.strip().upper(), number))
            current = {"BEGIN": (number, content)} if stack[-1][0] == "VEVENT" else None
            if current is not None:
                events.append(current)
        elif name == "END":
            closing = value.strip().upper()
            if not stack or stack[-1][0] != closing:
                raise ParseError(
                    f"END:{closing} does not close BEGIN:{stack[-1][0]} of line {stack[-1][1]}"
                    if stack
                    else f"END:{closing} closes nothing",
                    source=source,
                    line=number,
                )
            stack.pop()
            current = events[-1] if stack and stack[-1][0] == "VEVENT" and events else None
        elif current is not None:
            current.setdefault(name, (number, content))
    if stack:
        opened, number = stack[-1]
        raise ParseError(
            f"BEGIN:{opened} is never closed by END:{opened}; the file looks cut short",
            source=source,
            line=number,
        )
    return lines, events


def _snippet(text: str) -> str:
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"


# --- one VEVENT ----------------------------------------------------------------------------


def _event_fields(
    component: Component,
    *,
    lines_of: dict[str, tuple[int, str]],
    source: str,
    warnings: list[str],
) -> EventFields:
    fields = EventFields(
        uid=_text(component.get("UID")).strip(),
        summary=_text(component.get("SUMMARY")).strip(),
        description=_text(component.get("DESCRIPTION")),
        location=_text(component.get("LOCATION")).strip(),
        categories=_categories(component.get("CATEGORIES")),
        status=_text(component.get("STATUS")).strip().upper(),
        url=_text(component.get("URL")).strip(),
        repeats="RRULE" in component or "RDATE" in component,
        line=lines_of.get("BEGIN", (None, ""))[0],
    )
    who = describe_event(fields.uid, fields.summary)
    fields.start = _time_value(component, "DTSTART", lines_of, who=who, source=source)
    fields.end = _time_value(component, "DTEND", lines_of, who=who, source=source)
    if "DURATION" in component and fields.end is None:
        duration = component["DURATION"]
        if not isinstance(duration, vDDDTypes) or not isinstance(duration.dt, timedelta):
            line, written = lines_of.get("DURATION", (None, "DURATION"))
            raise ParseError(
                f"{who}: {_snippet(written)!r} cannot be read; expected a duration such as "
                "PT45M or PT1H30M",
                source=source,
                line=line,
            )
        fields.duration = duration.dt
    for name, problem in component.errors:
        if name not in {"DTSTART", "DTEND", "DURATION"}:
            line, written = lines_of.get(name or "", (fields.line, name or "a line"))
            where = f"{source}, line {line}" if line else source
            warnings.append(f"{where}: {who}: {_snippet(written)!r} ignored: {problem}")
    return fields


def _time_value(
    component: Component,
    name: str,
    lines_of: dict[str, tuple[int, str]],
    *,
    who: str,
    source: str,
) -> TimeValue | None:
    if name not in component:
        return None
    prop = component[name]
    line, written = lines_of.get(name, (None, name))
    if isinstance(prop, list):
        raise ParseError(
            f"{who}: {name} is given {len(prop)} times; expected one", source=source, line=line
        )
    value = prop.dt if isinstance(prop, vDDDTypes) else None
    if not isinstance(value, date):  # datetime is a date; a time, period or duration is not
        raise ParseError(
            f"{who}: {_snippet(written)!r} cannot be read; expected a date-time such as "
            "20260407T094500 (local, with TZID) or 20260407T074500Z (UTC), or a date such as "
            "20260407",
            source=source,
            line=line,
        )
    return TimeValue(
        value=value, tzid=str(prop.params.get("TZID", "")), text=_snippet(written), line=line
    )


def _text(value: object) -> str:
    if isinstance(value, list):  # a property written twice: the first one counts
        value = value[0] if value else ""
    return "" if value is None else str(value)


def _categories(value: object) -> list[str]:
    props = value if isinstance(value, list) else [value] if value is not None else []
    return [str(category) for prop in props for category in getattr(prop, "cats", [])]


# --- shared with the xCal reader -----------------------------------------------------------


def describe_event(uid: str, summary: str) -> str:
    """How messages name an event: its UID, with its SUMMARY when it has one."""
    if uid:
        return f"event {uid!r}" + (f" ({summary!r})" if summary else "")
    if summary:
        return f"event {summary!r} (no UID)"
    return "an event with no UID and no SUMMARY"


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
            f"the time zone given for floating times, {default_timezone!r}, is not an IANA "
            "time zone name such as Europe/Paris",
            source=source,
        )
    programme = Programme(name=name.strip(), location=location)
    floating = declared or default
    reader = _EventReader(
        source=source,
        floating=floating,
        floating_name=declared_timezone if declared else default_timezone,
        unknown_zone_hint=unknown_zone_hint,
        uid_domain=uid_domain,
        location=location,
        programme=programme,
    )
    for event in events:
        reader.read(event)
    programme.sessions = list(reader.sessions.values())
    programme.speakers = list(reader.speakers.values())
    if declared is not None:
        programme.timezone = declared_timezone
        programme.notes.append(f"{source}: time zone {declared_timezone} from X-WR-TIMEZONE")
    else:
        zones = Counter(
            event.start.tzid
            for event in events
            if event.start is not None and event.start.tzid and _iana(event.start.tzid)
        )
        if zones:
            programme.timezone = zones.most_common(1)[0][0]
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
    sessions: dict[str, Session] = field(default_factory=dict)
    speakers: dict[str, Speaker] = field(default_factory=dict)
    used_floating: bool = False

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
        links: list[SessionSpeaker] = []
        for speaker_name, affiliation in billed:
            speaker = Speaker(key=slugify(speaker_name), name=speaker_name, company=affiliation)
            known = self.speakers.setdefault(speaker.key, speaker)
            if not known.company and affiliation:
                self.speakers[speaker.key] = Speaker(known.key, known.name, company=affiliation)
            if all(link.speaker_key != speaker.key for link in links):
                links.append(SessionSpeaker(speaker_key=speaker.key, affiliation=affiliation))
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
        self.sessions[key] = Session(
            key=key,
            title=title,
            kind=kind,
            abstract=abstract,
            starts_at=starts_at,
            ends_at=ends_at,
            room=self._room(html.unescape(event.location)),
            track=next((name.strip() for name in event.categories if name.strip()), ""),
            speakers=tuple(links),
            is_cancelled=event.status == "CANCELLED",
            needs_review=bool(review_note),
            review_note=review_note,
        )

    def _where(self, event: EventFields) -> str:
        return f"{self.source}, line {event.line}" if event.line else self.source

    def _key(
        self, event: EventFields, summary: str, when: datetime | tuple[date, date] | None
    ) -> str:
        key = event.uid
        suffix = f"@{self.uid_domain}"
        if self.uid_domain and key.endswith(suffix) and len(key) > len(suffix):
            key = key.removesuffix(suffix)
        if not key:
            stamp = (
                when.strftime("%Y-%m-%d %H%M")
                if isinstance(when, datetime)
                else when[0].isoformat()
                if when
                else ""
            )
            key = slugify(f"{summary} {stamp}", max_length=120)
        if key in self.sessions:
            number = 2
            while f"{key}-{number}" in self.sessions:
                number += 1
            self.programme.warnings.append(
                f"{self._where(event)}: {describe_event(event.uid, event.summary)} repeats the "
                f"identity of an earlier event; kept as {key}-{number}"
            )
            key = f"{key}-{number}"
        return key

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
        """Start and end, or the first and last day of an all-day event."""
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
            ends_at = starts_at + event.duration
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

    def _aware(self, time_value: TimeValue, who: str) -> datetime:
        value = time_value.value
        assert isinstance(value, datetime)  # only date-times get here
        if value.utcoffset() is not None:
            return value
        if time_value.tzid:
            zone = _iana(time_value.tzid)
            if zone is None:
                raise ParseError(
                    f"{who}: {time_value.text!r}: TZID {time_value.tzid!r} "
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


def _iana(name: str) -> ZoneInfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):  # ValueError: a path, not a zone key
        return None


def split_kind(summary: str) -> tuple[str, str]:
    """'Lightning Talk: X' -> ('Lightning Talk', 'X'); other 'A: B' summaries stay whole."""
    for kind in sorted(KINDS, key=len, reverse=True):
        prefix = f"{kind}: "
        if summary.casefold().startswith(prefix.casefold()):
            return kind, summary[len(prefix) :].strip()
    return "", summary.strip()


def split_description(description: str, *, base_url: str = "") -> tuple[list[tuple[str, str]], str]:
    """Billed speakers (name, affiliation) from a leading "Speakers:" line, and the abstract."""
    text = description.replace("\r\n", "\n").replace("\r", "\n").strip()
    match = _SPEAKERS_LINE.match(text)
    if match is None and _HTML_TAG.search(text):  # "<p>Speakers: …</p>"
        text = _html_to_text(text, base_url=base_url)
        match = _SPEAKERS_LINE.match(text)
    speakers = []
    if match is not None:
        for piece in _split_outside_parentheses(match["names"]):
            name, affiliation = _split_affiliation(piece)
            if name:
                speakers.append((name, affiliation))
        text = text[match.end() :].strip()
    if _HTML_TAG.search(text):
        text = _html_to_text(text, base_url=base_url)
    return speakers, text


def _split_outside_parentheses(names: str) -> list[str]:
    """'A (X, Y), B' -> ['A (X, Y)', 'B']: affiliations may hold commas."""
    pieces, depth, current = [], 0, ""
    for char in names:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth <= 0:
            pieces.append(current)
            current, depth = "", 0
        else:
            current += char
    pieces.append(current)
    return [piece.strip() for piece in pieces if piece.strip()]


def _split_affiliation(piece: str) -> tuple[str, str]:
    """'Ada (Royal Society (UK))' -> ('Ada', 'Royal Society (UK)')."""
    if not piece.endswith(")"):
        return piece, ""
    depth = 0
    for index in range(len(piece) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(piece[index], 0)
        if depth == 0:
            name = piece[:index].strip()
            return (name, piece[index + 1 : -1].strip()) if name else (piece, "")
    return piece, ""
