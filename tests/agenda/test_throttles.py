"""Throttle counters in the database (no Redis): one statement per hit, windows that restart,
closed windows cleared, and a count that workers writing at once all share.

The concurrent test runs on PostgreSQL (threads, each with its own connection, as workers
have); tests/web/test_served_throttles.py sends the same writes through a served site with
four workers on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, connections

from confsched.agenda import feedback
from confsched.agenda.models import ThrottleCount
from confsched.agenda.throttles import exceeds, forget_closed_windows, hits, hits_in_database
from confsched.core.throttle import MAX_KEY, Limit, throttle_key

NOON = datetime(2026, 4, 7, 12, 0, tzinfo=UTC)


@pytest.mark.django_db
def test_hits_count_up_within_a_window_and_start_again_after_it() -> None:
    counted = [
        hits_in_database("k", seconds=600, now=NOON + timedelta(seconds=s)) for s in (0, 1, 599)
    ]
    assert counted == [1, 2, 3]
    # The window is the first hit's: ten minutes after it, the count starts again.
    assert hits_in_database("k", seconds=600, now=NOON + timedelta(seconds=600)) == 1
    row = ThrottleCount.objects.get(key="k")
    assert (row.hits, row.expires_at) == (1, NOON + timedelta(seconds=1200))


@pytest.mark.django_db
def test_a_new_window_clears_the_closed_ones() -> None:
    hits_in_database("old", seconds=60, now=NOON)
    hits_in_database("open", seconds=600, now=NOON)
    hits_in_database("new", seconds=60, now=NOON + timedelta(seconds=120))
    assert sorted(ThrottleCount.objects.values_list("key", flat=True)) == ["new", "open"]
    assert forget_closed_windows(now=NOON + timedelta(hours=1)) == 2
    assert ThrottleCount.objects.count() == 0


@pytest.mark.django_db
def test_without_redis_the_database_counts() -> None:
    assert [hits("feedback:user:1", seconds=600) for _ in range(3)] == [1, 2, 3]
    assert list(ThrottleCount.objects.values_list("key", "hits")) == [("feedback:user:1", 3)]


@pytest.mark.django_db
def test_a_limit_is_exceeded_by_the_hit_after_its_count() -> None:
    limit = Limit(count=2, seconds=600)
    assert [exceeds(limit, "x", 1) for _ in range(4)] == [False, False, True, True]
    assert exceeds(limit, "x", 2) is False


def test_a_long_key_is_cut_with_its_digest_and_stays_apart() -> None:
    one, two = throttle_key("feedback", "a" * 300), throttle_key("feedback", "a" * 299 + "b")
    assert (len(one), len(two), one != two) == (MAX_KEY, MAX_KEY, True)
    assert one.startswith("feedback:aaaa") and one[-65] == "#"
    assert throttle_key("feedback", "user", 12) == "feedback:user:12"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)")
def test_a_hundred_writes_at_once_from_one_account_accept_twenty() -> None:
    """Ten threads, each with its own connection, send ten writes each at the same moment."""
    start = threading.Barrier(10)
    results: list[str] = []

    def worker() -> None:
        try:
            start.wait()
            for _ in range(10):
                try:
                    feedback.throttle(user_id=1, address="192.0.2.1")
                    results.append("accepted")
                except feedback.FeedbackThrottledError:
                    results.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(results) == {"accepted": 20, "refused": 80}
    assert ThrottleCount.objects.get(key="feedback:user:1").hits == 100
