"""confsched import --event SLUG FILE...: read a programme and load it into an event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from confsched.core.errors import ConfschedError
from confsched.interchange.formats import FORMATS, parse_files
from confsched.programme.models import Event
from confsched.programme.services import LoadReport, create_event, load_programme


class Command(BaseCommand):
    help = "Import a programme (format detected from content) into an event, creating it if needed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="files of one programme")
        parser.add_argument("--event", required=True, metavar="SLUG", help="event to load into")
        parser.add_argument("--name", default="", help="event name, when creating it")
        parser.add_argument(
            "--timezone", default="", metavar="ZONE", help="IANA zone, when creating the event"
        )
        parser.add_argument(
            "--format", default="", choices=["", *(fmt.name for fmt in FORMATS)],
            help="skip detection and read the files as this format",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        files = []
        for name in options["files"]:
            path = Path(name)
            try:
                files.append((path.name, path.read_bytes()))
            except OSError as exc:
                raise CommandError(f"{name}: cannot read: {exc.strerror}") from exc
        try:
            programme = parse_files(files, format_name=options["format"])
            with transaction.atomic():
                event = Event.objects.filter(slug=options["event"]).first()
                if event is None:
                    if not options["timezone"]:
                        raise CommandError(
                            f"event {options['event']!r} does not exist; give --timezone "
                            "(an IANA name such as Europe/Paris) to create it"
                        )
                    event = create_event(
                        slug=options["event"],
                        name=options["name"] or programme.name,
                        timezone=options["timezone"],
                    )
                    self.stdout.write(f"Created event {event.slug} ({event.timezone})")
                report = load_programme(event, programme)
        except ConfschedError as exc:
            raise CommandError(f"{exc}\nNothing was imported.") from exc
        self._print(event, report, len(files))

    def _print(self, event: Event, report: LoadReport, file_count: int) -> None:
        out = self.stdout
        out.write(
            f"Imported {file_count} file(s) into {event.slug}: "
            f"{len(report.created)} sessions created, {len(report.updated)} updated, "
            f"{report.unchanged} unchanged, {len(report.flagged)} flagged for review; "
            f"speakers {report.speakers_created} created, {report.speakers_updated} updated."
        )
        for title in report.created:
            out.write(f"  created: {title}")
        for title, fields in report.updated:
            out.write(f"  updated: {title} ({', '.join(fields)})")
        for title, note in report.flagged:
            out.write(self.style.WARNING(f"  flagged: {title}: {note}"))
        for note in report.notes:
            out.write(f"  matched: {note}")
        for warning in report.warnings:
            out.write(self.style.WARNING(f"  warning: {warning}"))
