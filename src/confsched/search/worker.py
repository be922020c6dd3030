"""Search by meaning's worker: the task queue's "embed event X", how far it is, and the Unix
socket on which the worker (`confsched worker`, one per machine) answers the web workers' query
vectors, so that they never load the model (search/semantic.py does the embedding)."""

from __future__ import annotations

import contextlib
import socketserver
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext
from django_tasks import TaskResultStatus, task

from confsched.programme.models import Event
from confsched.search.semantic import (
    embed_query,
    embed_texts,
    has_extra,
    refresh_embeddings,
    socket_path,
    stale_sessions,
)

QUEUE = "embeddings"


@dataclass(frozen=True)
class EmbeddingProgress:
    embedded: int  # sessions whose stored vector is of their present text
    total: int
    queued: bool  # an "embed this event" task waits or runs


def embedding_progress(event: Event) -> EmbeddingProgress:
    total, todo = stale_sessions(event)
    return EmbeddingProgress(
        embedded=total - len(todo), total=total, queued=_pending_task(event) is not None
    )


@task(queue_name=QUEUE)
def embed_event(event_id: int) -> int:
    """The queue's task: embed what changed in one event; the number of sessions embedded."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:  # deleted since it was queued
        return 0
    return refresh_embeddings(event).embedded


def _pending_task(event: Event) -> Any:
    """The event's "embed" task that waits or runs, if any: one waiting is enough."""
    from django_tasks_db.models import DBTaskResult  # noqa: PLC0415 - its app must be ready

    return (
        DBTaskResult.objects.filter(
            task_path=embed_event.module_path,
            status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING],
        )
        .filter(args_kwargs__args=[event.pk])
        .order_by("status")
        .first()
    )


def queue_embeddings(event: Event) -> bool:
    """Ask the worker to embed what changed in `event`; True when a task was queued, False when
    every session's vector is of its present text, or a task already waits (it will read the
    texts as they are when it starts)."""
    if not has_extra() or not stale_sessions(event)[1]:
        return False
    pending = _pending_task(event)
    if pending is not None and pending.status == TaskResultStatus.READY:
        return False
    embed_event.enqueue(event.pk)
    return True


# What the commands say after queueing.
QUEUED = (
    "Search by meaning: the sessions whose text changed are queued for the embedding worker "
    "(`confsched worker`; `confsched serve` runs one on the embedded default)."
)


def progress_text(progress: EmbeddingProgress) -> str:
    """The admin's words for how far the worker is, in the active language."""
    if not has_extra():
        return gettext(
            "Off: the semantic extra is not installed; search finds sessions by their words."
        )
    if progress.embedded == progress.total:
        return gettext("Search by meaning covers all %(total)s sessions.") % {
            "total": _n(progress.total)
        }
    text = gettext(
        "%(embedded)s of %(total)s sessions embedded; search by meaning covers them, words "
        "the rest."
    ) % {"embedded": _n(progress.embedded), "total": _n(progress.total)}
    if not progress.queued:
        text += " " + gettext(
            "Nothing is queued: run `confsched embed` or check that `confsched worker` runs."
        )
    return text


def _n(number: int) -> str:
    return number_format(number, force_grouping=True)


class _QueryHandler(socketserver.StreamRequestHandler):
    """One query a connection: a line of UTF-8 text in, its vector's 1,536 bytes out (nothing
    when the text cannot be read)."""

    def handle(self) -> None:
        line = self.rfile.readline(4096)
        try:
            text = line.decode().strip()
        except UnicodeDecodeError:
            return
        if text:
            self.wfile.write(embed_query(text).tobytes())


class QueryServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def serve_queries(path: Path | None = None) -> QueryServer:
    """Answer query embeddings on the worker's socket, from a background thread; the model is
    loaded first, so that the first query is answered at once."""
    embed_texts(["warm up"])  # loads the model and builds its buffers
    path = path or socket_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # a socket left by a worker that was killed
    server = QueryServer(str(path), _QueryHandler)
    path.chmod(0o600)
    threading.Thread(target=server.serve_forever, name="semantic-queries", daemon=True).start()
    return server
