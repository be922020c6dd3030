"""Links between views of the schedule: the same address with one filter taken off."""

from __future__ import annotations

from django import template
from django.http import QueryDict
from django.utils.translation import gettext

from confsched.programme.filtering import FACETS
from confsched.programme.layout import NO_ROOM

register = template.Library()

FILTER_NAMES = (*FACETS, "q")


@register.simple_tag
def query_without(query: QueryDict, name: str = "", value: str = "") -> str:
    """ "?" and the query without one filter value (the search when name is "q"); with no name,
    without any filter, keeping the rest (such as the zone). Blank values are dropped."""
    kept = QueryDict(mutable=True)
    for key, values in query.lists():
        for item in values:
            if not item.strip():
                continue
            if not name and key in FILTER_NAMES:
                continue
            if key == name and (name == "q" or item.strip() == value):
                continue
            kept.appendlist(key, item)
    return "?" + kept.urlencode()


@register.filter
def room_heading(column: str) -> str:
    """A grid's or a timetable's column heading: the room's name, or "No room" in the page's
    language for the column of sessions without one (layout.NO_ROOM is that column's key)."""
    return gettext("No room") if column == NO_ROOM else column
