"""The change log: every schedule version and what it changed, as a page and an Atom feed.

Attendees read what was public at each version (programme/history.py); the event's team
reads every line and the file names that made each version, on pages no cache keeps."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_safe

from confsched.agenda import seat_changes
from confsched.programme import queries
from confsched.programme.history import history
from confsched.programme.models import Event
from confsched.teams.access import can
from confsched.teams.rights import Right
from confsched.web.site.calendars import event_etag
from confsched.web.site.feeds import in_page_language, use_feed_language, versions_feed
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.zones import viewer_zone

# The kinds of change as the page names them (programme.models.ChangeKind's labels, which stay
# English in stored summaries and feeds); changes.html translates them with these.
CHANGE_KIND_WORDS = (
    gettext_noop("Added"), gettext_noop("Cancelled"), gettext_noop("Back in the programme"),
    gettext_noop("New time"), gettext_noop("New room"), gettext_noop("New title"),
    gettext_noop("New description"), gettext_noop("Speakers changed"),
    gettext_noop("Details changed"),
)  # fmt: skip


def is_team(request: HttpRequest, event: Event) -> bool:
    """Whether the person may read the whole history: who may read the event in the admin,
    where every session and every version's source are anyway (a check-in role may not)."""
    return can(request.user, event, Right.READ)


def kept_by_nobody(response: HttpResponse) -> HttpResponse:
    """The team's history names what attendees must not read: no cache may keep it."""
    patch_cache_control(response, private=True, no_store=True)
    return response


@require_safe
def changes(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)
    for_team = is_team(request, event_row)
    entries = history(queries.versions_with_changes(event_row), for_team=for_team, zone=viewer.zone)
    # Seats are the team's business: every change of a session's number, newest first.
    seats_log = list(seat_changes.team_log(event_row)) if for_team else []
    response = event_page(
        request, "confsched/changes.html", event=event_row, viewer=viewer, versions=entries,
        nav="changes", for_team=for_team, shared=not for_team, seats_log=seats_log,
        feed_url=in_page_language(
            reverse("web:changes_feed", kwargs={"event": event_row.slug}), event_row
        ),
    )  # fmt: skip
    return kept_by_nobody(response) if for_team else response


@require_safe
def changes_feed(request: HttpRequest, event: str) -> HttpResponse:
    """Atom: one entry per version, so feed readers and bots hear of every change. Feed readers
    sign in nowhere: the feed is the public history, for everyone, in the event's zone, in the
    language `?lang=` names (the change log links it so) or the page's."""
    event_row = event_or_404(event)
    language = use_feed_language(request, event_row)
    page_url = request.build_absolute_uri(reverse("web:changes", kwargs={"event": event_row.slug}))
    versions = queries.versions_with_changes(event_row)
    named = {"event": event_row.name}
    response = versions_feed(
        request, event_row, title=gettext("%(event)s: schedule changes") % named,
        link=page_url, language=language,
        description=gettext("What changed in the programme of %(event)s") % named,
        entries=(
            (
                entry.version,
                gettext("Version %(number)s: %(summary)s")
                % {"number": entry.version.number, "summary": entry.summary},
                [f"{line.title}: {line.words}" for line in entry.lines],
            )
            for entry in history(versions, for_team=False, zone=event_row.zone)
        ),
    )  # fmt: skip
    response["ETag"] = f'"{event_etag(event_row, "atom", language)}"'
    return response
