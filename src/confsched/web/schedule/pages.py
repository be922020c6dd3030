"""Kept pages: a page that is the same for everyone but for the CSRF token, the account
corner and the stars, built once per schedule version, address, zone and language (a stencil), then
filled in for each request. The schedule, session and speaker pages are built this way."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.template.loader import get_template
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import urlencode
from django.utils.safestring import mark_safe

from confsched.core import clock
from confsched.programme.filtering import FACETS
from confsched.programme.models import Event, Session
from confsched.web.agenda import stars
from confsched.web.agenda.seats import seat_hole_values
from confsched.web.site.compression import accepts_gzip
from confsched.web.site.fragments import account_html, kept_stars, news_html
from confsched.web.site.languages import page_language
from confsched.web.site.shared_cache import cache_publicly, is_public_view
from confsched.web.site.stencils import Markers, Part, Stencil, kept
from confsched.web.site.zones import ViewerZone, remember_zone

# Renders a page: for a person (markers None, their starred sessions given), or with markers
# where people's pages differ; returns the page and the sessions that carry a star.
PageRender = Callable[["Markers | None", set[int]], tuple[HttpResponse, list]]


# The parameters each kept page reads; any other sends the visitor to the address without it.
ZONE_ONLY = ("tz",)
SCHEDULE_PARAMETERS = ("q", *FACETS, "tz")
SPEAKERS_PARAMETERS = ("q", "tz")


def canonical_query(request: HttpRequest, names: tuple[str, ...]) -> tuple[str, bool]:
    """The query string of the parameters in `names` that have a value, in one order, and
    whether the request also carried others. Pages are kept under this form: `?x=1`, a
    trailing `&` or another order of the same filters never cost a build of their own."""
    pairs: list[tuple[str, str]] = []
    has_others = False
    for name, values in request.GET.lists():
        if name not in names:
            has_others = True
            continue
        pairs += [(name, value.strip()) for value in values if value.strip()]
    return urlencode(sorted(set(pairs))), has_others


def without_unknown_parameters(
    request: HttpRequest, names: tuple[str, ...]
) -> HttpResponseRedirect | None:
    """A redirect to the same page without the parameters it does not read (utm_, fbclid, a
    typo), so that each page is built once whatever the link that led to it."""
    query, has_others = canonical_query(request, names)
    if not has_others:
        return None
    kept_pairs = [
        (name, value) for name, values in request.GET.lists() if name in names for value in values
    ]
    return HttpResponseRedirect(request.path + (f"?{urlencode(kept_pairs)}" if kept_pairs else ""))


def personal_page(
    request: HttpRequest, event: Event, viewer: ViewerZone, *, name: str, render: PageRender,
    parameters: tuple[str, ...] = ZONE_ONLY, build: Callable[[str, str], Stencil] | None = None,
    shows_vectors: bool = False,
) -> HttpResponse:  # fmt: skip
    """A page that is the same for everyone but for the CSRF token, the account corner and
    the stars: built once per schedule version, address, zone and language (see stencils), then
    filled in for this request. Parameters other than `parameters` are redirected away.

    `build`, given the page's place (all of its key but the version) and its key among the kept
    pages, builds its stencil instead of `render` with markers (the list and grid:
    schedule/frames.py). A page that `shows_vectors` (similar sessions) is also rebuilt when the
    event's vectors change."""
    if redirect_away := without_unknown_parameters(request, parameters):
        return redirect_away
    starred = stars.starred_ids(request, event)
    if not settings.CONFSCHED_PAGE_STENCILS:  # the plain way, which stencils must equal
        return render(None, starred)[0]
    query, _ = canonical_query(request, parameters)
    place = "\n".join(
        (str(event.pk), name, viewer.zone.key, page_language(),
         "fragment" if is_results_fragment(request) else "page",
         f"{request.scheme}://{request.get_host()}{request.path}?{query}")
    )  # fmt: skip
    version = event.updated_at.isoformat()
    if shows_vectors:
        version += f" {event.embedded_at.isoformat() if event.embedded_at else '-'}"
    key = "page:" + hashlib.sha256(f"{version}\n{place}".encode()).hexdigest()
    stencil = kept(
        key, lambda: build(place, key) if build else built_stencil(render), collect=build is None
    )
    # A visitor with no cookie of the site gets the page everyone like them gets, which a
    # cache in front may keep: no token (their star form is checked by origin), no cookie.
    public = is_public_view(request, viewer)
    token = "" if public else get_token(request)
    # Seats move with every reservation, not with the schedule: filled per request, and only
    # on pages that show sessions taking reservations.
    seat_values = seat_hole_values(request, event, stencil.holes)
    seat_digest = hashlib.sha256(b"".join(seat_values.values())).hexdigest() if seat_values else ""
    # The same page for this person until the schedule, their stars, their seats or their CSRF
    # secret change: a phone re-checking it gets a bare 304. Weak: each body masks the token
    # anew.
    account = account_html(request, token).encode()
    # The team's announcements move with neither the schedule nor the person: filled per
    # request (no query unless one was made or ended), the same for everyone.
    news = news_html(event, now=clock.now()).encode()
    news_digest = hashlib.sha256(news).hexdigest() if news else ""
    if public:
        # The same for every process and every anonymous request for these bytes: the kept
        # page's key, the address as asked (the page's links repeat it) and the filled holes.
        etag = hashlib.sha256(
            b"public\n%s\n%s\n%s\n%s\n%s"
            % (key.encode(), request.get_full_path().encode(), account, seat_digest.encode(),
               news_digest.encode())
        ).hexdigest()[:32]  # fmt: skip
    else:
        person = str(request.user.pk) if request.user.is_authenticated else "-"
        secret = request.META.get("CSRF_COOKIE", "")
        etag = hashlib.sha256(
            f"{key}:{person}:{secret}:{sorted(starred)}:{seat_digest}:{news_digest}".encode()
        ).hexdigest()[:32]
    response = get_conditional_response(request, etag=f'W/"{etag}"')
    if response is None:
        values = {"csrf": token.encode(), "account": account, "news": news}
        values |= seat_values
        if not starred and accepts_gzip(request):
            # A page with no star of theirs: the page kept compressed, their holes spliced in.
            # A public page holds no secret: no BREACH padding, the same bytes every time.
            gzipped = stencil.gzip_plain(values=values, padded=not public)
            response = HttpResponse(gzipped, status=stencil.status)
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(stencil.fill(values=values, starred=starred))
            response.status_code = stencil.status
    response["ETag"] = f'W/"{etag}"'
    # The results fragment is asked for with HX-Target: it changes the bytes too.
    response["Vary"] = "Cookie, HX-Request, HX-Target"
    patch_vary_headers(response, ("Accept-Encoding",))
    if public:
        return cache_publicly(response)
    patch_cache_control(response, private=True, no_cache=True)
    return remember_zone(response, viewer)


