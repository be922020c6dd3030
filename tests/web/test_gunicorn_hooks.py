"""What `confsched serve`'s workers do once the app is loaded."""

from __future__ import annotations

import gc
import sys

import pytest

from confsched.web.site.gunicorn_hooks import freeze_what_the_app_loaded


def test_a_worker_freezes_what_loading_the_app_made() -> None:
    import confsched.wsgi  # noqa: F401 - the app a worker loads before the hook runs
    from confsched.web.site import collection

    gc.unfreeze()
    try:
        freeze_what_the_app_loaded(worker=None)
        # Django and our modules: tens of thousands of objects the collector no longer scans.
        assert gc.get_freeze_count() > 20_000
        assert collection.freezes_survivors is True
    finally:
        gc.unfreeze()
        collection.freezes_survivors = False


def test_a_served_worker_freezes_what_survived_a_build_s_collection_between_requests(
    monkeypatch,  # noqa: ANN001
) -> None:
    """What outlasts the full collection after a build (outlines, frames, kept parts) is moved
    out of the collector's view when the next request starts, never while one is in flight
    (its objects would never be collected), and only in a served worker."""
    from confsched.web.site import collection

    # Django's own receivers of these signals would touch the database: ours, as connected.
    started, finished = collection._freeze_survivors, collection._collect_if_asked

    kept_after_the_build = [{"outline": index} for index in range(5000)]

    def request(*, build: bool) -> None:
        started()
        if build:
            collection.collect_after_response()
        finished()

    def frozen_after(steps) -> list[bool]:  # noqa: ANN001
        seen = []
        for step in steps:
            before = gc.get_freeze_count()
            step()
            seen.append(gc.get_freeze_count() > before)
        return seen

    # Requests other tests left unfinished here (streamed, or raised through the test client).
    monkeypatch.setattr(collection, "_in_flight", 0)
    gc.unfreeze()
    try:
        request(build=True)  # not a served worker: nothing frozen
        assert frozen_after([lambda: request(build=False)]) == [False]
        monkeypatch.setattr(collection, "freezes_survivors", True)
        request(build=False)  # no build, no collection: nothing to freeze at the next start
        assert frozen_after([lambda: request(build=False)]) == [False]
        started()  # a request in flight (another thread)
        request(build=True)
        # The next one starts while the first is still in flight: not yet. Once none is, yes,
        # and once only.
        assert frozen_after([
            started,
            finished,
            finished,
            lambda: request(build=False),
            lambda: request(build=False),
        ]) == [False, False, False, True, False]  # fmt: skip
        assert gc.get_freeze_count() >= len(kept_after_the_build)
    finally:
        gc.unfreeze()


def test_the_master_loads_what_every_first_request_would_and_opens_no_connection() -> None:
    from pathlib import Path

    from django.apps import apps
    from django.db import connections
    from django.template import engines

    from confsched.web.site.gunicorn_hooks import load_before_fork

    # No django_db mark: pytest-django refuses any query, so loading must make none.
    held = [connection.connection for connection in connections.all()]
    loader = engines["django"].engine.template_loaders[0]  # the cached loader (DEBUG off)
    loader.reset()
    files = sorted(
        path.relative_to(Path(config.path) / "templates").as_posix()
        for config in apps.get_app_configs()
        if config.name.startswith("confsched")
        for path in (Path(config.path) / "templates").rglob("*.*")
    )

    loaded = load_before_fork()

    # The vectors' arithmetic (the semantic extra, installed in the tests), imported for all.
    assert loaded == {"templates": len(files), "languages": 3, "modules": ["numpy"]}
    assert "numpy" in sys.modules
    from threadpoolctl import threadpool_info

    # Its BLAS multiplies on one thread: OpenBLAS's threads spun on after each product.
    blas = {pool["internal_api"]: pool["num_threads"] for pool in threadpool_info()
            if pool["user_api"] == "blas"}  # fmt: skip
    assert blas == {"openblas": 1}
    assert "confsched/seat.html" in files and "confsched/schedule.html" in files
    assert set(files) <= set(loader.get_template_cache)
    # A forked worker must open its own connection: the master opens none.
    assert [connection.connection for connection in connections.all()] == held


