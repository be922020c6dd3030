"""Whose stars a request sees: the account's, or a visitor's kept in their browser session."""

from __future__ import annotations

from django.http import HttpRequest

from confsched.agenda import queries as agenda_queries
from confsched.agenda.services import merge_stars, star_session, unstar_session
from confsched.programme.models import Event, Session

_PREFIX = "stars:"


def _visitor_key(event: Event) -> str:
    return f"{_PREFIX}{event.pk}"


def starred_ids(request: HttpRequest, event: Event) -> set[int]:
    if request.user.is_authenticated:
        return agenda_queries.starred_ids(request.user, event)
    return set(request.session.get(_visitor_key(event), []))


def set_star(request: HttpRequest, session: Session, *, is_starred: bool) -> None:
    """Star or unstar; idempotent, so a double click or a replayed form changes nothing more."""
    if request.user.is_authenticated:
        if is_starred:
            star_session(request.user, session)
        else:
            unstar_session(request.user, session)
        return
    key = _visitor_key(session.event)
    ids = set(request.session.get(key, []))
    ids = ids | {session.pk} if is_starred else ids - {session.pk}
    request.session[key] = sorted(ids)


def adopt_visitor_stars(request: HttpRequest) -> int:
    """After log-in or sign-up: move the visitor's stars of every event into the account."""
    moved = 0
    for key in [k for k in request.session.keys() if k.startswith(_PREFIX)]:
        moved += merge_stars(request.user, request.session.pop(key))
    return moved
