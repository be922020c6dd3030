"""confsched sync [--event SLUG]: re-import each event from its sync URL, when the source changed.

Meant for cron or a systemd timer. Each request is conditional (If-None-Match with the last
ETag, If-Modified-Since with the last Last-Modified), so an unchanged source answers 304 and
nothing else happens; a changed answer whose bytes are those last imported is "unchanged" too
(as `import --skip-unchanged`), which keeps the organizer's edits since. One event's failure is
reported and the others still sync; the command then exits with an error.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from confsched.core.errors import ConfschedError
from confsched.programme.models import Event
from confsched.programme.services import sync_event
from confsched.search.worker import QUEUED, queue_embeddings


class Command(BaseCommand):
    help = "Re-import every event that has a sync URL (or one event), when its source changed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", default="", metavar="SLUG", help="sync this event only")
        parser.add_argument(
            "--allow-private-hosts", action="store_true",
            help="let sync URLs reach loopback, private and link-local addresses; "
            "CONFSCHED_IMPORT_PRIVATE_HOSTS=1 does the same",
        )  # fmt: skip
        parser.add_argument(
            "--keep-reservations-over-seats", action="store_true",
            help="where a source gives a session fewer seats than people hold, keep their "
            "seats (without it, that event's sync is refused, naming the sessions)",
        )  # fmt: skip
        parser.add_argument(
            "--prefer-source", action="store_true",
            help="the source's values replace the fields speakers set themselves, which they "
            "hold no more (without it, what a speaker set is kept and the conflict reported)",
        )  # fmt: skip
        parser.add_argument(
            "--skip-embeddings", action="store_true",
            help="do not queue the changed sessions for search by meaning's worker",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        events = Event.objects.exclude(sync_url="").order_by("slug")
        if options["event"]:
            events = Event.objects.filter(slug=options["event"])
            if not events.exists():
                raise CommandError(f"no event with the slug {options['event']!r}")
            if not events[0].sync_url:
                raise CommandError(f"{options['event']} has no sync URL: set it in the admin")
        allow_private = options["allow_private_hosts"] or getattr(
            settings, "CONFSCHED_IMPORT_PRIVATE_HOSTS", False
        )
        failed = []
        for event in events:
            try:
                line = sync_event(
                    event, allow_private=allow_private,
                    keep_reservations_over_seats=options["keep_reservations_over_seats"],
                    prefer_source=options["prefer_source"],
                )  # fmt: skip
                self.stdout.write(f"{event.slug}: {line}")
                if not options["skip_embeddings"] and queue_embeddings(event):
                    # The worker embeds only the sessions whose text changed.
                    self.stdout.write(f"{event.slug}: {QUEUED}")
            except ConfschedError as exc:
                failed.append(event.slug)
                self.stderr.write(f"{event.slug}: {exc}\nNothing was imported into {event.slug}.")
        if failed:
            raise CommandError(f"{len(failed)} event(s) failed to sync: {', '.join(failed)}")
