"""Drafts and releases: the programme prepared out of sight, then released as a named version.

A draft is a hidden twin of its event (`Event.draft_of`), with its own rows under the same
keys. Everything goes through the one door: starting a draft loads the event's snapshot into
it, releasing loads the draft's snapshot into the event, so the change log, calendars'
SEQUENCE, alerts and attendees' stars work as for any import. The draft lives on after a
release (what it holds that attendees do not see, such as sessions waiting for a slot, stays).

Locks: whatever touches an event or its draft takes the event's import lock first (then
load_programme takes the draft's), so a release, an import and an edit of one event never
interleave, and no two of them ever wait for each other in the opposite order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.db.models import F, Max

from confsched.core.errors import DraftError
from confsched.interchange import programme as pm
from confsched.programme.models import Change, ChangeKind, Event, ScheduleVersion, Session
from confsched.programme.services.export import snapshot
from confsched.programme.services.loading import load_programme, lock_imports
from confsched.programme.services.report import LoadReport


def draft_for(event: Event) -> Event | None:
    """The event's draft, if it has one."""
    return Event.with_drafts.filter(draft_of=event).first()


def last_version_number(event: Event) -> int:
    """The number of the event's last version; 0 before any."""
    return ScheduleVersion.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0


def _refuse_a_draft(event: Event) -> None:
    if event.draft_of_id:
        raise DraftError(f"{event} is a draft itself: drafts, releases and imports go to its event")


@transaction.atomic
def start_draft(event: Event) -> Event:
    """A new draft holding what the event holds now (seats included); DraftError when it has
    one already or is one."""
    _refuse_a_draft(event)
    lock_imports(event.slug)
    if draft_for(event) is not None:
        raise DraftError(f"{event.slug} has a draft already: release or discard it first")
    draft = Event.with_drafts.create(
        slug=f"draft.{event.pk}", name=event.name, timezone=event.timezone,
        start_date=event.start_date, end_date=event.end_date, location=event.location,
        draft_of=event, draft_base=last_version_number(event),
    )  # fmt: skip
    programme = replace(snapshot(event), carries=pm.EVERY_FIELD | pm.SPEAKER_PAGES | {"seats"})
    load_programme(draft, programme, source="draft started", accept_new_keys=True)
    return draft


@transaction.atomic
def discard_draft(event: Event) -> None:
    """Delete the event's draft and all it held; the release stays as it is."""
    _refuse_a_draft(event)
    lock_imports(event.slug)
    draft = draft_for(event)
    if draft is None:
        raise DraftError(f"{event.slug} has no draft to discard")
    draft.delete()


@transaction.atomic
def load_import(
    event: Event, programme: pm.Programme, *, to_draft: bool = False, **options: Any
) -> LoadReport:
    """An import (load_programme's `options`): into the event's draft, started when it has
    none; or released at once (today's way, sync's), and then into its draft too if it has one,
    so that a release later does not undo it. The report is of the load asked for."""
    _refuse_a_draft(event)
    lock_imports(event.slug)
    if to_draft:
        draft = draft_for(event) or start_draft(event)
        return load_programme(draft, programme, **options)
    report = load_programme(event, programme, **options)
    if (twin := draft_for(event)) is not None:
        load_programme(twin, programme, **{**options, "accept_new_keys": True, "progress": None})
    return report


def release_programme(draft: Event) -> pm.Programme:
    """What a release loads into the event: the draft's sessions attendees may see (cancelled
    ones included). A session without a time or waiting for review stays in the draft; one
    the event showed is then absent from a complete programme, so the release cancels it
    there (attendees who starred it are told; calendars get STATUS:CANCELLED), and a later
    release that schedules it again brings it back."""
    programme = snapshot(draft)
    programme.sessions = [s for s in programme.sessions if s.starts_at and not s.needs_review]
    return programme


def _release(event: Event, *, name: str, editor: str) -> LoadReport:
    lock_imports(event.slug)
    draft = draft_for(event)
    if draft is None:
        raise DraftError(f"{event.slug} has no draft to release: start one first")
    return load_programme(
        event, release_programme(draft), source=f"release by {editor}" if editor else "release",
        accept_new_keys=True, version_name=name, by=editor,
    )  # fmt: skip