def built_stencil(render: PageRender) -> Stencil:
    """The page rendered with markers where each request differs, cut at them."""
    markers = Markers()
    page, sessions = render(markers, set())
    return Stencil(markers.cut(page.content), stars=star_parts(sessions), status=page.status_code)


def star_parts(sessions: list[Session]) -> dict[int, tuple[list[Part], list[Part]]]:
    """Each session's star unstarred and starred, as a stencil's parts (fragments.kept_stars)."""
    return {
        pk: ([unstarred.encode()], [starred.encode()])
        for pk, (unstarred, starred) in kept_stars(sessions).items()
    }


def star_html(
    request: HttpRequest, session: Session, *, markers: Markers | None, starred: set[int]
) -> str:
    """A session's star: a marker in a stencil, else the form in this person's state."""
    if markers:
        return mark_safe(markers.mark("star", session.pk))  # noqa: S308 - our marker
    return get_template("confsched/_star.html").render(
        {"session": session, "is_starred": session.pk in starred}, request
    )


def marked(markers: Markers | None) -> dict[str, Any]:
    """Context that puts markers where a stencil's holes go (nothing without markers)."""
    if markers is None:
        return {}
    return {
        "csrf_token": markers.mark("csrf"),
        "account_html": mark_safe(markers.mark("account")),  # noqa: S308 - our marker
        "news_html": mark_safe(markers.mark("news")),  # noqa: S308 - our marker
    }


def is_results_fragment(request: HttpRequest) -> bool:
    """htmx asks for the results only, when a filter changes."""
    return bool(request.htmx and request.htmx.target == "results")
