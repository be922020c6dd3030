"""Editing a draft, for the schedule editor: move, unschedule and add sessions. Each write goes
through the one door (load_programme into the draft), so the draft's rows, rooms and version
history follow the same rules as an import; `placement_problems` is the check the editor shows
before saving (clashes.py), and each write returns the problems of what it saved.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from django.db import transaction

from confsched.core.errors import DraftError
from confsched.interchange import programme as pm
from confsched.programme.clashes import Problem, check_move, check_placement
from confsched.programme.models import Event
from confsched.programme.services.export import snapshot
from confsched.programme.services.loading import load_programme, lock_imports


def _draft(draft: Event) -> Event:
    if not draft.draft_of_id or draft.draft_of is None:
        raise DraftError(f"{draft.slug} is no draft: the editor changes a draft, never a release")
    return draft


def _session(programme: pm.Programme, key: str, draft: Event) -> pm.Session:
    for session in programme.sessions:
        if session.key == key:
            return session
    raise DraftError(f"the draft of {draft.public_slug} has no session {key!r}")


def _times(starts_at: datetime, ends_at: datetime) -> None:
    if starts_at.utcoffset() is None or ends_at.utcoffset() is None:
        raise DraftError("times need a zone (aware datetimes)")
    if ends_at < starts_at:
        raise DraftError(f"a session cannot end ({ends_at:%H:%M}) before it starts "
                         f"({starts_at:%H:%M})")  # fmt: skip


def placement_problems(
    draft: Event, key: str, *, room: str, starts_at: datetime, ends_at: datetime
) -> list[Problem]:
    """What moving the draft's session `key` there would be wrong about; nothing written."""
    programme = snapshot(_draft(draft))
    _session(programme, key, draft)
    return check_move(
        programme, key, room=room, starts_at=starts_at, ends_at=ends_at, zone=draft.zone,
        first_day=draft.start_date, last_day=draft.end_date,
    )  # fmt: skip


def _save(draft: Event, programme: pm.Programme, *, editor: str) -> None:
    lock_imports(draft.public_slug)  # the event's lock first, as every release and import
    load_programme(draft, programme, source=f"edit by {editor or 'the editor'}",
                   accept_new_keys=True)  # fmt: skip


def _problems(draft: Event, key: str) -> list[Problem]:
    programme = snapshot(draft)
    return check_placement(
        programme, _session(programme, key, draft), zone=draft.zone,
        first_day=draft.start_date, last_day=draft.end_date,
    )  # fmt: skip


@transaction.atomic
def move_session(
    draft: Event, key: str, *, room: str, starts_at: datetime, ends_at: datetime,
    editor: str = "",
) -> list[Problem]:  # fmt: skip
    """Put the draft's session `key` in `room` from `starts_at` to `ends_at` (a cancelled one
    comes back); the problems of where it now is. DraftError for no such session or times."""
    _times(starts_at, ends_at)
    programme = snapshot(_draft(draft))
    moved = replace(_session(programme, key, draft), room=room, starts_at=starts_at,
                    ends_at=ends_at, is_cancelled=False)  # fmt: skip
    programme.sessions = [moved if s.key == key else s for s in programme.sessions]
    _save(draft, programme, editor=editor)
    return _problems(draft, key)


@transaction.atomic
def unschedule(draft: Event, key: str, *, editor: str = "") -> None:
    """Take the draft's session `key` off the grid: no time, no room. A release then cancels
    it for attendees if they saw it (drafts.release_programme)."""
    programme = snapshot(_draft(draft))
    off = replace(_session(programme, key, draft), room="", starts_at=None, ends_at=None)
    programme.sessions = [off if s.key == key else s for s in programme.sessions]
    _save(draft, programme, editor=editor)


@transaction.atomic
def add_session(
    draft: Event, *, key: str, title: str, kind: str = "", room: str = "",
    starts_at: datetime | None = None, ends_at: datetime | None = None, editor: str = "",
) -> list[Problem]:  # fmt: skip
    """A new session in the draft (without a time: waiting for a slot); its problems there.
    DraftError for a key the draft holds, an empty title, or times the wrong way round."""
    programme = snapshot(_draft(draft))
    if not key.strip() or any(s.key == key for s in programme.sessions):
        raise DraftError(f"the draft has a session {key!r} already, or the key is empty")
    if not title.strip():
        raise DraftError("a session needs a title")
    if (starts_at is None) != (ends_at is None):
        raise DraftError("give both a start and an end, or neither")
    if starts_at is not None and ends_at is not None:
        _times(starts_at, ends_at)
    added = pm.Session(key=key, title=title.strip(), kind=kind, room=room,
                       starts_at=starts_at, ends_at=ends_at)  # fmt: skip
    programme.sessions = [*programme.sessions, added]
    _save(draft, programme, editor=editor)
    return _problems(draft, key)
