"""Following an event's sync URL: fetch it conditionally, import it when it changed.

`confsched sync` runs this for every event that has a sync URL, from cron or a timer.
"""

from __future__ import annotations

from confsched.interchange.fetch import fetch_url
from confsched.programme.actors import COMMAND_LINE
from confsched.programme.models import Event
from confsched.programme.services.importing import ImportOptions, files_digest, import_files


def sync_event(
    event: Event, *, allow_private: bool, by: str = COMMAND_LINE,
    keep_reservations_over_seats: bool = False, prefer_source: bool = False,
) -> str:  # fmt: skip
    """Fetch the event's sync URL conditionally and import what changed; a line saying what.
    A source that gives a session fewer seats than people hold is refused unless
    `keep_reservations_over_seats`. With `prefer_source` the source's values replace the
    fields speakers hold (else kept, and the line counts the conflicts)."""
    headers = {}
    if event.sync_etag:
        headers["If-None-Match"] = event.sync_etag
    if event.sync_last_modified:
        headers["If-Modified-Since"] = event.sync_last_modified
    answer = fetch_url(event.sync_url, headers=headers, allow_private=allow_private)
    if answer.is_not_modified:
        return "unchanged (the server answered 304 Not Modified)"
    files = [(event.sync_url, answer.body)]
    if files_digest(files) == event.import_digest:
        line = "unchanged (the same content as last imported)"
    else:
        options = ImportOptions(
            keep_reservations_over_seats=keep_reservations_over_seats, prefer_source=prefer_source
        )
        report = import_files(
            event, files, options=options, source=f"sync: {event.sync_url}", by=by
        )
        line = (
            f"{len(report.created)} sessions created, {len(report.updated)} updated, "
            f"{report.unchanged} unchanged, {len(report.cancelled)} cancelled, "
            f"{len(report.flagged)} flagged for review"
        )
        if report.version:
            line += f"; schedule version {report.version.number}"
        if report.conflicts:
            line += f"; {len(report.conflicts)} field(s) speakers hold kept: " + "; ".join(
                report.conflicts
            )
        if report.released:
            line += f"; {len(report.released)} field(s) speakers held replaced by the source's"
    # Saved after the import only: a failed import is tried again, not skipped by a 304.
    Event.objects.filter(pk=event.pk).update(
        sync_etag=answer.headers.get("etag", "")[:200],
        sync_last_modified=answer.headers.get("last-modified", "")[:64],
    )
    return line
