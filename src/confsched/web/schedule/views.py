"""Public pages: the schedule as a list and as a grid, sessions, speakers."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import date, datetime, time
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from confsched.core.timezones import describe_zone, zone_names
from confsched.programme import queries
from confsched.programme.filtering import FACETS, apply_filters, facet_rows, parse_filters
from confsched.programme.layout import days_and_slots, grid_days
from confsched.programme.models import Event, Session
from confsched.web.agenda import stars
from confsched.web.sessions.structured_data import session_json_ld
from confsched.web.site.calendars import calendar_response, event_etag
from confsched.web.site.compression import accepts_gzip
from confsched.web.site.fragments import attach_cards, attach_star_urls, zone_options
from confsched.web.site.stencils import Markers, Stencil, kept
from confsched.web.site.zones import UnknownZoneError, ViewerZone, remember_zone, viewer_zone


def _event(slug: str) -> Event:
    event = queries.event_for_slug(slug)
    if event is None:
        raise Http404(f"No event {slug!r}")
    return event


def _page(
    request: HttpRequest,
    template: str,
    *,
    event: Event,
    viewer: ViewerZone | None = None,
    status: int = 200,
    **context: Any,
) -> HttpResponse:
    """Render with what every event page shows: the event, the zone, its description."""
    viewer = viewer or viewer_zone(request, event)
    moment = context.pop("moment", None) or _event_moment(event)
    context.update(
        event=event,
        viewer=viewer,
        zone_label=describe_zone(viewer.zone, moment),
        event_zone_label=describe_zone(viewer.event_zone, moment),
        zone_options=zone_options(event.timezone, viewer.zone.key),
    )
    with timezone.override(viewer.zone):  # every date and time on the page in the viewer's zone
        response = render(request, template, context, status=status)
    response["Vary"] = "Cookie, HX-Request"
    return remember_zone(response, viewer)


def unknown_zone_page(request: HttpRequest, error: UnknownZoneError) -> HttpResponse:
    """400: the page's ?tz= is not a zone; say so, and offer the picker and the event's zone."""
    event = error.event
    others = request.GET.copy()
    others.pop("tz", None)
    return _page(
        request,
        "confsched/unknown_zone.html",
        event=event,
        viewer=ViewerZone(zone=event.zone, event_zone=event.zone),
        status=400,
        problem=str(error),
        event_zone_url=request.path + (f"?{others.urlencode()}" if others else ""),
    )


def _event_moment(event: Event) -> datetime:
    """A moment during the event, to name the zone's abbreviation and offset then."""
    day = event.start_date
    if day is None:
        return datetime.now(tz=event.zone)
    return datetime.combine(day, time(12), tzinfo=event.zone)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    events = queries.events_listed()
    default = settings.CONFSCHED_DEFAULT_EVENT
    if default and any(event.slug == default for event in events):
        return redirect("web:schedule", event=default)
    if len(events) == 1:
        return redirect(events[0])
    return render(request, "confsched/home.html", {"events": events})


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


def _personal_page(
    request: HttpRequest, event: Event, viewer: ViewerZone, *, name: str, render: PageRender,
    parameters: tuple[str, ...] = ZONE_ONLY,
) -> HttpResponse:  # fmt: skip
    """A page that is the same for everyone but for the CSRF token, the account corner and
    the stars: built once per schedule version, address and zone (see stencils), then filled
    in for this request. Parameters other than `parameters` are redirected away."""
    if redirect_away := without_unknown_parameters(request, parameters):
        return redirect_away
    starred = stars.starred_ids(request, event)
    if not settings.CONFSCHED_PAGE_STENCILS:  # the plain way, which stencils must equal
        return render(None, starred)[0]
    query, _ = canonical_query(request, parameters)
    key = "page:" + hashlib.sha256(
        "\n".join(
            (str(event.pk), event.updated_at.isoformat(), name, viewer.zone.key,
             "fragment" if _is_results_fragment(request) else "page",
             f"{request.scheme}://{request.get_host()}{request.path}?{query}")
        ).encode()
    ).hexdigest()  # fmt: skip
    stencil = kept(key, lambda: _stencil(request, render))
    token = get_token(request)
    # The same page for this person until the schedule, their stars or their CSRF secret
    # change: a phone re-checking it gets a bare 304. Weak: each body masks the token anew.
    person = str(request.user.pk) if request.user.is_authenticated else "-"
    secret = request.META.get("CSRF_COOKIE", "")
    etag = hashlib.sha256(f"{key}:{person}:{secret}:{sorted(starred)}".encode()).hexdigest()[:32]
    response = get_conditional_response(request, etag=f'W/"{etag}"')
    if response is None:
        values = {"csrf": token.encode(), "account": _account_html(request, token).encode()}
        if not starred and accepts_gzip(request):
            # A page with no star of theirs: the page kept compressed, their holes spliced in.
            response = HttpResponse(stencil.gzip_plain(values=values), status=stencil.status)
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(stencil.fill(values=values, starred=starred))
            response.status_code = stencil.status
    response["ETag"] = f'W/"{etag}"'
    response["Vary"] = "Cookie, HX-Request"
    patch_vary_headers(response, ("Accept-Encoding",))
    patch_cache_control(response, private=True, no_cache=True)
    return remember_zone(response, viewer)


