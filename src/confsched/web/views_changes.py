"""The change log: every schedule version and what it changed, as a page and an Atom feed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.views.decorators.http import require_GET

from confsched.programme import queries
from confsched.web.calendars import event_etag
from confsched.web.views import _event, _page


class TextSummaryAtomFeed(Atom1Feed):
    """Atom whose entry summaries are type="text".

    Django writes them as type="html", which tells feed readers to render the summary as
    markup; ours is imported titles and plain change descriptions, so a title such as
    "<script>" must reach the reader as those characters, not as an element.
    """

    def add_item_elements(self, handler, item) -> None:  # noqa: ANN001 - Django's signature
        super().add_item_elements(handler, {**item, "description": None})
        if item["description"] is not None:
            handler.addQuickElement("summary", item["description"], {"type": "text"})


@require_GET
def changes(request: HttpRequest, event: str) -> HttpResponse:
    event_row = _event(event)
    return _page(
        request,
        "confsched/changes.html",
        event=event_row,
        versions=queries.versions_with_changes(event_row),
        nav="changes",
    )


@require_GET
def changes_feed(request: HttpRequest, event: str) -> HttpResponse:
    """Atom: one entry per version, so feed readers and bots hear of every change."""
    event_row = _event(event)
    page_url = request.build_absolute_uri(reverse("web:changes", kwargs={"event": event_row.slug}))
    feed = TextSummaryAtomFeed(
        title=f"{event_row.name}: schedule changes",
        link=page_url,
        description=f"What changed in the programme of {event_row.name}",
        feed_url=request.build_absolute_uri(),
        language="en",
    )
    for version in queries.versions_with_changes(event_row):
        lines = [
            f"{change.session.full_title}: {change.description}" for change in version.changes.all()
        ]
        feed.add_item(
            title=f"Version {version.number}: {version.summary}",
            link=f"{page_url}#v{version.number}",
            unique_id=f"tag:{request.get_host()},2026:{event_row.slug}:v{version.number}",
            unique_id_is_permalink=False,
            pubdate=version.created_at,
            updateddate=version.created_at,
            description="\n".join(lines),
        )
    response = HttpResponse(content_type="application/atom+xml; charset=utf-8")
    feed.write(response, "utf-8")
    response["ETag"] = f'"{event_etag(event_row, "atom")}"'
    return response
