"""A person on an event's team, for tests of organizers' pages (docs/teams.md)."""

from __future__ import annotations

from typing import Any

from tests.conftest import DEMO_SLUG


def on_team(user: Any, role: str = "owner", slug: str = DEMO_SLUG) -> Any:
    """`user` given `role` on the event `slug` (which must exist); returns the user."""
    from confsched.programme.models import Event
    from confsched.teams.models import TeamMember

    TeamMember.objects.update_or_create(
        event=Event.objects.get(slug=slug), user=user, defaults={"role": role}
    )
    return user
