"""The published outline: what the list and grid lay out, filter and count, read narrow, and
made for a new version from the one before when the outline journal joins them (outline_after).
Read through programme/queries.py, which names what pages use."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any, cast

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import CharField, QuerySet, Value
from django.db.models.functions import Cast

from confsched.programme.models import (
    Event,
    Level,
    OutlineStep,
    Room,
    Session,
    SessionSpeaker,
    Speaker,
    Track,
)

# A speaker's own uploaded photo (speakers.SpeakerPhoto, one-to-one as `speaker.photo`): pages
# show its squares beside the names, so it is joined to the speakers' rows, never read per person.
PHOTO = "photo"
SMALLEST_SQUARE = "48"  # the square a card's small picture shows (speakers/photos.py's sizes)

# Ties last by pk: two reads of the same sessions list them alike (outline_after relies on it).
SCHEDULE_ORDER = ("starts_at", "room__position", "room__name", "title", "pk")


@dataclass(eq=False)
class Outline:
    """A published session as a schedule page lays it out, filters and counts it and tells
    whether its card is kept: a few columns, with its room, track and level (one instance of
    each per page) and its speakers' (name, company) in billing order. Not a model instance:
    building 5,000 of those with their room, track, level and speaker rows was most of what a
    page cost to read."""

    pk: int
    key: str
    title: str
    kind: str
    language: str
    starts_at: datetime
    ends_at: datetime | None
    has_slides: bool
    is_cancelled: bool
    seats: int | None
    room: Room | None
    track: Track | None
    level: Level | None
    event: Event
    # Per speaker: name, company (the session's affiliation, else theirs), and their picture's
    # columns: avatar_url, and their uploaded photo's smallest square and JPEG (None without).
    billing: list[tuple[str, str, str, str | None, str | None]]
    # The columns it was read from, as the driver gave them (OUTLINE_FIELDS, then FACET_FIELDS
    # of its room, track and level): two versions of a session are laid out and shown alike
    # when these and `billing` are equal (web/schedule/frames.py).
    row: tuple[Any, ...] = field(default=(), repr=False)

    def copy(self) -> Outline:
        """A copy to set a page's attributes on (cards, controls): the outline may be shared."""
        copied = object.__new__(Outline)
        copied.__dict__.update(self.__dict__)
        return copied


_FACET_MODELS = (("room", Room), ("track", Track), ("level", Level))
# The columns of an outline, and of its room, track and level.
OUTLINE_FIELDS = (
    "pk", "key", "title", "kind", "language", "starts_at", "ends_at", "has_slides",
    "is_cancelled", "seats",
)  # fmt: skip
FACET_FIELDS = ("id", "name", "slug", "position")
# The columns of an outline's `row` that place it on a page (not its key, title, kind, language
# nor whether it is cancelled: its card shows those): its times, slides, seats, and its room,
# track and level (their slug, name and position: facets show, filter and order by them).
LAYOUT_COLUMNS = tuple(
    index
    for index, name in enumerate(OUTLINE_FIELDS)
    if name not in ("key", "title", "kind", "language", "is_cancelled")
) + tuple(range(len(OUTLINE_FIELDS), len(OUTLINE_FIELDS) + 3 * len(FACET_FIELDS)))


def published_outline(event: Event, *, pks: Collection[int] | None = None) -> list[Outline]:
    """What `published_sessions(event, with_texts=False)` lists, as outlines, in four queries
    whatever the event's size (only those of `pks` when given). Sessions whose cards are not
    kept are then read whole (`published_sessions(..., pks=...)`), usually none or a few."""
    return _outlines(event, _facets(event), pks=pks)


# The facets an outline was read with: per kind (_FACET_MODELS' order), by id, the instance its
# sessions show and the columns (FACET_FIELDS) their rows compare.
Facets = list[dict[int, tuple[Any, tuple[Any, ...]]]]


@dataclass(frozen=True, eq=False)
class Outlined:
    """An event's published outline at one version (its `updated_at`), with the facets it was
    read with: where the next version's outline starts (outline_after). Shared, so read only."""

    at: datetime
    sessions: tuple[Outline, ...]
    facets: Facets


def outlined(event: Event, *, since: Outlined | None = None) -> Outlined:
    """The event's published outline at its version: `since` (an earlier version's) with only
    the sessions changed after it read again, when the journal joins the two (outline_after);
    else read whole."""
    read: list[Facets] = []

    def facets() -> Facets:  # read once, whether the journal is followed or not
        if not read:
            read.append(_facets(event))
        return read[0]

    if since is not None and (after := _outline_after(event, since, facets)) is not None:
        return after
    return Outlined(event.updated_at, tuple(_outlines(event, facets())), facets())


# The most steps back a journal is followed, and the most sessions re-read through it (beyond,
# a reader reads the outline whole: as cheap, and no long walk).
_STEPS_FOLLOWED = 16
_MOST_TOUCHED = 1000


