"""What a served worker reads as it starts, before it takes a request (`confsched serve`
makes `ready_worker` gunicorn's post_worker_init hook)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError, connection

from confsched.programme.models import Event
from confsched.search import similar
from confsched.web.schedule.frames import outline_of
from confsched.web.site.gunicorn_hooks import freeze_what_the_app_loaded

logger = logging.getLogger(__name__)

# How many events each worker prepares when it starts: the most recently changed, the ones whose
# next change is likeliest (an organizer at work, a sync every few minutes).
PREPARED_EVENTS = 3


def prepare_current_events() -> list[str]:
    """What the pages of each of the PREPARED_EVENTS most recently changed events read once per
    process, read by the worker as it starts, before it takes a request: the published outline
    (schedule.frames.outline_of) and what a session page's similar sessions need
    (search.similar.prepare). A worker handed its pages from Redis had read neither, so at the
    first change after it started it read the whole outline for its list (60 ms at 5,000
    sessions) and the vectors (or title index) for its page of the renamed session; prepared,
    it reads only what the change touched, as the others do. By the last change, not by dates:
    an event's programme changes before and during it, and a past one that changes is being
    looked at. A few events, so that a site holding many costs no more. A database that cannot
    be read (not migrated yet, or down) leaves it to the first requests, as before. Returns the
    slugs prepared, for the test."""
    try:
        events = list(Event.objects.order_by("-updated_at")[:PREPARED_EVENTS])
        for event in events:
            outline_of(event)
            similar.prepare(event)
    except DatabaseError as failed:
        logger.warning("could not prepare the current events' session pages: %s", failed)
        connection.close()  # the first request opens its own, as it would have
        return []
    return [event.slug for event in events]


def ready_worker(worker: Any) -> None:
    """gunicorn's post_worker_init hook: prepare the current events, then freeze what the
    worker holds."""
    prepare_current_events()
    freeze_what_the_app_loaded(worker)
