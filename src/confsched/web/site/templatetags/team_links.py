"""The header's organizer links: the staff pages the signed-in person may use for the event
on screen, by their role on it (none for visitors and attendees; no query for visitors)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from confsched.teams.access import rights_on_slug
from confsched.teams.rights import Right

register = template.Library()

# (URL name, label, the right it needs), in the order the menu lists them.
LINKS = (
    ("web:insight", _("Insight"), Right.READ),
    ("web:seats_overview", _("Seats"), Right.READ),
    ("web:feedback_staff", _("Feedback"), Right.READ),
    ("web:checkin", _("Check-in"), Right.CHECKIN),
    ("web:draft", _("Draft and release"), Right.PROGRAMME),
    ("web:draft_editor", _("Schedule editor"), Right.PROGRAMME),
    ("web:announcements_staff", _("Announcements"), Right.PROGRAMME),
    ("web:speakers_staff", _("Speakers' links"), Right.PROGRAMME),
    ("web:speakers_review", _("Speakers' changes"), Right.PROGRAMME),
    ("web:team", _("Team"), Right.TEAM),
)


@register.simple_tag(takes_context=True)
def staff_links(context: Any) -> list[tuple[str, str]]:
    """[(address, label)] for the event in the request's address; [] when there is none."""
    request = context.get("request")
    user = context.get("user")
    match = getattr(request, "resolver_match", None)
    slug = match.kwargs.get("event") if match is not None else None
    if not slug or user is None or not user.is_authenticated or not isinstance(slug, str):
        return []
    rights = rights_on_slug(user, slug)
    links = [
        (reverse(name, kwargs={"event": slug}), label)
        for name, label, right in LINKS
        if right in rights
    ]
    if Right.READ in rights:
        links.append((reverse("admin:index"), _("Admin")))
    return links
