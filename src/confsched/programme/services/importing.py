"""Importing files into an existing event: for real, or as a dry run that shows what would happen.

The admin's import page and `confsched sync` (sync.py) use these; `confsched import` also
creates events.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import transaction

from confsched.interchange.formats import parse_files
from confsched.programme.models import Event
from confsched.programme.services.drafts import load_import
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
    # Into the event's draft (drafts.load_import), not released to attendees at once.
    to_draft: bool = False
    # Fewer seats than people hold are applied, who keep theirs (else refused: seat_changes).
    keep_reservations_over_seats: bool = False
    # The file's values replace what speakers hold (their fields), which they hold no more.
    prefer_source: bool = False


class _DryRun(Exception):  # noqa: N818 - a signal to roll back, not an error
    """Raised inside the dry run's transaction so that nothing it wrote stays."""


def import_files(
    event: Event,
    files: list[tuple[str, bytes]],
    *,
    options: ImportOptions = ImportOptions(),  # noqa: B008 - frozen, never mutated
    source: str = "",
    is_dry_run: bool = False,
    by: str = "",
) -> LoadReport:
    """Load the files into the event; with `is_dry_run`, the same report and nothing written.

    The dry run runs the real load in a transaction it then rolls back, so its report is the
    one a real run would give on the same database; its `version`, if any, was never saved.
    ParseError and InvalidProgrammeError pass through, with nothing written. With
    `options.to_draft` it loads into the event's draft, leaving what attendees see as it is.
    """
    programme = parse_files(
        files, format_name=options.format_name, default_timezone=event.timezone,
        uid_domain=event.uid_domain, location=event.location,
    )  # fmt: skip
    source = source or "import: " + ", ".join(name for name, _ in files)
    report = LoadReport()
    try:
        with transaction.atomic():
            report = load_import(
                event, programme, to_draft=options.to_draft, source=source,
                is_complete=not options.is_partial, accept_new_keys=options.accept_new_keys,
                by=by, keep_reservations_over_seats=options.keep_reservations_over_seats,
                prefer_source=options.prefer_source,
            )  # fmt: skip
            if not options.to_draft:  # the files attendees' programme was last imported from
                Event.objects.filter(pk=event.pk).update(import_digest=files_digest(files))
            if is_dry_run:
                raise _DryRun
    except _DryRun:
        event.refresh_from_db()
    return report
