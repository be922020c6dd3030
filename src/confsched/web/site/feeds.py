"""Atom feeds of schedule versions, as the change log and each attendee's alerts serve them."""

from __future__ import annotations

import ipaddress
import uuid
from collections.abc import Iterable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.feedgenerator import Atom1Feed

from confsched.programme.models import Event, ScheduleVersion
from confsched.web.site.languages import site_languages

# The year in the entries' tag: URIs (RFC 4151: a date the domain was the site's), fixed so that
# an id never changes.
TAG_YEAR = 2026


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


def use_feed_language(request: HttpRequest, event: Event) -> str:
    """The feed's language, made the active one: `?lang=` when the event offers it (a feed
    reader sends no cookie and often no Accept-Language, so a page links its feed in its own
    language), else the one the page would be in."""
    asked = request.GET.get("lang", "")
    if asked in event.offered_languages and asked in site_languages():
        translation.activate(asked)
        request.LANGUAGE_CODE = asked
    return translation.get_language() or settings.LANGUAGE_CODE


def in_page_language(path: str, event: Event) -> str:
    """A feed's address as a page links it: with `?lang=` the page's language when the event
    has several (what use_feed_language reads), as it was when it has one."""
    if len(event.offered_languages) < 2:
        return path
    return f"{path}?lang={translation.get_language() or settings.LANGUAGE_CODE}"


def _is_domain_name(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return "." in host
    return False


def feed_id(event: Event, key: str) -> str:
    """A feed's or an entry's id, the same whatever Host the feed was fetched through (else a
    reader that fetched it by two names sees every entry twice): a tag: URI in the site's
    domain (CONFSCHED_BASE_URL) when it has one, else a name-based UUID of the event and
    `key`. A tag: URI's authority is a domain name (RFC 4151), not an address or a port."""
    host = urlsplit(settings.CONFSCHED_BASE_URL).hostname or ""
    if _is_domain_name(host):
        return f"tag:{host},{TAG_YEAR}:{event.slug}:{key}"
    return uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{event.slug}:{key}").urn


def versions_feed(
    request: HttpRequest,
    event: Event,
    *,
    title: str,
    link: str,
    description: str,
    entries: Iterable[tuple[ScheduleVersion, str, list[str]]],
    language: str,
    tag: str = "",
) -> HttpResponse:
    """An Atom feed of schedule versions, in `language`: per entry its version, its title and
    its lines (the summary, as text). Entries link to `link#v<number>`; `tag` sets their ids
    apart from another feed's of the same versions. The event is the author of every entry."""
    home = request.build_absolute_uri(reverse("web:schedule", kwargs={"event": event.slug}))
    author = {"author_name": event.name, "author_link": home}
    feed = TextSummaryAtomFeed(
        title=title, link=link, description=description, feed_url=request.build_absolute_uri(),
        language=language, feed_guid=feed_id(event, f"{tag}feed"), **author,
    )  # fmt: skip
    for version, entry_title, lines in entries:
        feed.add_item(
            title=entry_title,
            link=f"{link}#v{version.number}",
            unique_id=feed_id(event, f"{tag}v{version.number}"),
            unique_id_is_permalink=False,
            **author,
            pubdate=version.created_at,
            updateddate=version.created_at,
            description="\n".join(lines),
        )
    response = HttpResponse(content_type="application/atom+xml; charset=utf-8")
    feed.write(response, "utf-8")
    return response
