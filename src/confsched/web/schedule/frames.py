"""The list and the grid after a change: the previous version's page with the changed
sessions' cards and stars replaced, when nothing else on it can have moved.

A kept page (stencils.py) is named by the schedule version, so the first request after an
organizer's edit builds the page again: at 5,000 sessions, reading and counting every session
and running the template over the page. Most edits (a title, a speaker's name or company, a
cancellation) change one card and nothing around it. So each process also keeps, per address,
zone, language and layout (not per version), the last page it built as a *frame*: its stencil
with each card's place among the pieces, and the outline rows (queries.Outline.row, and the
speakers) it was built from. A new version whose sessions are the same in the same order, each
changed one placed as before (queries.LAYOUT_COLUMNS), in an event whose own fields did not
change, is the frame with the changed cards rendered again (or found kept) and spliced in: no
filtering, counting, grouping nor template run.

Anything else (a session moved, added, deleted or unpublished, a room, track or level edited, a
rename that changes the order, the event edited, a search) builds the page whole, which becomes
the next frame.

With Redis, a frame built whole is also put in the shared cache: a process that was handed the
last page by another (kept() found it there) built no frame of its own, and takes that one at
the next change rather than building the page whole."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import HttpResponse

from confsched.programme import queries
from confsched.programme.models import Event
from confsched.web.site.collection import collect_after_response
from confsched.web.site.fragments import attach_cards, attach_star_urls
from confsched.web.site.stencils import (
    STENCIL_TTL,
    Hole,
    Markers,
    Part,
    Stencil,
    has_shared_cache,
    held_stencil,
    page_frames,
    page_outlines,
)

# The hole names that bound a card on a page being cut into a frame (never left in a stencil).
CARD_START, CARD_END = "card", "cardend"

# Builds the page with markers from the outline already read; returns it and its sessions.
FrameRender = Callable[[Markers, list], tuple[HttpResponse, list]]
StarParts = Callable[[list], dict[int, tuple[list[Part], list[Part]]]]


@dataclass(frozen=True)
class Frame:
    """A built page of the list or grid, and what it was built from."""

    event: tuple[Any, ...]
    order: tuple[int, ...]  # the published sessions' pks, in the page's order
    rows: dict[int, tuple[tuple[Any, ...], list[tuple[Any, ...]]]]  # pk: (row, billing)
    stencil: Stencil
    cards: dict[int, int]  # a session's pk: the index of its card among the stencil's pieces

    @property
    def size(self) -> int:
        return self.stencil.size


# The event's fields that say when it changed, not what it is: its version, its vectors', and
# the digest of the files it was last imported from (every import writes it, after the
# programme; a page that compared it rebuilt the list and grid whole after every import).
VERSIONS = frozenset({"updated_at", "embedded_at", "import_digest"})


def event_fields(event: Event, *extra: object) -> tuple[Any, ...]:
    """Every field of the event but its versions (VERSIONS: none shows on a list or grid),
    and `extra`."""
    fields = event._meta.concrete_fields
    return (*(getattr(event, f.attname) for f in fields if f.name not in VERSIONS), *extra)


def framed_stencil(
    place: str, *, page: str, event: tuple[Any, ...], outline: Sequence[queries.Outline],
    render: FrameRender, star_parts: StarParts, card_context: dict[str, Any],
    likely_full: frozenset[str],
) -> Stencil:  # fmt: skip
    """The page's stencil: the frame kept for `place` with the changed cards spliced in when
    the outline is laid out as it was, else the page rendered whole (and kept as the frame).

    Laid out as it was: the same sessions in the same order (a title counts through it), and
    each session whose row or speakers changed placed as before (queries.LAYOUT_COLUMNS). The
    likely-full sessions are part of `place` (the page's name); `page` is the key its stencil
    is kept under (stencils.kept)."""
    order = tuple(session.pk for session in outline)
    rows = {session.pk: (session.row, session.billing) for session in outline}
    previous = _previous_frame(place)
    changed = _changed(previous, event=event, order=order, rows=rows)
    if previous is not None and changed is not None:
        shown = [session.copy() for session in outline if session.pk in changed]
        for session in shown:
            session.is_likely_full = session.key in likely_full
        stencil = _spliced(previous, shown, star_parts=star_parts, card_context=card_context)
        frame = Frame(event, order, rows, stencil, previous.cards)
    else:
        markers = Markers()
        # Copies: a page sets its cards and controls on its sessions; the outline is shared.
        built, sessions = render(markers, [session.copy() for session in outline])
        frame = _cut(markers.cut(built.content), event=event, order=order, rows=rows,
                     stars=star_parts(sessions), status=built.status_code)  # fmt: skip
        del built, sessions
        # What stencils.kept does after a build: the page's model instances and template nodes
        # in reference cycles, collected once the answer is sent (a splice leaves next to
        # none: no collection).
        collect_after_response()
    # Only a page built whole goes to the shared cache: pickling a frame of 5,000 sessions
    # for Redis took 0.1 s, which a splice does not need. A process that takes an older frame
    # from there finds more cards changed since it, and splices them all the same.
    _keep_frame(place, frame, page=page if changed is None or previous is None else None)
    return frame.stencil


def _shared_key(place: str) -> str | None:
    """The frame's key in the shared cache, or None without one (the default cache then lives
    in this process: a second copy would only double the memory)."""
    if not has_shared_cache():
        return None
    return "frame:" + hashlib.sha256(place.encode()).hexdigest()


@dataclass(frozen=True)
class SharedFrame:
    """A frame as the shared cache keeps it: all but its stencil, which is the page kept under
    `page` (stencils.kept put it there too). A process that was handed that page holds it
    already: taking the frame then reads a few hundred kilobytes, not the 9 MB of a
    5,000-session list again (34 ms, and as many objects for the collector)."""

    event: tuple[Any, ...]
    order: tuple[int, ...]
    rows: dict[int, tuple[tuple[Any, ...], list[tuple[Any, ...]]]]
    cards: dict[int, int]
    page: str


def _previous_frame(place: str) -> Frame | None:
    """The last frame of `place`: this process's, else the one another process left in the
    shared cache (with its page from this process's kept pages, else from the shared cache)."""
    found: Frame | None = page_frames.get(place)
    if found is None and (key := _shared_key(place)) is not None:
        shared: SharedFrame | None = cache.get(key)
        stencil = held_stencil(shared.page) if shared is not None else None
        if shared is not None and stencil is not None:
            found = Frame(shared.event, shared.order, shared.rows, stencil, shared.cards)
            page_frames.put(place, found)
    return found


def _keep_frame(place: str, frame: Frame, *, page: str | None) -> None:
    """Keep `frame` here, and with `page` (its stencil's key) in the shared cache too."""
    page_frames.put(place, frame)
    if page is not None and (key := _shared_key(place)) is not None:
        shared = SharedFrame(frame.event, frame.order, frame.rows, frame.cards, page)
        cache.set(key, shared, STENCIL_TTL)


def _changed(
    previous: Frame | None, *, event: tuple[Any, ...], order: tuple[int, ...],
    rows: dict[int, tuple[tuple[Any, ...], list[tuple[str, str]]]],
) -> set[int] | None:  # fmt: skip
    """The sessions on the previous page whose card shows something new, or None when the page
    cannot be the previous one with cards replaced."""
    if previous is None or previous.event != event or previous.order != order:
        return None
    changed = {pk for pk, row in rows.items() if row != previous.rows[pk]}
    for pk in changed:
        before, after = previous.rows[pk][0], rows[pk][0]
        if any(before[column] != after[column] for column in queries.LAYOUT_COLUMNS):
            return None
    return changed & previous.cards.keys()  # filtered out: stays out (its layout is the same)


def outline_of(event: Event) -> tuple[queries.Outline, ...]:
    """The event's published outline at its version, read once per process: shared, so read
    only (a page works on copies). After a change, the version before's is the start: only the
    sessions the change touched are read again (queries.outline_after)."""
    held: queries.Outlined | None = page_outlines.get(event.pk)
    if held is None or held.at != event.updated_at:
        held = queries.outlined(event, since=held)
        page_outlines.put(event.pk, held)
    return held.sessions


def unframed(parts: list[Part]) -> list[Part]:
    """A page's parts without the marks around its cards (a page that is not kept as a frame)."""
    return [part for part in parts if not _is_card_mark(part)]


def _spliced(
    previous: Frame, changed: list[Any], *, star_parts: StarParts, card_context: dict[str, Any]
) -> Stencil:
    """The previous page with the cards and stars of `changed` rendered again (or found kept)."""
    if not changed:
        return previous.stencil
    attach_cards(changed, **card_context)
    attach_star_urls(changed, event=card_context["event"])
    stars = star_parts(changed)
    stencil = previous.stencil
    pieces = {previous.cards[session.pk]: session.card.encode() for session in changed}
    starred = {}
    for session in changed:
        (plain,), (filled,) = stars[session.pk]  # one piece each (pages.star_parts)
        pieces[stencil.spans[session.pk][0]] = plain  # type: ignore[assignment]
        starred[session.pk] = filled
    return stencil.replaced(pieces, starred)  # type: ignore[arg-type]


def _cut(
    marked: list[Part], *, event: tuple[Any, ...], order: tuple[int, ...],
    rows: dict[int, tuple[tuple[Any, ...], list[tuple[str, str]]]],
    stars: dict[int, tuple[list[Part], list[Part]]], status: int,
) -> Frame:  # fmt: skip
    """The frame of a page cut at its markers: the card marks dropped, each card's index among
    the stencil's pieces kept (a star's span counts its plain pieces)."""
    parts: list[Part] = []
    cards: dict[int, int] = {}
    pieces = 0
    for part in marked:
        if isinstance(part, Hole) and part.name == CARD_START:
            cards[part.session] = pieces
        elif not (isinstance(part, Hole) and part.name == CARD_END):
            parts.append(part)
            is_star = isinstance(part, Hole) and part.name == "star"
            pieces += len(stars[part.session][0]) if is_star else 1  # type: ignore[union-attr]
    return Frame(event, order, rows, Stencil(parts, stars=stars, status=status), cards)


def _is_card_mark(part: Part) -> bool:
    return isinstance(part, Hole) and part.name in (CARD_START, CARD_END)
