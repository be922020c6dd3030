"""confsched worker: the site's background worker, one per machine.

It always runs the task queue's general queue ("default": the speakers' mails, and later
thumbnails and pushes), through django-tasks' database worker. With the semantic extra it is
also search by meaning's worker: it loads the model once, answers the web workers' query
embeddings on a Unix socket in the data folder (search/worker.py), and runs the "embed event X"
tasks of the `embeddings` queue, after any mail waiting (mails have the higher priority).
Without the extra (or when its model cannot be loaded) it says so and runs the general queue
alone, so that an operator runs the same one command whatever is installed. `confsched serve`
starts one beside gunicorn on the embedded default (SQLite); in production run it as its own
service (deploy/README.md). It lives with `serve`, above the domains whose tasks it runs.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django_tasks import DEFAULT_TASK_QUEUE_NAME
from django_tasks.signals import task_finished

from confsched.search import semantic, worker
from confsched.web.site.gunicorn_hooks import malloc_trim

GENERAL_ONLY = "running the general queue (mail) only."


def trim_after_embedding(sender: Any, task_result: Any, **kwargs: Any) -> None:
    """django-tasks' task_finished: after an "embed event X" task, the heap's free pages (what
    held the event's texts, digests and rows) go back to the system; the worker keeps the model
    for good, not what its last programme took."""
    if getattr(getattr(task_result, "task", None), "module_path", None) == (
        worker.embed_event.module_path
    ):
        malloc_trim()


class Command(BaseCommand):
    # The system checks load the URL patterns, views and API schemas (0.5 s) that the queue's
    # tasks may never use; `confsched check` and `serve` (which starts the worker) run them.
    requires_system_checks: list[str] = []

    help = (
        "Run the background worker: the task queue's general queue (mail); with the semantic "
        "extra, also search by meaning's query socket and embedding queue."
    )

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
        queues = [DEFAULT_TASK_QUEUE_NAME]
        if not semantic.has_extra():
            self._say(options, f"Search by meaning is off (no semantic extra): {GENERAL_ONLY}")
        elif not semantic.is_available():
            self._say(options, f"Search by meaning's model could not be loaded: {GENERAL_ONLY}")
        else:
            queues.append(worker.QUEUE)
            task_finished.connect(trim_after_embedding, dispatch_uid=__name__)
            if not options["batch"]:
                server = worker.serve_queries()
                self.stdout.write(f"Answering search queries on {server.server_address}")
                self.stdout.flush()
        call_command(
            "db_worker", queue_name=",".join(queues), interval=options["interval"],
            batch=options["batch"], reload=False, startup_delay=False,
            verbosity=options["verbosity"], stdout=self.stdout, stderr=self.stderr,
        )  # fmt: skip

    def _say(self, options: dict[str, Any], line: str) -> None:
        if options["verbosity"] >= 1:
            self.stdout.write(line)
            self.stdout.flush()
