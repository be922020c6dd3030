"""The one door out: the event as a Programme, and in any registered writer's format."""

from __future__ import annotations

import inspect

from confsched.interchange import programme as pm
from confsched.programme.models import (
    Event,
    Room,
    Session,
    Speaker,
)
from confsched.programme.services.links import session_links, speaker_links


def snapshot(event: Event) -> pm.Programme:
    """The event as a Programme, for every renderer; times in the event's zone."""
    zone = event.zone
    # Plain rows, not model instances: at 5,000 sessions and 7,000 speakers building instances
    # was most of the 0.4 s every export paid first.
    rows = (
        Session.objects.filter(event=event)
        .order_by("starts_at", "key")
        .values_list(
            "pk", "key", "title", "kind", "abstract", "starts_at", "ends_at", "room__name",
            "track__name", "level__name", "has_slides", "language", "is_cancelled",
            "needs_review", "review_note", "sequence", "updated_at", "seats",
        )
    )  # fmt: skip
    links = {
        session_id: [pm.SessionSpeaker(speaker_key=k, affiliation=a) for k, a in pairs]
        for session_id, pairs in speaker_links(event, "speaker__key").items()
    }
    refs = session_links(event)
    sessions = [
        pm.Session(
            key=key, title=title, kind=kind, abstract=abstract,
            starts_at=starts_at.astimezone(zone) if starts_at else None,
            ends_at=ends_at.astimezone(zone) if ends_at else None,
            room=room or "", track=track or "", level=level or "", has_slides=has_slides,
            language=language, is_cancelled=is_cancelled, speakers=tuple(links.get(pk, ())),
            links=refs.get(pk, ()), needs_review=needs_review, review_note=review_note,
            sequence=sequence, last_modified=updated_at, seats=seats,
        )
        for (pk, key, title, kind, abstract, starts_at, ends_at, room, track, level, has_slides,
             language, is_cancelled, needs_review, review_note, sequence, updated_at, seats)
        in rows
    ]  # fmt: skip
    speakers = [
        pm.Speaker(
            key=key, name=name, company=company, position=position, bio=bio,
            avatar_url=avatar_url,
        )
        for key, name, company, position, bio, avatar_url in Speaker.objects.filter(event=event)
        .order_by("key")
        .values_list("key", "name", "company", "position", "bio", "avatar_url")
    ]  # fmt: skip
    rooms = list(Room.objects.filter(event=event).values_list("name", "capacity"))
    return pm.Programme(
        name=event.name, timezone=event.timezone, start_date=event.start_date,
        end_date=event.end_date, location=event.location, sessions=sessions, speakers=speakers,
        rooms=[name for name, _ in rooms],
        room_capacities={name: seats for name, seats in rooms if seats is not None},
    )  # fmt: skip


def render_export(event: Event, extension: str, *, base_url: str = "") -> bytes:
    """The event in the writer registered for `extension` (xml, json, schedule2, xcal,
    rfc6321.xcal, ics, csv)."""
    return render_programme(event, snapshot(event), extension, base_url=base_url)


def render_programme(
    event: Event, programme: pm.Programme, extension: str, *, base_url: str = ""
) -> bytes:
    """`programme` (the event's now, or a version's) in the writer registered for `extension`."""
    # Imported here, not at the top: the registry pulls in every format module, which admin
    # autodiscovery should not pay for on start-up.
    from confsched.interchange.formats import WRITERS

    writer = WRITERS[extension]
    options = {"slug": event.slug, "base_url": base_url}
    if "uid_domain" in inspect.signature(writer.render).parameters:
        options["uid_domain"] = event.uid_domain
    return writer.render(programme, **options)
