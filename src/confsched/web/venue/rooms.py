"""Rooms that are full: their state for the apps that read FOSDEM's room status, and the
check-in role's and the team's buttons that mark a room full or open again.

`listrooms` is FOSDEM's shape (https://api.fosdem.org/roomstatus/v1/listrooms), so an app
pointed at the event's address reads it unchanged: a JSON array of {"roomname", "state"}, the
state "1" when full and "0" when open, as strings. It is also what rooms.js polls to show the
state on pages a cache keeps the same for everyone. Public, kept 5 s at most anywhere.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from confsched.core import clock
from confsched.live import services
from confsched.live.queries import room_states
from confsched.programme.models import Room
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.local_paths import local_path
from confsched.web.site.pages import event_or_404

# A full room shows within 10 s: kept at most 5 s by a cache, asked for every 4 s by rooms.js.
MAX_AGE = 5
STATES = {"full": True, "open": False}


@require_safe
def listrooms(request: HttpRequest, event: str) -> HttpResponse:
    """Every room of the event in the schedule's order: [{"roomname": …, "state": "0"|"1"}]."""
    event_row = event_or_404(event)
    rooms = [
        {"roomname": state.name, "state": "1" if state.is_full else "0"}
        for state in room_states(event_row, now=clock.now())
    ]
    response = JsonResponse(rooms, safe=False, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"  # the apps and other sites read it
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response


@require_POST
def mark_room(request: HttpRequest, event: str, room: str) -> HttpResponse:
    """POST `state` ("full" or "open"): say so of the room, then back to `next` (this site's)."""
    found = event_for(request, event, need=Right.CHECKIN)
    if isinstance(found, HttpResponse):
        return found
    row = Room.objects.filter(event=found, slug=room).first()
    if row is None:
        raise Http404(f"No room {room!r}")
    wanted = request.POST.get("state", "")
    if wanted not in STATES:
        return HttpResponseBadRequest(
            gettext("“state” must be “full” or “open”, not “%(state)s”.") % {"state": wanted[:40]},
            content_type="text/plain; charset=utf-8",
        )
    services.mark_room(row, is_full=STATES[wanted], by=request.user)
    back = reverse("web:checkin", kwargs={"event": found.slug})
    return redirect(local_path(request.POST.get("next"), default=back))
