"""confsched send-reminders --base-url https://schedule.example.org: mail the reminders owed."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from confsched.agenda.alerts import InvalidBaseURLError
from confsched.agenda.reminders import send_reminders


class Command(BaseCommand):
    help = (
        "Email each attendee who asked for reminders by mail one reminder per time slot, "
        "before the sessions they have a seat in. Run it every minute from cron or a timer; "
        "safe even two at once. A reminder is never sent once its session has started."
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
            report = send_reminders(
                base_url=options["base_url"], progress=self.stdout.write if verbose else None
            )
        except InvalidBaseURLError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{report.sent} sent, {len(report.failed)} failed")
        if report.failed:
            raise CommandError(
                f"{len(report.failed)} reminder(s) could not be sent and will be retried on the "
                f"next run while their sessions have not started: {', '.join(report.failed)}"
            )
