"""The shared cache (Redis) as a cache: when it cannot be reached, pages are built and served
without it instead of answering 500.

Every read then misses and every write is dropped, each logged once per pause; for PAUSE seconds
after a failure Redis is not asked again, so a Redis that is down costs one short timeout per
process every few seconds, not one per request.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

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
            if time.monotonic() < self.paused_until:
                return missing(*args, **kwargs)
            try:
                return operation(self, *args, **kwargs)
            except _UNREACHABLE as exc:
                self.paused_until = time.monotonic() + self.PAUSE
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


class ForgivingRedisCache(RedisCache):
    """django's RedisCache whose reads miss and writes are dropped while Redis is away."""

    PAUSE = 5.0

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.paused_until = 0.0

    get = _forgiving(_default)(RedisCache.get)
    get_many = _forgiving(_empty)(RedisCache.get_many)
    set = _forgiving(_nothing)(RedisCache.set)
    set_many = _forgiving(lambda *args, **kwargs: [])(RedisCache.set_many)
    add = _forgiving(_not_done)(RedisCache.add)
    touch = _forgiving(_not_done)(RedisCache.touch)
    delete = _forgiving(_not_done)(RedisCache.delete)
    delete_many = _forgiving(_nothing)(RedisCache.delete_many)
    has_key = _forgiving(_not_done)(RedisCache.has_key)
    clear = _forgiving(_not_done)(RedisCache.clear)
