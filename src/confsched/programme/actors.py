"""Who did it: how a version, an import or a team change names the person who made it.

A username, or "command line" when no account did (a command typed on the server). The
programme's history, the teams' history and the imports all name their author this way.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

COMMAND_LINE = "command line"


def actor_name(user: Any) -> str:
    """How the history names who did it: the username, or "command line" for no account."""
    if user is None or not getattr(user, "is_authenticated", False):
        return COMMAND_LINE
    return str(user.get_username())


def by_words(by: str) -> str:
    """Who made a change: a username, or "command line" in the active language."""
    return gettext("command line") if by == COMMAND_LINE else by
