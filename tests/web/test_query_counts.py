"""A schedule page costs the same number of queries for 3 sessions and for 300."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.services import create_event, load_programme

pytestmark = pytest.mark.django_db


def _event_with(count: int, slug: str):  # noqa: ANN202
    event = create_event(slug=slug, name=slug, timezone="Europe/Paris")
    load_programme(event, synthetic_programme(count))
    return event


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("page", ["", "grid/", "?q=person&level=advanced", "speakers/"])
def test_pages_cost_the_same_queries_for_3_and_300_sessions(client: Client, page: str) -> None:
    small = _event_with(3, "small")
    large = _event_with(300, "large")
    small_count = _queries(client, f"/{small.slug}/{page}")
    large_count = _queries(client, f"/{large.slug}/{page}")
    assert small_count == large_count
    # event + sessions (rooms, tracks, levels joined) + speaker links with speakers; the list
    # and grid read an outline of both first, then whole rows for the cards not kept (all here)
    expected = {"speakers/": 2, "?q=person&level=advanced": 3}.get(page, 5)
    assert large_count == expected
