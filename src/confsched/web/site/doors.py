"""The one door to organizers' pages: the event, if the person holds the right on it.

Every staff view starts with `event_for(request, slug, need=Right.X)` and uses only the event
it returns, so no view can reach an event's private data without the check. Anyone without the
right gets what any visitor gets: the log-in page when signed out, a 404 when signed in (no
hint that the page, or the event, exists).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from confsched.core.errors import ConfschedError
from confsched.programme.models import Event
from confsched.teams.access import can_on_slug
from confsched.teams.rights import Right
from confsched.web.site.pages import event_or_404


def event_for(request: HttpRequest, slug: str, *, need: Right) -> Event | HttpResponse:
    """The event `slug` when the signed-in person holds `need` on it; else the log-in page
    (signed out) or a 404 (signed in)."""
    user = request.user
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_on_slug(user, slug, need):
        raise Http404("No such page")
    return event_or_404(slug)


def acted(
    request: HttpRequest, event: Event, *, act: Callable[[HttpRequest, Event], str],
    url_name: str,
) -> HttpResponse | tuple[str, int]:  # fmt: skip
    """A staff page's form, posted then got (POST/redirect/GET): on a POST, `act` and back to
    the page (`url_name`) with its message kept for the next GET; its refusal (a domain
    error) is the message with a 400, shown with the form as it was typed. On a GET, the
    message kept, if any. Returns the redirect, or (message, status) for the page."""
    key = f"{url_name}:message"
    if request.method != "POST":
        return request.session.pop(key, ""), 200
    try:
        message = act(request, event)
    except ConfschedError as error:
        return str(error), 400
    request.session[key] = message
    return redirect(reverse(url_name, kwargs={"event": event.slug}))
