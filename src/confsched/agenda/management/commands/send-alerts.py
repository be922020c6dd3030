"""confsched send-alerts --base-url https://schedule.example.org: mail the digests owed."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from confsched.agenda.alerts import InvalidBaseURLError, send_alerts


class Command(BaseCommand):
    help = (
        "Email each attendee who turned alerts on one digest per schedule version that changed "
        "sessions they starred. Safe to run from cron or a timer, even two at once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--base-url",
            default=os.environ.get("CONFSCHED_BASE_URL", ""),
            help="the site's address, for the links in emails (default: $CONFSCHED_BASE_URL)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        verbose = options["verbosity"] > 1
        try:
            report = send_alerts(
                base_url=options["base_url"], progress=self.stdout.write if verbose else None
            )
        except InvalidBaseURLError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{report.sent} sent, {len(report.failed)} failed")
        if report.failed:
            raise CommandError(
                f"{len(report.failed)} digest(s) could not be sent and will be retried on the "
                f"next run: {', '.join(report.failed)}"
            )
