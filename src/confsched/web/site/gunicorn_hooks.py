"""gunicorn server hooks for `confsched serve`.

A request whose body may be refused unread (RequestBodyLimitMiddleware's 413) must not keep its
connection: the unread body would be taken for the next request on it. The application cannot
say so itself: a WSGI application may not send a hop-by-hop header such as `Connection` (PEP
3333; wsgiref, under runserver, refuses one) and gunicorn drops it and writes its own. So the
decision is made here, before the application runs, by the middleware's rule: a declared length
over CONFSCHED_MAX_REQUEST_BYTES, or a chunked body. gunicorn then answers `Connection: close`
and closes. A staff import that is accepted closes its connection too: one reconnect.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import importlib.util
import os
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from confsched.core.numbers import parse_count


def may_be_refused_unread(headers: list[tuple[str, str]], *, limit: int) -> bool:
    """Whether a request with these (upper-cased) headers may get a 413 with its body unread."""
    for name, value in headers:
        if name == "TRANSFER-ENCODING":
            return True
        if name == "CONTENT-LENGTH" and parse_count(value, most=limit) is None:
            return True  # not a number (a 400), or over the limit (a 413): refused unread
    return False


def close_when_body_may_be_unread(worker: Any, req: Any) -> None:
    """gunicorn's pre_request hook: answer with `Connection: close` and close afterwards."""
    if may_be_refused_unread(req.headers, limit=settings.CONFSCHED_MAX_REQUEST_BYTES):
        req.force_close()


# A worker that grew by this much since it last handed memory back does so after the request.
TRIM_AFTER_GROWTH = 16 * 1024 * 1024


def resident_bytes() -> int | None:
    """This process's resident memory (Linux), else None."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return None


@cache
def _malloc_trim() -> Any:
    # The C library the process already has loaded (as serve's prctl call finds it): looked up
    # once, since find_library would start a program on every call.
    return getattr(ctypes.CDLL(None), "malloc_trim", None)


def malloc_trim() -> None:
    """glibc's malloc_trim(0): the heap's free pages go back to the system. Elsewhere nothing."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def return_freed_memory(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """gunicorn's post_request hook: after a request that left the worker 16 MiB or more above
    where it stood when it last did this, hand the heap's free pages back.

    A page built whole at 5,000 sessions (6 MB of HTML from 100,000 objects) frees what it made,
    but glibc keeps the freed pages between the ones still in use (cards kept for the next
    page): 24 MiB of a web worker's 227 (bench/semantic.py). Trimming after every request would
    cost each a walk of the heap; after growth only, it runs once per such page."""
    resident = resident_bytes()
    if resident is None:
        return
    last = getattr(worker, "confsched_resident", None)
    if last is None or resident < last:
        worker.confsched_resident = resident
    elif resident - last >= TRIM_AFTER_GROWTH:
        malloc_trim()
        worker.confsched_resident = resident_bytes() or resident


def freeze_what_the_app_loaded(worker: Any) -> None:
    """gunicorn's post_worker_init hook: what loading the app made (Django, our modules, the
    URL patterns, the compiled templates) lives as long as the worker, so the cycle collector
    stops scanning it. A page built after a change ends with a full collection (stencils.kept),
    which then looks only at what requests made: at 5,000 sessions it was 0.1-0.3 s of the
    first list after a change (bench/change_cost.py --no-freeze). So does what survives each of
    those collections, from then on (collection._freeze_survivors)."""
    from confsched.web.site import collection  # noqa: PLC0415 - the app is loaded by now

    gc.collect()
    gc.freeze()
    collection.freezes_survivors = True


def load_before_fork() -> dict[str, int]:
    """What every worker's first request would load, loaded once in gunicorn's master so that
    the workers it forks share it: the URL patterns (which import every view, and build the
    API's schemas), our compiled templates and each language's translations. Without it the
    first request of each worker paid about 0.25 s of CPU, all at once when a rush starts on
    a new server (bench/reservations.py). With the semantic extra, numpy too: the first session
    page of a worker imported it (about 0.1 s) for the similar sessions' vectors; and its BLAS
    is held to one thread (one_blas_thread). Opens no
    database connection: connections are never shared by forked processes. Returns what was
    loaded, for the log and the test."""
    from django.apps import apps
    from django.template import engines
    from django.urls import get_resolver, reverse
    from django.utils import translation

    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 - imports the URL configuration and every view
    reverse("web:home")  # fills the reverse lookup tables of every namespace
    engine = engines["django"]
    templates = 0
    for config in apps.get_app_configs():
        if not config.name.startswith("confsched"):
            continue
        root = Path(config.path) / "templates"
        for path in sorted(root.rglob("*.*")):
            engine.get_template(path.relative_to(root).as_posix())
            templates += 1
    languages = 0
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Schedule")  # loads the language's catalogs
        languages += 1
    modules = [name for name in ("numpy",) if importlib.util.find_spec(name) is not None]
    for name in modules:
        importlib.import_module(name)
    if modules:
        one_blas_thread()
    return {"templates": templates, "languages": languages, "modules": modules}


def one_blas_thread() -> None:
    """numpy's BLAS (OpenBLAS) multiplies on one thread in this process and the workers it
    forks. A session page's similar sessions are one product of the event's vectors with one
    (5,000 × 384: about a millisecond), and OpenBLAS's own threads, one per core, kept spinning
    after it: 20 ms of CPU per such page at 5,000 sessions, taken from the other workers on
    the same cores (bench/change_served.py --vectors). The embedding worker is a process of
    its own and keeps its threads."""
    from threadpoolctl import threadpool_limits  # noqa: PLC0415 - with numpy (semantic extra)

    threadpool_limits(limits=1, user_api="blas")
