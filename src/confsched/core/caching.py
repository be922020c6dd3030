"""The shared cache (Redis) as a cache: when it cannot be reached, pages are built and served
without it instead of answering 500.

Every read then misses and every write is dropped, each logged once per pause; for PAUSE seconds
after a failure Redis is not asked again by any thread of the process, so a Redis that is down
or frozen costs one socket timeout per process every few seconds, not one per request or per
operation. Every operation Django's RedisCache has goes through the pause (`incr` as much as
`get`), and so does `count`, the throttles' counter (core/throttle.py), which answers None while
Redis is away so that the throttle counts in the database instead.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, ClassVar, TypeVar

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
T = TypeVar("T")


def _forgiving(missing: Callable[..., Any]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Run the cache operation; while Redis is unreachable, answer `missing(*args)` instead."""

    def wrap(operation: Callable[..., T]) -> Callable[..., T]:
        @wraps(operation)
        def run(self: ForgivingRedisCache, *args: Any, **kwargs: Any) -> T:
            if self.is_paused():
                return missing(*args, **kwargs)
            try:
                return operation(self, *args, **kwargs)
            except _UNREACHABLE as exc:
                self.pause()
                logger.warning(
                    "the shared cache is unreachable (%s); serving without it for %s s",
                    exc, self.PAUSE,
                )  # fmt: skip
                return missing(*args, **kwargs)

        return run

    return wrap


def _default(key: str, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _empty(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return {}


def _not_done(*args: Any, **kwargs: Any) -> bool:
    return False


def _absent(key: str, *args: Any, **kwargs: Any) -> int:
    # What Django's caches do for a key they do not hold, as every read misses meanwhile.
    raise ValueError(f"Key {key!r} not found: the shared cache is unreachable")


class ForgivingRedisCache(RedisCache):
    """django's RedisCache whose reads miss and writes are dropped while Redis is away."""

    PAUSE = 5.0
    # Django makes a cache object per thread: the pause is the process's, per Redis address,
    # or each thread would wait out a timeout of its own.
    _paused_until: ClassVar[dict[str, float]] = {}

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._where = str(server)

    def is_paused(self) -> bool:
        """Whether Redis failed less than PAUSE seconds ago (in this process)."""
        return time.monotonic() < self._paused_until.get(self._where, 0.0)

    def pause(self) -> None:
        self._paused_until[self._where] = time.monotonic() + self.PAUSE

    def _count(self, key: str, seconds: int) -> int:
        """One more hit on `key` in its window of `seconds` (opened by its first hit), and the
        hits so far: one round trip, atomic (MULTI: SET NX EX, then INCR)."""
        stored = self.make_and_validate_key(key)
        client = self._cache.get_client(stored, write=True)
        with client.pipeline(transaction=True) as both:
            both.set(stored, 0, ex=seconds, nx=True)
            both.incr(stored)
            _, hits = both.execute()
        return int(hits)

    count = _forgiving(_nothing)(_count)
    get = _forgiving(_default)(RedisCache.get)
    get_many = _forgiving(_empty)(RedisCache.get_many)
    set = _forgiving(_nothing)(RedisCache.set)
    set_many = _forgiving(lambda *args, **kwargs: [])(RedisCache.set_many)
    add = _forgiving(_not_done)(RedisCache.add)
    incr = _forgiving(_absent)(RedisCache.incr)  # decr is BaseCache's: incr by -delta
    touch = _forgiving(_not_done)(RedisCache.touch)
    delete = _forgiving(_not_done)(RedisCache.delete)
    delete_many = _forgiving(_nothing)(RedisCache.delete_many)
    has_key = _forgiving(_not_done)(RedisCache.has_key)
    clear = _forgiving(_not_done)(RedisCache.clear)
