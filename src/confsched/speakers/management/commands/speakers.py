"""`confsched speakers link --event SLUG KEY`: the absolute address of one speaker's personal
link (made when the speaker has none); `--all` prints every speaker's as CSV; `--email` sets
the address the team mails it to; `--revoke` ends it, `--renew` puts a new one in its place.

`confsched speakers prune [--older-than HOURS] [--dry-run]`: remove the stored photos and
slides nothing points at any more (speakers/pruning.py); run it daily from cron or a timer."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from confsched.core.errors import ConfschedError
from confsched.programme.actors import COMMAND_LINE
from confsched.programme.models import Event, Speaker
from confsched.speakers import passes
from confsched.speakers.pruning import GRACE, prune


def absolute_link(token: str) -> str:
    return base_url() + reverse("web:speaker_pass", kwargs={"token": token})


def base_url() -> str:
    base: str = settings.CONFSCHED_BASE_URL
    if not base:
        raise CommandError(
            "Set CONFSCHED_BASE_URL (the site's address, e.g. https://schedule.example.org): "
            "a speaker's link is mailed or passed on, so it must be absolute."
        )
    return base


class Command(BaseCommand):
    help = (
        "Speakers' personal links: print one, or all as CSV; set the address; revoke or renew. "
        "Remove stored files nothing points at (prune)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        link = actions.add_parser("link", help="print a speaker's personal link, or all as CSV")
        link.add_argument("--event", required=True, metavar="SLUG", help="the event's slug")
        link.add_argument("key", nargs="?", help="the speaker's key (see the speaker's page)")
        link.add_argument("--all", action="store_true", help="every speaker, as CSV")
        link.add_argument("--email", default="", help="the address the link is mailed to")
        link.add_argument("--revoke", action="store_true", help="end the speaker's link")
        link.add_argument(
            "--renew", action="store_true", help="end the speaker's link and make a new one"
        )
        prune = actions.add_parser(
            "prune", help="remove stored photos and slides nothing points at any more"
        )
        prune.add_argument(
            "--older-than", type=float, default=GRACE.total_seconds() / 3600, metavar="HOURS",
            help="only files stored at least this long ago (default: 24; uploads in progress "
            "are stored before anything points at them)",
        )  # fmt: skip
        prune.add_argument("--dry-run", action="store_true", help="list them, remove nothing")

    def _prune(self, options: dict[str, Any]) -> None:
        hours = options["older_than"]
        if not 0 <= hours <= 24 * 365 * 10:
            raise CommandError(f"--older-than: {hours} is not a number of hours from 0 to 87600")
        done = prune(grace=timedelta(hours=hours), dry_run=options["dry_run"])
        verb = "would remove" if options["dry_run"] else "removed"
        for name in done.removed:
            self.stdout.write(f"{verb} {name}")
        self.stdout.write(
            f"{len(done.removed)} {verb}, {done.kept} in use, {done.young} younger than "
            f"{hours:g} h kept"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "prune":
            self._prune(options)
            return
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"No event {options['event']!r}")
        if options["all"]:
            if options["key"] or options["email"] or options["revoke"] or options["renew"]:
                raise CommandError("--all prints every link: give no KEY, --email, --revoke")
            base_url()  # refused before any link is made when the site's address is unknown
            self.stdout.write(passes.links_csv(event, link_for=absolute_link, by=COMMAND_LINE))
            return
        if not options["key"]:
            raise CommandError("Name a speaker by KEY, or give --all")
        speaker = Speaker.objects.filter(event=event, key=options["key"]).first()
        if speaker is None:
            raise CommandError(f"No speaker {options['key']!r} at {event.slug}")
        try:
            if options["revoke"]:
                passes.revoke_pass(speaker, by=COMMAND_LINE)
                self.stdout.write(f"The link of {speaker.name} is revoked.")
                return
            if options["renew"]:
                speaker_pass = passes.revoke_pass(speaker, renew=True, by=COMMAND_LINE)
            else:
                speaker_pass = passes.issue_pass(speaker, by=COMMAND_LINE, email=options["email"])
        except ConfschedError as error:
            raise CommandError(str(error)) from error
        assert speaker_pass is not None
        self.stdout.write(absolute_link(passes.token_for(speaker_pass)))
