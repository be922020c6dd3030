"""The change log: every schedule version and what it changed, as a page and an Atom feed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_safe

from confsched.programme import queries
from confsched.programme.changes import source_label
from confsched.web.site.calendars import event_etag
from confsched.web.site.feeds import versions_feed
from confsched.web.site.pages import event_or_404, event_page

# The kinds of change as the page names them (programme.models.ChangeKind's labels, which stay
# English in stored summaries and feeds); changes.html translates them with these.
CHANGE_KIND_WORDS = (
    gettext_noop("Added"), gettext_noop("Cancelled"), gettext_noop("Back in the programme"),
    gettext_noop("New time"), gettext_noop("New room"), gettext_noop("New title"),
    gettext_noop("New description"), gettext_noop("Speakers changed"),
    gettext_noop("Details changed"),
)  # fmt: skip


@require_safe
def changes(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    versions = [
        (version, source_label(version.source))
        for version in queries.versions_with_changes(event_row)
    ]
    return event_page(
        request, "confsched/changes.html", event=event_row, versions=versions, nav="changes",
        shared=True,
    )  # fmt: skip


@require_safe
def changes_feed(request: HttpRequest, event: str) -> HttpResponse:
    """Atom: one entry per version, so feed readers and bots hear of every change."""
    event_row = event_or_404(event)
    page_url = request.build_absolute_uri(reverse("web:changes", kwargs={"event": event_row.slug}))
    response = versions_feed(
        request, event_row, title=f"{event_row.name}: schedule changes", link=page_url,
        description=f"What changed in the programme of {event_row.name}",
        entries=(
            (
                version,
                f"Version {version.number}: {version.summary}",
                [f"{c.session.full_title}: {c.words}" for c in version.changes.all()],
            )
            for version in queries.versions_with_changes(event_row)
        ),
    )  # fmt: skip
    response["ETag"] = f'"{event_etag(event_row, "atom")}"'
    return response