def _stencil(request: HttpRequest, render: PageRender) -> Stencil:
    """The page rendered with markers where each request differs, cut at them."""
    markers = Markers()
    page, sessions = render(markers, set())
    star = get_template("confsched/_star.html")
    return Stencil(
        markers.cut(page.content),
        stars={
            session.pk: (
                [star.render({"session": session, "is_starred": False}).encode()],
                [star.render({"session": session, "is_starred": True}).encode()],
            )
            for session in sessions
        },
        status=page.status_code,
    )


def _star_html(
    request: HttpRequest, session: Session, *, markers: Markers | None, starred: set[int]
) -> str:
    """A session's star: a marker in a stencil, else the form in this person's state."""
    if markers:
        return mark_safe(markers.mark("star", session.pk))  # noqa: S308 - our marker
    return get_template("confsched/_star.html").render(
        {"session": session, "is_starred": session.pk in starred}, request
    )


def _marked(markers: Markers | None) -> dict[str, Any]:
    """Context that puts markers where a stencil's holes go (nothing without markers)."""
    if markers is None:
        return {}
    return {
        "csrf_token": markers.mark("csrf"),
        "account_html": mark_safe(markers.mark("account")),  # noqa: S308 - our marker
    }


def _is_results_fragment(request: HttpRequest) -> bool:
    """htmx asks for the results only, when a filter changes."""
    return bool(request.htmx and request.htmx.target == "results")


def _schedule(request: HttpRequest, slug: str, *, layout: str) -> HttpResponse:
    """The list or the grid."""
    event = _event(slug)
    viewer = viewer_zone(request, event)
    is_fragment = _is_results_fragment(request)
    # Stars change without a new schedule version: the likely-full sessions (a set kept a
    # minute) name the kept page, as on session pages, so a card shows "Likely full" as it is.
    full = _likely_full_keys(event) if event.show_likely_full else frozenset()
    name = layout
    if full:
        name += ":full-" + hashlib.sha256(",".join(sorted(full)).encode()).hexdigest()[:16]
    return _personal_page(
        request, event, viewer, name=name, parameters=SCHEDULE_PARAMETERS,
        render=lambda markers, starred: _schedule_page(
            request, event, viewer, layout=layout, is_fragment=is_fragment, starred=starred,
            markers=markers, likely_full=full,
        ),
    )  # fmt: skip


def _account_html(request: HttpRequest, token: str) -> str:
    return render_to_string(
        "confsched/_account.html", {"user": request.user, "request": request, "csrf_token": token}
    )


def _schedule_page(
    request: HttpRequest, event: Event, viewer: ViewerZone, *, layout: str, is_fragment: bool,
    starred: set[int], markers: Markers | None, likely_full: frozenset[str] = frozenset(),
) -> tuple[HttpResponse, list]:  # fmt: skip
    filters = parse_filters(dict(request.GET.lists()))
    # Free text searches abstracts; otherwise the cards need none.
    sessions = queries.published_sessions(event, with_texts=bool(filters.q))
    options = _facet_options(sessions, viewer, chosen_dates=filters.date)
    known = {facet: {slug for slug, _ in values} for facet, values in options.items()}
    del known["date"]  # any day may be asked for; one without sessions shows none
    result = apply_filters(sessions, filters, zone=viewer.zone, known=known)
    for session in result.sessions:
        session.is_likely_full = session.key in likely_full
    attach_cards(
        result.sessions, event=event, zone=viewer.zone, heading=4 if layout == "list" else 3
    )
    attach_star_urls(result.sessions, event=event)
    for session in result.sessions:
        session.star_html = _star_html(request, session, markers=markers, starred=starred)
    template = "confsched/_results.html" if is_fragment else "confsched/schedule.html"
    page = _page(
        request, template, event=event, viewer=viewer, layout=layout, filters=filters,
        result=result, facets=_facets(options, result, filters),
        days=days_and_slots(result.sessions, viewer.zone) if layout == "list" else None,
        grid=grid_days(result.sessions, viewer.zone) if layout == "grid" else None,
        total=len(sessions), share_url=request.build_absolute_uri(),
        calendar_query=_calendar_query(request, viewer), nav=layout, **_marked(markers),
    )  # fmt: skip
    return page, result.sessions


