"""Django's PostgreSQL backend, with a kept connection's health checked without a round trip,
and a connection left inside a transaction never kept.

With CONN_HEALTH_CHECKS, Django sends `SELECT 1` before the first query of every request that
reuses a connection, to find one the server closed (a restart, an idle timeout, an operator's
pg_terminate_backend) before a query fails on it. In a rush of reservations that is one of the
request's six round trips (bench/reservations.py). A server that closes a connection says so:
it sends an error message and closes its end. So a connection that is idle, with nothing
unread on its socket, is as the server left it after our last query; only when something did
arrive is Django's own `SELECT 1` asked.

Outside an atomic block Django has each statement commit on its own, so between requests a
connection holds no transaction. One that does was left so by a statement sent past Django (a
raw `BEGIN`, as agenda/seat_statements.py sends one) that an error cut short: it still holds
the rows and locks it took, and every other worker that needs them waits. Django's `SELECT 1`
succeeds inside an open transaction, and so kept such a connection for good. Here it is rolled
back as the request ends, which frees its locks before the next request anywhere is answered
(a closed connection frees them only once the server notices); a connection found so before a
request's first query is not used.
"""

from __future__ import annotations

import logging
import select

import psycopg
from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper
from psycopg.pq import TransactionStatus

log = logging.getLogger(__name__)


class DatabaseWrapper(PostgresWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != TransactionStatus.IDLE:
            return not self.is_left_in_transaction() and super().is_usable()
        readable, _, _ = select.select([connection.fileno()], [], [], 0)
        if readable:  # the server spoke unasked: a closing notice, or a notification
            return super().is_usable()
        return True

    def is_left_in_transaction(self) -> bool:
        """Whether the server holds a transaction (open or failed) that Django did not begin:
        outside every atomic block, with autocommit on."""
        connection = self.connection
        return (
            connection is not None
            and not connection.closed
            and connection.info.transaction_status != TransactionStatus.IDLE
            and not self.in_atomic_block
            and self.autocommit
        )

    def close_if_unusable_or_obsolete(self) -> None:
        # As each request starts and ends: a transaction left open ends now, not when this
        # worker's next request comes.
        if self.is_left_in_transaction():
            log.warning("a database connection was left inside a transaction: rolled back")
            try:
                self.connection.rollback()
            except psycopg.Error:
                self.close()
                return
        super().close_if_unusable_or_obsolete()
