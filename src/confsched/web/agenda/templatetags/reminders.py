"""The agenda page's reminders panel, drawn by a tag so the agenda's view needs no change
(the page is per person and never stenciled: one read here is fine)."""

from __future__ import annotations

from typing import Any

from django import template

from confsched.web.agenda.reminders import PANEL, panel_context

register = template.Library()


@register.inclusion_tag(PANEL, takes_context=True)
def reminder_panel(context: template.Context) -> dict[str, Any]:
    """`{% reminder_panel %}`: the signed-in person's setting for the page's event."""
    return {
        **panel_context(context["request"].user, context["event"]),
        "csrf_token": context.get("csrf_token"),
    }
