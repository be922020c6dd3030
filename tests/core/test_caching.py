"""The shared cache with Redis frozen (a socket that takes connections and never answers): one
timeout pauses Redis for the whole process, every operation the app uses answers without it
meanwhile, and the throttles count in the database instead.

Redis is asked through redis-py's connections; the tests count the connections opened and the
commands sent, never the time taken.
"""

from __future__ import annotations

import socket
import threading
import uuid
from collections import Counter
from collections.abc import Iterator

import pytest
from django.core.cache import caches
from redis.connection import Connection

from confsched.agenda import feedback
from confsched.agenda.models import ThrottleCount
from confsched.core.caching import ForgivingRedisCache
from confsched.core.throttle import throttle_key
from tests.served_demo import reachable

pytestmark = pytest.mark.django_db


@pytest.fixture
def frozen_redis() -> Iterator[int]:
    """The port of a server that accepts every connection and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:  # closed: the test is over
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    listener.close()
    for connection in held:
        connection.close()


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many connections redis-py opened and how many commands it sent, from now on."""
    counted: Counter[str] = Counter()
    connect, send = Connection.connect, Connection.send_packed_command

    def counting_connect(self: Connection, *args: object, **kwargs: object) -> None:
        counted["connections"] += 1
        connect(self, *args, **kwargs)

    def counting_send(self: Connection, *args: object, **kwargs: object) -> None:
        counted["sends"] += 1
        send(self, *args, **kwargs)

    monkeypatch.setattr(Connection, "connect", counting_connect)
    monkeypatch.setattr(Connection, "send_packed_command", counting_send)
    return counted


def _redis_cache(settings: object, port: int, *, prefix: str = "") -> ForgivingRedisCache:
    settings.CACHES = {  # type: ignore[attr-defined]
        "default": {
            "BACKEND": "confsched.core.caching.ForgivingRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "KEY_PREFIX": prefix,
            # Short, so the one timeout the test waits for is short; the count is what's tested.
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    cache = caches["default"]
    assert isinstance(cache, ForgivingRedisCache)
    return cache


def test_with_redis_frozen_the_first_write_asks_once_and_the_database_counts(
    settings: object, frozen_redis: int, asked: Counter[str]
) -> None:
    _redis_cache(settings, frozen_redis)
    feedback.throttle(user_id=7, address="192.0.2.1")
    # One connection, whose first command timed out: the address's counter, right after the
    # account's, did not ask again.
    after_first = dict(asked)
    assert after_first["connections"] == 1
    for _ in range(4):
        feedback.throttle(user_id=7, address="192.0.2.1")
    assert dict(asked) == after_first
    counts = dict(ThrottleCount.objects.values_list("key", "hits"))
    assert counts == {"feedback:user:7": 5, "feedback:address:192.0.2.1": 5}


def test_the_throttle_still_refuses_past_the_limit_with_redis_frozen(
    settings: object, frozen_redis: int
) -> None:
    _redis_cache(settings, frozen_redis)
    for _ in range(feedback.ACCOUNT_LIMIT):
        feedback.throttle(user_id=8)
    with pytest.raises(feedback.FeedbackThrottledError):
        feedback.throttle(user_id=8)
    assert ThrottleCount.objects.get(key=throttle_key("feedback", "user", 8)).hits == 21


def test_every_operation_answers_without_redis_while_it_is_paused(
    settings: object, frozen_redis: int, asked: Counter[str]
) -> None:
    cache = _redis_cache(settings, frozen_redis)
    assert cache.get("k", "fallback") == "fallback"  # the one timeout: Redis pauses
    before = dict(asked)
    answers = {
        "get": cache.get("k", "fallback"),
        "get_many": cache.get_many(["a", "b"]),
        "get_or_set": cache.get_or_set("k", "made"),
        "set": cache.set("k", 1),
        "set_many": cache.set_many({"a": 1}),
        "add": cache.add("k", 1),
        "touch": cache.touch("k"),
        "delete": cache.delete("k"),
        "delete_many": cache.delete_many(["a"]),
        "has_key": cache.has_key("k"),
        "clear": cache.clear(),
        "count": cache.count("k", 60),
    }
    assert answers == {
        "get": "fallback", "get_many": {}, "get_or_set": "made", "set": None, "set_many": [],
        "add": False, "touch": False, "delete": False, "delete_many": None, "has_key": False,
        "clear": False, "count": None,
    }  # fmt: skip
    # A counter that is away holds no key, as Django's caches answer for a missing one.
    for operation in (cache.incr, cache.decr):
        with pytest.raises(ValueError, match="the shared cache is unreachable"):
            operation("k")
    assert dict(asked) == before


def test_the_pause_holds_for_every_thread_of_the_process(
    settings: object, frozen_redis: int, asked: Counter[str]
) -> None:
    """Django makes a cache object per thread; the pause is not that object's but the
    process's."""
    cache = _redis_cache(settings, frozen_redis)
    assert cache.get("k") is None
    before = dict(asked)
    seen: list[object] = []

    def other_thread() -> None:
        other = caches["default"]
        seen.extend([other is cache, other.get("k", "fallback"), other.add("k", 1)])

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert seen == [False, "fallback", False]
    assert dict(asked) == before


@pytest.fixture
def live_redis(settings: object) -> Iterator[ForgivingRedisCache]:
    if not reachable(6379):
        pytest.skip("Redis on 6379 is needed")
    # Keys of this test's own: other tests may share the Redis.
    cache = _redis_cache(settings, 6379, prefix=f"confsched-test-{uuid.uuid4().hex}")
    yield cache
    cache.delete_many(["a", "b", "throttle:feedback:user:9"])


def test_redis_counts_each_key_in_its_window(live_redis: ForgivingRedisCache) -> None:
    assert [live_redis.count("a", 60) for _ in range(3)] == [1, 2, 3]
    assert live_redis.count("b", 60) == 1
    assert live_redis.get("a") == 3
    # The window is the first hit's: later hits do not push its end back.
    client = live_redis._cache.get_client("a")
    assert 0 < client.ttl(live_redis.make_and_validate_key("a")) <= 60


def test_with_redis_the_throttle_writes_nothing_to_the_database(
    live_redis: ForgivingRedisCache,
) -> None:
    for _ in range(3):
        feedback.throttle(user_id=9)
    assert live_redis.get("throttle:feedback:user:9") == 3
    assert ThrottleCount.objects.count() == 0
