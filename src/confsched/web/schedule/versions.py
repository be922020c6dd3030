"""Every version stays readable: /<event>/v/<number>/ (its programme by day, its changes) and
its exports, rendered from the programme the version kept by the writers of today's exports."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from confsched.interchange import programme as pm
from confsched.interchange.formats import WRITERS
from confsched.programme import queries
from confsched.programme.history import version_entry
from confsched.programme.models import Event, ScheduleVersion, VersionSnapshot
from confsched.programme.services.export import render_programme
from confsched.programme.services.snapshots import version_programme
from confsched.web.schedule.changes import is_team, kept_by_nobody
from confsched.web.schedule.elsewhere import export_files
from confsched.web.site.calendars import conditional_response
from confsched.web.site.compression import Rendition
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.stencils import kept
from confsched.web.site.zones import viewer_zone

# A version never changes: its exports may be kept a day by anyone.
VERSION_MAX_AGE = 86_400


def _unknown_version(event: Event, number: int) -> str:
    last = queries.versions_with_changes(event, limit=1)
    if not last:
        return gettext("%(event)s has no version %(number)s: it has no versions yet.") % {
            "event": event.name, "number": number,
        }  # fmt: skip
    return gettext("%(event)s has no version %(number)s: its versions are 1 to %(last)s.") % {
        "event": event.name, "number": number, "last": last[0].number,
    }  # fmt: skip


def _days(programme: pm.Programme, zone: ZoneInfo) -> list[tuple[date, list[dict]]]:
    """The sessions attendees saw, by day in `zone` (the viewer's), each with its speakers'
    names."""
    names = {speaker.key: speaker.name for speaker in programme.speakers}
    days: dict[date, list[dict]] = defaultdict(list)
    shown = [s for s in programme.sessions if s.starts_at is not None and not s.needs_review]
    for session in sorted(shown, key=lambda s: (s.starts_at, s.room, s.title)):
        assert session.starts_at is not None  # noqa: S101 - filtered above, for mypy
        start = session.starts_at.astimezone(zone)
        days[start.date()].append(
            {
                "session": session,
                "starts_at": start,
                "ends_at": session.ends_at.astimezone(zone) if session.ends_at else None,
                "speakers": ", ".join(names.get(s.speaker_key, "") for s in session.speakers),
            }
        )
    return sorted(days.items())


def _kept_html(
    key: str, template: str, context: Callable[[], dict[str, Any]], *, zone: ZoneInfo
) -> SafeString:
    """`template` rendered with `context()` once per key, in `zone` (the viewer's: the date
    filters convert every time to it) and the active language, then kept like an export
    (compressed, here and in the shared cache)."""
    language = translation.get_language()

    def build() -> Rendition:
        with timezone.override(zone):
            return Rendition(render_to_string(template, context()).encode())

    html = kept(f"{key}:{zone.key}:{language}", build).body.decode()
    return mark_safe(html)  # noqa: S308 - our template's output


def _programme_html(event: Event, version: ScheduleVersion, zone: ZoneInfo) -> SafeString | None:
    """The programme the version kept, by day in `zone`; None when it kept none. A version
    never changes: its snapshot is read back (most of the cost: 7-9 s at 5,000 sessions,
    bench/snapshots.py) and rendered once per zone and language."""
    # `has_programme` is annotated by the query: an old version's page costs no extra read.
    if not getattr(version, "has_programme", False):
        return None

    def days() -> dict[str, Any]:
        programme = version_programme(version)
        return {"days": _days(programme, zone) if programme else []}

    made = version.created_at.isoformat()
    key = f"version-programme:{event.pk}:{version.number}:{made}"
    return _kept_html(key, "confsched/_version_programme.html", days, zone=zone)


def _changes_html(
    event: Event, version: ScheduleVersion, *, for_team: bool, zone: ZoneInfo
) -> SafeString:
    """What changed in the version as the reader may read it (programme/history.py): its
    summary, what made it, a line per change (1,000 for a first import). Kept apart for the
    team and for everyone else, and until the event changes: the team's lines name sessions
    as they are today, and a line links its session only while that has a page."""

    def changes() -> dict[str, Any]:
        rows = queries.changes_in_order().filter(version=version)
        return {"entry": version_entry(version, rows, for_team=for_team, zone=zone)}

    made, changed = version.created_at.isoformat(), event.updated_at.isoformat()
    reader = "team" if for_team else "public"
    key = f"version-changes:{event.pk}:{version.number}:{made}:{changed}:{reader}"
    return _kept_html(key, "confsched/_version_what_changed.html", changes, zone=zone)


@require_safe
def version_page(request: HttpRequest, event: str, number: int) -> HttpResponse:
    """Version `number`: a banner pointing at today's programme, its changes, its programme,
    in the viewer's zone."""
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)
    version = queries.version_for_number(event_row, number, with_changes=False)
    if version is None:
        return event_page(
            request, "confsched/version.html", event=event_row, viewer=viewer, status=404,
            problem=_unknown_version(event_row, number),
        )  # fmt: skip
    before, after = queries.neighbour_versions(version)
    for_team = is_team(request, event_row)
    response = event_page(
        request, "confsched/version.html", event=event_row, viewer=viewer, version=version,
        before=before, after=after,
        changes_html=_changes_html(event_row, version, for_team=for_team, zone=viewer.zone),
        programme_html=_programme_html(event_row, version, viewer.zone),
        exports=export_files(event_row.slug, number=version.number), nav="changes",
        shared=not for_team,
    )  # fmt: skip
    return kept_by_nobody(response) if for_team else response


@require_safe
def version_export(request: HttpRequest, event: str, number: int, extension: str) -> HttpResponse:
    """Version `number`'s schedule.<extension>: the bytes that version's export served."""
    event_row = event_or_404(event)
    writer = WRITERS.get(extension)
    if writer is None:
        return _not_found(f"No schedule.{extension}; there are: " + ", ".join(sorted(WRITERS)))
    version = ScheduleVersion.objects.filter(event=event_row, number=number).first()
    if version is None:
        return _not_found(_unknown_version(event_row, number))
    if not VersionSnapshot.objects.filter(version=version).exists():
        return _not_found(
            f"Version {number} of {event_row.name} was recorded before versions kept their "
            "programme: its exports cannot be rebuilt. Its changes are on the change log."
        )
    site = request.build_absolute_uri(reverse("web:home"))
    etag = hashlib.sha256(f"{event_row.pk}:{number}:{extension}:{site}".encode()).hexdigest()[:32]

    def build() -> Rendition:
        programme = version_programme(version)
        assert programme is not None  # noqa: S101 - its snapshot exists, checked above
        return Rendition(render_programme(event_row, programme, extension, base_url=site))

    def render() -> HttpResponse:
        # A version never changes: rendered once (reading its snapshot back is most of the
        # cost, bench/snapshots.py), kept compressed like today's exports. Its time of creation
        # in the key: a number reused by another event of the same id is another version.
        made = version.created_at.isoformat()
        rendition = kept(f"version-export:{event_row.pk}:{number}:{made}:{etag}", build)
        response = rendition.response(request, writer.content_type)
        if extension == "csv":
            name = f"{event_row.slug}-v{number}.csv"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    response = conditional_response(request, etag=etag, render=render)
    response["Access-Control-Allow-Origin"] = "*"
    patch_cache_control(response, public=True, max_age=VERSION_MAX_AGE)
    return response


def _not_found(message: str) -> HttpResponse:
    return HttpResponseNotFound(message + "\n", content_type="text/plain; charset=utf-8")
