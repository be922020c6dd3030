"""confsched export --event SLUG --format FORMAT [--output FILE]: FORMAT is xml, json,
schedule2, xcal (the frab/pentabarf dialect), rfc6321.xcal, ics or csv."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from confsched.interchange.formats import WRITERS
from confsched.programme.models import Event
from confsched.programme.services import render_export


class Command(BaseCommand):
    help = "Write an event's programme as frab XML, c3voc JSON, xCal, iCalendar or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", required=True, metavar="SLUG")
        parser.add_argument("--format", required=True, choices=sorted(WRITERS))
        parser.add_argument("--output", "-o", default="-", help="file to write; - for stdout")
        parser.add_argument("--base-url", default="", help="the site's address, for links")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"no event {options['event']!r}")
        body = render_export(event, options["format"], base_url=options["base_url"])
        if options["output"] == "-":
            sys.stdout.buffer.write(body)
            sys.stdout.flush()
        else:
            Path(options["output"]).write_bytes(body)
            self.stderr.write(f"Wrote {len(body)} bytes to {options['output']}")
