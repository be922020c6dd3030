"""Who may do what on one event: the four roles and the rights each carries (pure).

A role is held per event (teams/models.py stores it); a right is what a page or an admin
screen asks for. Site administrators (superusers) hold every right on every event; nobody
else holds any right on an event they have no role on, whatever `is_staff` says.
"""

from __future__ import annotations

import enum

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    EDITOR = "editor", _("Editor")
    VIEWER = "viewer", _("Viewer")
    CHECKIN = "checkin", _("Check-in")


class Right(enum.Enum):
    """What a page needs. Each name says what it opens."""

    READ = "read"  # insight, reservation lists and CSV, feedback, the admin read only
    CHECKIN = "checkin"  # the check-in pages
    SEATS = "seats"  # change seats, force people in, take them off
    PROGRAMME = "programme"  # the admin's edits, imports, sync, the event's settings
    TEAM = "team"  # the team page: invite, change roles, remove; delete the event


RIGHTS: dict[Role, frozenset[Right]] = {
    Role.OWNER: frozenset(Right),
    Role.EDITOR: frozenset({Right.READ, Right.CHECKIN, Right.SEATS, Right.PROGRAMME}),
    Role.VIEWER: frozenset({Right.READ}),
    Role.CHECKIN: frozenset({Right.CHECKIN}),
}

DESCRIPTIONS: dict[Role, str | Promise] = {  # lazy: said in the reader's language
    Role.OWNER: _("everything, including the team"),
    Role.EDITOR: _("programme, imports, sync, settings, seats, check-in"),
    Role.VIEWER: _("insight, reservations and feedback, read only"),
    Role.CHECKIN: _("the check-in pages only"),
}


def role_has(role: str | None, right: Right) -> bool:
    """Whether `role` (a Role's value, or None for no role) carries `right`."""
    if role is None or role not in Role.values:
        return False
    return right in RIGHTS[Role(role)]


def parse_role(text: str) -> Role:
    """The role `text` names (its value, case-insensitive), else ValueError listing them."""
    folded = text.strip().lower().replace("-", "")
    for role in Role:
        if folded == role.value:
            return role
    names = ", ".join(role.value for role in Role)
    raise ValueError(
        _("Unknown role '%(role)s': one of %(names)s.") % {"role": text, "names": names}
    )
