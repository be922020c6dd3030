"""The one door out: the event as a Programme, and in any registered writer's format."""

from __future__ import annotations

import hashlib
import inspect
import threading
from collections import OrderedDict
from collections.abc import Hashable
from datetime import tzinfo
from typing import Any

from django.db.models import CharField
from django.db.models.functions import Cast

from confsched.interchange import programme as pm
from confsched.interchange.pieces import Keeper, build_all
from confsched.programme.models import (
    Event,
    Room,
    Session,
    Speaker,
)
from confsched.programme.services.links import session_links, speaker_links

# What the last snapshot of each event (a few, most recent last) built from which rows: a
# snapshot after a change builds objects for the rows that changed and reuses the others, with
# their fingerprints (pm.Session.fingerprint), which is what lets kept pieces be found cheaply.
_BUILT_EVENTS = 8
_built: OrderedDict[int, tuple[dict[Hashable, pm.Session], dict[Hashable, pm.Speaker]]] = (
    OrderedDict()
)
_built_lock = threading.Lock()


# A session's columns, as the writers get them; its times read as text first (TEXT_TIMES).
COLUMNS = (
    "pk", "key", "title", "kind", "abstract", "starts_at", "ends_at", "room__name",
    "track__name", "level__name", "has_slides", "language", "is_cancelled", "needs_review",
    "review_note", "sequence", "updated_at", "seats",
)  # fmt: skip
# Made datetimes, times cost most of reading 5,000 sessions (40 of 50 ms on PostgreSQL): read as
# the database's text they tell whether a session changed, and only the sessions that did are
# read again with their times made datetimes (by Django, as everywhere else).
TEXT_TIMES = {
    name: Cast(name, output_field=CharField()) for name in ("starts_at", "ends_at", "updated_at")
}
# Past this many changed sessions, all are read again rather than named one by one.
_REREAD_BY_KEY = 200


def _link_tuple(link: dict[str, str]) -> tuple[str, str, str]:
    return (link["url"], link.get("title", ""), link.get("kind", pm.LINK))


def snapshot(event: Event) -> pm.Programme:
    """The event as a Programme, for every renderer; times in the event's zone."""
    zone = event.zone
    sessions_of_event = Session.objects.filter(event=event).order_by("starts_at", "key")
    # Plain rows, not model instances: at 5,000 sessions and 7,000 speakers building instances
    # was most of the 0.4 s every export paid first.
    texts = {f"{name}_text": cast for name, cast in TEXT_TIMES.items()}
    rows: list[tuple[Any, ...]] = list(
        sessions_of_event.annotate(**texts).values_list(
            *(f"{name}_text" if name in TEXT_TIMES else name for name in COLUMNS)
        )
    )
    links = {
        session_id: tuple(pairs)
        for session_id, pairs in speaker_links(event, "speaker__key").items()
    }
    refs = session_links(event)
    with _built_lock:
        built_sessions, built_speakers = _built.get(event.pk, ({}, {}))
    # Everything a session is made from: the zone, its row, its speakers and links.
    made_of = [(zone.key, row, links.get(row[0], ()), refs.get(row[0], ())) for row in rows]
    changed = [key[1][0] for key in made_of if key not in built_sessions]
    whole: dict[int, tuple[Any, ...]] = {}
    if changed:
        again = sessions_of_event if len(changed) > _REREAD_BY_KEY else sessions_of_event.filter(
            pk__in=changed
        )  # fmt: skip
        whole = {row[0]: row for row in again.values_list(*COLUMNS)}
    sessions_by_row: dict[Hashable, pm.Session] = {}
    sessions = []
    for key in made_of:
        session = built_sessions.get(key)
        if session is None:
            # Gone since the first read (deleted meanwhile): left out, as a read after it would.
            if (row := whole.get(key[1][0])) is None:
                continue
            session = _session(row, key, zone=zone)
        sessions_by_row[key] = session
        sessions.append(session)
    speakers_by_row: dict[Hashable, pm.Speaker] = {}
    speakers = []
    for person in (
        Speaker.objects.filter(event=event)
        .order_by("key")
        .values_list("key", "name", "company", "position", "bio", "avatar_url", "homepage", "links")
    ):
        # Its links as a tuple of tuples: the row is the cache's key, so it must hash.
        person = (*person[:-1], tuple(_link_tuple(link) for link in person[-1] or ()))
        speaker = built_speakers.get(person)
        if speaker is None:
            speaker_key, name, company, position, bio, avatar_url, homepage, pages = person
            speaker = pm.Speaker(
                key=speaker_key, name=name, company=company, position=position, bio=bio,
                avatar_url=avatar_url, homepage=homepage,
                links=tuple(pm.SessionLink(*link) for link in pages),
                fingerprint=_digest(person),
            )  # fmt: skip
        speakers_by_row[person] = speaker
        speakers.append(speaker)
    with _built_lock:
        _built[event.pk] = (sessions_by_row, speakers_by_row)
        _built.move_to_end(event.pk)
        while len(_built) > _BUILT_EVENTS:
            _built.popitem(last=False)
    rooms = list(Room.objects.filter(event=event).values_list("name", "capacity"))
    return pm.Programme(
        name=event.name, timezone=event.timezone, start_date=event.start_date,
        end_date=event.end_date, location=event.location, sessions=sessions, speakers=speakers,
        rooms=[name for name, _ in rooms],
        room_capacities={name: seats for name, seats in rooms if seats is not None},
    )  # fmt: skip


