"""One account per e-mail address, held by the database: what "the same address" means, the
unique index that enforces it on Django's own user table, and what to merge where an older
database already holds an address twice.

The same address: equal once the spaces around it are trimmed and its letters lower-cased, by
the database's LOWER(TRIM(email)). The unique index and every check before a write use that one
expression, so a check and the index never disagree. LOWER folds the ASCII letters on both
databases; PostgreSQL also folds other letters by its collation, where SQLite keeps them as
they are. An empty address is none: any number of accounts may have no address.

A database that holds an address twice when it migrates keeps working: the migration names the
addresses and their accounts and leaves the index out; `confsched check --database default`
(and every later `confsched migrate`) warns while it is missing; `confsched unique-emails`
lists what is left to merge and makes the index once nothing is.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Count, Q, QuerySet, UniqueConstraint, Value
from django.db.models.functions import Lower, Trim
from django.utils.translation import gettext_lazy

logger = logging.getLogger(__name__)

INDEX = "confsched_user_email_unique"
MIGRATION = ("web_accounts", "0001_unique_email")
COMMAND = "confsched unique-emails"
TAKEN = gettext_lazy(
    "An account with this e-mail address exists already: log in, or reset its password if you "
    "forgot it."
)


def normalized(expression: Any) -> Lower:
    """The address as it is compared: trimmed, lower-cased (see the module's docstring)."""
    return Lower(Trim(expression))


def unique_email() -> UniqueConstraint:
    """The index: one account per normalized address, empty addresses left out."""
    return UniqueConstraint(normalized("email"), condition=~Q(email=""), name=INDEX)


def holders(email: str, *, users: QuerySet[Any] | None = None) -> QuerySet[Any]:
    """The accounts whose address is the same as `email` (none for an empty one)."""
    users = User.objects.all() if users is None else users
    if not email.strip():
        return users.none()
    return users.alias(address=normalized("email")).filter(address=normalized(Value(email)))


@dataclass(frozen=True)
class Duplicate:
    """An address that more than one account has, and those accounts' (id, username)."""

    address: str
    accounts: tuple[tuple[int, str], ...]

    def __str__(self) -> str:
        names = ", ".join(f"{username} (id {pk})" for pk, username in self.accounts)
        return f"{self.address}: {names}"


def duplicates(users: QuerySet[Any] | None = None) -> list[Duplicate]:
    """Every address more than one account has, by address (two queries)."""
    users = (User.objects.all() if users is None else users).exclude(email="")
    by_address = users.annotate(address=normalized("email"))
    shared = list(
        by_address.values("address")
        .annotate(accounts=Count("pk"))
        .filter(accounts__gt=1)
        .order_by("address")
        .values_list("address", flat=True)
    )
    found: dict[str, list[tuple[int, str]]] = {address: [] for address in shared}
    rows = by_address.filter(address__in=shared).order_by("pk")
    for pk, username, address in rows.values_list("pk", "username", "address"):
        found[address].append((pk, username))
    return [Duplicate(address, tuple(accounts)) for address, accounts in found.items()]


def merge_advice(found: list[Duplicate]) -> str:
    """What to tell the operator of a database without the index: the addresses to merge."""
    if not found:
        return (
            "No e-mail address belongs to more than one account any more: run "
            f"`{COMMAND}` to have the database enforce one account per address."
        )
    lines = "\n".join(f"  {duplicate}" for duplicate in found)
    return (
        f"{len(found)} e-mail address(es) belong to more than one account, so one account per "
        f"address is not enforced yet:\n{lines}\n"
        "Keep one account per address (in the admin, change the address of the others or "
        f"delete them), then run `{COMMAND}`."
    )


def has_unique_index(using: str = DEFAULT_DB_ALIAS) -> bool:
    connection = connections[using]
    with connection.cursor() as cursor:
        return INDEX in connection.introspection.get_constraints(cursor, User._meta.db_table)


def make_unique_index(using: str = DEFAULT_DB_ALIAS) -> list[Duplicate]:
    """Make the index unless the addresses already held forbid it; what is left to merge (the
    index is made when that is nothing)."""
    found = duplicates(User.objects.using(using))
    if not found and not has_unique_index(using):
        with connections[using].schema_editor() as editor:
            editor.add_constraint(User, unique_email())
    return found


def is_missing_after_migration(using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether the migration that makes the index ran but could not make it."""
    recorder = MigrationRecorder(connections[using])
    if not recorder.has_table() or MIGRATION not in recorder.applied_migrations():
        return False
    return not has_unique_index(using)
