"""Editing a draft, for the schedule editor: move, unschedule and add sessions.

Each write touches the one session's row (and its room, when the name is new), then records
the change as an organizer's edit does (versions.record_edit: a draft version with the change
in words, SEQUENCE moved), under the event's import lock like every release and import. It
never reloads the whole draft, so an edit costs the same at 50 sessions as at 5,000; the
release later compares the draft's rows with the event's through load_programme, as before.

`placement_problems` is the check the editor shows before saving (clashes.py), made on the
sessions that run around the new time only; each write returns the problems of what it saved.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.db import transaction
from django.db.models import Q

from confsched.core.errors import DraftError
from confsched.interchange import programme as pm
from confsched.programme.clashes import Problem, check_move, check_placement
from confsched.programme.models import Event, Room, Session, SessionSpeaker
from confsched.programme.services.loading import lock_imports
from confsched.programme.services.related import facets
from confsched.programme.services.validation import safe_key
from confsched.programme.services.versions import record_edit, session_facts

TITLE_LENGTH: int = Session._meta.get_field("title").max_length or 500
KIND_LENGTH: int = Session._meta.get_field("kind").max_length or 100


def _draft(draft: Event) -> Event:
    if not draft.draft_of_id or draft.draft_of is None:
        raise DraftError(f"{draft.slug} is no draft: the editor changes a draft, never a release")
    return draft


def _row(draft: Event, key: str) -> Session:
    row = Session.objects.select_related("room").filter(event=draft, key=key).first()
    if row is None:
        raise DraftError(f"the draft of {draft.public_slug} has no session {key!r}")
    row.event = draft
    return row


def _times(starts_at: datetime, ends_at: datetime) -> None:
    if starts_at.utcoffset() is None or ends_at.utcoffset() is None:
        raise DraftError("times need a zone (aware datetimes)")
    if ends_at < starts_at:
        raise DraftError(f"a session cannot end ({ends_at:%H:%M}) before it starts "
                         f"({starts_at:%H:%M})")  # fmt: skip


def _around(draft: Event, key: str, starts_at: datetime, ends_at: datetime) -> pm.Programme:
    """The draft's session `key` and the sessions running between `starts_at` and `ends_at`
    (a superset of what can clash with it there), as a Programme check_placement reads: a few
    queries whatever the size of the draft."""
    zone = draft.zone
    near = Q(starts_at__lte=ends_at) & (
        Q(ends_at__gte=starts_at) | Q(ends_at__isnull=True, starts_at__gte=starts_at)
    )
    rows = list(
        Session.objects.filter(event=draft)
        .filter(near | Q(key=key))
        .values_list("pk", "key", "title", "starts_at", "ends_at", "room__name", "is_cancelled",
                     "needs_review", "seats")
    )  # fmt: skip
    links: dict[int, list[pm.SessionSpeaker]] = {}
    names: dict[str, str] = {}
    for session_id, speaker_key, name in (
        SessionSpeaker.objects.filter(session_id__in=[row[0] for row in rows])
        .order_by("position", "pk")
        .values_list("session_id", "speaker__key", "speaker__name")
    ):
        links.setdefault(session_id, []).append(pm.SessionSpeaker(speaker_key=speaker_key))
        names[speaker_key] = name
    rooms = Room.objects.filter(event=draft).values_list("name", "capacity")
    return pm.Programme(
        name=draft.name, timezone=draft.timezone,
        sessions=[
            pm.Session(
                key=k, title=title, starts_at=start.astimezone(zone) if start else None,
                ends_at=end.astimezone(zone) if end else None, room=room or "",
                is_cancelled=cancelled, needs_review=review, seats=seats,
                speakers=tuple(links.get(pk, ())),
            )
            for pk, k, title, start, end, room, cancelled, review, seats in rows
        ],
        speakers=[pm.Speaker(key=k, name=name) for k, name in names.items()],
        room_capacities={name: seats for name, seats in rooms if seats is not None},
    )  # fmt: skip


def placement_problems(
    draft: Event, key: str, *, room: str, starts_at: datetime, ends_at: datetime
) -> list[Problem]:
    """What moving the draft's session `key` there would be wrong about; nothing written."""
    _row(_draft(draft), key)
    programme = _around(draft, key, min(starts_at, ends_at), max(starts_at, ends_at))
    return check_move(
        programme, key, room=room, starts_at=starts_at, ends_at=ends_at, zone=draft.zone,
        first_day=draft.start_date, last_day=draft.end_date,
    )  # fmt: skip


