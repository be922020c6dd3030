"""When a process collects the cycles a page build left, and what it then stops scanning."""

from __future__ import annotations

import gc
import threading

from django.core.signals import request_finished, request_started

# A build leaves thousands of model instances and template nodes in reference cycles; a full
# collection frees them before they add up to the next build's. It runs once the response is
# sent (Django's request_finished: gunicorn has written the whole answer by then), not before.
#
# A full collection scans every object the process keeps: outlines, frames, word indexes and
# kept parts (100,000 objects and 60 ms at 5,000 sessions, most of a session page's first
# build after a change, which the worker's next request waited for). In a served worker
# (gunicorn_hooks.freeze_what_the_app_loaded turns it on) what survived one is moved out of the
# collector's view (gc.freeze) when the next request starts, with no request in flight, so the
# next collection scans only what was made since. What is kept that way is freed as before by
# its count of references when dropped (outlines, frames, indexes and parts hold no cycles);
# only a cycle that was alive then would never be collected, and none is alive between
# requests but what the worker keeps.
_collection = threading.Event()
_survivors = threading.Event()  # a full collection ran since the last freeze
_in_flight = 0
_in_flight_lock = threading.Lock()
freezes_survivors = False  # set in served workers


def collect_after_response() -> None:
    """Ask for a full collection once the present response has been sent."""
    _collection.set()


def _freeze_survivors(**_: object) -> None:
    global _in_flight
    with _in_flight_lock:
        if freezes_survivors and _in_flight == 0 and _survivors.is_set():
            _survivors.clear()
            gc.freeze()
        _in_flight += 1


def _collect_if_asked(**_: object) -> None:
    global _in_flight
    with _in_flight_lock:
        _in_flight = max(0, _in_flight - 1)
    if _collection.is_set():
        _collection.clear()
        gc.collect()
        _survivors.set()


request_started.connect(_freeze_survivors, dispatch_uid="confsched-freeze-survivors")
request_finished.connect(_collect_if_asked, dispatch_uid="confsched-collect-after-response")
