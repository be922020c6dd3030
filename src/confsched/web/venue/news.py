"""The team's announcements for everyone: as JSON for news.js (which shows, updates and
removes the banner without a reload on pages a cache keeps the same for everyone) and as an
Atom feed. Both public; the JSON kept 5 s at most anywhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from confsched.core import clock
from confsched.live.queries import announcements_for_feed, current_announcements
from confsched.web.site.feeds import TextSummaryAtomFeed, feed_id, use_feed_language
from confsched.web.site.pages import event_or_404

# A new announcement shows within 15 s: kept at most 5 s by a cache, asked every 10 s.
MAX_AGE = 5
FEED_TITLE_LENGTH = 80


@require_safe
def announcements_json(request: HttpRequest, event: str) -> HttpResponse:
    """{"language": the default, "announcements": [{"id", "texts": {language: text}, "link",
    "ends_at"}]}: the current ones, newest first."""
    event_row = event_or_404(event)
    items = [
        {
            "id": news.pk,
            "texts": dict(news.texts),
            "link": news.link,
            "ends_at": news.ends_at.isoformat() if news.ends_at else None,
        }  # fmt: skip
        for news in current_announcements(event_row, now=clock.now())
    ]
    response = JsonResponse(
        {"language": event_row.default_language, "announcements": items},
        json_dumps_params={"ensure_ascii": False},
    )
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response


@require_safe
def announcements_feed(request: HttpRequest, event: str) -> HttpResponse:
    """Atom: one entry per announcement, the latest 30 (ended ones too), in the language
    `?lang=` names or the page's, falling back to the event's default language."""
    event_row = event_or_404(event)
    language = use_feed_language(request, event_row)
    now_url = request.build_absolute_uri(reverse("web:now", kwargs={"event": event_row.slug}))
    home = request.build_absolute_uri(reverse("web:schedule", kwargs={"event": event_row.slug}))
    author = {"author_name": event_row.name, "author_link": home}
    named = {"event": event_row.name}
    feed = TextSummaryAtomFeed(
        title=gettext("%(event)s: announcements") % named, link=now_url,
        description=gettext("What the team of %(event)s announces") % named,
        feed_url=request.build_absolute_uri(), language=language,
        feed_guid=feed_id(event_row, "announcements-feed"), **author,
    )  # fmt: skip
    for news in announcements_for_feed(event_row):
        text = news.text_in(language, default=event_row.default_language)
        link = news.link or now_url
        feed.add_item(
            title=text if len(text) <= FEED_TITLE_LENGTH else text[: FEED_TITLE_LENGTH - 1] + "…",
            link=request.build_absolute_uri(link) if link.startswith("/") else link,
            unique_id=feed_id(event_row, f"announcement{news.pk}"),
            unique_id_is_permalink=False, pubdate=news.created_at, updateddate=news.created_at,
            description=text, **author,
        )  # fmt: skip
    response = HttpResponse(content_type="application/atom+xml; charset=utf-8")
    feed.write(response, "utf-8")
    patch_cache_control(response, public=True, max_age=60)
    return response
