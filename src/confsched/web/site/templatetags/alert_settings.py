"""The agenda page's alerts panel: whether they are on, and the private feed's address.

A tag rather than view context so the panel lives beside the agenda without a change to
its view; the agenda page is per person (never stenciled), so one read here is fine.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from confsched.agenda import alerts
from confsched.programme.models import Event
from confsched.web.site.feeds import in_page_language

register = template.Library()


@register.simple_tag(takes_context=True)
def alert_settings(context: template.Context, event: Event) -> dict[str, Any]:
    request = context["request"]
    user = request.user
    subscription = alerts.subscription_for(user, event)
    links = alerts.agenda_links_for(user, event)
    feed_path = reverse("web:alerts_feed", kwargs={"event": event.slug, "token": links.feed_token})
    return {
        "is_on": bool(subscription and subscription.is_on),
        "has_email": bool(user.email),
        "feed_url": request.build_absolute_uri(in_page_language(feed_path, event)),
    }
