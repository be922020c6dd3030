"""The announcements' banner on a page rendered whole (kept pages fill their "news" hole
instead: schedule/pages.py)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from confsched.core import clock
from confsched.programme.models import Event
from confsched.web.site.fragments import news_html

register = template.Library()


@register.simple_tag
def news_banner(event: Event | None) -> SafeString:
    """The current announcements of `event` in the page's language; "" when none."""
    if not isinstance(event, Event):
        return mark_safe("")  # noqa: S308 - empty
    return mark_safe(news_html(event, now=clock.now()))  # noqa: S308 - rendered by a template