@transaction.atomic
def release_draft(
    event: Event, *, name: str, editor: str = "", seen: int | None = None
) -> ScheduleVersion:
    """Release the draft as the event's next version, named `name`; DraftError without a
    name, without a draft, or when the draft changes nothing, and when `seen` (the event's last
    version number where the editor looked at what releasing would do) is no longer the last:
    attendees' programme changed since, and the release might undo it. Nothing is written then.
    The draft's base becomes the release."""
    _refuse_a_draft(event)
    name = " ".join(name.split())
    if not name:
        raise DraftError("a release needs a name (for example “Final programme”)")
    lock_imports(event.slug)
    last = last_version_number(event)
    if seen is not None and seen != last:
        raise DraftError(
            f"attendees' programme changed since you looked (version {last} is newer than "
            f"version {seen}): see below what differs, then release again"
        )
    report = _release(event, name=name, editor=editor)
    if report.version is None:
        raise DraftError("nothing to release: the draft shows attendees what the event shows")
    Event.with_drafts.filter(draft_of=event).update(draft_base=report.version.number)
    return report.version


@dataclass(frozen=True)
class PreviewLine:
    """One line of the change log a release would write."""

    key: str
    title: str
    kind: str
    kind_label: str
    description: str


class _Rollback(Exception):  # noqa: N818 - a signal to roll back, not an error
    """Raised inside the preview's transaction so that nothing it wrote stays."""


def release_preview(event: Event) -> list[PreviewLine]:
    """The change log releasing the draft now would write, nothing written: the real release
    run in a transaction then rolled back, so the preview is what the release does (a pure diff
    of the two programmes would have to repeat every rule of load_programme)."""
    _refuse_a_draft(event)
    lines: list[PreviewLine] = []
    try:
        with transaction.atomic():
            report = _release(event, name="preview", editor="")
            if report.version is not None:
                changes = Change.objects.filter(version=report.version).select_related("session")
                lines = [
                    PreviewLine(
                        key=change.session.key,
                        title=change.session.full_title,
                        kind=change.kind,
                        kind_label=change.get_kind_display(),
                        description=change.words,
                    )  # fmt: skip
                    for change in changes.order_by(
                        F("session__starts_at").asc(nulls_last=True), "session__title", "pk"
                    )
                ]
            raise _Rollback
    except _Rollback:
        event.refresh_from_db()
    return lines


def draft_sessions_waiting(draft: Event) -> int:
    """Draft sessions a release leaves in the draft: without a time, or waiting for review."""
    published = Session.objects.filter(event=draft).published()
    return Session.objects.filter(event=draft).exclude(pk__in=published.values("pk")).count()


@dataclass(frozen=True)
class Undone:
    """A line of the release that would undo what a public version since the draft changed
    (a new title undoing a new title, a cancellation undoing an addition): the line, and those
    public changes ("moved from …", version 3)."""

    line: PreviewLine
    public: list[tuple[int, str]]  # (version number, what it changed)


@dataclass(frozen=True)
class SinceDraft:
    """Attendees' programme changed after the draft last equalled it (an import released at
    once, a sync): the versions since, oldest first, and the release's lines that would undo
    any of their changes (none when the draft took them too, as imports do)."""

    versions: list[ScheduleVersion]
    undone: list[Undone]


# The kind of release line that undoes a public change of each kind: a draft that moved a
# session the public then retitled undoes the title, not the move (the move is the draft's).
UNDOES: dict[str, str] = {
    ChangeKind.ADDED.value: ChangeKind.CANCELLED.value,
    ChangeKind.CANCELLED.value: ChangeKind.RESTORED.value,
    ChangeKind.RESTORED.value: ChangeKind.CANCELLED.value,
    **{kind.value: kind.value for kind in (
        ChangeKind.RETIMED, ChangeKind.MOVED, ChangeKind.RETITLED, ChangeKind.REDESCRIBED,
        ChangeKind.SPEAKERS, ChangeKind.DETAILS,
    )},
}  # fmt: skip


def changed_since_draft(event: Event, preview: list[PreviewLine]) -> SinceDraft | None:
    """What attendees' programme got after the draft was started or last released, measured
    against `preview` (release_preview's lines); None when nothing, or when the draft is older
    than this record (its base unknown)."""
    draft = draft_for(event)
    if draft is None or draft.draft_base is None:
        return None
    versions = list(
        ScheduleVersion.objects.filter(event=event, number__gt=draft.draft_base).order_by("number")
    )
    if not versions:
        return None
    public: dict[tuple[str, str], list[tuple[int, str]]] = {}
    changes = (
        Change.objects.filter(version__in=versions)
        .select_related("session", "version")
        .order_by("version__number", "pk")
    )
    for change in changes:
        public.setdefault((change.session.key, UNDOES[change.kind]), []).append(
            (change.version.number, change.words)
        )
    undone = [
        Undone(line, public[line.key, line.kind])
        for line in preview
        if (line.key, line.kind) in public
    ]
    return SinceDraft(versions=versions, undone=undone)
