"""Loading a programme into an event: the one door into the database (`load_programme`)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction

from confsched.core.database import sqlite_wait
from confsched.core.errors import InvalidProgrammeError
from confsched.core.timezones import format_offset
from confsched.interchange import programme as pm
from confsched.programme.changes import seen_by_public
from confsched.programme.models import (
    Change,
    ChangeKind,
    Event,
    Facet,
    Level,
    Room,
    Session,
    SessionLink,
    Track,
)
from confsched.programme.services.identity import own_keys, refuse_new_identities
from confsched.programme.services.journal import move_version
from confsched.programme.services.links import (
    add_links,
    has_slides_link,
    link_rows,
    organizer_links,
    set_links,
    speaker_links,
)
from confsched.programme.services.related import facets, load_speakers, set_capacities
from confsched.programme.services.report import LoadReport
from confsched.programme.services.snapshots import keep_programme
from confsched.programme.services.validation import validate_programme, with_safe_keys
from confsched.programme.services.versions import (
    change_row,
    describe,
    facts,
    record_version,
    state,
)
from confsched.programme.signals import seats_changed, seats_changing

SESSION_FIELDS = (
    "title", "kind", "abstract", "starts_at", "ends_at", "room", "track", "level",
    "has_slides", "language", "is_cancelled", "needs_review", "review_note",
)  # fmt: skip


def _offset_warnings(event: Event, programme: pm.Programme) -> list[str]:
    """Times written at an offset the event's zone does not have then point at a wrong zone."""
    zone = event.zone
    seen: set[tuple[str, str]] = set()
    for session in programme.sessions:
        if session.starts_at is None:
            continue
        written = session.starts_at.utcoffset()
        expected = session.starts_at.astimezone(zone).utcoffset()
        # UTC is a zone-neutral way to write any time (xCal, iCalendar "Z"): nothing to doubt.
        if written != expected and written:
            seen.add((format_offset(written), format_offset(expected)))
    return [
        f"the source writes times at {written} but {event.timezone} is at {expected} then; "
        "times are stored as written: check the event's time zone"
        for written, expected in sorted(seen)
    ]


# How long an import waits for another import of the same event on SQLite (PostgreSQL waits
# as long as the other holds its lock).
SQLITE_IMPORT_WAIT_SECONDS = 300