def outline_after(event: Event, held: Outlined) -> Outlined | None:
    """The outline at the event's version made from `held`, reading again only the sessions
    the journal (programme.OutlineStep) says the versions since touched; None when it cannot be
    (a step missing, too many sessions touched, a room, track or level changed, or a session
    listed now that is neither held nor touched): the caller reads it whole.

    Five queries whatever the event's size: the steps, the facets, and the touched sessions'
    rows, speakers' places and speakers; and a sixth, the listed sessions' ids in order (5,000
    integers), unless every touched session stays where it was (_in_place: a rename, a
    cancellation, other speakers or slides). At 5,000 sessions the whole read is 58 to 65 ms
    in process, this a few."""
    return _outline_after(event, held, lambda: _facets(event))


def _outline_after(
    event: Event, held: Outlined, read_facets: Callable[[], Facets]
) -> Outlined | None:
    touched = sessions_touched(event, since=held.at)
    if touched is None or len(touched) > min(_MOST_TOUCHED, len(held.sessions) // 4 + 1):
        return None
    now = read_facets()
    if any(
        now[kind].get(pk, (None, None))[1] != columns
        for kind, facets in enumerate(held.facets)
        for pk, (_, columns) in facets.items()
    ):
        return None
    # The held instances where they are the same (pages compare and group by them).
    facets = [{**kind, **kept} for kind, kept in zip(now, held.facets, strict=True)]
    fresh = {row.pk: row for row in _outlines(event, facets, pks=touched)} if touched else {}
    kept = {row.pk: index for index, row in enumerate(held.sessions)}
    if _in_place(held.sessions, kept, fresh, touched):
        sessions = list(held.sessions)
        for pk, row in fresh.items():
            sessions[kept[pk]] = row
        return Outlined(event.updated_at, tuple(sessions), facets)
    published = Session.objects.filter(event=event).published().order_by(*SCHEDULE_ORDER)
    sessions = []
    for (pk,) in _raw_rows(published.values_list("pk")):
        found = fresh.get(pk) if pk in touched else held.sessions[kept[pk]] if pk in kept else None
        if found is None:  # listed now, yet neither touched nor held: a write not journaled
            return None
        sessions.append(found)
    return Outlined(event.updated_at, tuple(sessions), facets)


def _in_place(
    held: tuple[Outline, ...], kept: dict[int, int], fresh: dict[int, Outline], touched: set[int]
) -> bool:
    """Whether every touched session is listed where it was: held and still listed, at the same
    time in the same room, and if retitled (the order's last column but the pk), alone in its
    time and room (as a room's sessions are), so that no title compares with it. Then the
    listed ids need not be read in order."""
    for pk in touched:
        now = fresh.get(pk)
        if pk not in kept or now is None:
            return False
        index = kept[pk]
        before = held[index]
        place = _place(before)
        if _place(now) != place:
            return False
        if now.title != before.title and any(
            0 <= near < len(held) and _place(held[near]) == place for near in (index - 1, index + 1)
        ):
            return False
    return True


def _place(session: Outline) -> tuple[Any, ...]:
    """A session's columns in the schedule's order before its title (SCHEDULE_ORDER)."""
    room = session.room
    return (session.starts_at, room.position if room else None, room.name if room else None)


def sessions_touched(event: Event, *, since: datetime) -> set[int] | None:
    """The sessions the journal's steps from the version `since` (an `updated_at` of the event)
    to the event's version touched, or None when the steps do not join them (a write that moved
    the version without a step, or one too far back): what a reader holding something read at
    `since` reads again, else all. One query."""
    at = event.updated_at
    touched: set[int] = set()
    steps = OutlineStep.objects.filter(event=event).order_by("-pk")[:_STEPS_FOLLOWED]
    for step_since, until, sessions in steps.values_list("since", "until", "sessions"):
        if at == since:
            break
        if until == at:
            touched.update(sessions)
            at = step_since
    return touched if at == since else None


def _outlines(event: Event, facets: Facets, *, pks: Collection[int] | None = None) -> list[Outline]:
    """The published outline (of `pks` only when given), read with `facets`.

    Every list and grid page after a change reads the whole outline (5,000 sessions, 10,000
    speakers' places) unless the journal lets it read only the changed sessions, so it is read
    narrow, through the cursor rather than the ORM's row converters: the rooms, tracks, levels
    and speakers once each rather than on every row that names them, and the times as text,
    each distinct one converted once (a 5,000-session read took 47 ms in PostgreSQL's driver
    making 10,000 aware datetimes, 14 ms as text)."""
    published = Session.objects.filter(event=event).published()
    billed = SessionSpeaker.objects.filter(session__event=event)
    if pks is not None:
        billed, published = billed.filter(session_id__in=pks), published.filter(pk__in=pks)
    billing = _billing(event, billed)
    times = {name: Cast(name, output_field=CharField()) for name in ("starts_at", "ends_at")}
    rows = (
        published.order_by(*SCHEDULE_ORDER)
        .annotate(**{f"{name}_text": value for name, value in times.items()})
        .values_list(*_OUTLINE_READ)
    )
    zone = connections[rows.db].timezone or UTC
    moments: dict[Any, datetime | None] = {None: None}

    def moment(text: Any) -> datetime | None:
        if text not in moments:
            moments[text] = _moment(text, zone)
        return moments[text]

    none = (None, (None,) * len(FACET_FIELDS))
    rooms, tracks, levels = facets
    outlines = []
    for read in _raw_rows(rows):
        (pk, key, title, kind, language, starts, ends, has_slides, is_cancelled, seats,
         room_id, track_id, level_id) = read  # fmt: skip
        room, track, level = (
            rooms.get(room_id, none),
            tracks.get(track_id, none),
            levels.get(level_id, none),
        )
        outlines.append(
            Outline(
                pk=pk, key=key, title=title, kind=kind, language=language,
                starts_at=cast(datetime, moment(starts)),  # published: never None
                ends_at=moment(ends), has_slides=bool(has_slides), is_cancelled=bool(is_cancelled),
                seats=seats, room=room[0], track=track[0], level=level[0], event=event,
                billing=billing.get(pk, []), row=(*read[:-3], *room[1], *track[1], *level[1]),
            )
        )  # fmt: skip
    return outlines


# What the outline's query reads: its columns with the times as text, then the facets' ids.
_OUTLINE_READ = tuple(
    f"{name}_text" if name in ("starts_at", "ends_at") else name for name in OUTLINE_FIELDS
) + tuple(f"{name}_id" for name, _ in _FACET_MODELS)


def _facets(event: Event) -> Facets:
    """The event's rooms, tracks and levels (_FACET_MODELS' order), each by id: the instance an
    outline shows and the columns (FACET_FIELDS) its row compares. One query for the three."""
    kinds = [
        model._default_manager.filter(event=event)
        .order_by()
        .annotate(kind=Value(index))
        .values_list("kind", *FACET_FIELDS)
        for index, (_, model) in enumerate(_FACET_MODELS)
    ]
    found: Facets = [{} for _ in _FACET_MODELS]
    for kind, *values in _raw_rows(kinds[0].union(*kinds[1:], all=True)):
        model = _FACET_MODELS[kind][1]
        named = dict(zip(FACET_FIELDS[1:], values[1:], strict=True))
        found[kind][values[0]] = (model(id=values[0], event=event, **named), tuple(values))
    return found


def _billing(
    event: Event, billed: QuerySet[SessionSpeaker]
) -> dict[int, list[tuple[str, str, str, str | None, str | None]]]:
    """Per session, its speakers in billing order: name, company (the session's affiliation,
    else theirs), avatar_url, and their uploaded photo's smallest square and JPEG (None
    without). The speakers are read once each, not on every session that bills them."""
    links = _raw_rows(
        billed.order_by("session_id", "position", "pk").values_list(
            "session_id", "speaker_id", "affiliation"
        )
    )
    speakers = Speaker.objects.filter(event=event)
    if len(links) < _FEW:
        speakers = speakers.filter(pk__in={speaker for _, speaker, _ in links})
    people = {}
    for pk, name, company, avatar_url, squares, jpeg in _raw_rows(
        speakers.values_list(
            "pk", "name", "company", "avatar_url", f"{PHOTO}__squares", f"{PHOTO}__jpeg"
        )
    ):
        # The squares as JSON text on every database (the raw cursor skips JSONField's
        # converter); most speakers have none.
        square = json.loads(squares).get(SMALLEST_SQUARE) if squares else None
        people[pk] = (name, company, avatar_url, square, jpeg)
    billing: dict[int, list[tuple[str, str, str, str | None, str | None]]] = {}
    for session_id, speaker_id, affiliation in links:
        name, company, avatar_url, square, jpeg = people[speaker_id]
        billing.setdefault(session_id, []).append(
            (name, affiliation or company, avatar_url, square, jpeg)
        )
    return billing


# Under this many speakers' places, only their speakers are read (a few changed cards).
_FEW = 500


def _raw_rows(rows: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The rows of a values_list query as the database driver gives them (no converters)."""
    try:
        sql, params = rows.query.sql_with_params()
    except EmptyResultSet:  # a filter on an empty list (speakers of no one): nothing to ask
        return []
    with connections[rows.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _moment(value: Any, zone: tzinfo) -> datetime:
    """An aware datetime from a driver's value, as Django's converters make it: PostgreSQL's
    driver gives one; SQLite's gives it naive (or the text) in the connection's zone (UTC)."""
    if not isinstance(value, datetime):
        value = datetime.fromisoformat(value)
    return value if value.tzinfo is not None else value.replace(tzinfo=zone)
