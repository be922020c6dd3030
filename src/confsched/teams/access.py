"""Reading rights: which role a person holds on which event, and whether it opens a right.

One query per request at most: a person's roles are read once and kept on the user object
(Django builds a new one for every request). Site administrators (active superusers) hold
every right on every event; an inactive account holds none.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from confsched.core.prepared import Prepared
from confsched.programme.models import Event
from confsched.teams.models import TeamMember
from confsched.teams.rights import Right, role_has

_KEPT = "_confsched_team_roles"
# Read on every signed-in page of an event (the organizers' menu): compiled once.
_ROLES = Prepared(
    TeamMember,
    lambda user: (
        TeamMember.objects.filter(user_id=user)
        .order_by()
        .values_list("event_id", "event__slug", "role")
    ),
    user=int,
)


def is_site_admin(user: Any) -> bool:
    return bool(user is not None and user.is_active and user.is_superuser)


def roles_of(user: Any) -> dict[int, tuple[str, str]]:
    """{event pk: (event slug, role)} for every event `user` has a role on; {} for visitors."""
    if user is None or not user.is_authenticated or not user.is_active:
        return {}
    kept = getattr(user, _KEPT, None)
    if kept is None:
        kept = {event_id: (slug, role) for event_id, slug, role in _ROLES.rows(user=user.pk)}
        setattr(user, _KEPT, kept)
    return kept


def forget_roles(user: Any) -> None:
    """Read the roles again next time (after a change to `user`'s own roles)."""
    if user is not None and hasattr(user, _KEPT):
        delattr(user, _KEPT)


def role_on(user: Any, event: Event) -> str | None:
    found = roles_of(user).get(event.pk)
    return found[1] if found else None


def can(user: Any, event: Event, right: Right) -> bool:
    """Whether `user` holds `right` on `event`."""
    if is_site_admin(user):
        return True
    return role_has(role_on(user, event), right)


def can_on_slug(user: Any, slug: str, right: Right) -> bool:
    """`can` for an event named by its slug (no query for the event itself)."""
    if is_site_admin(user):
        return True
    return any(s == slug and role_has(role, right) for s, role in roles_of(user).values())


def event_ids_with(user: Any, right: Right) -> set[int] | None:
    """The pks of the events where `user` holds `right`; None means every event (site admins)."""
    if is_site_admin(user):
        return None
    return {pk for pk, (_, role) in roles_of(user).items() if role_has(role, right)}


def events_with(user: Any, right: Right) -> QuerySet[Event]:
    ids = event_ids_with(user, right)
    return Event.objects.all() if ids is None else Event.objects.filter(pk__in=ids)


def holds_anywhere(user: Any, right: Right) -> bool:
    ids = event_ids_with(user, right)
    return ids is None or bool(ids)


def rights_on_slug(user: Any, slug: str) -> frozenset[Right]:
    """Every right `user` holds on the event `slug` (all of them for site admins)."""
    if is_site_admin(user):
        return frozenset(Right)
    return frozenset(
        right
        for s, role in roles_of(user).values()
        if s == slug
        for right in Right
        if role_has(role, right)
    )
