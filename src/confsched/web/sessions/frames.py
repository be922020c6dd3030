"""A session page after a change that touched nothing it shows: the page of the version before.

A kept page is named by the event's version, so every change built every session page again
on every process: at 5,000 sessions 50 to 60 ms of CPU each (about fourteen queries and the
template), the first time each is asked for. Most changes touch one session or a few, and a
session page shows few: its session, up to six of the same track and how many there are, and
up to five similar sessions. So each process keeps, per address, zone and language, the last
session page it built with what it showed (a *frame*); the next version's page is that frame
when the outline journal (programme.OutlineStep) joins the two versions and

- no touched session is shown,
- none is in the page's track now, and the track holds as many sessions as it did (one that
  left it or was withdrawn),
- the similar sessions cannot have changed (search.similar.similar_unchanged: by meaning, no
  touched or newly embedded session reaches the lowest shown score; by words, none shares a
  word of the title).

The worker embeds a changed session a few seconds after the change, which moves the event's
`embedded_at` (the version of its vectors): the sessions whose vector that changed
(semantic.vectors_changed) count as touched for the similar sessions by meaning.

Anything else builds the page whole, and that page is the next frame. A change the journal
does not follow (the event, a room, a speaker's photo) breaks the chain: built whole."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from confsched.programme import queries
from confsched.programme.models import Event
from confsched.search import semantic
from confsched.search.similar import similar_unchanged
from confsched.web.schedule.frames import outline_of
from confsched.web.site.collection import collect_after_response
from confsched.web.site.stencils import Stencil, session_frames


@dataclass(frozen=True)
class Shown:
    """What a session page showed, besides what the event's version names."""

    session: int
    title: str
    track: int | None
    same_track: tuple[int, ...]
    track_total: int
    similar: tuple[int, ...]
    by_meaning: bool
    limit: int  # the most similar sessions a page shows


@dataclass(frozen=True)
class SessionFrame:
    at: datetime  # the event's version it was built at
    embedded: datetime | None  # and its vectors'
    titles: dict[int, str]  # the listed sessions' titles then (semantic.listed_titles: shared)
    shown: Shown
    stencil: Stencil


def framed_session_page(
    place: str, *, event: Event, build: Callable[[], tuple[Stencil, Shown]]
) -> Stencil:
    """The session page of `place`: its frame when nothing it shows changed since, else
    `build()` (the page, and what it shows), kept as the place's frame."""
    frame: SessionFrame | None = session_frames.get(place)
    if frame is not None and _still(frame, event):
        now = replace(
            frame,
            at=event.updated_at,
            embedded=event.embedded_at,
            titles=semantic.listed_titles(event),
        )
        session_frames.put(place, now)
        return frame.stencil
    stencil, shown = build()
    collect_after_response()
    kept = SessionFrame(
        event.updated_at, event.embedded_at, semantic.listed_titles(event), shown, stencil
    )
    session_frames.put(place, kept)
    return stencil


def _still(frame: SessionFrame, event: Event) -> bool:
    """Whether the frame's page is the page at the event's version (the module's rules)."""
    shown = frame.shown
    revectored = semantic.vectors_changed(event, since=frame.embedded)
    if revectored is None or (revectored and not shown.by_meaning):
        return False
    touched = queries.sessions_touched(event, since=frame.at)
    if touched is None:
        return False
    if (touched | revectored) & {shown.session, *shown.same_track, *shown.similar}:
        return False
    if not touched and not revectored:
        return True
    if shown.track is not None:  # from the outline the process holds, as the page's were
        in_track = {row.pk for row in queries.in_track(outline_of(event), shown.track)}
        if touched & in_track or len(in_track - {shown.session}) != shown.track_total:
            return False
    now = semantic.listed_titles(event)
    changed = {pk: (frame.titles.get(pk, ""), now.get(pk, "")) for pk in touched | revectored}
    return similar_unchanged(
        event, shown.session, shown.title, shown=shown.similar, by_meaning=shown.by_meaning,
        limit=shown.limit, touched=changed,
    )  # fmt: skip
