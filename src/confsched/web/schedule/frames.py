"""The list and the grid after a change: the previous version's page with the changed
sessions' cards and stars replaced, when nothing else on it can have moved.

A kept page (stencils.py) is named by the schedule version, so the first request after an
organizer's edit builds the page again: at 5,000 sessions, reading and counting every session
and running the template over the page. Most edits (a title, an abstract's typo, a speaker's
company) change one card and nothing around it. So each process also keeps, per address, zone,
language and layout (not per version), the last page it built as a *frame*: the page cut at its
holes with each card a part of its own, what placed every published session on it (`layout`)
and what each card shows (`shown`). A new version whose sessions are laid out exactly as the
frame's, in an event whose own fields did not change, is the frame with the cards that show
something else rendered again and spliced in: no filtering, counting, grouping nor template.

Anything else (a session moved, added, cancelled or deleted, a room or track renamed, a rename
that changes the order within a slot, the event edited, a search) builds the page whole, which
becomes the next frame.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from copy import copy
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse

from confsched.programme import queries
from confsched.programme.models import Event
from confsched.web.site.fragments import attach_cards, attach_star_urls, card_shown
from confsched.web.site.stencils import Hole, Markers, Part, Stencil, page_frames, page_outlines

# The hole names that bound a card on a page being cut into a frame (never left in a stencil).
CARD_START, CARD_END = "card", "cardend"

# Builds the page with markers from the outline already read; returns it and its sessions.
FrameRender = Callable[[Markers, list], tuple[HttpResponse, list]]
StarParts = Callable[[list], dict[int, tuple[list[Part], list[Part]]]]


@dataclass(frozen=True)
class Frame:
    """A built page of the list or grid, and what it was built from."""

    event: tuple[Any, ...]
    layout: tuple[tuple[Any, ...], ...]
    shown: dict[int, tuple[Any, ...]]
    stencil: Stencil
    cards: dict[int, int]  # a session's pk: the index of its card among the stencil's pieces

    @property
    def size(self) -> int:
        return self.stencil.size


def event_fields(event: Event, *extra: object) -> tuple[Any, ...]:
    """Every field of the event but its version (`updated_at`), and `extra`."""
    fields = event._meta.concrete_fields
    return (*(getattr(event, f.attname) for f in fields if f.name != "updated_at"), *extra)


def layout_of(outline: Sequence[Any]) -> tuple[tuple[Any, ...], ...]:
    """What places each published session on a page, in the page's order: its times, room,
    track and level (as their facets show and filter them), slides, and whether it takes
    reservations (a seat control). Its title counts through the order."""
    named: dict[int, tuple[Any, ...]] = {}

    def facet(row: Any) -> tuple[Any, ...] | None:
        if row is None:
            return None
        if id(row) not in named:
            named[id(row)] = (row.pk, row.slug, row.name, row.position)
        return named[id(row)]

    return tuple(
        (s.pk, s.starts_at, s.ends_at, facet(s.room), facet(s.track), facet(s.level),
         s.has_slides, s.seats is None)
        for s in outline
    )  # fmt: skip


def framed_stencil(
    place: str, *, event: tuple[Any, ...], outline: Sequence[Any], render: FrameRender,
    star_parts: StarParts, card_context: dict[str, Any], likely_full: frozenset[str],
) -> Stencil:  # fmt: skip
    """The page's stencil: the frame kept for `place` with the changed cards spliced in when
    the outline is laid out as it was, else the page rendered whole (and kept as the frame)."""
    layout = layout_of(outline)
    previous: Frame | None = page_frames.get(place)
    if previous is not None and previous.event == event and previous.layout == layout:
        frame = _patched(
            previous, outline, star_parts=star_parts, card_context=card_context,
            likely_full=likely_full,
        )  # fmt: skip
    else:
        markers = Markers()
        # Copies: a page sets its cards and controls on its sessions; the outline is shared.
        page, sessions = render(markers, [copy(session) for session in outline])
        frame = _cut(markers.cut(page.content), sessions, event=event, layout=layout,
                     stars=star_parts(sessions), status=page.status_code)  # fmt: skip
        del page, sessions
        # What stencils.kept does after a build: the page's model instances and template nodes
        # in reference cycles, collected now (a splice leaves next to none: no collection).
        gc.collect()
    page_frames.put(place, frame)
    return frame.stencil


def outline_of(event: Event) -> tuple[Any, ...]:
    """The event's published outline at its version, read once per process: shared, so read
    only (a page works on copies)."""
    key = (event.pk, event.updated_at)
    outline = page_outlines.get(key)
    if outline is None:
        outline = tuple(queries.published_outline(event))
        page_outlines.put(key, outline)
    return outline


def unframed(parts: list[Part]) -> list[Part]:
    """A page's parts without the marks around its cards (a page that is not kept as a frame)."""
    return [part for part in parts if not _is_card_mark(part)]


def _patched(
    previous: Frame, outline: Sequence[Any], *, star_parts: StarParts,
    card_context: dict[str, Any], likely_full: frozenset[str],
) -> Frame:  # fmt: skip
    shown = {
        s.pk: card_shown(s, is_likely_full=s.key in likely_full)
        for s in outline
        if s.pk in previous.shown
    }
    changed = [copy(s) for s in outline if s.pk in shown and shown[s.pk] != previous.shown[s.pk]]
    for session in changed:
        session.is_likely_full = session.key in likely_full
    stencil = previous.stencil
    if changed:
        attach_cards(changed, **card_context)
        attach_star_urls(changed, event=card_context["event"])
        stars = star_parts(changed)
        pieces = {previous.cards[s.pk]: s.card.encode() for s in changed}
        starred = {}
        for session in changed:
            (plain,), (filled,) = stars[session.pk]  # one piece each (pages.star_parts)
            pieces[stencil.spans[session.pk][0]] = plain  # type: ignore[assignment]
            starred[session.pk] = filled
        stencil = stencil.replaced(pieces, starred)  # type: ignore[arg-type]
    return Frame(previous.event, previous.layout, shown, stencil, previous.cards)


def _cut(
    marked: list[Part], sessions: list, *, event: tuple[Any, ...],
    layout: tuple[tuple[Any, ...], ...], stars: dict[int, tuple[list[Part], list[Part]]],
    status: int,
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
    stencil = Stencil(parts, stars=stars, status=status)
    return Frame(event, layout, {s.pk: card_shown(s) for s in sessions}, stencil, cards)


def _is_card_mark(part: Part) -> bool:
    return isinstance(part, Hole) and part.name in (CARD_START, CARD_END)
