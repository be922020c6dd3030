"""Django's database sessions, read with one plain statement.

Every signed-in request reads its session first. Django's store asks the ORM, which compiles
the same query anew each time; this store sends the statement itself. What is read, when a
session counts as expired, and everything written are Django's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.db import connections, router
from django.utils import timezone

# The accounts backend (web/accounts/backends.py) by name: core imports nothing above it.
_DJANGO_BACKEND = "django.contrib.auth.backends.ModelBackend"
_OUR_BACKEND = "confsched.web.accounts.backends.AccountsBackend"


class SessionStore(DatabaseStore):
    def load(self) -> dict[str, Any]:
        model = self.model
        connection = connections[router.db_for_read(model)]
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s",  # noqa: S608 - our own table name
                [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None  # as Django's: a new key is made if the session is saved
            return {}
        data = self.decode(row[0])
        if data.get(BACKEND_SESSION_KEY) == _DJANGO_BACKEND:
            # Signed in before the accounts backend took ModelBackend's place: still signed in.
            data[BACKEND_SESSION_KEY] = _OUR_BACKEND
        return data
