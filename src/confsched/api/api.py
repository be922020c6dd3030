"""The JSON API at /api/v1/: the same queries as the pages, paginated, with an OpenAPI document.

Every error answers `{"detail": "<what and where>"}`: 400 for a value the API understands but
cannot use (an unknown time zone), 404 for an event, session, speaker or page that does not
exist, 422 for a request the API does not take (an unknown query parameter, a malformed value,
page < 1, page_size outside 1..500).
"""
# No "from __future__ import annotations": django-ninja reads these annotations at run time.

import datetime as dt
from collections.abc import Callable
from functools import wraps
from typing import Annotated, Any, Literal

from csp.decorators import csp_update
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from ninja import Field, NinjaAPI, Query, Schema
from ninja.errors import HttpError, ValidationError
from ninja.openapi.docs import Swagger
from ninja.operation import Operation
from ninja.pagination import PaginationBase, paginate

from confsched import __version__
from confsched.agenda.planner import Interests, propose, split_terms
from confsched.api.agenda import router as agenda_router
from confsched.api.schemas import (
    ChangeOut,
    ErrorOut,
    EventOut,
    FacetOut,
    IndexOut,
    PlanOut,
    SessionLinkOut,
    SessionOut,
    SessionSpeakerOut,
    SpeakerOut,
    VersionOut,
)
from confsched.core.errors import InvalidEventError
from confsched.core.timezones import get_zone, known_zone_names, zone_problem
from confsched.programme import queries
from confsched.programme.filtering import apply_filters, facet_rows, parse_filters
from confsched.programme.history import ChangeLine, VersionEntry, history
from confsched.programme.models import Event, ScheduleVersion, Session, Speaker


class _Docs(Swagger):
    """Swagger UI in our page: a language, a main landmark, colours with enough contrast, and
    no deep links (they put a link inside each operation's button, which screen readers and
    axe-core refuse as nested controls)."""

    template = "confsched/api_docs.html"
    default_settings = {"layout": "BaseLayout", "deepLinking": False}


api = NinjaAPI(
    title="confsched API",
    version="1",
    description=(
        "Read an event's programme: sessions (with the schedule page's filters), speakers, "
        "rooms, tracks, levels, schedule versions and their changes. Times are ISO 8601 with "
        f"the event's offset. confsched {__version__}."
    ),
    urls_namespace="api-v1",
    # Swagger UI's stylesheet draws its icons as data: images; only the docs page allows them.
    docs_decorator=csp_update({"img-src": ["data:"]}),
    docs=_Docs(),
)


api.add_router("/", agenda_router)

# The error statuses each kind of operation can answer, each with the one error body.
NOT_FOUND_OR_REFUSED: dict[int, Any] = {404: ErrorOut, 422: ErrorOut}


_SHOWN_PROBLEMS = 5


def _where(location: Any) -> str:
    """('query', 'filters', 'date', 0) -> "query parameter 'date'": the name the client sent.

    Between the source and the name come the view's argument names and list positions, which
    mean nothing to a client; the last named part is the parameter as it appears in the URL.
    """
    source, *path = location or ("request",)
    names = [part for part in path if isinstance(part, str)]
    return f"{source} parameter {names[-1]!r}" if names else str(source)


