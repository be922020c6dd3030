"""Django's PostgreSQL backend, with a kept connection's health checked without a round trip.

With CONN_HEALTH_CHECKS, Django sends `SELECT 1` before the first query of every request that
reuses a connection, to find one the server closed (a restart, an idle timeout, an operator's
pg_terminate_backend) before a query fails on it. In a rush of reservations that is one of the
request's six round trips (bench/reservations.py). A server that closes a connection says so:
it sends an error message and closes its end. So a connection that is idle, with nothing
unread on its socket, is as the server left it after our last query; only when something did
arrive, or it is not idle, is Django's own `SELECT 1` asked.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper
from psycopg.pq import TransactionStatus


class DatabaseWrapper(PostgresWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != TransactionStatus.IDLE:
            return super().is_usable()
        readable, _, _ = select.select([connection.fileno()], [], [], 0)
        if readable:  # the server spoke unasked: a closing notice, or a notification
            return super().is_usable()
        return True