def _session(row: tuple[Any, ...], made_of: tuple[Any, ...], *, zone: tzinfo) -> pm.Session:
    """The session of `row` (read whole), with the fingerprint of what it is `made_of`."""
    _, _, billing, refs = made_of
    (_, key, title, kind, abstract, starts_at, ends_at, room, track, level, has_slides,
     language, is_cancelled, needs_review, review_note, sequence, updated_at, seats,
    ) = row  # fmt: skip
    return pm.Session(
        key=key, title=title, kind=kind, abstract=abstract,
        starts_at=starts_at.astimezone(zone) if starts_at else None,
        ends_at=ends_at.astimezone(zone) if ends_at else None,
        room=room or "", track=track or "", level=level or "", has_slides=has_slides,
        language=language, is_cancelled=is_cancelled, links=refs,
        speakers=tuple(pm.SessionSpeaker(speaker_key=k, affiliation=a) for k, a in billing),
        needs_review=needs_review, review_note=review_note, sequence=sequence,
        last_modified=updated_at, seats=seats, fingerprint=_digest(made_of),
    )  # fmt: skip


def _digest(made_of: Hashable) -> str:
    return hashlib.blake2b(repr(made_of).encode(), digest_size=16).hexdigest()


def forget_snapshots() -> None:
    """Drop what snapshots built (tests and benchmarks that stand for a new process)."""
    with _built_lock:
        _built.clear()


def render_export(
    event: Event, extension: str, *, base_url: str = "", keep: Keeper = build_all
) -> bytes:
    """The event in the writer registered for `extension` (xml, json, schedule2, xcal,
    rfc6321.xcal, ics, csv); its per-session pieces asked of `keep` (interchange/pieces.py)."""
    return render_programme(event, snapshot(event), extension, base_url=base_url, keep=keep)


def render_programme(
    event: Event, programme: pm.Programme, extension: str, *, base_url: str = "",
    keep: Keeper = build_all,
) -> bytes:  # fmt: skip
    """`programme` (the event's now, or a version's) in the writer registered for `extension`."""
    # Imported here, not at the top: the registry pulls in every format module, which admin
    # autodiscovery should not pay for on start-up.
    from confsched.interchange.formats import WRITERS

    writer = WRITERS[extension]
    options: dict[str, object] = {"slug": event.slug, "base_url": base_url}
    takes = inspect.signature(writer.render).parameters
    if "uid_domain" in takes:
        options["uid_domain"] = event.uid_domain
    if "keep" in takes:
        options["keep"] = keep
    return writer.render(programme, **options)
