"""Importing files into an existing event: for real, or as a dry run that shows what would happen.

The admin's import page and `confsched sync` use these; `confsched import` also creates events.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import transaction

from confsched.interchange.fetch import fetch_url
from confsched.interchange.formats import parse_files
from confsched.programme.models import Event
from confsched.programme.services.loading import load_programme
from confsched.programme.services.report import LoadReport


def files_digest(files: list[tuple[str, bytes]]) -> str:
    """One sha256 over the files' names and contents, in a fixed order: what `import
    --skip-unchanged` and `sync` compare with Event.import_digest."""
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(f"{len(name)}:{name}:{len(data)}:".encode())
        digest.update(data)
    return digest.hexdigest()


@dataclass(frozen=True)
class ImportOptions:
    """How to read the files: a format to skip detection, and whether they hold all sessions."""

    format_name: str = ""
    is_partial: bool = False
    # The file gives sessions the event has other keys, and that is meant (see load_programme).
    accept_new_keys: bool = False


class _DryRun(Exception):  # noqa: N818 - a signal to roll back, not an error
    """Raised inside the dry run's transaction so that nothing it wrote stays."""


def import_files(
    event: Event,
    files: list[tuple[str, bytes]],
    *,
    options: ImportOptions = ImportOptions(),  # noqa: B008 - frozen, never mutated
    source: str = "",
    is_dry_run: bool = False,
) -> LoadReport:
    """Load the files into the event; with `is_dry_run`, the same report and nothing written.

    The dry run runs the real load in a transaction it then rolls back, so its report is the
    one a real run would give on the same database; its `version`, if any, was never saved.
    ParseError and InvalidProgrammeError pass through, with nothing written.
    """
    programme = parse_files(
        files, format_name=options.format_name, default_timezone=event.timezone,
        uid_domain=event.uid_domain, location=event.location,
    )  # fmt: skip
    source = source or "import: " + ", ".join(name for name, _ in files)
    report = LoadReport()
    try:
        with transaction.atomic():
            report = load_programme(
                event, programme, source=source, is_complete=not options.is_partial,
                accept_new_keys=options.accept_new_keys,
            )  # fmt: skip
            Event.objects.filter(pk=event.pk).update(import_digest=files_digest(files))
            if is_dry_run:
                raise _DryRun
    except _DryRun:
        event.refresh_from_db()
    return report


def sync_event(event: Event, *, allow_private: bool) -> str:
    """Fetch the event's sync URL conditionally and import what changed; a line saying what."""
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
        report = import_files(event, files, source=f"sync: {event.sync_url}")
        line = (
            f"{len(report.created)} sessions created, {len(report.updated)} updated, "
            f"{report.unchanged} unchanged, {len(report.cancelled)} cancelled, "
            f"{len(report.flagged)} flagged for review"
        )
        if report.version:
            line += f"; schedule version {report.version.number}"
    # Saved after the import only: a failed import is tried again, not skipped by a 304.
    Event.objects.filter(pk=event.pk).update(
        sync_etag=answer.headers.get("etag", "")[:200],
        sync_last_modified=answer.headers.get("last-modified", "")[:64],
    )
    return line
