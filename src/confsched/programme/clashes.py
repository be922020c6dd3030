"""What is wrong with a session placed somewhere, before it is saved: a speaker in two places,
two sessions in one room, a time outside the event's days, more seats than the room has.
Pure: the schedule editor calls it on the draft's programme as the organizer drags. The words
are in the language active when it runs (the editor's page's).

Sessions without a time, cancelled, or waiting for review clash with nothing: attendees do
not see them there. A session without an end is taken as a moment (it clashes with what runs
then, and with what starts at the same time).
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from django.utils.translation import gettext as _

from confsched.interchange import programme as pm
from confsched.programme.changes import when

SPEAKER_CLASH = "speaker"
ROOM_CLASH = "room"
OUTSIDE_DAYS = "days"
OVER_CAPACITY = "capacity"
ENDS_BEFORE_START = "times"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a placement, in words, with the other sessions it involves."""

    kind: str
    message: str
    keys: tuple[str, ...] = ()


def _overlap(a: pm.Session, b: pm.Session) -> bool:
    assert a.starts_at is not None and b.starts_at is not None  # noqa: S101 - callers check
    a_end, b_end = a.ends_at or a.starts_at, b.ends_at or b.starts_at
    return a.starts_at == b.starts_at or (a.starts_at < b_end and b.starts_at < a_end)


def _counts(session: pm.Session) -> bool:
    return session.starts_at is not None and not session.is_cancelled and not session.needs_review


def check_placement(
    programme: pm.Programme, session: pm.Session, *, zone: zoneinfo.ZoneInfo,
    first_day: date | None = None, last_day: date | None = None,
) -> list[Problem]:  # fmt: skip
    """The problems of `session` (new, or a changed copy of one of `programme`'s, same key)
    among the other sessions of `programme`, in a fixed order: times, days, room, speakers,
    seats."""
    if session.starts_at is None:
        return []
    problems: list[Problem] = []
    start = session.starts_at.astimezone(zone)
    last = session.ends_at - timedelta(microseconds=1) if session.ends_at else session.starts_at
    end = max(last, session.starts_at).astimezone(zone)
    if (first_day and start.date() < first_day) or (last_day and end.date() > last_day):
        days = f"{first_day or '…'} to {last_day or '…'}"
        words = _("%(when)s is outside the event's days (%(days)s)") % {
            "when": when(session.starts_at, session.ends_at, zone), "days": days,
        }  # fmt: skip
        problems.append(Problem(OUTSIDE_DAYS, words))
    others = [s for s in programme.sessions if s.key != session.key and _counts(s)]
    if _counts(session):
        if session.room:
            for other in others:
                if other.room == session.room and _overlap(session, other):
                    words = _("%(room)s holds “%(title)s” then (%(when)s)") % {
                        "room": session.room, "title": other.title,
                        "when": when(other.starts_at, other.ends_at, zone),
                    }  # fmt: skip
                    problems.append(Problem(ROOM_CLASH, words, (other.key,)))
        names = {speaker.key: speaker.name for speaker in programme.speakers}
        mine = {link.speaker_key for link in session.speakers}
        for other in others:
            shared = sorted(mine & {link.speaker_key for link in other.speakers})
            if shared and _overlap(session, other):
                who = ", ".join(names.get(key, key) for key in shared)
                then = when(other.starts_at, other.ends_at, zone)
                words = (
                    _("%(who)s also speaks in “%(title)s” (%(when)s, %(room)s)")
                    if other.room
                    else _("%(who)s also speaks in “%(title)s” (%(when)s)")
                ) % {"who": who, "title": other.title, "when": then, "room": other.room}
                problems.append(Problem(SPEAKER_CLASH, words, (other.key,)))  # fmt: skip
    capacity = programme.room_capacities.get(session.room)
    if session.seats is not None and capacity is not None and session.seats > capacity:
        words = _("%(seats)s seats to reserve but %(room)s has %(capacity)s") % {
            "seats": session.seats, "room": session.room, "capacity": capacity,
        }  # fmt: skip
        problems.append(Problem(OVER_CAPACITY, words))
    return problems


def check_move(
    programme: pm.Programme, key: str, *, room: str, starts_at: datetime, ends_at: datetime,
    zone: zoneinfo.ZoneInfo, first_day: date | None = None, last_day: date | None = None,
) -> list[Problem]:  # fmt: skip
    """The problems of moving `programme`'s session `key` to `room` from `starts_at` to
    `ends_at`; KeyError for a key the programme does not hold."""
    if ends_at < starts_at:
        words = _("it would end (%(end)s) before it starts (%(start)s)") % {
            "end": f"{ends_at:%H:%M}", "start": f"{starts_at:%H:%M}",
        }  # fmt: skip
        return [Problem(ENDS_BEFORE_START, words)]
    by_key = {session.key: session for session in programme.sessions}
    moved = replace(by_key[key], room=room, starts_at=starts_at, ends_at=ends_at,
                    is_cancelled=False)  # fmt: skip
    return check_placement(programme, moved, zone=zone, first_day=first_day, last_day=last_day)
