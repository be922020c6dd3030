"""iCalendar (RFC 5545) feed of a programme, one VEVENT per scheduled session.

Also uses RFC 7986 (NAME, REFRESH-INTERVAL) and the de facto X-WR-CALNAME, X-WR-TIMEZONE and
X-PUBLISHED-TTL that Apple, Google and Outlook read. The `icalendar` package writes the text:
escaping, folding at 75 octets and CRLF line endings are its job.

Times are written in the programme's IANA zone with a TZID parameter and a matching VTIMEZONE,
so a calendar app shows the local wall-clock time and follows daylight saving; a programme
without an IANA zone is written in UTC. The output depends on the arguments only, byte for
byte, so that an ETag computed from it stays stable between identical renders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, timedelta, tzinfo

from icalendar import Calendar, Event, vDuration

from confsched.interchange.programme import Programme, Session, Speaker
from confsched.interchange.zones import programme_zone

FORMAT_NAME = "ical"
PRODID = "-//confsched//confsched//EN"

# DTSTAMP when neither the session nor the caller gives a time: a constant rather than the clock,
# so identical input renders identical bytes.
FALLBACK_DTSTAMP = datetime(1970, 1, 1, tzinfo=UTC)


def render_ical(
    programme: Programme,
    *,
    uid_domain: str,
    calendar_name: str,
    sessions: Iterable[Session] | None = None,
    url_for: Callable[[str], str] | None = None,
    now: datetime | None = None,
    refresh_minutes: int = 15,
) -> bytes:
    """The programme's sessions that have a start (or only `sessions`) as one VCALENDAR."""
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
    calendar.add("METHOD", "PUBLISH")
    calendar.calendar_name = calendar_name  # writes RFC 7986 NAME and X-WR-CALNAME
    if programme.timezone:
        calendar.add("X-WR-TIMEZONE", programme.timezone)
    refresh = timedelta(minutes=refresh_minutes)
    # RFC 7986 requires VALUE=DURATION here; the library leaves it out unless asked.
    calendar.add("REFRESH-INTERVAL", refresh, parameters={"VALUE": "DURATION"})
    # An unknown X- property would be written with str(timedelta) ("0:15:00") without vDuration.
    calendar.add("X-PUBLISHED-TTL", vDuration(refresh))

    speakers = {speaker.key: speaker for speaker in programme.speakers}
    for session in scheduled:
        calendar.add_component(
            _event(
                session,
                programme=programme,
                zone=zone,
                speakers=speakers,
                uid_domain=uid_domain,
                url_for=url_for,
                now=now,
            )
        )
    if scheduled:
        # Bounded to whole years around the sessions: the library's default (1970-2038) lists
        # every transition since 1970, and year bounds keep the block unchanged when a session
        # moves within the year.
        local_years = [s.starts_at.astimezone(zone).year for s in scheduled if s.starts_at]
        calendar.add_missing_timezones(
            first_date=date(min(local_years), 1, 1), last_date=date(max(local_years) + 1, 1, 1)
        )
    return calendar.to_ical()


def _event(
    session: Session,
    *,
    programme: Programme,
    zone: tzinfo,
    speakers: dict[str, Speaker],
    uid_domain: str,
    url_for: Callable[[str], str] | None,
    now: datetime | None,
) -> Event:
    """One session as a VEVENT."""
    assert session.starts_at is not None  # only scheduled sessions get here
    starts_at = session.starts_at.astimezone(zone)
    ends_at = session.ends_at.astimezone(zone) if session.ends_at else starts_at
    last_modified = (
        _utc(session.last_modified, f"session {session.key!r}: last_modified")
        if session.last_modified is not None
        else None
    )
    location = ", ".join(part for part in (session.room, programme.location) if part)
    # Every value is passed: Event.new would otherwise stamp the clock and invent a UUID.
    return Event.new(
        uid=f"{session.key}@{uid_domain}",
        stamp=last_modified or now or FALLBACK_DTSTAMP,
        start=starts_at,
        end=ends_at,
        summary=f"{session.kind}: {session.title}" if session.kind else session.title,
        description=calendar_description(session, speakers) or None,
        location=location or None,
        categories=[session.track] if session.track else (),
        url=url_for(session.key) if url_for else None,
        sequence=session.sequence,
        last_modified=last_modified,
        # Cancelled sessions stay in feeds so that subscribed calendars mark them, not lose them.
        status="CANCELLED" if session.is_cancelled else "CONFIRMED",  # type: ignore[arg-type]  # the library takes the RFC 5545 value as text
    )


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
