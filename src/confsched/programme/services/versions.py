"""Versions and changes: what changed in a session, in words, recorded as one schedule version."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.db import models, transaction
from django.utils import translation

from confsched.interchange import programme as pm
from confsched.programme import signals
from confsched.programme.changes import DETAILS, change_facts, say, seen_by_public
from confsched.programme.history import summary_of
from confsched.programme.models import (
    Change,
    ChangeKind,
    Event,
    ScheduleVersion,
    Session,
    SessionLink,
    SessionSpeaker,
)
from confsched.programme.services.journal import move_version
from confsched.programme.services.snapshots import keep_programme


def facts(
    row: Session, speaker_names: list[str], links: tuple[pm.SessionLink, ...]
) -> dict[str, Any]:
    return {
        "title": row.title,
        "kind": row.kind,
        "abstract": row.abstract,
        "starts_at": row.starts_at,
        "ends_at": row.ends_at,
        "room": row.room.name if row.room else "",
        "track": row.track.name if row.track else "",
        "level": row.level.name if row.level else "",
        "has_slides": row.has_slides,
        "language": row.language,
        "is_cancelled": row.is_cancelled,
        "needs_review": row.needs_review,
        "speakers": speaker_names,
        "links": links,
    }


def describe(
    session: Session, before: dict[str, Any], after: dict[str, Any], *,
    zone: zoneinfo.ZoneInfo, profile: dict[str, Any] | None = None,
) -> list[Change]:  # fmt: skip
    """The Change rows (unsaved) of how `after` differs from `before`, "links changed" among
    the details when the session's links changed; `profile` (a speaker's name and the fields
    of their profile that changed) among them too."""
    found = change_facts(before, after, zone=zone)
    extra: dict[str, Any] = {}
    if before["links"] != after["links"]:
        extra["links"] = True
    if profile:
        extra["profile"] = profile
    if extra:
        details = next((facts for kind, facts in found if kind == DETAILS), None)
        if details is None:
            found.append((DETAILS, {"details": [], **extra}))
        else:
            details.update(extra)
    seen = seen_by_public(before, after)
    return [change_row(session, kind, facts, seen=seen) for kind, facts in found]


def state(session: Session) -> dict[str, Any]:
    """What seen_by_public reads of a session row as it is now."""
    return {
        "title": session.title, "kind": session.kind, "starts_at": session.starts_at,
        "needs_review": session.needs_review,
    }  # fmt: skip


def change_row(
    session: Session,
    kind: str,
    facts: dict[str, Any] | None = None,
    *,
    seen: dict[str, Any] | None = None,
) -> Change:
    """A Change keeps its facts, said in each reader's language (Change.words), and the words in
    English (`description`: the API's, the admin's, and older versions' only words). Among its
    facts, "public": what attendees saw around the version (changes.seen_by_public), `seen`;
    by default the session as it is now, before the version as after it."""
    with translation.override("en"):
        words = say(kind, facts or {})
    if seen is None:
        seen = seen_by_public(state(session), state(session))
    return Change(
        session=session, kind=kind, facts={**(facts or {}), "public": seen}, description=words
    )


def session_facts(session: Session) -> dict[str, Any]:
    """The facts change_facts compares, read from the database as they are now."""
    fresh = Session.objects.select_related("room", "track", "level").get(pk=session.pk)
    names = [
        link.speaker.name
        for link in SessionSpeaker.objects.filter(session=session).select_related("speaker")
    ]
    refs = tuple(
        pm.SessionLink(url=url, title=title, kind=kind)
        for url, title, kind in SessionLink.objects.filter(session=session)
        .order_by("position", "pk")
        .values_list("url", "title", "kind")
    )
    return facts(fresh, names, refs)


@transaction.atomic
def record_edit(
    session: Session, before: dict[str, Any] | None, *, editor: str
) -> ScheduleVersion | None:
    """After an organizer's edit (or addition, when `before` is None): a version with what
    changed, and calendars told through SEQUENCE."""
    if before is None:
        seen = seen_by_public(None, state(session))
        changes = [change_row(session, ChangeKind.ADDED.value, seen=seen)]
    else:
        changes = describe(session, before, session_facts(session), zone=session.event.zone)
    if session.note_first_start():
        session.save(update_fields=["first_starts_at"])
    if not changes:
        return None
    version = record_version(session.event, changes, source=f"edit by {editor}", by=editor)
    move_version(session.event, [session.pk])
    keep_programme(session.event, version)
    return version


def record_version(
    event: Event, changes: list[Change], *, source: str, by: str = "", name: str = ""
) -> ScheduleVersion:
    """A new version holding `changes`, numbered after the event's last one."""
    last = ScheduleVersion.objects.filter(event=event).aggregate(models.Max("number"))
    with translation.override("en"):  # a record, whoever's language the edit came in
        summary = summary_of(change.kind for change in changes)
    version = ScheduleVersion.objects.create(
        event=event, number=(last["number__max"] or 0) + 1, source=source[:300],
        summary=summary, by=by[:150], name=name[:200],
    )  # fmt: skip
    for change in changes:
        change.version = version
    Change.objects.bulk_create(changes)
    transaction.on_commit(lambda: signals.version_recorded.send(ScheduleVersion, version=version))
    return version
