"""The attendee's own agenda in the JSON API: starred sessions, seats held and places on
waitlists, the reminder chosen. The private feed's token (from the agenda page) is the only
credential, as for the calendar feed: an app that subscribes to one can read the other."""
# No "from __future__ import annotations": django-ninja reads these annotations at run time.

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Router
from ninja.errors import HttpError

from confsched.agenda import queries as agenda_queries
from confsched.agenda.models import Reservation
from confsched.agenda.reminders import reminder_setting
from confsched.agenda.reservations import position
from confsched.api.schemas import AgendaOut, ErrorOut
from confsched.programme.models import Event, Session

router = Router(tags=["agenda"])


@router.get(
    "/events/{slug}/agenda/{token}",
    response={200: AgendaOut, 404: ErrorOut, 422: ErrorOut},
    url_name="agenda",
)
def my_agenda(
    request: HttpRequest, response: HttpResponse, slug: str, token: str
) -> dict[str, Any]:
    event = Event.objects.filter(slug=slug).first()
    links = agenda_queries.links_for_feed(event, token) if event else None
    if event is None or links is None:
        raise HttpError(404, "no such agenda (the token is the feed address's last part)")
    user = links.user
    starred = agenda_queries.starred_ids(user, event)
    held = list(
        Reservation.objects.filter(user=user, session__event=event)
        .select_related("session")
        .order_by("session__starts_at", "session__key")
    )
    keys = dict(Session.objects.filter(pk__in=starred).values_list("pk", "key"))
    minutes = reminder_setting(user, event).minutes
    # Whose agenda this is comes from the address: no cache keeps it, no link passes it on.
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return {
        "starred": sorted(keys.values()),
        "reservations": [
            {
                "session": row.session.key,
                "status": row.status,
                "position": position(row),
                "code": row.code if row.is_confirmed else None,
                "checked_in_at": row.checked_in_at,
            }
            for row in held
        ],
        "reminder_minutes": minutes,
    }
