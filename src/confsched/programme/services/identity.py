"""Which stored session an incoming one is: the event's own keys, and the refusal of a file
that would give many sessions new identities (stars would be left behind)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime

from confsched.core.errors import InvalidProgrammeError
from confsched.core.text import fold
from confsched.interchange import programme as pm
from confsched.interchange.identity import export_number
from confsched.programme.models import (
    Event,
    Session,
    Speaker,
)


def export_guid(slug: str, key: str) -> uuid.UUID:
    """The UUID confsched's frab and c3voc writers give a session whose key is not a UUID."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{slug}:{key}")


def own_keys(event: Event, programme: pm.Programme) -> pm.Programme:
    """Our own schedule.xml/json read back: their uuid5 guids and integer person ids mean the
    event's own session and speaker keys, not new ones."""
    sessions = {
        str(export_guid(event.public_slug, key)): key
        for key in Session.objects.filter(event=event).values_list("key", flat=True)
    }
    people = {
        str(export_number(key)): key
        for key in Speaker.objects.filter(event=event).values_list("key", flat=True)
    }
    people.update({str(export_guid(event.public_slug, key)): key for key in people.values()})
    if not any(s.key in sessions for s in programme.sessions) and not any(
        p.key in people for p in programme.speakers
    ):
        return programme
    return replace(
        programme,
        speakers=[replace(p, key=people.get(p.key, p.key)) for p in programme.speakers],
        sessions=[
            replace(
                s,
                key=sessions.get(s.key, s.key),
                speakers=tuple(
                    replace(link, speaker_key=people.get(link.speaker_key, link.speaker_key))
                    for link in s.speakers
                ),
            )
            for s in programme.sessions
        ],
    )


# A file that names the sessions an event has under other keys (a CSV saved without its `key`
# column, a feed whose UIDs changed) would add them again and cancel the ones attendees starred.
# From this many such sessions on, the import is refused unless the organizer accepts new keys.
REKEYED_LIMIT = 3


def refuse_new_identities(programme: pm.Programme, *, stored: dict[str, Session]) -> None:
    """InvalidProgrammeError when new keys of the file name sessions the event has live under
    keys the file lacks (same title and start): an identity scheme that changed, not new talks.
    `stored` is the event's sessions by key."""
    incoming = {session.key for session in programme.sessions}
    live_absent: dict[tuple[str, datetime], str] = {}
    for key, row in stored.items():
        if key not in incoming and row.starts_at and row.is_published and not row.is_cancelled:
            live_absent.setdefault((fold(row.title), row.starts_at), key)
    rekeyed = [
        (live_absent[fact], session.key)
        for session in programme.sessions
        if session.key not in stored and session.starts_at
        and (fact := (fold(session.title), session.starts_at)) in live_absent
    ]  # fmt: skip
    if len(rekeyed) >= REKEYED_LIMIT:
        was, now = rekeyed[0]
        raise InvalidProgrammeError(
            f"{len(rekeyed)} sessions of this file are sessions the event has under other keys "
            f"(e.g. {was!r} is now {now!r}): the file identifies sessions differently from the "
            "imports before it (a CSV without its `key` column? changed guids or UIDs?). "
            "Importing it would add them again and leave attendees' stars on cancelled copies; "
            "nothing was imported. Restore the keys, or accept the new ones (confsched import "
            "--accept-new-keys, or the admin import page's checkbox)"
        )
