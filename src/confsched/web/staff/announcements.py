"""The team's announcements page (owners and editors: Right.PROGRAMME): write one (a text per
offered language, the default language's required; an optional link; an optional end, a local
time in the event's zone), see the current and past ones, end one now.

Every write is live/services.py's; a refused one comes back as the page with the form as typed
and the reason (400), nothing written; a done one as a redirect with one line saying so.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from confsched.core import clock
from confsched.core.numbers import BIG_INTEGER_MAX, parse_count
from confsched.live import services
from confsched.live.announcing import AnnouncementError, parse_local_time
from confsched.live.models import Announcement
from confsched.live.queries import announcements_for_team
from confsched.programme.models import Event
from confsched.teams.rights import Right
from confsched.web.site.doors import acted, event_for
from confsched.web.site.languages import language_name
from confsched.web.site.pages import event_page
from confsched.web.site.private import keep_private


@require_http_methods(["GET", "HEAD", "POST"])
def announcements_staff(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.PROGRAMME)
    if isinstance(found, HttpResponse):
        return found
    outcome = acted(request, found, act=_change, url_name="web:announcements_staff")
    if isinstance(outcome, HttpResponse):
        return outcome
    message, status = outcome
    now = clock.now()
    rows = announcements_for_team(found)
    typed = request.POST if status == 400 and request.POST.get("action") == "announce" else {}
    response = event_page(
        request, "confsched/announcements_staff.html", event=found, status=status,
        message=message, is_error=status != 200,
        languages=[
            (code, language_name(code), typed.get(f"text_{code}", ""),
             code == found.default_language)
            for code in found.offered_languages
        ],
        typed_link=typed.get("link", ""), typed_ends_at=typed.get("ends_at", ""),
        current=[row for row in rows if row.is_current_at(now)],
        past=[row for row in rows if not row.is_current_at(now)],
        default_language=found.default_language,
    )  # fmt: skip
    return keep_private(response)


def _change(request: HttpRequest, event: Event) -> str:
    """Carry out the form; the sentence that says what happened."""
    action = request.POST.get("action", "")
    if action == "announce":
        texts = {
            code: request.POST.get(f"text_{code}", "")
            for code in event.offered_languages
            if f"text_{code}" in request.POST
        }
        ends_at = parse_local_time(request.POST.get("ends_at", ""), zone=event.zone)
        services.announce(
            event, texts=texts, link=request.POST.get("link", ""), ends_at=ends_at,
            by=request.user,
        )  # fmt: skip
        return gettext("Announced: it shows on every page of the event and is pushed.")
    if action == "end":
        number = parse_count(request.POST.get("announcement", ""), most=BIG_INTEGER_MAX)
        row = (
            Announcement.objects.filter(event=event, pk=number).first()
            if number is not None
            else None
        )
        if row is None:
            raise AnnouncementError(gettext("There is no such announcement."))
        services.end_announcement(row, by=request.user)
        return gettext("The announcement has ended: its banner is gone.")
    raise AnnouncementError(gettext("Unknown action “%(action)s”.") % {"action": action[:40]})
