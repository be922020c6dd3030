"""iCalendar (RFC 5545) feed of a programme, one VEVENT per scheduled session.

Also uses RFC 7986 (NAME, REFRESH-INTERVAL) and the de facto X-WR-CALNAME, X-WR-TIMEZONE and
X-PUBLISHED-TTL that Apple, Google and Outlook read. The `icalendar` package writes the text:
escaping, folding at 75 octets and CRLF line endings are its job.

Times are written in the programme's IANA zone with a TZID parameter and a matching VTIMEZONE,
so a calendar app shows the local wall-clock time and follows daylight saving; a programme
without an IANA zone is written in UTC. A session's links (slides, recordings) are ATTACH
properties holding their addresses, which calendar apps list with the event. Every VEVENT has
what Giggity requires (UID, SUMMARY, LOCATION, the calendar's name without a room or venue,
DTSTART, DTEND),
and a cancelled session's SUMMARY opens with "Cancelled: " for the apps that ignore STATUS.
The output depends on the arguments only, byte for byte, so that an ETag computed from it
stays stable between identical renders.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, Protocol
from urllib.parse import quote

from icalendar import (
    Alarm,
    Calendar,
    Component,
    Event,
    vCategory,
    vDDDTypes,
    vDuration,
    vText,
    vUri,
)
from icalendar.parser import Contentline

from confsched.interchange.ical.descriptions import CANCELLED_PREFIX
from confsched.interchange.ical.vtimezone import vtimezone
from confsched.interchange.programme import Programme, Session, Speaker
from confsched.interchange.zones import programme_zone

FORMAT_NAME = "ical"
PRODID = "-//confsched//confsched//EN"

# DTSTAMP when neither the session nor the caller gives a time: a constant rather than the clock,
# so identical input renders identical bytes.
FALLBACK_DTSTAMP = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Personal:
    """What one person's feed adds to a session: their seat's status (CONFIRMED, or TENTATIVE
    while on the waitlist), a line opening the description (the check-in code, the place on
    the waitlist), and an alarm this many minutes before the start (0: none)."""

    status: str = ""
    note: str = ""
    alarm_minutes: int = 0


class TextMemo(Protocol):
    """Where rendered VEVENTs are kept by digest (a dict, or a bounded cache)."""

    def get(self, key: bytes, /) -> bytes | None: ...
    def __setitem__(self, key: bytes, value: bytes, /) -> None: ...


def render_ical(
    programme: Programme,
    *,
    uid_domain: str,
    calendar_name: str,
    sessions: Iterable[Session] | None = None,
    url_for: Callable[[str], str] | None = None,
    now: datetime | None = None,
    refresh_minutes: int = 15,
    rendered: TextMemo | None = None,
    personal: Mapping[str, Personal] | None = None,
) -> bytes:
    """The programme's sessions that have a start (or only `sessions`) as one VCALENDAR.

    `rendered` keeps each VEVENT's text under a digest of everything it is made from, so a
    caller that passes the same mapping again renders only the sessions that changed.
    `personal` (a private feed's) holds, by session key, what the person's seats and reminders
    add to their sessions.
    """
    if refresh_minutes <= 0:
        raise ValueError(f"refresh_minutes must be positive, not {refresh_minutes}")
    if now is not None:
        now = _utc(now, "now")
    zone = programme_zone(programme.timezone)
    # Sessions waiting for an organizer's review are not published anywhere.
    chosen = [s for s in programme.sessions if not s.needs_review] if sessions is None else sessions
    # One VEVENT per key: two with one UID read as conflicting copies of a single event.
    by_key = {session.key: session for session in chosen if session.starts_at is not None}
    scheduled = sorted(by_key.values(), key=lambda session: (session.starts_at, session.key))

    calendar = Calendar()
    calendar.add("VERSION", "2.0")
    calendar.add("PRODID", PRODID)
    calendar.add("CALSCALE", "GREGORIAN")
    # No METHOD: a published calendar is not an iTIP message. METHOD:PUBLISH would need an
    # ORGANIZER in every event (RFC 5546 3.2.1; libical's iTIP check flags each file), an
    # address confsched does not have, and that clients show as an invitation's sender.
    # RFC 7986 NAME and the de facto X-WR-CALNAME are TEXT: commas and semicolons escaped
    # (the library's calendar_name writes them raw).
    calendar.add("NAME", vText(calendar_name))
    calendar.add("X-WR-CALNAME", vText(calendar_name))
    if programme.timezone:
        calendar.add("X-WR-TIMEZONE", programme.timezone)
    refresh = timedelta(minutes=refresh_minutes)
    # RFC 7986 requires VALUE=DURATION here; the library leaves it out unless asked.
    calendar.add("REFRESH-INTERVAL", refresh, parameters={"VALUE": "DURATION"})
    # An unknown X- property would be written with str(timedelta) ("0:15:00") without vDuration.
    calendar.add("X-PUBLISHED-TTL", vDuration(refresh))

    speakers = {speaker.key: speaker for speaker in programme.speakers}
    memo: TextMemo = {} if rendered is None else rendered
    events = []
    for session in scheduled:
        url = url_for(session.key) if url_for else None
        mine = (personal or {}).get(session.key)
        # A session or speaker read by snapshot() stands for its fingerprint, a digest of its
        # every field, whose repr costs a fraction of the whole's.
        digest = hashlib.blake2b(
            repr(
                (session.fingerprint or session, session.sequence, session.last_modified,
                 programme.location, calendar_name, zone, uid_domain, url, now,
                 [_shown(speakers.get(b.speaker_key)) for b in session.speakers], mine)
            ).encode(),
            digest_size=20,
        ).digest()  # fmt: skip
        text = memo.get(digest)
        if text is None:
            values = event_values(
                session, programme=programme, zone=zone, speakers=speakers,
                uid_domain=uid_domain, url=url, now=now, personal=mine,
                calendar_name=calendar_name,
            )  # fmt: skip
            text = memo[digest] = vevent_bytes(values)
        events.append(text)
    if scheduled:
        # One definition per zone that holds for every date (ical/vtimezone.py): readers such
        # as vobject keep the first VTIMEZONE of a TZID for every calendar they read after it.
        # The zones come from one event: all are written in one zone.
        first = scheduled[0].starts_at
        assert first is not None
        probe = Calendar()
        probe.add_component(Event(dtstart=vDDDTypes(first.astimezone(zone))))
        if probe.get_missing_tzids() and (timezone := vtimezone(zone, first.year)) is not None:
            calendar.add_component(timezone)
    # The calendar with its zones, then the events before its closing line: what to_ical() of
    # the calendar holding them all writes, the events being its last components.
    head = to_ical_bytes(calendar)
    assert head.endswith(_END)
    return head[: -len(_END)] + b"".join(events) + _END


_END = b"END:VCALENDAR\r\n"


def _shown(speaker: Speaker | None) -> object:
    return speaker.fingerprint or speaker if speaker is not None else None


_HTTP = re.compile(r"https?://\S+")


def render(programme: Programme, *, slug: str, base_url: str = "", uid_domain: str) -> bytes:
    """The event's calendar (`/<slug>/schedule.ics`) as a writer of the registry renders it: a
    version's calendar from the programme it kept, byte for byte what the event's calendar was
    then. Named after the programme; each session links to its page under an http(s) `base_url`
    ("https://host/"), as the web's calendar does; without one, no links."""
    site = base_url.rstrip("/") if _HTTP.fullmatch(base_url) else ""

    def page(key: str) -> str:
        return f"{site}/{slug}/sessions/{quote(key, safe='')}/"

    return render_ical(
        programme, uid_domain=uid_domain, calendar_name=programme.name,
        url_for=page if site else None,
    )  # fmt: skip


# RFC 5545 folds content lines longer than 75 octets, never inside a UTF-8 sequence; the library
# folds a character at a time (1.8 s of a 5,000-session feed's 4 s). An ASCII line is folded here
# by slicing, with the same result: 74 characters a line, and an escape character ("\\" or "^")
# never left at a line's end. Other lines are folded by the library, which counts octets: a line
# of 74 characters may hold 222 of them (CJK) or 296 (emoji), so length is measured in octets.
_FOLD_WIDTH = 74


def to_ical_bytes(component: Component) -> bytes:
    """`component.to_ical()`, byte for byte, faster for long ASCII lines."""
    return b"\r\n".join(_folded(line) for line in component.content_lines() if line) + b"\r\n"


def _folded(line: Contentline) -> bytes:
    if not line.isascii():
        encoded = line.encode()
        return encoded if len(encoded) <= _FOLD_WIDTH else line.to_ical()
    if len(line) <= _FOLD_WIDTH:
        return line.encode()
    parts = []
    start = 0
    while len(line) - start > _FOLD_WIDTH:
        end = start + _FOLD_WIDTH
        if line[end - 1] in "\\^":
            end -= 1
        parts.append(line[start:end])
        start = end
    parts.append(line[start:])
    return "\r\n ".join(parts).encode()


def event_values(
    session: Session,
    *,
    programme: Programme,
    zone: tzinfo,
    speakers: dict[str, Speaker],
    uid_domain: str,
    url: str | None,
    now: datetime | None,
    personal: Personal | None = None,
    calendar_name: str = "",
) -> dict[str, Any]:
    """One session's VEVENT as the values `Event.new` takes, plus its `attachments` and
    `alarm_minutes`. LOCATION is the room and the venue, else `calendar_name`."""
    assert session.starts_at is not None  # only scheduled sessions get here
    starts_at = session.starts_at.astimezone(zone)
    ends_at = session.ends_at.astimezone(zone) if session.ends_at else starts_at
    last_modified = (
        _utc(session.last_modified, f"session {session.key!r}: last_modified")
        if session.last_modified is not None
        else None
    )
    location = calendar_location(session, programme.location, calendar_name)
    description = calendar_description(session, speakers)
    status = "CANCELLED" if session.is_cancelled else "CONFIRMED"
    if personal is not None:
        if personal.note:
            description = f"{personal.note}\n\n{description}" if description else personal.note
        if personal.status and not session.is_cancelled:
            status = personal.status
    # Every value is given: Event.new would otherwise stamp the clock and invent a UUID.
    return {
        "uid": f"{session.key}@{uid_domain}",
        "stamp": last_modified or now or FALLBACK_DTSTAMP,
        "start": starts_at,
        "end": ends_at,
        "summary": calendar_summary(session),
        "description": description or None,
        "location": location,
        "categories": [session.track] if session.track else (),
        "url": url,
        "sequence": session.sequence,
        "last_modified": last_modified,
        # Cancelled sessions stay in feeds so that subscribed calendars mark them, not lose them.
        "status": status,
        "attachments": [link.url for link in session.links],
        "alarm_minutes": personal.alarm_minutes if personal and not session.is_cancelled else 0,
    }


def library_event(values: dict[str, Any]) -> Event:
    """The VEVENT built by the library: what `vevent_bytes` must write, byte for byte (the
    tests hold one against the other)."""
    fields = dict(values)
    attachments = fields.pop("attachments")
    minutes = fields.pop("alarm_minutes")
    location = fields.pop("location")
    event = Event.new(**fields)
    if location is not None:  # Event.new leaves an empty one out
        event.add("LOCATION", location)
    for address in attachments:
        event.add("ATTACH", address)
    if minutes:
        event.add_component(_alarm(fields["summary"], minutes))
    return event


def _alarm(summary: str, minutes: int) -> Alarm:
    """A reminder `minutes` before the start, shown with the session's title (RFC 5545 3.6.6:
    a DISPLAY alarm has a DESCRIPTION)."""
    alarm = Alarm()
    alarm.add("ACTION", "DISPLAY")
    alarm.add("DESCRIPTION", summary)
    alarm.add("TRIGGER", timedelta(minutes=-minutes))
    return alarm


def vevent_bytes(values: dict[str, Any]) -> bytes:
    """`to_ical_bytes(library_event(values))`, written from the library's own value types
    (escaping, dates, zones) without building the component: at 5,000 sessions the component
    and its serialisation cost 1.2 s, these lines 0.15 s. Properties in the library's order:
    the canonical ones, then the others by name."""
    lines = [
        "BEGIN:VEVENT",
        _line("SUMMARY", vText(values["summary"])),
        _line("DTSTART", vDDDTypes(values["start"])),
        _line("DTEND", vDDDTypes(values["end"])),
        _line("DTSTAMP", vDDDTypes(values["stamp"])),
        _line("UID", vText(values["uid"])),
        f"SEQUENCE:{int(values['sequence'])}",
    ]
    lines += [_line("ATTACH", vUri(address)) for address in values["attachments"]]
    if values["categories"]:
        lines.append(_line("CATEGORIES", vCategory(values["categories"])))
    if values["description"]:
        lines.append(_line("DESCRIPTION", vText(values["description"])))
    if values["last_modified"]:
        lines.append(_line("LAST-MODIFIED", vDDDTypes(values["last_modified"])))
    if values["location"] is not None:
        lines.append(_line("LOCATION", vText(values["location"])))
    lines.append(_line("STATUS", vText(values["status"])))
    if values["url"]:
        lines.append(_line("URL", vUri(values["url"])))
    if values["alarm_minutes"]:
        alarm = _alarm(values["summary"], values["alarm_minutes"])
        lines += [line for line in alarm.content_lines() if line]
    lines.append("END:VEVENT")
    return b"\r\n".join(_folded(Contentline(line)) for line in lines) + b"\r\n"


def _line(name: str, value: Any) -> str:
    return Contentline.from_parts(name, value.params, value)


def calendar_location(session: Session, venue: str, calendar_name: str) -> str:
    """LOCATION (iCalendar and RFC 6321 xCal): "Room, Venue", the room, the venue, else the
    calendar's name. Never left out (Giggity drops an event without one) nor empty (libical
    drops an empty one, as a property without a value); the readers take the calendar's name
    for no room (`ical.events`)."""
    return ", ".join(part for part in (session.room, venue) if part) or calendar_name


def calendar_summary(session: Session) -> str:
    """SUMMARY (iCalendar and xCal): "Kind: Title", opened by "Cancelled: " when cancelled."""
    summary = f"{session.kind}: {session.title}" if session.kind else session.title
    return f"{CANCELLED_PREFIX}{summary}" if session.is_cancelled else summary


def calendar_description(session: Session, speakers: dict[str, Speaker]) -> str:
    """The speakers line, a blank line, then the abstract as plain text (iCalendar and xCal)."""
    names = []
    for billing in session.speakers:
        speaker = speakers.get(billing.speaker_key)
        name = speaker.name if speaker else billing.speaker_key
        affiliation = billing.affiliation or (speaker.company if speaker else "")
        names.append(f"{name} ({affiliation})" if affiliation else name)
    speakers_line = f"Speakers: {', '.join(names)}" if names else ""
    return "\n\n".join(part for part in (speakers_line, session.abstract) if part)


def _utc(value: datetime, what: str) -> datetime:
    # A naive time would be read in the server's zone: refuse rather than guess.
    if value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware")
    return value.astimezone(UTC)
