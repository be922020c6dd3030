"""confsched serve: the production server (gunicorn, static files through WhiteNoise), with
the background worker (mail; search by meaning's embeddings with the semantic extra) beside it
on the embedded default."""

from __future__ import annotations

import ctypes
import fcntl
import multiprocessing
import os
import signal
import subprocess
import sys
from argparse import BooleanOptionalAction
from pathlib import Path
from typing import Any, TextIO

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from confsched.search.semantic import has_extra

LOCK_NAME = ".collectstatic.lock"


def _collect_in_child() -> None:
    call_command("collectstatic", interactive=False, verbosity=0)


def collect_static(*, out: TextIO | None = None) -> None:
    """collectstatic under an exclusive lock in the data folder, in a forked child process.

    Two `serve` started at once on one data folder would both write the same files and the
    manifest, and one dies on a file the other just moved; the lock makes the second wait and
    then find the work done. flock is released by the kernel when the process ends, so a killed
    server never leaves the folder locked.

    The child does the work because what collectstatic allocates (each file read, hashed and
    compressed) stays in the process that ran it: 30 MiB in gunicorn's master, copied into
    every web worker's resident memory at fork (bench/semantic.py's web worker RSS).
    """
    data_dir = Path(settings.DATA_DIR)
    data_dir.mkdir(parents=True, exist_ok=True)
    with (data_dir / LOCK_NAME).open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if out is not None:
                out.write("Waiting for another confsched to finish collecting static files\n")
                out.flush()
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            child = multiprocessing.get_context("fork").Process(target=_collect_in_child)
            child.start()
            child.join()
            if child.exitcode != 0:
                raise CommandError(
                    f"collectstatic failed (exit code {child.exitcode}); its error is above"
                )
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# The worker runs below the web workers' CPU priority: embedding a whole programme takes every
# core it is given, and pages and searches asked for meanwhile come first (bench/semantic.py
# without --seed-vectors: searches while 6,000 sessions were embedded).
WORKER_NICENESS = 10


def _as_worker() -> None:
    # Linux's PR_SET_PDEATHSIG: the worker gets SIGTERM if `serve` itself is killed.
    with_errors = ctypes.CDLL(None, use_errno=True)
    with_errors.prctl(1, signal.SIGTERM)
    os.nice(WORKER_NICENESS)


def start_worker(*, out: TextIO) -> subprocess.Popen[bytes]:
    """`confsched worker` as a child process: it sends the queued mails and, with the semantic
    extra, loads the model once for the machine and embeds the queued sessions."""
    if not has_extra():
        out.write("Search by meaning is off (no semantic extra): search finds words.\n")
        out.write("Starting the background worker (confsched worker): mail\n")
    else:
        out.write("Starting the background worker (confsched worker): mail, search by meaning\n")
    out.flush()
    return subprocess.Popen(  # noqa: S603 - our own command
        [sys.executable, "-m", "confsched.cli", "worker", "--verbosity", "0"],
        preexec_fn=_as_worker,  # noqa: PLW1509 - only prctl and nice, before exec
    )


def stop_worker(worker: subprocess.Popen[bytes] | None) -> None:
    if worker is None or worker.poll() is not None:
        return
    worker.terminate()
    try:
        worker.wait(timeout=10)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


# Addresses that mean "every interface": no one opens a page at them.
_EVERY_INTERFACE = {"0.0.0.0", "::", ""}  # noqa: S104 - names them, binds nothing


def own_address(address: str, *, host: str) -> None:
    """Links in mails start at CONFSCHED_BASE_URL; unset, at the address served here (forked
    workers and the background worker inherit it), if a reader can open it."""
    if settings.CONFSCHED_BASE_URL or host in _EVERY_INTERFACE:
        return
    settings.CONFSCHED_BASE_URL = address
    os.environ["CONFSCHED_BASE_URL"] = address


def _is_embedded_database() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"


class Command(BaseCommand):
    help = (
        "Serve confsched with gunicorn; static files are collected first and served by WhiteNoise."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("CONFSCHED_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument(
            "--workers",
            type=int,
            default=int(os.environ.get("WEB_CONCURRENCY", str(min(4, (os.cpu_count() or 1) * 2)))),
        )
        # Threads per worker. Each worker is one Python process whose threads take turns at one
        # interpreter: more threads queue more requests behind one another in a worker while
        # another worker idles. In a rush of 1,000 reservations through nginx (4 workers,
        # bench/reservations.py, quiet machine) one thread answered 571-586/s with a p99 of
        # 103-106 ms, two 548-559/s with 194-226 ms. A slow request (a PDF's first render, an
        # upload) holds up its own worker only: more workers, not threads, serve more.
        parser.add_argument(
            "--threads", type=int, default=int(os.environ.get("CONFSCHED_THREADS", "1"))
        )
        parser.add_argument("--no-collectstatic", action="store_true")
        # On the embedded default (SQLite) one machine serves everything, so `serve` runs the
        # background worker too (mail, and search by meaning's embeddings with the extra); with
        # PostgreSQL it runs as its own service (deploy/README.md).
        parser.add_argument(
            "--worker", action=BooleanOptionalAction, default=None,
            help="start `confsched worker` beside gunicorn (default: on SQLite only)",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        from gunicorn.app.base import BaseApplication

        if not options["no_collectstatic"]:
            collect_static(out=self.stdout)
        # Imported only now: WhiteNoise indexes the collected files when the app is built.
        # WeasyPrint takes 0.9 s to import: once here, before the workers are forked and share
        # it, not in the first PDF request of each worker.
        import weasyprint  # noqa: F401

        from confsched.web.schedule.prepared import ready_worker
        from confsched.web.site.gunicorn_hooks import (
            close_when_body_may_be_unread,
            load_before_fork,
            return_freed_memory,
        )
        from confsched.wsgi import application

        loaded = load_before_fork()

        bind = f"{options['host']}:{options['port']}"
        if ":" in options["host"]:
            bind = f"[{options['host']}]:{options['port']}"
        own_address(f"http://{bind}", host=options["host"])
        config = {
            "bind": bind,
            "workers": options["workers"],
            "threads": options["threads"],
            "accesslog": "-",
            "timeout": 30,
            # Phones starring every few seconds keep their connection (gunicorn's default is 2 s).
            "keepalive": 5,
            "graceful_timeout": 10,
            # A request that may get a 413 with its body unread closes its connection.
            "pre_request": close_when_body_may_be_unread,
            # Each worker prepares the current events' session pages, then freezes what it holds.
            "post_worker_init": ready_worker,
            # After a request that grew the worker by 16 MiB, freed memory goes back.
            "post_request": return_freed_memory,
        }

        class Server(BaseApplication):
            def load_config(self) -> None:
                for key, value in config.items():
                    self.cfg.set(key, value)

            def load(self):  # noqa: ANN202 - gunicorn's hook returns the WSGI callable
                return application

        with_worker = options["worker"]
        if with_worker is None:
            with_worker = _is_embedded_database()
        worker = start_worker(out=self.stdout) if with_worker else None
        self.stdout.write(
            f"Loaded the URL patterns, {loaded['templates']} templates, "
            f"{loaded['languages']} languages"
            + "".join(f", {name}" for name in loaded["modules"])
            + " for the workers to share"
        )
        self.stdout.write(f"Serving confsched at http://{bind}/ (Ctrl-C stops)")
        self.stdout.flush()
        try:
            Server().run()
        finally:
            stop_worker(worker)
