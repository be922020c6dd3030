"""confsched import --event SLUG FILE_OR_URL...: read a programme and load it into an event."""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from tqdm import tqdm

from confsched.core.database import sqlite_wait
from confsched.core.errors import ConfschedError
from confsched.interchange.fetch import read_source
from confsched.interchange.formats import FORMATS, parse_files
from confsched.interchange.zones import guess_zone
from confsched.programme.actors import COMMAND_LINE
from confsched.programme.models import Event, uid_domain_for
from confsched.programme.services import (
    LoadReport,
    create_event,
    files_digest,
    load_import,
    lock_imports,
)
from confsched.programme.services.loading import SQLITE_IMPORT_WAIT_SECONDS
from confsched.search.worker import QUEUED, queue_embeddings


class Command(BaseCommand):
    # An import reads files and writes a programme: the URL patterns, views and API schemas that
    # the system checks load (0.5 s, a fifth of re-importing 1,000 sessions with one title
    # changed, bench/semantic.py) play no part in it. `confsched check` and `serve` run them.
    requires_system_checks: list[str] = []

    help = (
        "Import a programme into an event, creating the event if needed. The format is told "
        "from the content: " + ", ".join(fmt.name for fmt in FORMATS) + "."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "sources",
            nargs="+",
            metavar="FILE_OR_URL",
            help="files or http(s) URLs of one programme",
        )
        parser.add_argument("--event", required=True, metavar="SLUG", help="event to load into")
        parser.add_argument("--name", default="", help="event name, when creating it")
        parser.add_argument(
            "--timezone", default="", metavar="ZONE",
            help="IANA zone: the event's, when creating it; and the zone of naive times in files",
        )  # fmt: skip
        parser.add_argument(
            "--languages", default="", metavar="CODES",
            help="when creating the event: the languages its pages are offered in, the first the "
            "default (e.g. en,fr,de); English only when not given",
        )  # fmt: skip
        parser.add_argument(
            "--format", default="", choices=["", *(fmt.name for fmt in FORMATS)],
            help="skip detection and read the files as this format",
        )  # fmt: skip
        parser.add_argument(
            "--partial", action="store_true",
            help="the files hold part of the programme: do not cancel sessions they lack",
        )  # fmt: skip
        parser.add_argument(
            "--skip-unchanged", action="store_true",
            help="do nothing when the event exists and the files are the ones it was last "
            "imported from (keeps the organizer's edits since)",
        )  # fmt: skip
        parser.add_argument(
            "--accept-new-keys", action="store_true",
            help="apply a file that gives sessions the event has other keys (their stars stay "
            "on the old, cancelled ones); without it such a file is refused",
        )  # fmt: skip
        parser.add_argument(
            "--keep-reservations-over-seats", action="store_true",
            help="where the files give a session fewer seats than people hold, everyone keeps "
            "their seat (the waitlist moves once enough give theirs up); without it such "
            "files are refused, naming the sessions",
        )  # fmt: skip
        parser.add_argument(
            "--prefer-source", action="store_true",
            help="the files' values replace the fields speakers set themselves, which they "
            "hold no more (without it, what a speaker set is kept and each conflict named)",
        )  # fmt: skip
        parser.add_argument(
            "--if-new", action="store_true",
            help="import only when the event does not exist yet; an existing event is left "
            "as its organizers have it (what `make run` does with the demo)",
        )  # fmt: skip
        parser.add_argument(
            "--to-draft", action="store_true",
            help="load into the event's draft (started when it has none): attendees see it "
            "when an editor releases the draft; without it the import is released at once",
        )  # fmt: skip
        parser.add_argument(
            "--skip-embeddings", action="store_true",
            help="do not queue the changed sessions for search by meaning's worker (the next "
            "import without this option does)",
        )  # fmt: skip
        parser.add_argument(
            "--allow-private-hosts", action="store_true",
            help="let URLs reach loopback, private and link-local addresses (a server on your "
            "own network); CONFSCHED_IMPORT_PRIVATE_HOSTS=1 does the same for every import",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            allow_private = options["allow_private_hosts"] or getattr(
                settings, "CONFSCHED_IMPORT_PRIVATE_HOSTS", False
            )
            files = [
                read_source(location, allow_private=allow_private)
                for location in options["sources"]
            ]
            with sqlite_wait(SQLITE_IMPORT_WAIT_SECONDS), transaction.atomic():
                # Imports of one event, and the creation of a new one, wait for each other.
                lock_imports(options["event"])
                existing = Event.objects.filter(slug=options["event"]).first()
                if options["if_new"] and existing:
                    self.stdout.write(
                        f"{existing.slug} exists: left as its organizers have it (--if-new)."
                    )
                    return
                digest = files_digest(files)
                if options["skip_unchanged"] and existing and existing.import_digest == digest:
                    self.stdout.write(
                        f"{existing.slug} was last imported from these same files: nothing to do."
                    )
                    return
                zone = options["timezone"] or (existing.timezone if existing else "")
                programme = parse_files(
                    files, format_name=options["format"], default_timezone=zone,
                    uid_domain=uid_domain_for(options["event"]),
                    location=existing.location if existing else "",
                )  # fmt: skip
                event = existing
                if event is None:
                    zone = options["timezone"] or programme.timezone
                    if not zone:
                        guess = guess_zone(programme)
                        if not guess.name:
                            raise CommandError(
                                f"event {options['event']!r} does not exist and its time zone "
                                f"is unknown: {guess.reason}; give --timezone (an IANA name "
                                "such as Europe/Paris) to create it"
                            )
                        zone = guess.name
                        programme.notes.append(f"time zone {zone}: {guess.reason}")
                    event = create_event(
                        slug=options["event"], name=options["name"] or programme.name,
                        timezone=zone, languages=options["languages"],
                    )  # fmt: skip
                    self.stdout.write(f"Created event {event.slug} ({event.timezone})")
                with tqdm(
                    total=len(programme.sessions), unit="session", desc="Loading",
                    file=sys.stderr, disable=None, leave=False,
                ) as bar:  # fmt: skip
                    report = load_import(
                        event, programme, to_draft=options["to_draft"],
                        source="import: " + ", ".join(n for n, _ in files),
                        is_complete=not options["partial"],
                        accept_new_keys=options["accept_new_keys"], by=COMMAND_LINE,
                        keep_reservations_over_seats=options["keep_reservations_over_seats"],
                        prefer_source=options["prefer_source"],
                        progress=lambda done, total: bar.update(done - bar.n),
                    )  # fmt: skip
                if not options["to_draft"]:  # what attendees' programme was imported from
                    Event.objects.filter(pk=event.pk).update(import_digest=digest)
            # After the load is committed: the worker embeds the sessions whose text changed.
            queued = not (options["skip_embeddings"] or options["to_draft"]) and (
                queue_embeddings(event)
            )
        except ConfschedError as exc:
            raise CommandError(f"{exc}\nNothing was imported.") from exc
        self._print(event, report, len(files))
        if options["to_draft"]:
            self.stdout.write("Loaded into the draft: attendees see it when an editor releases it.")
        if queued:
            self.stdout.write(QUEUED)

    def _print(self, event: Event, report: LoadReport, file_count: int) -> None:
        out = self.stdout
        out.write(
            f"Imported {file_count} file(s) into {event.slug}: "
            f"{len(report.created)} sessions created, {len(report.updated)} updated, "
            f"{report.unchanged} unchanged, {len(report.cancelled)} cancelled, "
            f"{len(report.flagged)} flagged for review; "
            f"speakers {report.speakers_created} created, {report.speakers_updated} updated."
        )
        if report.version:
            out.write(f"Schedule version {report.version.number}: {report.version.summary}.")
        else:
            out.write("Nothing changed: no new schedule version.")
        if report.seats_changed:
            out.write(f"Seats changed on {report.seats_changed} session(s).")
        for title in report.created:
            out.write(f"  created: {title}")
        for title, fields in report.updated:
            out.write(f"  updated: {title} ({', '.join(fields)})")
        for title in report.cancelled:
            out.write(self.style.WARNING(f"  cancelled: {title} (no longer in the source)"))
        for title, note in report.flagged:
            out.write(self.style.WARNING(f"  flagged: {title}: {note}"))
        for note in report.notes:
            out.write(f"  note: {note}")
        for warning in report.warnings:
            out.write(self.style.WARNING(f"  warning: {warning}"))
        for conflict in report.conflicts:
            out.write(self.style.WARNING(f"  held: {conflict}"))
        for line in report.released:
            out.write(f"  released: {line}")
