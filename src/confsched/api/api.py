"""The JSON API at /api/v1/: the same queries as the pages, paginated, with an OpenAPI document."""
# No "from __future__ import annotations": django-ninja reads these annotations at run time.

from typing import Any

from django.http import HttpRequest
from ninja import NinjaAPI, Query, Schema
from ninja.errors import HttpError
from ninja.pagination import PageNumberPagination, paginate

from confsched import __version__
from confsched.api.schemas import (
    ChangeOut,
    ErrorOut,
    EventOut,
    FacetOut,
    SessionOut,
    SessionSpeakerOut,
    SpeakerOut,
    VersionOut,
)
from confsched.core.errors import InvalidEventError
from confsched.core.timezones import get_zone
from confsched.programme import queries
from confsched.programme.filtering import apply_filters, facet_rows, parse_filters
from confsched.programme.models import Change, Event, Session, Speaker

api = NinjaAPI(
    title="confsched API",
    version="1",
    description=(
        "Read an event's programme: sessions (with the schedule page's filters), speakers, "
        "rooms, tracks, levels, schedule versions and their changes. Times are ISO 8601 with "
        f"the event's offset. confsched {__version__}."
    ),
    urls_namespace="api-v1",
)


class Page(PageNumberPagination):
    class Input(Schema):
        page: int = 1
        page_size: int = 100

    def paginate_queryset(self, queryset: Any, pagination: Input, **params: Any) -> Any:
        pagination.page_size = max(1, min(pagination.page_size, 500))
        self.page_size = pagination.page_size
        return super().paginate_queryset(queryset, pagination, **params)


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
        "url": _url(request, session.get_absolute_url()), "sequence": session.sequence,
        "updated_at": session.updated_at,
    }  # fmt: skip


def _speaker_out(request: HttpRequest, speaker: Speaker) -> dict[str, Any]:
    return {
        "key": speaker.key, "name": speaker.name, "company": speaker.company,
        "position": speaker.position, "bio": speaker.bio, "avatar_url": speaker.avatar_url,
        "url": _url(request, speaker.get_absolute_url()),
    }  # fmt: skip


def _change_out(change: Change, version: int, created_at: Any) -> dict[str, Any]:
    return {
        "version": version, "session_key": change.session.key,
        "session_title": change.session.full_title, "kind": change.kind,
        "description": change.description, "created_at": created_at,
    }  # fmt: skip


@api.get("/events", response=list[EventOut], tags=["events"])
@paginate(Page)
def list_events(request: HttpRequest) -> list[dict[str, Any]]:
    return [_event_out(request, event) for event in queries.events_listed()]


@api.get("/events/{slug}", response={200: EventOut, 404: ErrorOut}, tags=["events"])
def get_event(request: HttpRequest, slug: str) -> dict[str, Any]:
    return _event_out(request, _event(slug))


class SessionFilters(Schema):
    date: list[str] = []
    room: list[str] = []
    track: list[str] = []
    level: list[str] = []
    slides: list[str] = []
    q: str = ""
    tz: str = ""


@api.get(
    "/events/{slug}/sessions",
    response={200: list[SessionOut], 400: ErrorOut, 404: ErrorOut},
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
    params = {name: values for name, values in filters.dict().items() if name != "tz"}
    params["q"] = [params["q"]] if params["q"] else []
    sessions = queries.published_sessions(event)
    result = apply_filters(sessions, parse_filters(params), zone=zone)
    return [_session_out(request, session, event) for session in result.sessions]


@api.get(
    "/events/{slug}/sessions/{key}", response={200: SessionOut, 404: ErrorOut}, tags=["sessions"]
)
def get_session(request: HttpRequest, slug: str, key: str) -> dict[str, Any]:
    event = _event(slug)
    session = queries.session_for_key(event, key)
    if session is None:
        raise HttpError(404, f"no session {key!r}")
    return _session_out(request, session, event)


@api.get("/events/{slug}/speakers", response=list[SpeakerOut], tags=["speakers"])
@paginate(Page)
def list_speakers(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    return [_speaker_out(request, speaker) for speaker in queries.speakers_listed(_event(slug))]


@api.get(
    "/events/{slug}/speakers/{key}", response={200: SpeakerOut, 404: ErrorOut}, tags=["speakers"]
)
def get_speaker(request: HttpRequest, slug: str, key: str) -> dict[str, Any]:
    speaker = queries.speaker_for_key(_event(slug), key)
    if speaker is None:
        raise HttpError(404, f"no speaker {key!r}")
    return _speaker_out(request, speaker)


def _facets(slug: str, attribute: str) -> list[dict[str, str]]:
    sessions = queries.published_sessions(_event(slug))
    return [_facet(row) for row in facet_rows(sessions, attribute)]


@api.get("/events/{slug}/rooms", response=list[FacetOut], tags=["facets"])
def list_rooms(request: HttpRequest, slug: str) -> list[dict[str, str]]:
    return _facets(slug, "room")


@api.get("/events/{slug}/tracks", response=list[FacetOut], tags=["facets"])
def list_tracks(request: HttpRequest, slug: str) -> list[dict[str, str]]:
    return _facets(slug, "track")


@api.get("/events/{slug}/levels", response=list[FacetOut], tags=["facets"])
def list_levels(request: HttpRequest, slug: str) -> list[dict[str, str]]:
    return _facets(slug, "level")


@api.get("/events/{slug}/versions", response=list[VersionOut], tags=["changes"])
@paginate(Page)
def list_versions(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    """Schedule versions, newest first, each with what it changed."""
    return [
        {
            "number": version.number,
            "created_at": version.created_at,
            "source": version.source,
            "summary": version.summary,
            "changes": [
                _change_out(change, version.number, version.created_at)
                for change in version.changes.all()
            ],
        }  # fmt: skip
        for version in queries.versions_with_changes(_event(slug), limit=10_000)
    ]


@api.get("/events/{slug}/changes", response=list[ChangeOut], tags=["changes"])
@paginate(Page)
def list_changes(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    """Every change, newest version first."""
    return [
        _change_out(change, version.number, version.created_at)
        for version in queries.versions_with_changes(_event(slug), limit=10_000)
        for change in version.changes.all()
    ]
