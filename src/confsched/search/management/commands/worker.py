"""confsched worker: the embedding worker of search by meaning, one per machine.

It loads the model once, answers the web workers' query embeddings on a Unix socket in the data
folder (search/worker.py), and runs the task queue's "embed event X" tasks
(django-tasks' database worker, on the `embeddings` queue). `confsched serve` starts one beside
gunicorn on the embedded default (SQLite); in production run it as its own service
(deploy/README.md).
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from confsched.search import semantic, worker


class Command(BaseCommand):
    # The system checks load the URL patterns, views and API schemas (0.5 s) that embedding
    # never uses; `confsched check` and `serve` (which starts the worker) run them.
    requires_system_checks: list[str] = []

    help = "Run search by meaning's worker: query embeddings on a socket, the embedding queue."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval", type=float, default=1.0,
            help="seconds between looks at an empty queue (default: 1)",
        )  # fmt: skip
        parser.add_argument(
            "--batch", action="store_true",
            help="run the queued tasks, then stop (no socket): for cron or a one-off",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        if not semantic.is_available():
            raise CommandError(
                "search by meaning needs the semantic extra: pip install 'confsched[semantic]'"
            )
        if not options["batch"]:
            server = worker.serve_queries()
            self.stdout.write(f"Answering search queries on {server.server_address}")
            self.stdout.flush()
        call_command(
            "db_worker", queue_name=worker.QUEUE, interval=options["interval"],
            batch=options["batch"], reload=False, startup_delay=False,
            verbosity=options["verbosity"], stdout=self.stdout, stderr=self.stderr,
        )  # fmt: skip
