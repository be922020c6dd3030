"""`confsched speakers link --event SLUG KEY`: the absolute address of one speaker's personal
link (made when the speaker has none); `--all` prints every speaker's as CSV; `--email` sets
the address the team mails it to; `--revoke` ends it, `--renew` puts a new one in its place."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from confsched.core.errors import ConfschedError
from confsched.programme.actors import COMMAND_LINE
from confsched.programme.models import Event, Speaker
from confsched.speakers import passes


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
    help = "Speakers' personal links: print one, or all as CSV; set the address; revoke or renew."

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

    def handle(self, *args: Any, **options: Any) -> None:
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
