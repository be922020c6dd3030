"""confsched unique-emails: one account per e-mail address, made sure of.

Lists the addresses that more than one account has (with those accounts) and fails while there
are any; once there are none, makes the database's unique index that the upgrade had to leave
out (web/accounts/emails.py). Safe to run any time: with the index there it says so.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS

from confsched.web.accounts import emails


class Command(BaseCommand):
    help = "List e-mail addresses held by several accounts; with none, enforce one per address."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args: Any, **options: Any) -> None:
        had_index = emails.has_unique_index(options["database"])
        found = emails.make_unique_index(options["database"])
        if found:
            raise CommandError(emails.merge_advice(found))
        if had_index:
            self.stdout.write("One account per e-mail address: the database enforces it already.")
        else:
            self.stdout.write("One account per e-mail address: the database enforces it now.")