def lock_imports(slug: str) -> None:
    """Hold the event's import lock until the transaction ends: imports of one event (and the
    creation of a new one) run one after the other, each applied to what the last one left.

    PostgreSQL: a transaction-scoped advisory lock keyed by the slug. SQLite: the database's
    one write lock, which the transaction took at BEGIN (IMMEDIATE, settings.py); begun inside
    `sqlite_wait(SQLITE_IMPORT_WAIT_SECONDS)`, it waited as long as an import may take.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_imports needs a transaction to hold the lock")
    if connection.vendor == "postgresql":
        digest = hashlib.sha256(f"confsched import {slug}".encode()).digest()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)]
            )


@sqlite_wait(SQLITE_IMPORT_WAIT_SECONDS)  # before BEGIN, where SQLite waits for the lock
@transaction.atomic
def load_programme(
    event: Event,
    programme: pm.Programme,
    *,
    source: str = "",
    is_complete: bool = True,
    progress: Callable[[int, int], None] | None = None,
    accept_new_keys: bool = False,
    by: str = "",
    version_name: str = "",
    keep_reservations_over_seats: bool = False,
    prefer_source: bool = False,
) -> LoadReport:
    """Bring the event in line with `programme`, in one transaction, recording what changed.

    Keys decide identity: a known key updates its session, a new key adds one. When the
    programme is complete, a stored session it no longer holds is marked cancelled, never
    deleted, so that attendees' stars keep pointing at it. Any change makes a new
    ScheduleVersion with one Change per thing that changed; a load that changes nothing makes
    none. A file that gives the event's sessions other keys is refused unless `accept_new_keys`
    (see refuse_new_identities). `by` names who did it for the history: an account's
    username, or "command line". `version_name` names the version (a release's). The
    version's programme is kept (snapshots.py) for /<event>/v/<number>/. Seats fewer than
    people hold are refused (the agenda's seats_changing receiver) unless
    `keep_reservations_over_seats`, when they keep theirs. What speakers hold (their fields,
    the links they added) stays theirs, each field the file gives otherwise named in the
    report's `conflicts`; with `prefer_source` the file's values replace held fields, which
    the speakers hold no more (services/held.py).
    """
    lock_imports(event.slug)
    # What an import that held the lock before this one left, not what the caller read.
    event.refresh_from_db()
    checked = validate_programme(programme)
    # Offsets as the source wrote them, before validation stores every time in UTC.
    offset_warnings = _offset_warnings(event, programme)
    programme = own_keys(event, with_safe_keys(checked))
    keys = Counter(session.key for session in programme.sessions)
    if doubled := sorted(key for key, times in keys.items() if times > 1):
        raise InvalidProgrammeError(
            f"{len(doubled)} session key(s) appear more than once, e.g. {doubled[0]!r}; "
            "each session needs its own identity"
        )
    sessions = {row.key: row for row in Session.objects.filter(event=event)}
    if not accept_new_keys:
        refuse_new_identities(programme, stored=sessions)
    report = LoadReport(
        warnings=[*programme.warnings, *offset_warnings],
        notes=list(programme.notes),
    )
    event_changes = {
        "start_date": programme.start_date or event.start_date,
        "end_date": programme.end_date or event.end_date,
        "location": programme.location or event.location,
    }
    if any(getattr(event, name) != value for name, value in event_changes.items()):
        for name, value in event_changes.items():
            setattr(event, name, value)
        event.save()
    rooms = facets(Room, event, [s.room for s in programme.sessions], order=programme.rooms)
    set_capacities(rooms, programme.room_capacities)
    tracks = facets(Track, event, [s.track for s in programme.sessions])
    levels = facets(Level, event, [s.level for s in programme.sessions])
    speakers = load_speakers(event, programme, report, prefer_source=prefer_source)
    names = {row.pk: row.name for row in speakers.values()}

    zone = event.zone
    # Speakers and facets by id, not joined into every row: an unchanged re-import of 5,000
    # sessions then builds 5,000 model objects instead of 35,000.
    stored_links = speaker_links(event, "speaker_id")
    # The file's links are compared with the file's; those a speaker added stay as they are.
    stored_refs, held_refs = organizer_links(event)
    new_refs: list[SessionLink] = []
    facet_rows: dict[str, dict[int, Facet]] = {
        "room": {row.pk: row for row in rooms.values()},
        "track": {row.pk: row for row in tracks.values()},
        "level": {row.pk: row for row in levels.values()},
    }

    def differs(row: Session, name: str, value: Any) -> bool:
        if name in facet_rows:
            return bool(getattr(row, f"{name}_id") != (value.pk if value else None))
        return bool(getattr(row, name) != value)

    changes: list[Change] = []
    # The sessions this load writes (the outline journal's step, journal.py).
    touched: set[int] = set()
    # New sessions and their speakers, written together after the loop (bulk_create gives them
    # their ids): a first import of 5,000 sessions in a few statements, not three each.
    fresh: list[tuple[Session, list[tuple[int, str]]]] = []
    # Sessions whose seats the file changes: pk -> (before, after).
    seats_now: dict[int, tuple[int | None, int | None]] = {}
    total = len(programme.sessions)
    for index, incoming in enumerate(programme.sessions, start=1):
        values = {
            "title": incoming.title,
            "kind": incoming.kind,
            "abstract": incoming.abstract,
            "starts_at": incoming.starts_at,
            "ends_at": incoming.ends_at,
            "room": rooms.get(incoming.room),
            "track": tracks.get(incoming.track),
            "level": levels.get(incoming.level),
            "has_slides": incoming.has_slides,
            "language": incoming.language,
            "is_cancelled": incoming.is_cancelled,
            "needs_review": incoming.needs_review,
            "review_note": incoming.review_note,
        }
        links = [(speakers[link.speaker_key].pk, link.affiliation) for link in incoming.speakers]
        # What the source tells about this session: its format's fields, less what this
        # session's entry leaves out (a filtered Sched listing shows no type).
        carried = programme.carries
        if incoming.unknown:
            carried = (carried or pm.EVERY_FIELD) - incoming.unknown
        carries_links = carried is None or "links" in carried
        carries_flag = carried is None or "has_slides" in carried
        # Seats only from a format that names them (a CSV `seats` column): every other import
        # leaves the organizer's seats alone.
        carries_seats = carried is not None and "seats" in carried
        row = sessions.get(incoming.key)
        if row is None:
            row = Session(
                event=event, key=incoming.key, seats=incoming.seats if carries_seats else None,
                **values,
            )  # fmt: skip
            row.note_first_start()
            fresh.append((row, links))
            new_refs += link_rows(row, incoming.links)
            report.created.append(row.full_title)
            seen = seen_by_public(None, state(row))  # attendees see it only if published
            changes.append(change_row(row, ChangeKind.ADDED, seen=seen))
        else:
            current = stored_links.get(row.pk, [])
            refs = stored_refs.get(row.pk, ())
            held = held_refs.get(row.pk, ())
            refs_now = incoming.links if carries_links else refs
            if held:  # a link the speaker holds is theirs, not the file's too
                urls = {link.url for link in held}
                refs_now = tuple(link for link in refs_now if link.url not in urls)
            # A flag without a slides link came from a source that only says "slides attached"
            # (Sched): a format that carries links but no flag (frab) keeps it.
            flag = (
                incoming.has_slides
                if carries_flag
                else row.has_slides and not has_slides_link(refs)
            )
            values["has_slides"] = flag or has_slides_link(refs_now) or has_slides_link(held)
            if carried is not None and "affiliations" not in carried:
                # A format without affiliations keeps the ones the event has.
                kept = dict(current)
                links = [(pk, kept.get(pk, affiliation)) for pk, affiliation in links]
            if carried is not None and "speakers" not in carried:
                links = current
            # Presence itself says "not cancelled": a format without a cancelled flag must still
            # bring back a session that an earlier import cancelled by leaving it out.
            changed = [
                name
                for name in SESSION_FIELDS
                if (
                    carried is None
                    or name in carried
                    or name == "is_cancelled"
                    or (name == "has_slides" and carries_links)
                )
                and differs(row, name, values[name])
            ]
            if carries_seats and row.seats != incoming.seats:
                seats_now[row.pk] = (row.seats, incoming.seats)
            if changed or current != links or refs != refs_now:
                for name, table in facet_rows.items():  # what the row pointed at, loaded
                    setattr(row, name, table.get(getattr(row, f"{name}_id")))
                before = facts(row, [names[pk] for pk, _ in current], refs)
                for name in changed:
                    setattr(row, name, values[name])
                if current != links:
                    set_links(row, links)
                    changed.append("speakers")
                if refs != refs_now:
                    if refs:
                        SessionLink.objects.filter(session=row, held_by="").delete()
                    new_refs += link_rows(row, refs_now)
                    changed.append("links")
                row.sequence += 1
                first = ["first_starts_at"] if row.note_first_start() else []
                row.save(
                    update_fields=[f for f in changed if f not in ("speakers", "links")]
                    + ["sequence", "updated_at", *first]
                )
                touched.add(row.pk)
                after = facts(row, [names[pk] for pk, _ in links], refs_now)
                changes += describe(row, before, after, zone=zone)
                report.updated.append((row.full_title, changed))
            else:
                report.unchanged += 1
        if incoming.needs_review:
            report.flagged.append((row.full_title, incoming.review_note))
        if progress:
            progress(index, total)
    Session.objects.bulk_create([row for row, _ in fresh], batch_size=500)
    add_links(fresh)
    SessionLink.objects.bulk_create(new_refs, batch_size=500)
    if is_complete:
        present = {incoming.key for incoming in programme.sessions}
        for row in sessions.values():
            # Only what attendees could see is cancelled by absence: a session with no time or
            # waiting for review is in no export and in no format but Sched pages and CSV, so
            # a file without it (our own export included) says nothing about it.
            if row.key not in present and row.is_published and not row.is_cancelled:
                row.is_cancelled = True
                row.sequence += 1
                row.save(update_fields=["is_cancelled", "sequence", "updated_at"])
                touched.add(row.pk)
                report.cancelled.append(row.full_title)
                changes.append(change_row(row, ChangeKind.CANCELLED))
    if changes:
        report.version = record_version(
            event, changes, source=source or "import", by=by, name=version_name
        )
    if seats_now:  # refused here (the whole import undone) when fewer than people hold
        seats_changing.send(
            sender=Session, changes=seats_now, keep_over=keep_reservations_over_seats, by=by,
            source=source or "import",
        )  # fmt: skip
    for pk, (_, seats) in seats_now.items():
        Session.objects.filter(pk=pk).update(seats=seats)
    if seats_now:
        report.seats_changed = len(seats_now)
        pks = sorted(seats_now)
        transaction.on_commit(lambda: seats_changed.send(sender=Session, session_pks=pks))
    if report.has_changes or seats_now:  # kept pages and exports show seats
        if report.speakers_updated:  # shown on sessions this load need not have touched
            event.save(update_fields=["updated_at"])
        else:
            touched |= {row.pk for row, _ in fresh} | seats_now.keys()
            move_version(event, touched)
    if report.version:  # after the last write: the programme as this version leaves it
        keep_programme(event, report.version)
    return report
