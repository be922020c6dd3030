"""Django's database sessions, read with one plain statement.

Every signed-in request reads its session first. Django's store asks the ORM, which compiles
the same query anew each time; this store sends the statement itself. What is read, when a
session counts as expired, and everything written are Django's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
from django.db import connections, router
from django.utils import timezone


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
        return self.decode(row[0])
