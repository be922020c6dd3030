"""What a file does not say about a session is unknown, not empty: a re-import keeps it.

A Sched listing filtered by one facet shows some entries without their type or level; the
PyTorch demo's "Company: Intermediate" page lists two "Training Systems" sessions with no type.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from confsched.interchange.programme import Session as PSession
from confsched.interchange.sched.read import parse_sched_pages
from confsched.programme.models import Session
from confsched.programme.services import ImportOptions, import_files, load_programme
from tests.conftest import demo_files

pytestmark = pytest.mark.django_db

RESILIENT = "lightning-talk-training-embedding-model-resilientl"
TORCHSTORE = "torchstore-what-we-learned-building-distributed-st"


def _facts(event) -> dict[str, tuple]:  # noqa: ANN001 - a model instance
    return {
        key: (room, track, level, slides)
        for key, room, track, level, slides in Session.objects.filter(event=event)
        .order_by("key")
        .values_list("key", "room__name", "track__name", "level__name", "has_slides")
    }


def test_a_filtered_listing_says_nothing_of_the_type_it_does_not_show() -> None:
    intermediate = demo_files()[0]  # filtered by "Company: Intermediate"
    sessions = {s.key[:50]: s for s in parse_sched_pages([intermediate]).sessions}
    assert sessions[RESILIENT].track == ""
    assert sessions[RESILIENT].unknown == frozenset({"track", "has_slides"})
    assert sessions[TORCHSTORE].unknown == frozenset({"track", "has_slides"})


def test_the_pages_together_know_what_one_page_shows() -> None:
    sessions = {s.key[:50]: s for s in parse_sched_pages(demo_files()).sessions}
    assert sessions[RESILIENT].track == "Training Systems"
    assert "track" not in sessions[RESILIENT].unknown


@pytest.mark.parametrize("is_partial", [True, False])
def test_reimporting_one_filtered_listing_keeps_every_facet(demo_event, is_partial) -> None:  # noqa: ANN001
    before = _facts(demo_event)
    intermediate = demo_files()[0]
    import_files(demo_event, [intermediate], options=ImportOptions(is_partial=is_partial))
    after = _facts(demo_event)
    tracked = [key for key in after if key.startswith((RESILIENT, TORCHSTORE))]
    assert [after[key][1] for key in tracked] == ["Training Systems", "Training Systems"]
    assert after == before


def test_each_filtered_listing_alone_changes_no_facet(demo_event) -> None:  # noqa: ANN001
    before = _facts(demo_event)
    for page in demo_files()[:3]:
        import_files(demo_event, [page], options=ImportOptions(is_partial=True))
    assert _facts(demo_event) == before


def test_a_field_the_entry_shows_empty_is_emptied(demo_event, demo_programme) -> None:  # noqa: ANN001
    """Unknown is per field: a session whose file says "no track" loses its track."""
    key = next(s.key for s in demo_programme.sessions if s.key.startswith(RESILIENT))
    without_track = [
        replace(s, track="", unknown=frozenset()) if s.key == key else s
        for s in demo_programme.sessions
    ]
    load_programme(demo_event, replace(demo_programme, sessions=without_track))
    assert Session.objects.get(event=demo_event, key=key).track is None


def test_a_new_session_with_unknown_fields_gets_them_empty(demo_event) -> None:  # noqa: ANN001
    from datetime import UTC, datetime

    from confsched.interchange.programme import Programme

    fresh = PSession(
        key="new-one",
        title="New one",
        starts_at=datetime(2026, 4, 7, 9, tzinfo=UTC),
        ends_at=datetime(2026, 4, 7, 10, tzinfo=UTC),
        track="",
        unknown=frozenset({"track", "level"}),
    )
    load_programme(demo_event, Programme(sessions=[fresh]), is_complete=False)
    row = Session.objects.get(event=demo_event, key="new-one")
    assert (row.title, row.track, row.level) == ("New one", None, None)