def _calendar_query(request: HttpRequest, viewer: ViewerZone) -> str:
    """The view's parameters for its .ics link, naming the zone its days were read in.

    A calendar app fetching the link has no cookie, so a zone taken from one is written out.
    """
    query = request.GET.copy()
    if viewer.is_event_zone:
        query.pop("tz", None)
    else:
        query["tz"] = viewer.zone.key
    return query.urlencode()


def _facet_options(
    sessions: list, viewer: ViewerZone, *, chosen_dates: tuple[str, ...]
) -> dict[str, list[tuple[str, str]]]:
    """Per facet, (value, label) for every value the published sessions have, in order.

    Days are the viewer's local days, plus any chosen day without sessions, so that its box
    can be unticked.
    """
    days = {day: date.fromisoformat(day) for day in chosen_dates}
    for session in sessions:
        local = session.starts_at.astimezone(viewer.zone).date()
        days.setdefault(local.isoformat(), local)

    def named(attribute: str) -> list[tuple[str, str]]:
        return [(row.slug, row.name) for row in facet_rows(sessions, attribute)]

    return {
        "date": [(key, f"{day:%a} {day.day} {day:%b}") for key, day in sorted(days.items())],
        "room": named("room"),
        "track": named("track"),
        "level": named("level"),
    }


FACET_LABELS = {"date": "Date", "room": "Venue", "track": "Type", "level": "Audience level"}


def _facets(options: dict, result, filters) -> list[dict[str, Any]]:  # noqa: ANN001
    facets = []
    for facet, values in options.items():
        chosen = getattr(filters, facet)
        facets.append(
            {
                "name": facet,
                "label": FACET_LABELS[facet],
                "options": [
                    {
                        "value": value,
                        "label": label,
                        "count": result.counts[facet][value],
                        "checked": value in chosen,
                    }
                    for value, label in values
                ],
            }
        )
    return facets


@require_safe
def schedule(request: HttpRequest, event: str) -> HttpResponse:
    return _schedule(request, event, layout="list")


@require_safe
def grid(request: HttpRequest, event: str) -> HttpResponse:
    return _schedule(request, event, layout="grid")


@require_safe
def session_detail(request: HttpRequest, event: str, key: str) -> HttpResponse:
    event_row = _event(event)
    viewer = viewer_zone(request, event_row)
    # Stars change without a new schedule version, so "likely full" is not baked into the one
    # kept page: it picks one of two, from a per-event set kept a minute (only when shown).
    is_likely_full = event_row.show_likely_full and key in _likely_full_keys(event_row)

    def render(markers: Markers | None, starred: set[int]) -> tuple[HttpResponse, list]:
        # Looked up only when the page is built: a kept page needs no session row.
        session = queries.session_for_key(event_row, key)
        if session is None:
            raise Http404(f"No session {key!r}")
        url = request.build_absolute_uri(session.get_absolute_url())
        attach_star_urls([session], event=event_row)
        nearby, track_total = queries.sessions_in_track(session, limit=SAME_TRACK_SHOWN)
        # Built with the page, once per schedule version: vectors change only on import.
        from confsched.programme.semantic import similar_sessions  # only this page shows them

        similar = similar_sessions(session, limit=5)
        page = _page(
            request, "confsched/session.html", event=event_row, viewer=viewer,
            moment=session.starts_at, session=session,
            star_html=_star_html(request, session, markers=markers, starred=starred),
            same_track=nearby, same_track_total=track_total, is_likely_full=is_likely_full,
            similar=similar,
            json_ld=session_json_ld(session, event=event_row, url=url), **_marked(markers),
        )  # fmt: skip
        return page, [session]

    name = f"session:{key}:likely-full" if is_likely_full else f"session:{key}"
    return _personal_page(request, event_row, viewer, name=name, render=render)


