"""Whose stars a request sees: the account's, or a visitor's kept under their browser session.

A visitor's stars are rows (`VisitorStar`) under a random id their session holds, not a list
in the session itself: two stars sent at once would be two saves of one session, and the
later save would drop the other's star. The id is session data, so it survives the new
session key Django makes at log-in, when the stars move to the account.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.http import HttpRequest

from confsched.agenda import queries as agenda_queries
from confsched.agenda.models import VisitorStar
from confsched.agenda.services import merge_stars, star_session, unstar_session
from confsched.programme.models import Event, Session

_VISITOR = "visitor"
# Sessions made before stars became rows kept them as "stars:<event pk>" lists; read once.
_OLD_PREFIX = "stars:"


def _visitor(request: HttpRequest, *, create: bool) -> str:
    """This browser's visitor id ("" when it has none and none is to be made)."""
    visitor = request.session.get(_VISITOR, "")
    if not visitor and create:
        visitor = request.session[_VISITOR] = secrets.token_urlsafe(24)
    if visitor:
        _take_old_stars(request, visitor)
    return visitor


def _take_old_stars(request: HttpRequest, visitor: str) -> None:
    for key in [k for k in request.session.keys() if k.startswith(_OLD_PREFIX)]:
        VisitorStar.objects.bulk_create(
            [VisitorStar(visitor=visitor, session_id=pk) for pk in request.session.pop(key)],
            ignore_conflicts=True,
        )


def starred_ids(request: HttpRequest, event: Event) -> set[int]:
    if request.user.is_authenticated:
        return agenda_queries.starred_ids(request.user, event)
    visitor = _visitor(
        request, create=any(k.startswith(_OLD_PREFIX) for k in request.session.keys())
    )
    if not visitor:
        return set()
    return set(
        VisitorStar.objects.filter(visitor=visitor, session__event=event).values_list(
            "session_id", flat=True
        )
    )


def set_star(request: HttpRequest, session: Session, *, is_starred: bool) -> None:
    """Star or unstar; idempotent, so a double click or a replayed form changes nothing more."""
    if request.user.is_authenticated:
        if is_starred:
            star_session(request.user, session)
        else:
            unstar_session(request.user, session)
        return
    visitor = _visitor(request, create=is_starred)
    if not visitor:
        return  # unstarring with no stars: nothing to do
    if is_starred:
        VisitorStar.objects.bulk_create(
            [VisitorStar(visitor=visitor, session=session)], ignore_conflicts=True
        )
    else:
        VisitorStar.objects.filter(visitor=visitor, session=session).delete()


def adopt_visitor_stars(request: HttpRequest) -> int:
    """After log-in or sign-up: move the visitor's stars of every event into the account."""
    visitor = _visitor(request, create=False)
    if not visitor:
        return 0
    with transaction.atomic():
        rows = VisitorStar.objects.select_for_update().filter(visitor=visitor)
        moved = merge_stars(request.user, list(rows.values_list("session_id", flat=True)))
        rows.delete()
    request.session.pop(_VISITOR, None)
    return moved
