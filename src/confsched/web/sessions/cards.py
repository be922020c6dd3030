"""Link-preview cards (og:image) of an event and of its sessions, as PNG."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from confsched.programme import queries
from confsched.web.sessions.og_image import Card, CardImage, render_card
from confsched.web.sessions.templatetags.link_previews import event_card, session_card
from confsched.web.site.calendars import conditional_response, event_etag
from confsched.web.site.languages import page_language
from confsched.web.site.pages import event_or_404
from confsched.web.site.stencils import kept


def _png(request: HttpRequest, *, etag: str, build: Callable[[], Card]) -> HttpResponse:
    def render() -> HttpResponse:
        # Drawn once per schedule version and kept with the pages.
        image = kept(f"card:{etag}", lambda: CardImage(render_card(build())))
        return HttpResponse(image.body, content_type="image/png")

    response = conditional_response(request, etag=etag, render=render)
    patch_cache_control(response, public=True, max_age=3600)
    return response


@require_safe
def event_card_png(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    etag = event_etag(event_row, "card", page_language())
    return _png(request, etag=etag, build=lambda: event_card(event_row))


@require_safe
def session_card_png(request: HttpRequest, event: str, key: str) -> HttpResponse:
    event_row = event_or_404(event)

    def build() -> Card:
        session = queries.session_for_key(event_row, key)
        if session is None:
            raise Http404(f"No session {key!r}")
        return session_card(session, event=event_row)

    return _png(request, etag=event_etag(event_row, "card", key, page_language()), build=build)
