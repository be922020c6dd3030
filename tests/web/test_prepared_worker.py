"""What a served worker reads as it starts (web/schedule/prepared.py): the most recently changed
events' outline and what their session pages' similar sessions need."""

from __future__ import annotations

import pytest


def _events(*slugs: str) -> dict[str, object]:
    """Events with two sessions each, the first named changed last; "past" ended in 2020."""
    from datetime import UTC, date, datetime, timedelta

    from confsched.interchange import programme as pm
    from confsched.programme.models import Event
    from confsched.programme.services import create_event, load_programme

    start = datetime(2030, 5, 6, 8, tzinfo=UTC)
    made = {}
    for order, slug in enumerate(slugs):
        event = create_event(slug=slug, name=slug, timezone="UTC")
        load_programme(event, pm.Programme(sessions=[
            pm.Session(key=f"{slug}{n}", title=f"Compilers part {n}", starts_at=start,
                       ends_at=start + timedelta(hours=1), room="Hall")
            for n in range(2)
        ]))  # fmt: skip
        changed = datetime(2030, 1, 1, tzinfo=UTC) - timedelta(hours=order)
        ended = date(2020, 1, 1) if slug == "past" else None
        Event.objects.filter(pk=event.pk).update(updated_at=changed, end_date=ended)
        made[slug] = Event.objects.get(pk=event.pk)
    return made


@pytest.fixture
def fresh_stores(monkeypatch):  # noqa: ANN001, ANN201 - pytest fixture
    """The semantic module's per-process stores, empty, as in a worker just forked."""
    from confsched.search import semantic
    from confsched.web.site.stencils import page_outlines

    for name in ("_vectors", "_listed", "_title_indexes", "_revectored"):
        monkeypatch.setattr(semantic, name, {})
    page_outlines.clear()
    yield semantic
    page_outlines.clear()


@pytest.mark.django_db
def test_a_starting_worker_prepares_the_most_recently_changed_events(
    fresh_stores,  # noqa: ANN001
) -> None:
    from confsched.web.schedule.prepared import PREPARED_EVENTS, prepare_current_events
    from confsched.web.site.stencils import page_outlines

    events = _events("on", "past", "next", "older")
    assert PREPARED_EVENTS == 3
    # The three changed last, whatever their dates; none has vectors: the titles' words.
    assert prepare_current_events() == ["on", "past", "next"]
    prepared = {events[slug].pk for slug in ("on", "past", "next")}
    assert set(fresh_stores._title_indexes) == prepared
    assert set(fresh_stores._listed) == prepared
    # Kept at each event's version: the first session page reads nothing of it again.
    on = events["on"]
    assert fresh_stores._title_indexes[on.pk][0] == (on.updated_at,)
    # And the outline every page starts from, at that version.
    assert {pk: page_outlines.get(pk).at for pk in prepared} == {
        events[slug].pk: events[slug].updated_at for slug in ("on", "past", "next")
    }
    assert [row.key for row in page_outlines.get(on.pk).sessions] == ["on0", "on1"]
    assert sorted(fresh_stores.title_index(on).postings) == ["compilers", "part"]


@pytest.mark.django_db
def test_with_a_vector_for_every_session_the_title_index_waits(fresh_stores) -> None:  # noqa: ANN001
    import numpy as np
    from django.utils import timezone

    from confsched.programme.models import Event, Session
    from confsched.search.models import SessionEmbedding
    from confsched.search.similar import prepare

    event = _events("on")["on"]
    sessions = list(Session.objects.filter(event=event).order_by("pk"))
    for index, session in enumerate(sessions):
        vector = np.zeros(fresh_stores.DIMENSIONS, dtype="<f4")
        vector[index] = 1.0
        SessionEmbedding.objects.create(
            session=session, model_name=fresh_stores.MODEL_NAME, text_digest="-",
            vector=vector.tobytes(),
        )  # fmt: skip
    Event.objects.filter(pk=event.pk).update(embedded_at=timezone.now())
    event.refresh_from_db()

    assert prepare(event) is True
    assert fresh_stores._vectors[event.pk][1][0] == [session.pk for session in sessions]
    assert fresh_stores._title_indexes == {}
    # A session without a vector yet is found by its words: then the index is made too.
    SessionEmbedding.objects.filter(session=sessions[1]).delete()
    Event.objects.filter(pk=event.pk).update(embedded_at=timezone.now())
    event.refresh_from_db()
    assert prepare(event) is True
    assert list(fresh_stores._title_indexes) == [event.pk]


@pytest.mark.django_db
def test_a_database_that_cannot_be_read_leaves_it_to_the_first_requests(
    fresh_stores, monkeypatch, caplog  # noqa: ANN001
) -> None:  # fmt: skip
    from django.db import OperationalError

    from confsched.search import similar
    from confsched.web.schedule.prepared import prepare_current_events

    _events("on")

    def unreadable(event) -> bool:  # noqa: ANN001
        raise OperationalError("no such table: programme_session")

    monkeypatch.setattr(similar, "prepare", unreadable)
    with caplog.at_level("WARNING", logger="confsched.web.schedule.prepared"):
        assert prepare_current_events() == []
    assert caplog.messages == [
        "could not prepare the current events' session pages: no such table: programme_session"
    ]
    assert fresh_stores._title_indexes == {}


@pytest.mark.django_db
def test_serve_s_worker_hook_prepares_then_freezes(fresh_stores, monkeypatch) -> None:  # noqa: ANN001
    from confsched.web.schedule import prepared

    seen: list[str] = []
    monkeypatch.setattr(prepared, "prepare_current_events", lambda: seen.append("prepare"))
    monkeypatch.setattr(
        prepared, "freeze_what_the_app_loaded", lambda worker: seen.append(f"freeze {worker}")
    )
    prepared.ready_worker("w1")
    assert seen == ["prepare", "freeze w1"]
