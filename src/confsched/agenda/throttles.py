"""Throttle counters: in Redis when the site has it, else in the database, where every app
process sees the same count (core/throttle.py says why and how a window runs).

A Redis that times out pauses for the whole process (core/caching.py), and meanwhile the
database counts: the count starts again from what the database holds, which errs towards
letting writes through for one window, never towards refusing everyone.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection

from confsched.agenda.models import ThrottleCount
from confsched.core import clock
from confsched.core.throttle import Limit, counting_statement, in_shared_cache, throttle_key


def exceeds(limit: Limit, *parts: object) -> bool:
    """Count one more hit on the key `parts` make; whether it is past the limit."""
    return limit.is_exceeded_by(hits(throttle_key(*parts), seconds=limit.seconds))


def hits(key: str, *, seconds: int) -> int:
    """Count one more hit on `key` in its window of `seconds`; the hits so far, this one too."""
    counted = in_shared_cache(key, seconds=seconds)
    if counted is not None:
        return counted
    return hits_in_database(key, seconds=seconds, now=clock.now())


def hits_in_database(key: str, *, seconds: int, now: datetime) -> int:
    """`hits` counted in the database, in one statement (two workers never read the same
    count). A window that opens here also clears the windows that have closed."""
    quote = connection.ops.quote_name
    fields = {field.name: quote(field.column) for field in ThrottleCount._meta.get_fields()}
    statement = counting_statement(table=quote(ThrottleCount._meta.db_table), **fields)
    moment = connection.ops.adapt_datetimefield_value(now)
    ends = connection.ops.adapt_datetimefield_value(now + timedelta(seconds=seconds))
    with connection.cursor() as cursor:
        cursor.execute(statement, [key, ends, moment, moment])
        (counted,) = cursor.fetchone()
    if counted == 1:
        forget_closed_windows(now=now)
    return int(counted)


def forget_closed_windows(*, now: datetime) -> int:
    """Delete the counters whose window has closed; how many went."""
    deleted, _ = ThrottleCount.objects.filter(expires_at__lte=now).delete()
    return deleted
