"""confsched serve: the production server (gunicorn, static files through WhiteNoise)."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any, TextIO

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

LOCK_NAME = ".collectstatic.lock"


def collect_static(*, out: TextIO | None = None) -> None:
    """collectstatic under an exclusive lock in the data folder.

    Two `serve` started at once on one data folder would both write the same files and the
    manifest, and one dies on a file the other just moved; the lock makes the second wait and
    then find the work done. flock is released by the kernel when the process ends, so a killed
    server never leaves the folder locked.
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
            call_command("collectstatic", interactive=False, verbosity=0)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


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
        # another worker idles. In a rush of reservations (bench/reservations.py, 4 workers,
        # 4 to 5 runs each) the p99 was 577-1,143 ms with 4 threads, 430-671 with 2 and
        # 257-420 with 1, for about the same reservations/s. Two keep a slow request (a PDF,
        # an upload) from holding up its whole worker; more workers, not threads, serve more.
        parser.add_argument(
            "--threads", type=int, default=int(os.environ.get("CONFSCHED_THREADS", "2"))
        )
        parser.add_argument("--no-collectstatic", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        from gunicorn.app.base import BaseApplication

        if not options["no_collectstatic"]:
            collect_static(out=self.stdout)
        # Imported only now: WhiteNoise indexes the collected files when the app is built.
        # WeasyPrint takes 0.9 s to import: once here, before the workers are forked and share
        # it, not in the first PDF request of each worker.
        import weasyprint  # noqa: F401

        from confsched.web.site.gunicorn_hooks import close_when_body_may_be_unread
        from confsched.wsgi import application

        bind = f"{options['host']}:{options['port']}"
        if ":" in options["host"]:
            bind = f"[{options['host']}]:{options['port']}"
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
        }

        class Server(BaseApplication):
            def load_config(self) -> None:
                for key, value in config.items():
                    self.cfg.set(key, value)

            def load(self):  # noqa: ANN202 - gunicorn's hook returns the WSGI callable
                return application

        self.stdout.write(f"Serving confsched at http://{bind}/ (Ctrl-C stops)")
        self.stdout.flush()
        Server().run()