@api.exception_handler(ValidationError)
def _refused(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    # One error shape for every status, so that clients read `detail` as text everywhere.
    problems = [
        f"{_where(error.get('loc', ()))}: {_message(request, error)}" for error in exc.errors
    ]
    shown = problems[:_SHOWN_PROBLEMS]
    if len(problems) > len(shown):  # a repeated bad value must not make a huge answer
        shown.append(f"and {len(problems) - len(shown)} more")
    return api.create_response(request, {"detail": "; ".join(shown)}, status=422)


def _message(request: HttpRequest, error: dict[str, Any]) -> str:
    """pydantic's message, but a zone outside the ~600 listed is named, not answered with all
    of them."""
    if error.get("type") == "literal_error" and tuple(error.get("loc", ())) == ("query", "tz"):
        return zone_problem(request.GET.get("tz", ""))
    return str(error.get("msg", ""))


def _query_names(operation: Operation) -> frozenset[str]:
    """The query parameters an operation declares (its filters and its pagination)."""
    names: set[str] = set()
    for model in operation.models:
        if model.__ninja_param_source__ == "query":
            names.update(getattr(model, "__ninja_flatten_map__", None) or model.model_fields)
    return frozenset(names)


def _refuse_unknown_parameters(run: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer 422 for a query parameter the operation does not declare.

    django-ninja drops undeclared parameters silently, so `?limit=5` would return the first
    page as if obeyed; a client must learn that the API did not do what it asked.
    """
    # A "view" decorator receives the operation's bound run method, which knows its models.
    known = _query_names(run.__self__)  # type: ignore[attr-defined]

    @wraps(run)
    def checked(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        unknown = [name for name in request.GET if name not in known]
        if unknown:
            takes = ", ".join(sorted(known)) if known else "no query parameters"
            named = ", ".join(repr(name[:64]) for name in unknown[:5])
            plural = "s" if len(unknown) > 1 else ""
            detail = f"unknown query parameter{plural} {named}: this operation takes {takes}"
            return api.create_response(request, {"detail": detail}, status=422)
        return run(request, **kwargs)

    return checked


api.add_decorator(_refuse_unknown_parameters, mode="view")

MAX_PAGE_SIZE = 500


class Page(PaginationBase):
    """Pages numbered from 1: page < 1 is refused (422), a page past the last one is 404.

    Page 1 always exists, empty for an empty collection, so a client can always start there.
    """

    class Input(Schema):
        page: int = Field(1, ge=1, description="1 for the first page; past the last page: 404")
        page_size: int = Field(100, ge=1, le=MAX_PAGE_SIZE, description="items per page")

    def paginate_queryset(
        self, queryset: Any, pagination: Input, request: HttpRequest, **params: Any
    ) -> dict[str, Any]:
        count = self._items_count(queryset)
        pages = max(1, -(-count // pagination.page_size))
        if pagination.page > pages:
            raise HttpError(
                404,
                f"no page {pagination.page}: {count} items make {pages} page"
                f"{'s' if pages > 1 else ''} of {pagination.page_size}",
            )
        start = (pagination.page - 1) * pagination.page_size
        return {"items": queryset[start : start + pagination.page_size], "count": count}


def _event(slug: str) -> Event:
    event = queries.event_for_slug(slug)
    if event is None:
        raise HttpError(404, f"no event {slug!r}")
    return event


def _url(request: HttpRequest, path: str) -> str:
    return request.build_absolute_uri(path)


def _event_out(request: HttpRequest, event: Event) -> dict[str, Any]:
    return {
        "slug": event.slug, "name": event.name, "timezone": event.timezone,
        "start_date": event.start_date, "end_date": event.end_date, "location": event.location,
        "url": _url(request, event.get_absolute_url()),
    }  # fmt: skip


def _facet(row: Any) -> dict[str, str] | None:
    return {"slug": row.slug, "name": row.name} if row is not None else None


def _session_out(request: HttpRequest, session: Session, event: Event) -> dict[str, Any]:
    zone = event.zone
    return {
        "key": session.key, "title": session.title, "kind": session.kind,
        "abstract": session.abstract,
        "starts_at": session.starts_at.astimezone(zone) if session.starts_at else None,
        "ends_at": session.ends_at.astimezone(zone) if session.ends_at else None,
        "room": _facet(session.room), "track": _facet(session.track),
        "level": _facet(session.level),
        "has_slides": session.has_slides, "language": session.language,
        "is_cancelled": session.is_cancelled,
        "speakers": [
            SessionSpeakerOut(key=link.speaker.key, name=link.speaker.name, company=link.company)
            for link in session.speaker_links.all()
        ],
        "links": [
            SessionLinkOut(kind=link.kind, title=link.title, url=link.url)
            for link in session.links.all()
        ],
        "url": _url(request, session.get_absolute_url()), "sequence": session.sequence,
        "updated_at": session.updated_at, "seats": session.seats,
        "reservations_close_at": session.reservations_close.astimezone(zone)
        if session.seats is not None and session.reservations_close
        else None,
    }  # fmt: skip


def _speaker_out(request: HttpRequest, speaker: Speaker) -> dict[str, Any]:
    return {
        "key": speaker.key, "name": speaker.name, "company": speaker.company,
        "position": speaker.position, "bio": speaker.bio, "avatar_url": speaker.avatar_url,
        "homepage": speaker.homepage, "url": _url(request, speaker.get_absolute_url()),
        "links": [SessionLinkOut(**link) for link in speaker.links or ()],
    }  # fmt: skip


def _change_out(line: ChangeLine, version: ScheduleVersion) -> dict[str, Any]:
    return {
        "version": version.number, "version_name": version.name,
        "session_key": line.session.key, "session_title": line.title, "kind": line.kind,
        "description": line.words, "created_at": version.created_at,
    }  # fmt: skip


def _public_history(event: Event) -> list[VersionEntry]:
    """The change log as attendees read it (programme/history.py), its words in English."""
    with translation.override("en"):
        return history(queries.versions_with_changes(event, limit=10_000), for_team=False)


# URL templates for the collections under an event; {slug} is an event's slug from /events.
EVENT_COLLECTIONS = ("sessions", "speakers", "rooms", "tracks", "levels", "versions", "changes")


@api.get("/", response={200: IndexOut, 422: ErrorOut}, tags=["index"], url_name="index")
def index(request: HttpRequest) -> dict[str, Any]:
    """What this API is and where everything in it lives."""
    root = _url(request, reverse("api-v1:api-root"))
    event = root + "events/{slug}"
    return {
        "name": api.title,
        "version": api.version,
        "confsched_version": __version__,
        "links": {
            "docs": _url(request, reverse("api-v1:openapi-view")),
            "openapi": _url(request, reverse("api-v1:openapi-json")),
            "events": root + "events",
            "event": event,
            **{name: f"{event}/{name}" for name in EVENT_COLLECTIONS},
        },
    }


@api.get("/events", response={200: list[EventOut], **NOT_FOUND_OR_REFUSED}, tags=["events"])
@paginate(Page)
def list_events(request: HttpRequest) -> list[dict[str, Any]]:
    return [_event_out(request, event) for event in queries.events_listed()]


@api.get("/events/{slug}", response={200: EventOut, **NOT_FOUND_OR_REFUSED}, tags=["events"])
def get_event(request: HttpRequest, slug: str) -> dict[str, Any]:
    return _event_out(request, _event(slug))


# The zones the API takes, listed in its OpenAPI document: a name it would refuse is refused by
# the schema (422), as the document says, not by a 400 the document could not foresee.
ZoneName = Literal[("", *known_zone_names())]  # type: ignore[valid-type]
# Slugs and keys are never empty: `must=` names no session, and the schema says so.
NonEmpty = Annotated[str, Field(min_length=1)]


class SessionFilters(Schema):
    # Typed, so that a malformed date or slides value is refused (422) rather than ignored.
    date: list[dt.date] = Field([], description="days (YYYY-MM-DD) in `tz`")
    room: list[str] = []
    track: list[str] = []
    level: list[str] = []
    slides: list[Literal["yes", "no"]] = []
    q: str = ""
    tz: ZoneName = Field("", description="IANA zone for `date` (the event's zone when empty)")


@api.get(
    "/events/{slug}/sessions",
    response={200: list[SessionOut], 400: ErrorOut, **NOT_FOUND_OR_REFUSED},
    tags=["sessions"],
)
@paginate(Page)
def list_sessions(
    request: HttpRequest, slug: str, filters: Query[SessionFilters]
) -> list[dict[str, Any]]:
    """Published sessions in time order; the same filters as the schedule page (slugs, dates in
    `tz` or the event's zone, `q` searching titles, abstracts, speakers and companies)."""
    event = _event(slug)
    try:
        zone = get_zone(filters.tz) if filters.tz else event.zone
    except InvalidEventError as exc:
        raise HttpError(400, str(exc)) from exc
    params: dict[str, list[str]] = {
        "date": [day.isoformat() for day in filters.date],
        "room": filters.room, "track": filters.track, "level": filters.level,
        "slides": list(filters.slides), "q": [filters.q] if filters.q else [],
    }  # fmt: skip
    sessions = queries.published_sessions(event, with_links=True)
    result = apply_filters(sessions, parse_filters(params), zone=zone)
    return [_session_out(request, session, event) for session in result.sessions]


class PlanQuery(Schema):
    track: list[NonEmpty] = Field([], description="track slugs")
    level: list[NonEmpty] = Field([], description="level slugs")
    q: str = Field("", max_length=200, description="keywords, separated by commas")
    speaker: str = Field("", max_length=200, description="speaker names, separated by commas")
    must: list[NonEmpty] = Field([], description="keys of sessions to see whatever else")
    walk: int | None = Field(
        None, ge=0, le=240, description="minutes between rooms (the event's setting if absent)"
    )


def _unknown(name: str, values: list[str], known: set[str]) -> str:
    missing = [value for value in dict.fromkeys(values) if value not in known]
    if not missing:
        return ""
    return f"query parameter {name!r}: no such {name} {', '.join(map(repr, missing[:5]))}"


@api.get(
    "/events/{slug}/plan",
    response={200: PlanOut, **NOT_FOUND_OR_REFUSED},
    tags=["sessions"],
)
def plan_agenda(request: HttpRequest, slug: str, params: Query[PlanQuery]) -> dict[str, Any]:
    """A clash-free agenda of the greatest worth: tracks, speakers (3 each), keywords (2 each)
    and levels (1) add weight; a must-see outweighs all the rest. Time order, with weights."""
    event = _event(slug)
    sessions = queries.published_sessions(event)
    problems = [
        _unknown("track", params.track, {s.track.slug for s in sessions if s.track}),
        _unknown("level", params.level, {s.level.slug for s in sessions if s.level}),
        _unknown("must", params.must, {s.key for s in sessions}).replace("such must", "session"),
    ]
    if detail := "; ".join(problem for problem in problems if problem):
        # Well-formed names of things this event does not have: not found, like an unknown
        # event or session (the schema cannot list every key, so it cannot refuse them).
        raise HttpError(404, detail)
    walk = event.walking_minutes if params.walk is None else params.walk
    interests = Interests(
        tracks=frozenset(params.track), levels=frozenset(params.level),
        keywords=split_terms(params.q), speakers=split_terms(params.speaker),
        must_see=frozenset(params.must),
    )  # fmt: skip
    proposal = propose(sessions, interests, walk=walk)
    zone = event.zone
    return {
        "sessions": [
            {
                "key": s.key,
                "title": s.title,
                "starts_at": s.starts_at.astimezone(zone),
                "ends_at": s.ends_at.astimezone(zone) if s.ends_at else None,
                "room": s.room.slug if s.room else None,
                "weight": proposal.weights[s.key],
            }
            for s in proposal.sessions
        ],
        "total": proposal.total,
        "walk_minutes": walk,
        "must_clashes": [(a.key, b.key) for a, b in proposal.must_clashes],
    }


@api.get(
    "/events/{slug}/sessions/{key}",
    response={200: SessionOut, **NOT_FOUND_OR_REFUSED},
    tags=["sessions"],
)
def get_session(request: HttpRequest, slug: str, key: str) -> dict[str, Any]:
    event = _event(slug)
    session = queries.session_for_key(event, key)
    if session is None:
        raise HttpError(404, f"no session {key!r}")
    return _session_out(request, session, event)


class SpeakerFilters(Schema):
    q: str = Field("", description="words each starting a word of the name or company")


@api.get(
    "/events/{slug}/speakers",
    response={200: list[SpeakerOut], **NOT_FOUND_OR_REFUSED},
    tags=["speakers"],
)
@paginate(Page)
def list_speakers(
    request: HttpRequest, slug: str, filters: Query[SpeakerFilters]
) -> list[dict[str, Any]]:
    """Speakers of published sessions by name; `q` as the speakers page's search."""
    people = queries.speakers_listed(_event(slug), q=filters.q)
    return [_speaker_out(request, speaker) for speaker in people]


@api.get(
    "/events/{slug}/speakers/{key}",
    response={200: SpeakerOut, **NOT_FOUND_OR_REFUSED},
    tags=["speakers"],
)
def get_speaker(request: HttpRequest, slug: str, key: str) -> dict[str, Any]:
    speaker = queries.speaker_for_key(_event(slug), key)
    if speaker is None:
        raise HttpError(404, f"no speaker {key!r}")
    return _speaker_out(request, speaker)


def _facets(slug: str, attribute: str) -> list[dict[str, str]]:
    sessions = queries.published_sessions(_event(slug))
    return [{"slug": row.slug, "name": row.name} for row in facet_rows(sessions, attribute)]


@api.get(
    "/events/{slug}/rooms",
    response={200: list[FacetOut], **NOT_FOUND_OR_REFUSED},
    tags=["facets"],
)
def list_rooms(request: HttpRequest, slug: str) -> list[dict[str, str]]:
    return _facets(slug, "room")


@api.get(
    "/events/{slug}/tracks",
    response={200: list[FacetOut], **NOT_FOUND_OR_REFUSED},
    tags=["facets"],
)
def list_tracks(request: HttpRequest, slug: str) -> list[dict[str, str]]:
    return _facets(slug, "track")


@api.get(
    "/events/{slug}/levels",
    response={200: list[FacetOut], **NOT_FOUND_OR_REFUSED},
    tags=["facets"],
)
def list_levels(request: HttpRequest, slug: str) -> list[dict[str, str]]:
    return _facets(slug, "level")


@api.get(
    "/events/{slug}/versions",
    response={200: list[VersionOut], **NOT_FOUND_OR_REFUSED},
    tags=["changes"],
)
@paginate(Page)
def list_versions(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    """Schedule versions, newest first, each with its name (a release's), its page and what it
    changed."""
    event = _event(slug)
    return [
        {
            "number": entry.version.number,
            "name": entry.version.name,
            "created_at": entry.version.created_at,
            "url": _url(request, reverse("web:version", args=[event.slug, entry.version.number])),
            "source": entry.source,  # the full source only in the admin
            "summary": entry.summary,
            "changes": [_change_out(line, entry.version) for line in entry.lines],
        }  # fmt: skip
        for entry in _public_history(event)
    ]


@api.get(
    "/events/{slug}/changes",
    response={200: list[ChangeOut], **NOT_FOUND_OR_REFUSED},
    tags=["changes"],
)
@paginate(Page)
def list_changes(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    """Every change attendees may read, newest version first."""
    return [
        _change_out(line, entry.version)
        for entry in _public_history(_event(slug))
        for line in entry.lines
    ]
