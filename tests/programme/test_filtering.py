"""Facet counts of the unfiltered schedule (counted in one pass) are those the general rule gives."""

from __future__ import annotations

import zoneinfo

import pytest

from confsched.programme import queries
from confsched.programme.filtering import FACETS, Filters, apply_filters

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("zone", ["Europe/Paris", "America/New_York", "Pacific/Auckland"])
def test_the_unfiltered_counts_are_what_a_filter_that_keeps_everything_counts(
    demo_event, zone: str
) -> None:
    outline = queries.published_outline(demo_event)
    at = zoneinfo.ZoneInfo(zone)
    unfiltered = apply_filters(outline, Filters(), zone=at)
    # Every session has slides or none: this filter keeps them all, through the general rule.
    everything = apply_filters(outline, Filters(slides=("yes", "no")), zone=at)
    assert [s.pk for s in unfiltered.sessions] == [s.pk for s in everything.sessions]
    assert unfiltered.counts == everything.counts
    assert len(unfiltered.sessions) == 28
    assert {facet: sum(unfiltered.counts[facet].values()) for facet in FACETS} == dict.fromkeys(
        FACETS, 28
    )
    assert unfiltered.unknown == []
