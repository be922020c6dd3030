"""What a served worker reads as it starts, before it takes a request (`confsched serve`
makes `ready_worker` gunicorn's post_worker_init hook)."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from confsched.programme.models import Event
from confsched.search import similar
from confsched.web.schedule.frames import outline_of
from confsched.web.site.gunicorn_hooks import freeze_what_the_app_loaded

logger = logging.getLogger(__name__)

# How many of the events still on (ending yesterday or later, or undated), most recently
# changed first, each worker prepares when it starts.
PREPARED_EVENTS = 3


def prepare_current_events() -> list[str]:
    """What the pages of each current event read once per process, read by the worker as it
    starts, before it takes a request: the published outline (schedule.frames.outline_of) and
    what a session page's similar sessions need (search.similar.prepare). A worker handed its
    pages from Redis had read neither, so at the first change after it started it read the
    whole outline for its list (60 ms at 5,000 sessions) and the title index or vectors for its
    page of the renamed session; prepared, it reads only what the change touched, as the
    others do. At most PREPARED_EVENTS events, so that a site holding many costs no more. A
    database that cannot be read (not migrated yet, or down) leaves it to the first requests,
    as before. Returns the slugs prepared, for the test."""
    since = timezone.localdate() - timedelta(days=1)
    try:
        current = Event.objects.filter(Q(end_date__isnull=True) | Q(end_date__gte=since))
        events = list(current.order_by("-updated_at")[:PREPARED_EVENTS])
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
