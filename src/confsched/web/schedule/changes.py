"""The change log: every schedule version and what it changed, as a page and an Atom feed."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.views.decorators.http import require_safe

from confsched.programme import queries
from confsched.programme.changes import source_label
from confsched.programme.models import Event, ScheduleVersion
from confsched.web.site.calendars import event_etag
from confsched.web.site.pages import event_or_404, event_page


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


@require_safe
def changes(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    versions = [
        (version, source_label(version.source))
        for version in queries.versions_with_changes(event_row)
    ]
    return event_page(
        request, "confsched/changes.html", event=event_row, versions=versions, nav="changes"
    )


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
                [f"{c.session.full_title}: {c.description}" for c in version.changes.all()],
            )
            for version in queries.versions_with_changes(event_row)
        ),
    )  # fmt: skip
    response["ETag"] = f'"{event_etag(event_row, "atom")}"'
    return response


def versions_feed(
    request: HttpRequest,
    event: Event,
    *,
    title: str,
    link: str,
    description: str,
    entries: Iterable[tuple[ScheduleVersion, str, list[str]]],
    tag: str = "",
) -> HttpResponse:
    """An Atom feed of schedule versions: per entry its version, its title and its lines (the
    summary, as text). Entries link to `link#v<number>`; `tag` sets their ids apart from
    another feed's of the same versions."""
    feed = TextSummaryAtomFeed(
        title=title, link=link, description=description,
        feed_url=request.build_absolute_uri(), language="en",
    )  # fmt: skip
    for version, entry_title, lines in entries:
        feed.add_item(
            title=entry_title,
            link=f"{link}#v{version.number}",
            unique_id=f"tag:{request.get_host()},2026:{event.slug}:{tag}v{version.number}",
            unique_id_is_permalink=False,
            pubdate=version.created_at,
            updateddate=version.created_at,
            description="\n".join(lines),
        )
    response = HttpResponse(content_type="application/atom+xml; charset=utf-8")
    feed.write(response, "utf-8")
    return response
