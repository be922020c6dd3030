"""confsched embed [--event SLUG]: store vectors for sessions whose title or abstract changed.

In the foreground: imports, syncs and admin edits queue the same work for `confsched worker`
instead. For a one-off or cron without the worker: sessions whose text is unchanged cost a digest
each, nothing more.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from confsched.programme.models import Event
from confsched.search.semantic import refresh_embeddings


class Command(BaseCommand):
    # The system checks load the URL patterns, views and API schemas (0.5 s) that embedding
    # never uses; `confsched check` and `serve` (which starts the worker) run them.
    requires_system_checks: list[str] = []

    help = "Embed the sessions whose text changed, for search by meaning (the semantic extra)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", default="", metavar="SLUG", help="this event only")

    def handle(self, *args: Any, **options: Any) -> None:
        events = Event.objects.order_by("slug")
        if options["event"]:
            events = events.filter(slug=options["event"])
            if not events.exists():
                raise CommandError(f"no event with the slug {options['event']!r}")
        for event in events:
            report = refresh_embeddings(event)
            if not report.is_available:
                raise CommandError(
                    "search by meaning needs the semantic extra: pip install 'confsched[semantic]'"
                )
            self.stdout.write(
                f"{event.slug}: {report.embedded} session(s) embedded, {report.unchanged} unchanged"
            )
