"""The now-and-next page: per room, what runs now and what comes next, kept open at the venue.

Not stenciled: it changes with the clock. The board is read once per schedule version, room
states and minute (web/venue/now_board.py); each request only renders it for the viewer's zone.
A full room says so here without JavaScript; the check-in role and the team also get the
buttons that mark a room full or open again (web/venue/rooms.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from confsched.core import clock
from confsched.live.queries import room_states
from confsched.programme.models import Event
from confsched.teams.access import can
from confsched.teams.rights import Right
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.zones import viewer_zone
from confsched.web.venue.now_board import Entry, RoomNow, board_for, duration_words

# Phones re-asking within half a minute get their own copy back; the board moves by minutes.
MAX_AGE = 30


@dataclass(frozen=True)
class Shown:
    """An entry and how far away its end (running) or its start (next) is, in words."""

    entry: Entry
    words: str


@dataclass(frozen=True)
class RoomShown:
    name: str
    current: list[Shown]
    upcoming: Shown | None
    is_full: bool = False
    slug: str = ""  # for the buttons of those who may mark the room; "" for everyone else


def _shown(room: RoomNow, *, now: datetime, slugs: dict[str, str]) -> RoomShown:
    return RoomShown(
        name=room.room or gettext("Other places"),
        current=[
            Shown(entry=entry, words=duration_words((entry.ends_at or entry.starts_at) - now))
            for entry in room.current
        ],
        upcoming=Shown(entry=room.upcoming, words=duration_words(room.upcoming.starts_at - now))
        if room.upcoming
        else None,
        is_full=room.is_full,
        slug=slugs.get(room.room, ""),
    )


def _room_slugs(request: HttpRequest, event: Event) -> dict[str, str]:
    """{room name: slug} for a person who may mark rooms full; {} (no query) for the others."""
    if not request.user.is_authenticated or not can(request.user, event, Right.CHECKIN):
        return {}
    return {state.name: state.slug for state in room_states(event, now=clock.now())}


@require_safe
def now(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)
    moment = clock.now()
    board = board_for(event_row, now=moment)
    slugs = _room_slugs(request, event_row)
    response = event_page(
        request, "confsched/now.html", event=event_row, viewer=viewer, moment=moment,
        board=board, rooms=[_shown(room, now=moment, slugs=slugs) for room in board.rooms],
        as_of=moment, nav="now", shared=True, max_age=MAX_AGE, can_mark=bool(slugs),
    )  # fmt: skip
    if not response.has_header("Cache-Control"):  # someone's own page: theirs alone
        patch_cache_control(response, private=True, max_age=MAX_AGE)
    return response
