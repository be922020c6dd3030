"""A warning while the database does not hold to one account per e-mail address (emails.py):
after an upgrade that found an address held twice, until `confsched unique-emails` makes the
index. A database check: `confsched check --database default` and every `confsched migrate`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.checks import CheckMessage, Tags, Warning, register
from django.db import DatabaseError

from confsched.web.accounts import emails


@register(Tags.database)
def unique_emails(
    app_configs: Any, databases: list[str] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    found: list[CheckMessage] = []
    for alias in databases or []:
        try:
            if not emails.is_missing_after_migration(alias):
                continue
            advice = emails.merge_advice(emails.duplicates(User.objects.using(alias)))
        except DatabaseError:  # not reachable, or not migrated: other checks and errors say so
            continue
        found.append(Warning(advice, id="web_accounts.W001"))
    return found
