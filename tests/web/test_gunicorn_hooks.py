"""What `confsched serve`'s workers do once the app is loaded."""

from __future__ import annotations

import gc
import sys

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
