"""The task queue in tests: what waits in it, and `confsched worker --batch` run inside the
test's transaction (as tests/search/test_semantic.py runs it)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from io import StringIO
from typing import Any
from unittest import mock

from django.core.management import load_command_class
from django.test import TestCase


def queued(**filters: Any) -> list[tuple[str, str, int, str, dict[str, Any]]]:
    """(task path, queue, priority, status, args) of every task, oldest first."""
    from django_tasks_db.models import DBTaskResult

    fields = ("task_path", "queue_name", "priority", "status", "args_kwargs")
    tasks = DBTaskResult.objects.filter(**filters).order_by("enqueued_at", "pk")
    return list(tasks.values_list(*fields))


def run_worker(*, with_extra: bool = False) -> str:
    """`confsched worker --batch` as the command line runs it (system checks included, when
    it asked for them), without the semantic extra unless told: what it wrote. The queue's
    worker closes connections it finds outside autocommit, as it should in its own process;
    here that would be the test's connection, so it is told not to."""
    command = load_command_class("confsched.web", "worker")
    options = vars(command.create_parser("confsched", "worker").parse_args(["--batch"]))
    out = StringIO()
    with (
        mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"),
        mock.patch("confsched.search.semantic.has_extra", return_value=with_extra),
    ):
        command.execute(**{**options, "skip_checks": False, "stdout": out, "stderr": StringIO()})
    return out.getvalue()


def committed() -> AbstractContextManager[list[Callable[[], Any]]]:
    """What the block asks to do once its transaction commits (queueing a task, deleting a
    file), done at the block's end: inside the test's own transaction nothing commits."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def run_worker_committed() -> str:
    """run_worker(), and what its tasks left for their transactions' commit (committed())."""
    with committed():
        return run_worker()
