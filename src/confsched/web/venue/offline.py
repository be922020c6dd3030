"""The installable, offline schedule: the web app manifest, the service worker, the version.

The worker is served from the event's own path (`/<event>/sw.js`), so its scope is the event
under whatever domain or path prefix the site runs at, without a Service-Worker-Allowed
header. Everything it needs to know (addresses, static files) is written into it here, with
reverse() and static(), so a SCRIPT_NAME prefix or hashed static names just work.
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_safe

from confsched.programme.models import Event, ScheduleVersion
from confsched.search.words import STOP_WORDS
from confsched.web.schedule.search import RESULTS_SHOWN
from confsched.web.site.pages import event_or_404
from confsched.web.site.private import account_marker
from confsched.web.site.script_strings import script_strings

# From app.css: --accent-ink for the browser's bar, --paper behind the splash screen.
THEME_COLOR = "#5b1a99"
BACKGROUND_COLOR = "#ffffff"
# Home screens show about twelve characters under an icon.
SHORT_NAME_LENGTH = 12
# What the worker keeps for reading offline from the first visit on, besides the pages read.
# Not the agenda: it shows the person's secret addresses and is no-store; the worker keeps a
# copy without them (asked for with OFFLINE_HEADER) once the person opens it online.
PAGES = ("web:schedule", "web:grid", "web:speakers")
STATIC_FILES = (
    "confsched/app.css",
    "confsched/app.js",
    "confsched/offline.js",
    "confsched/icon.svg",
    "django_htmx/htmx-2.min.js",
)


def short_name(name: str) -> str:
    """The event's name cut at a word to fit under a home-screen icon."""
    if len(name) <= SHORT_NAME_LENGTH:
        return name
    words = name.split()
    kept = words[0]
    for word in words[1:]:
        if len(kept) + 1 + len(word) > SHORT_NAME_LENGTH:
            break
        kept += " " + word
    return kept[:SHORT_NAME_LENGTH]


def _conditional(
    request: HttpRequest, event: Event, *parts: str
) -> tuple[str, HttpResponse | None]:
    """An ETag for what depends on the event row (and `parts`), and a 304 when it matches."""
    digest = hashlib.sha256(
        "\n".join((str(event.pk), event.updated_at.isoformat(), *parts)).encode()
    ).hexdigest()[:32]
    etag = f'"{digest}"'
    return etag, get_conditional_response(request, etag=etag)


@require_safe
def manifest(request: HttpRequest, event: str) -> HttpResponse:
    """The web app manifest: the event, installable, starting at and scoped to its schedule."""
    event_row = event_or_404(event)
    home = reverse("web:schedule", kwargs={"event": event_row.slug})
    etag, response = _conditional(request, event_row, "manifest", home)
    if response is None:
        body = {
            "name": event_row.name,
            "short_name": short_name(event_row.name),
            "id": home,
            "start_url": home,
            "scope": home,
            "display": "standalone",
            "theme_color": THEME_COLOR,
            "background_color": BACKGROUND_COLOR,
            "icons": [
                {"src": static("confsched/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                {"src": static("confsched/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("confsched/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            ],
        }
        response = HttpResponse(
            json.dumps(body, indent=1), content_type="application/manifest+json"
        )
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


def worker_config(event: Event) -> dict[str, object]:
    """What the service worker is told: its scope, what to keep, where to ask for the version."""
    scope = reverse("web:schedule", kwargs={"event": event.slug})
    static_files = [static(name) for name in STATIC_FILES]
    pages = [reverse(name, kwargs={"event": event.slug}) for name in PAGES]
    # A new worker (and a new cache) whenever what it keeps changes: new hashed static names.
    build = hashlib.sha256("\n".join([scope, *static_files, *pages]).encode()).hexdigest()[:12]
    return {
        "cache": f"confsched:{event.slug}:{build}",
        "cachePrefix": f"confsched:{event.slug}:",
        "scope": scope,
        "pages": pages,
        "agenda": reverse("web:agenda", kwargs={"event": event.slug}),
        # Searched offline by words in the kept JSON export, as search/words.py does.
        "search": reverse("web:search", kwargs={"event": event.slug}),
        "stopWords": sorted(STOP_WORDS),
        "resultsShown": RESULTS_SHOWN,
        "staticFiles": static_files,
        "version": reverse("web:version", kwargs={"event": event.slug}),
        "timeZone": event.timezone,
        # The words of the pages it makes offline, in the language of this request ({} English).
        **({"strings": strings} if (strings := script_strings()) else {}),
        # The data pages not read yet are made from offline (the JSON export, public).
        "data": reverse("web:export", kwargs={"event": event.slug, "extension": "json"}),
        "speakers": reverse("web:speakers", kwargs={"event": event.slug}),
        "skip": [
            reverse("web:service_worker", kwargs={"event": event.slug}),
            reverse("web:manifest", kwargs={"event": event.slug}),
            reverse("web:version", kwargs={"event": event.slug}),
            reverse("web:embed", kwargs={"event": event.slug}),
        ],
    }


@require_safe
def service_worker(request: HttpRequest, event: str) -> HttpResponse:
    """The worker script for this event: same on every request, never cached stale."""
    event_row = event_or_404(event)
    config = json.dumps(worker_config(event_row), indent=1)
    body = render_to_string("confsched/sw.js", {"config": config})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # Browsers look for a new worker at each visit; no-cache makes that a cheap 304.
    patch_cache_control(response, no_cache=True)
    return response


def _latest_version_number(event: Event) -> int:
    # One indexed row; the endpoint is polled, so it reads nothing else.
    number = (
        ScheduleVersion.objects.filter(event=event)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return number or 0


@require_safe
def version(request: HttpRequest, event: str) -> HttpResponse:
    """The schedule's version and last change (the worker refreshes its copy when they move),
    and the marker of the account signed in (the worker keeps each account's copy apart)."""
    event_row = event_or_404(event)
    account = account_marker(request)
    etag, response = _conditional(request, event_row, "version", account)
    if response is None:
        response = JsonResponse(
            {
                "event": event_row.slug,
                "version": _latest_version_number(event_row),
                "updated_at": event_row.updated_at.isoformat(),
                "account": account,
            }
        )
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie",))
    return response
