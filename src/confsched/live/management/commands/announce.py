"""confsched announce --event SLUG "TEXT" [--link URL] [--until "YYYY-MM-DD HH:MM"]
[--language fr "TEXTE"]…: what the team's announcements page does, from the command line."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from confsched.live.announcing import AnnouncementError, parse_local_time
from confsched.live.services import announce
from confsched.programme.models import Event


class Command(BaseCommand):
    help = (
        "Announce TEXT (in the event's default language) at the event: a banner on every page "
        "of it until --until (or until ended on the team's page), its feed, and a push to "
        "every device turned on."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("text", help="the text, in the event's default language")
        parser.add_argument("--event", required=True, help="the event's slug")
        parser.add_argument("--link", default="", help="an https:// address or a path on the site")
        parser.add_argument(
            "--until", default="", help='when it ends, "YYYY-MM-DD HH:MM" in the event\'s zone'
        )
        parser.add_argument(
            "--language", nargs=2, action="append", default=[], metavar=("CODE", "TEXT"),
            help="the text in another language the event offers (repeatable)",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"No event {options['event']!r}.")
        texts = {code: text for code, text in options["language"]}
        if event.default_language in texts:
            raise CommandError(
                f"The text in {event.default_language!r}, the event's default language, is "
                "TEXT itself: give it once."
            )
        texts[event.default_language] = options["text"]
        try:
            ends_at = parse_local_time(options["until"], zone=event.zone)
            row = announce(event, texts=texts, link=options["link"], ends_at=ends_at)
        except AnnouncementError as exc:
            raise CommandError(str(exc)) from None
        until = (
            row.ends_at.astimezone(event.zone).strftime("%Y-%m-%d %H:%M %Z")
            if row.ends_at
            else "it is ended"
        )
        self.stdout.write(f"Announced at {event.slug} (#{row.pk}), shown until {until}.")
