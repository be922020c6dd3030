"""The preview of uploaded slides (a PDF's first page), made by the worker from the general
queue, not by the upload's request: rendering a page takes the time of a page, and the speaker
need not wait for it. The slides are listed at once; the session page shows the preview once
it is made.

The task names the stored file, not a row: by the time it runs the slides may be public
(SlideFile) or waiting for review (a ProposedChange), or replaced. It writes the preview's name
wherever those slides are listed without one and marks the event changed, so that kept pages
are built again with it; slides gone by then leave a preview nothing points at, which
`confsched speakers prune` removes.
"""

from __future__ import annotations

from django.db import transaction
from django_tasks import DEFAULT_TASK_QUEUE_NAME, task

from confsched.core import clock, files
from confsched.programme.models import Event
from confsched.speakers.models import ProposedChange, SlideFile
from confsched.speakers.thumbnails import ThumbnailError, pdf_thumbnail

# After mails (a person waits for those), before waiting embeddings.
PREVIEW_PRIORITY = 5
MADE, GONE, NO_PREVIEW = "made", "gone", "no preview"


def queue_preview(name: str) -> None:
    """Ask the worker for the preview of the stored PDF `name`, once the caller's transaction
    commits (a worker must find the rows that list it)."""
    transaction.on_commit(lambda: make_preview.enqueue(name))


@task(priority=PREVIEW_PRIORITY, queue_name=DEFAULT_TASK_QUEUE_NAME)
def make_preview(name: str) -> str:
    """Render the stored PDF `name`'s first page and list it where those slides are; "made",
    or why not ("gone": the file is no longer stored; "no preview": it does not render)."""
    try:
        with files.open_file(name).stream as stream:
            data = stream.read()
    except FileNotFoundError:
        return GONE
    try:
        preview = pdf_thumbnail(data)
    except ThumbnailError:  # the slides are fine; pages show them without a preview
        return NO_PREVIEW
    thumbnail = files.save(files.SLIDES, preview, "image/webp", filename="preview.webp")
    with transaction.atomic():
        listed = SlideFile.objects.filter(name=name, thumbnail="")
        events = set(listed.values_list("session__event_id", flat=True))
        listed.update(thumbnail=thumbnail)
        waiting = ProposedChange.objects.select_for_update().filter(
            kind=ProposedChange.Kind.SLIDES, status=ProposedChange.Status.PENDING,
            values__name=name,
        )  # fmt: skip
        for change in waiting:
            change.values = {**change.values, "thumbnail": thumbnail}
            change.save(update_fields=["values"])
        # The session pages kept for the event's current state show the preview once rebuilt.
        Event.objects.filter(pk__in=events).update(updated_at=clock.now())
    return MADE
