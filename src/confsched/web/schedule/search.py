"""Search by meaning: /<event>/search/?q= lists the sessions nearest to a question in words.

Not stenciled: its results depend on free text. With the `semantic` extra, the query is
embedded by the embedding worker (`confsched worker`, which holds the model once per machine;
this web worker asks it over a socket) and compared with the stored vectors; sessions without a
vector yet, or all of them when the worker is away, are matched by their words, and the page
says nothing about what is missing.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from confsched.search.semantic import search_sessions
from confsched.speakers.showing import attach_photos
from confsched.web.site.fragments import attach_cards
from confsched.web.site.languages import use_event_language
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.zones import viewer_zone

# Enough to read on a phone; a question has few good answers.
RESULTS_SHOWN = 20
QUERY_LIMIT = 200


@require_safe
def search(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    q = " ".join(request.GET.get("q", "").split())[:QUERY_LIMIT]
    result = search_sessions(event_row, q, limit=RESULTS_SHOWN) if q else None
    viewer = viewer_zone(request, event_row)
    if result:
        # The cards every schedule page keeps (in the page's language): rendered only for a
        # session no page showed since it last changed.
        use_event_language(event_row)
        attach_photos(result.sessions)  # the cards show the speakers' photos
        attach_cards(result.sessions, event=event_row, zone=viewer.zone, heading=3)
    return event_page(
        request, "confsched/search.html", event=event_row, viewer=viewer, q=q,
        results=result.sessions if result else [],
        is_by_meaning=bool(result and result.is_by_meaning), nav="search", shared=True,
    )  # fmt: skip