def _likely_full_keys(event: Event) -> frozenset[str]:
    from confsched.web.staff.views import likely_full_session_keys  # it imports this module

    return likely_full_session_keys(event)


# A session page lists the track's next sessions and links to the whole track.
SAME_TRACK_SHOWN = 6


@require_safe
def speakers(request: HttpRequest, event: str) -> HttpResponse:
    event_row = _event(event)
    viewer = viewer_zone(request, event_row)

    def render(markers: Markers | None, starred: set[int]) -> tuple[HttpResponse, list]:
        # ?q= searches names and companies; each address is its own kept page.
        q = " ".join(request.GET.get("q", "").split())[:200]
        people = queries.speakers_listed(event_row, q=q)
        letters: dict[str, list] = {}
        for person in people:
            letters.setdefault(person.name[:1].upper(), []).append(person)
        page = _page(
            request, "confsched/speakers.html", event=event_row, viewer=viewer,
            letters=sorted(letters.items()), nav="speakers", speaker_count=len(people), q=q,
            **_marked(markers),
        )  # fmt: skip
        return page, []

    return _personal_page(
        request, event_row, viewer, name="speakers", render=render, parameters=SPEAKERS_PARAMETERS
    )


@require_safe
def speaker_detail(request: HttpRequest, event: str, key: str) -> HttpResponse:
    event_row = _event(event)
    viewer = viewer_zone(request, event_row)

    def render(markers: Markers | None, starred: set[int]) -> tuple[HttpResponse, list]:
        person = queries.speaker_for_key(event_row, key)  # only when the page is built
        if person is None:
            raise Http404(f"No speaker {key!r}")
        page = _page(
            request, "confsched/speaker.html", event=event_row, viewer=viewer, speaker=person,
            nav="speakers", sessions=queries.sessions_of_speaker(person),
            schedule_url=reverse("web:schedule", kwargs={"event": event_row.slug}),
            **_marked(markers),
        )  # fmt: skip
        return page, []

    return _personal_page(request, event_row, viewer, name=f"speaker:{key}", render=render)


@require_safe
def zones(request: HttpRequest, event: str) -> HttpResponse:
    """Every zone, by area, each a link back to the page the viewer came from in that zone."""
    event_row = _event(event)
    viewer = viewer_zone(request, event_row)
    back = request.GET.get("next", "")
    schedule_url = reverse("web:schedule", kwargs={"event": event_row.slug})
    if not back.startswith(f"/{event_row.slug}/") or not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}
    ):
        back = schedule_url
    path, _, query = back.partition("?")
    params = QueryDict(query, mutable=True)
    params.pop("tz", None)
    areas: dict[str, list[tuple[str, str]]] = {}
    for name in zone_names():
        params["tz"] = name
        area = name.split("/", 1)[0] if "/" in name else "Other"
        areas.setdefault(area, []).append((name, f"{path}?{params.urlencode()}"))
    return _page(
        request, "confsched/zones.html", event=event_row, viewer=viewer, back=back,
        areas=sorted(areas.items()),
    )  # fmt: skip


@require_safe
def event_calendar(request: HttpRequest, event: str) -> HttpResponse:
    """The whole event as .ics, or the sessions of a filtered view (same GET parameters)."""
    event_row = _event(event)
    filters = parse_filters(dict(request.GET.lists()))
    keys = None
    name = event_row.name
    # Read even when unused, so that a bad ?tz= is refused here as on every page.
    zone = viewer_zone(request, event_row, use_saved=False).zone
    if filters.is_active:
        sessions = queries.published_sessions(event_row)
        result = apply_filters(sessions, filters, zone=zone)
        keys = {session.key for session in result.sessions}
        name = f"{event_row.name} (filtered)"
    return calendar_response(
        request, event=event_row, keys=keys, name=name, filename=f"{event_row.slug}.ics",
        etag=event_etag(event_row, request.GET.urlencode()),
    )  # fmt: skip


@require_safe
def session_calendar(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """One session as .ics: "add to calendar"."""
    event_row = _event(event)
    session = queries.session_for_key(event_row, key)
    if session is None:
        raise Http404(f"No session {key!r}")
    return calendar_response(
        request, event=event_row, keys={key}, name=session.full_title,
        filename=f"{key[:60]}.ics", etag=event_etag(event_row, "session", key),
    )  # fmt: skip
