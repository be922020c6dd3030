"""Atom feeds of schedule versions, as the change log and each attendee's alerts serve them."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse
from django.utils.feedgenerator import Atom1Feed

from confsched.programme.models import Event, ScheduleVersion


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
