"""What runs now and next in each room: a read bounded by time, and the pure arithmetic.

The read goes through the (event, starts_at) index over a window around now, so its cost
follows the sessions of a few hours, not the event's size. A session that started more than
LOOKBACK ago is not seen as running: no real session is that long, and one that is (an
exhibition open all week) is no "talk running now" anyway.

Whether each room is full (live/) is read in the same query, at the board's minute; the board
is kept under the room states' stamp too, so marking a room full shows at the next request.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django.core.cache import cache
from django.db.models import F, Prefetch
from django.urls import reverse
from django.utils.translation import gettext

from confsched.agenda.planning import now_and_next
from confsched.live.models import is_full_at
from confsched.live.queries import states_stamp
from confsched.programme.models import Event, Session, SessionSpeaker

LOOKBACK = timedelta(hours=12)
LOOKAHEAD = timedelta(hours=6)
# A board is kept for the minute it was read in (and a little past it, for slow requests).
BOARD_TTL = 120


class State:
    BEFORE = "before"  # no session has started yet: the first day's first sessions
    DURING = "during"  # something runs or comes next (also overnight between days)
    OVER = "over"  # every session has started and none runs any more
    EMPTY = "empty"  # nothing published at all


@dataclass(frozen=True)
class Entry:
    """A session as the board shows it: plain values, so a board pickles into the cache."""

    title: str
    kind: str
    url: str
    starts_at: datetime
    ends_at: datetime | None
    speakers: tuple[str, ...]
    room: str
    is_room_full: bool = False  # the room, at the board's minute (live/)


@dataclass(frozen=True)
class RoomNow:
    room: str  # "" for sessions without a room
    current: list[Entry] = field(default_factory=list)  # several when the room is double-booked
    upcoming: Entry | None = None
    is_full: bool = False


@dataclass(frozen=True)
class Board:
    state: str
    rooms: list[RoomNow] = field(default_factory=list)
    # When nothing runs and nothing comes within LOOKAHEAD: when the programme (re)starts.
    resumes_at: datetime | None = None


def rooms_now_and_next(entries: list[Entry], *, now: datetime) -> list[RoomNow]:
    """Per room, in the order the entries come (room order first seen), what runs at `now`
    and what starts next; rooms with neither are left out."""
    by_room: dict[str, list[Entry]] = {}
    for entry in entries:
        by_room.setdefault(entry.room, []).append(entry)
    rooms = []
    for room, sessions in by_room.items():
        current, upcoming = now_and_next(sessions, now=now)
        if current or upcoming:
            is_full = any(entry.is_room_full for entry in sessions)
            rooms.append(RoomNow(room=room, current=current, upcoming=upcoming, is_full=is_full))
    return rooms


def duration_words(delta: timedelta) -> str:
    """'less than a minute', '12 min', '1 h 5 min', '2 h', '3 days' (whole units, rounded down)."""
    # The words now.js counts down with, from the same catalogue (site/script_strings.py).
    minutes = int(delta.total_seconds() // 60)
    if minutes < 1:
        return gettext("less than a minute")
    if minutes < 60:
        return gettext("{minutes} min").format(minutes=minutes)
    if minutes < 24 * 60:
        hours, rest = divmod(minutes, 60)
        if rest:
            return gettext("{hours} h {minutes} min").format(hours=hours, minutes=rest)
        return gettext("{hours} h").format(hours=hours)
    days = minutes // (24 * 60)
    return (gettext("{days} day") if days == 1 else gettext("{days} days")).format(days=days)


def _published(event: Event):  # noqa: ANN202 - a queryset of Session
    # Cancelled sessions do not run: the board shows what is on.
    return Session.objects.filter(event=event, is_cancelled=False).published()


def _entries(event: Event, *, start: datetime, end: datetime, now: datetime) -> list[Entry]:
    """Sessions starting in [start, end), room by room order, with their speakers' names and
    whether their room is full at `now`."""
    rows = (
        _published(event)
        .filter(starts_at__gte=start, starts_at__lt=end)
        .select_related("room")
        .only("key", "title", "kind", "starts_at", "ends_at", "room__name", "room__position")
        .annotate(
            room_full=F("room__live_status__is_full"), room_full_until=F("room__live_status__until")
        )
        .prefetch_related(
            Prefetch(
                "speaker_links",
                queryset=SessionSpeaker.objects.select_related("speaker").order_by("position"),
            )
        )
        # Rooms in their order, sessions without a room last (on every database).
        .order_by(
            F("room__position").asc(nulls_last=True),
            F("room__name").asc(nulls_last=True),
            "starts_at",
            "title",
        )
    )
    return [
        Entry(
            title=row.title,
            kind=row.kind,
            url=reverse("web:session", kwargs={"event": event.slug, "key": row.key}),
            starts_at=row.starts_at,
            ends_at=row.ends_at,
            speakers=tuple(link.speaker.name for link in row.speaker_links.all()),
            room=row.room.name if row.room else "",
            is_room_full=is_full_at(row.room_full, row.room_full_until, now),
        )
        for row in rows
    ]


def _end_of_local_day(moment: datetime, event: Event) -> datetime:
    local = moment.astimezone(event.zone)
    return datetime.combine(local.date() + timedelta(days=1), time(0), tzinfo=event.zone)


def build_board(event: Event, *, now: datetime) -> Board:
    """The board at `now`: two queries in the common case, at most five around the edges."""
    rooms = rooms_now_and_next(
        _entries(event, start=now - LOOKBACK, end=now + LOOKAHEAD, now=now), now=now
    )
    if rooms:
        return Board(state=State.DURING, rooms=rooms)
    # Nothing runs and nothing starts soon: before the event, a night between days, or after.
    first = (
        _published(event)
        .filter(starts_at__gt=now)
        .order_by("starts_at")
        .values_list("starts_at", flat=True)
        .first()
    )
    has_started = _published(event).filter(starts_at__lte=now).exists()
    if first is None:
        return Board(state=State.OVER if has_started else State.EMPTY)
    # Each room's first session of that day: "next" from now, since they all start later.
    rooms = rooms_now_and_next(
        _entries(event, start=first, end=_end_of_local_day(first, event), now=now),
        now=now,
    )
    return Board(
        state=State.DURING if has_started else State.BEFORE,
        rooms=rooms,
        resumes_at=first,
    )


def board_for(event: Event, *, now: datetime) -> Board:
    """The board for the minute of `now`, read once per schedule version, room states and
    minute."""
    minute = now.replace(second=0, microsecond=0)
    rooms = states_stamp(event.pk)
    key = f"now:{event.pk}:{event.updated_at.isoformat()}:{rooms}:{minute.isoformat()}"
    board = cache.get(key)
    if board is None:
        board = build_board(event, now=minute)
        cache.set(key, board, BOARD_TTL)
    return board