def _problems(draft: Event, row: Session) -> list[Problem]:
    if row.starts_at is None:
        return []
    end = row.ends_at or row.starts_at
    programme = _around(draft, row.key, row.starts_at, end)
    session = next(s for s in programme.sessions if s.key == row.key)
    return check_placement(
        programme, session, zone=draft.zone, first_day=draft.start_date,
        last_day=draft.end_date,
    )  # fmt: skip


def _lock(draft: Event) -> None:
    """The event's lock first, as every release and import, then the draft's (load_programme's
    order)."""
    lock_imports(draft.public_slug)
    lock_imports(draft.slug)


def _room(draft: Event, name: str) -> Room | None:
    return facets(Room, draft, [name])[name] if name else None


def _write(row: Session, values: Mapping[str, object], *, editor: str) -> None:
    """Set `values` on the draft's `row`, and record the edit when something changed."""
    if all(getattr(row, name) == value for name, value in values.items()):
        return
    before = session_facts(row)
    for name, value in values.items():
        setattr(row, name, value)
    row.sequence += 1
    row.save(update_fields=[*values, "sequence", "updated_at"])
    record_edit(row, before, editor=editor or "the editor")


@transaction.atomic
def move_session(
    draft: Event, key: str, *, room: str, starts_at: datetime, ends_at: datetime,
    editor: str = "",
) -> list[Problem]:  # fmt: skip
    """Put the draft's session `key` in `room` from `starts_at` to `ends_at` (a cancelled one
    comes back); the problems of where it now is. DraftError for no such session or times."""
    _times(starts_at, ends_at)
    _lock(_draft(draft))
    row = _row(draft, key)
    values = {"room": _room(draft, room), "starts_at": starts_at, "ends_at": ends_at,
              "is_cancelled": False}  # fmt: skip
    _write(row, values, editor=editor)
    return _problems(draft, row)


@transaction.atomic
def unschedule(draft: Event, key: str, *, editor: str = "") -> None:
    """Take the draft's session `key` off the grid: no time, no room. A release then cancels
    it for attendees if they saw it (drafts.release_programme)."""
    _lock(_draft(draft))
    row = _row(draft, key)
    _write(row, {"room": None, "starts_at": None, "ends_at": None}, editor=editor)


@transaction.atomic
def add_session(
    draft: Event, *, key: str, title: str, kind: str = "", room: str = "",
    starts_at: datetime | None = None, ends_at: datetime | None = None, editor: str = "",
) -> list[Problem]:  # fmt: skip
    """A new session in the draft (without a time: waiting for a slot); its problems there.
    DraftError for a key the draft holds, an empty title, or times the wrong way round."""
    _lock(_draft(draft))
    key = safe_key(key.strip()) if key.strip() else ""
    if not key or Session.objects.filter(event=draft, key=key).exists():
        raise DraftError(f"the draft has a session {key!r} already, or the key is empty")
    title = " ".join(title.split())
    if not title:
        raise DraftError("a session needs a title")
    if len(title) > TITLE_LENGTH or len(kind) > KIND_LENGTH:
        raise DraftError(f"a title has at most {TITLE_LENGTH} characters, a type {KIND_LENGTH}")
    if (starts_at is None) != (ends_at is None):
        raise DraftError("give both a start and an end, or neither")
    if starts_at is not None and ends_at is not None:
        _times(starts_at, ends_at)
    row = Session(
        event=draft, key=key, title=title, kind=kind.strip(), room=_room(draft, room.strip()),
        starts_at=starts_at, ends_at=ends_at,
    )  # fmt: skip
    row.note_first_start()
    row.save(force_insert=True)
    record_edit(row, None, editor=editor or "the editor")
    return _problems(draft, row)


def session_problems(draft: Event, key: str) -> list[Problem]:
    """The problems of the draft's session `key` where it is now (none without a time)."""
    return _problems(_draft(draft), _row(draft, key))
