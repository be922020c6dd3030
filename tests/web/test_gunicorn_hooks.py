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
