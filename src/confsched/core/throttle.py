"""Throttles: how many times something was done in a window, counted where every app process
sees the same number.

A key's window opens at its first hit and lasts the limit's `seconds`; the first hit after it
closes opens the next (a fixed window, as simple to count in one statement as in Redis). Redis
counts when the site has it (REDIS_URL): one round trip (core/caching.py). Without Redis, or
while it is away, the database counts (agenda/throttles.py), with `counting_statement`: one
insert-or-increment that SQLite (3.35 and later) and PostgreSQL both take, so that two workers
counting at once never both read the same number. The default cache without Redis lives in each
process: counted there, each worker accepted the whole limit (76-80 writes of 100 got through
four workers where 20 should).
"""

from __future__ import annotations

from dataclasses import dataclass
from hashlib import sha256

from django.core.cache import caches

from confsched.core.caching import ForgivingRedisCache

MAX_KEY = 200  # the database's key column


@dataclass(frozen=True)
class Limit:
    """At most `count` hits per key in a window of `seconds`."""

    count: int
    seconds: int

    def is_exceeded_by(self, hits: int) -> bool:
        return hits > self.count


def throttle_key(*parts: object) -> str:
    """The counter's key for `parts` ("feedback", "user", 12), at most MAX_KEY characters: a
    longer one keeps its start for whoever reads the table and its digest to stay apart."""
    key = ":".join(str(part) for part in parts)
    if len(key) <= MAX_KEY:
        return key
    digest = sha256(key.encode()).hexdigest()
    return f"{key[: MAX_KEY - len(digest) - 1]}#{digest}"


def counting_statement(*, table: str, key: str, hits: str, expires_at: str) -> str:
    """One more hit on a key, returning its hits in the current window: a new row, or the row
    counted up, or its window restarted at 1 when it had expired. Its parameters are the key,
    the new window's end, and the current time twice. Every name comes quoted by the caller.

    In an upsert's SET every expression reads the row as it was, so `expires_at` is tested
    before either column changes."""
    expired = f"{table}.{expires_at} <= %s"
    return (
        # Only names, quoted by the caller, are put in; every value is a parameter.
        f"INSERT INTO {table} ({key}, {hits}, {expires_at}) VALUES (%s, 1, %s) "  # noqa: S608
        f"ON CONFLICT ({key}) DO UPDATE SET "
        f"{hits} = CASE WHEN {expired} THEN 1 ELSE {table}.{hits} + 1 END, "
        f"{expires_at} = CASE WHEN {expired} THEN excluded.{expires_at} "
        f"ELSE {table}.{expires_at} END "
        f"RETURNING {hits}"
    )


def in_shared_cache(key: str, *, seconds: int) -> int | None:
    """The key's hits counted in Redis; None without Redis (the per-process cache counts for
    one worker only) or while it is away: the caller counts in the database then."""
    shared = caches["default"]
    if not isinstance(shared, ForgivingRedisCache):
        return None
    return shared.count(f"throttle:{key}", seconds)
