"""schema.org Event data (JSON-LD) for session pages, so search engines and apps read them."""

from __future__ import annotations

import json
from typing import Any

from confsched.programme.models import Event, Session
from confsched.web.site.rich_text import plain_text

_STATUS = "https://schema.org/"

# Characters that could end a <script> element or start markup, escaped as JSON allows.
_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


def session_place(session: Session, *, event: Event) -> dict[str, str]:
    """Where the session is, as a schema.org Place: Google's Event results require a location,
    so there is always one. Named for the room; a session without a room is at the event's
    venue (its location), else at the event itself. The address only when the event has one."""
    name = session.room.name if session.room else ""
    place = {"@type": "Place", "name": name or event.location or event.name}
    if event.location:
        place["address"] = event.location
    return place


def session_json_ld(session: Session, *, event: Event, url: str) -> str:
    """JSON text safe to place inside <script type="application/ld+json">."""
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Event",
        "name": session.full_title,
        # Consumers read description as text: the abstract as its Markdown reads, not its marks.
        "description": plain_text(session.abstract),
        "url": url,
        "eventStatus": _STATUS + "EventScheduled",
        "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
        "superEvent": {"@type": "Event", "name": event.name},
    }
    if session.starts_at:
        data["startDate"] = session.starts_at.astimezone(event.zone).isoformat()
    if session.ends_at:
        data["endDate"] = session.ends_at.astimezone(event.zone).isoformat()
    if session.is_cancelled:
        data["eventStatus"] = _STATUS + "EventCancelled"
    elif (first := session.first_starts_at) is not None and session.starts_at != first:
        data["eventStatus"] = _STATUS + "EventRescheduled"
        data["previousStartDate"] = first.astimezone(event.zone).isoformat()
    data["location"] = session_place(session, event=event)
    performers = []
    for link in session.speaker_links.all():
        person: dict[str, Any] = {"@type": "Person", "name": link.speaker.name}
        if link.company:
            person["affiliation"] = {"@type": "Organization", "name": link.company}
        if link.speaker.position:
            person["jobTitle"] = link.speaker.position
        if link.speaker.avatar_url:  # their photo's JPEG, or the import's picture: absolute
            person["image"] = link.speaker.avatar_url
        if link.speaker.homepage:  # the speaker's own pages, as they set them
            person["url"] = link.speaker.homepage
        if same_as := [page["url"] for page in link.speaker.links or ()]:
            person["sameAs"] = same_as
        performers.append(person)
    if performers:
        data["performer"] = performers
    return json.dumps(data, ensure_ascii=False, indent=1).translate(_ESCAPES)
