"""What `confsched serve`'s workers do once the app is loaded."""

from __future__ import annotations

import gc

from confsched.web.site.gunicorn_hooks import freeze_what_the_app_loaded


def test_a_worker_freezes_what_loading_the_app_made() -> None:
    import confsched.wsgi  # noqa: F401 - the app a worker loads before the hook runs

    gc.unfreeze()
    try:
        freeze_what_the_app_loaded(worker=None)
        # Django and our modules: tens of thousands of objects the collector no longer scans.
        assert gc.get_freeze_count() > 20_000
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

    assert loaded == {"templates": len(files), "languages": 3}
    assert "confsched/seat.html" in files and "confsched/schedule.html" in files
    assert set(files) <= set(loader.get_template_cache)
    # A forked worker must open its own connection: the master opens none.
    assert [connection.connection for connection in connections.all()] == held