def test_memory_is_handed_back_after_a_request_that_grew_the_worker(monkeypatch) -> None:  # noqa: ANN001
    from types import SimpleNamespace

    from confsched.web.site import gunicorn_hooks

    mib = 1024 * 1024
    readings = iter([100 * mib, 110 * mib, 130 * mib, 112 * mib, 120 * mib, 90 * mib])
    trims: list[int] = []
    monkeypatch.setattr(gunicorn_hooks, "resident_bytes", lambda: next(readings))
    monkeypatch.setattr(gunicorn_hooks, "malloc_trim", lambda: trims.append(1))
    worker = SimpleNamespace()
    seen = []
    for _ in range(4):
        gunicorn_hooks.return_freed_memory(worker, None, None, None)
        seen.append((len(trims), worker.confsched_resident // mib))
    # First request: where the worker stands. +10 MiB: nothing. +30: trimmed, down to 112,
    # the new mark. +8 over that: nothing. Then less than the mark: the mark follows.
    assert seen == [(0, 100), (0, 100), (1, 112), (1, 112)]
    gunicorn_hooks.return_freed_memory(worker, None, None, None)
    assert (len(trims), worker.confsched_resident // mib) == (1, 90)


def test_trimming_hands_freed_heap_pages_back_to_the_system() -> None:
    from confsched.web.site.gunicorn_hooks import malloc_trim, resident_bytes

    # 200,000 blocks of 600 bytes (malloc's, not Python's small-object arenas), one in a
    # thousand kept: the freed pages lie between kept ones, and glibc keeps them.
    blocks = [bytes(600) + str(i).encode() for i in range(200_000)]
    kept = blocks[::1000]
    del blocks
    before = resident_bytes()
    malloc_trim()
    after = resident_bytes()
    assert before is not None and after is not None and len(kept) == 200
    assert before - after >= 64 * 1024 * 1024  # of the ~125 MiB freed


def _current_events(ends: dict[str, int | None]) -> dict[str, object]:
    """Events named by slug, each ending that many days from today (None: undated), with two
    sessions; the first named was changed last."""
    from datetime import UTC, datetime, timedelta

    from django.utils import timezone

    from confsched.interchange import programme as pm
    from confsched.programme.models import Event
    from confsched.programme.services import create_event, load_programme

    start = datetime(2030, 5, 6, 8, tzinfo=UTC)
    made = {}
    for order, (slug, days) in enumerate(ends.items()):
        end = None if days is None else timezone.localdate() + timedelta(days=days)
        event = create_event(slug=slug, name=slug, timezone="UTC")
        Event.objects.filter(pk=event.pk).update(end_date=end)
        load_programme(event, pm.Programme(sessions=[
            pm.Session(key=f"{slug}{n}", title=f"Compilers part {n}", starts_at=start,
                       ends_at=start + timedelta(hours=1), room="Hall")
            for n in range(2)
        ]))  # fmt: skip
        changed = datetime(2030, 1, 1, tzinfo=UTC) - timedelta(hours=order)
        Event.objects.filter(pk=event.pk).update(updated_at=changed)
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
def test_a_starting_worker_prepares_the_similar_sessions_of_the_current_events(
    fresh_stores,  # noqa: ANN001
) -> None:
    from confsched.web.site.gunicorn_hooks import PREPARED_EVENTS, prepare_current_events
    from confsched.web.site.stencils import page_outlines

    events = _current_events(
        {"on": 3, "undated": None, "ended-yesterday": -1, "also-on": 10, "ended-before": -2}
    )
    assert PREPARED_EVENTS == 3
    # The three most recently changed of the four still on; none has vectors: titles' words.
    assert prepare_current_events() == ["on", "undated", "ended-yesterday"]
    prepared = {events[slug].pk for slug in ("on", "undated", "ended-yesterday")}
    assert set(fresh_stores._title_indexes) == prepared
    assert set(fresh_stores._listed) == prepared
    # Kept at each event's version: the first session page reads nothing of it again.
    on = events["on"]
    assert fresh_stores._title_indexes[on.pk][0] == (on.updated_at,)
    # And the outline every page starts from, at that version.
    assert {pk: page_outlines.get(pk).at for pk in prepared} == {
        events[slug].pk: events[slug].updated_at for slug in ("on", "undated", "ended-yesterday")
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

    event = _current_events({"on": 1})["on"]
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
    from confsched.web.site.gunicorn_hooks import prepare_current_events

    _current_events({"on": 1})

    def unreadable(event) -> bool:  # noqa: ANN001
        raise OperationalError("no such table: programme_session")

    monkeypatch.setattr(similar, "prepare", unreadable)
    with caplog.at_level("WARNING", logger="confsched.web.site.gunicorn_hooks"):
        assert prepare_current_events() == []
    assert caplog.messages == [
        "could not prepare the current events' session pages: no such table: programme_session"
    ]
    assert fresh_stores._title_indexes == {}


@pytest.mark.django_db
def test_serve_s_worker_hook_prepares_then_freezes(fresh_stores, monkeypatch) -> None:  # noqa: ANN001
    from confsched.web.site import gunicorn_hooks

    seen: list[str] = []
    monkeypatch.setattr(gunicorn_hooks, "prepare_current_events", lambda: seen.append("prepare"))
    monkeypatch.setattr(
        gunicorn_hooks, "freeze_what_the_app_loaded", lambda worker: seen.append(f"freeze {worker}")
    )
    gunicorn_hooks.ready_worker("w1")
    assert seen == ["prepare", "freeze w1"]
