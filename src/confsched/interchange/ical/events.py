"""The events of a calendar made a Programme: what the iCalendar and xCal readers both read
into EventFields, then sessions, speakers and keys by the rules of `ical.read`."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo

from confsched.core.errors import ParseError
from confsched.core.text import slugify
from confsched.core.timezones import get_zone, is_zone_name, zone_problem
from confsched.interchange.ical.descriptions import (
    CANCELLED_PREFIX,
    split_description,
    split_kind,
)
from confsched.interchange.ical.lines import _shown_tzid, _snippet
from confsched.interchange.identity import derived_key, unique_keys, visible
from confsched.interchange.programme import Programme, Session, SessionSpeaker, Speaker
from confsched.interchange.zones import plus_duration, skipped_time, wall_time

_FLOATING_HELP = (
    "give the zone with --timezone (an IANA name such as Europe/Paris), "
    "or add X-WR-TIMEZONE to the calendar"
)

# Every zone is less than a day from UTC: a time a day inside the datetime range can be shown
# in any of them (and stored in UTC) without overflowing.
_EARLIEST = datetime.min.replace(tzinfo=UTC) + timedelta(days=1)
_LATEST = datetime.max.replace(tzinfo=UTC) - timedelta(days=1)


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
    """The Programme of events read by an iCalendar or xCal reader, by the rules of `ical.read`."""
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
        if event.status == "CANCELLED" and summary.startswith(CANCELLED_PREFIX):
            # What confsched's writers add for the apps that ignore STATUS: not the title.
            summary = summary.removeprefix(CANCELLED_PREFIX).lstrip()
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
        if room and room == self.programme.name:
            return ""  # confsched's writers give the calendar's name when there is no room
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
