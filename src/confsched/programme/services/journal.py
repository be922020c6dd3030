"""Moving an event's version with a step of the outline journal (programme.OutlineStep): the
writers that know which sessions they touched say so, and a process holding the outline of the
version before reads only those sessions again (queries.outline_after) instead of 5,000.

A writer that does not know moves `updated_at` as before, without a step: the next reader then
reads the outline whole. A step must name every session whose outline row may have changed
(its columns, room, track or level, its speakers' names, companies or pictures) and every one
added, unpublished or deleted; a write that renames a room or edits a speaker shown on many
sessions moves the version without a step unless it names them all."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from confsched.programme.models import Event, OutlineStep

# Steps kept per event: a reader further behind than the last few reads the outline whole.
STEPS_KEPT = 32


def move_version(event: Event, touched: Iterable[int]) -> None:
    """Move `event`'s version (`updated_at`, to now) with a step naming `touched`, in the
    writer's transaction. The event's row is locked while its previous version is read, so two
    writers' steps follow one another (never two from the same version)."""
    with transaction.atomic():
        since = (
            Event._base_manager.select_for_update()
            .filter(pk=event.pk)
            .values_list("updated_at", flat=True)
            .get()
        )
        event.save(update_fields=["updated_at"])
        OutlineStep.objects.create(
            event=event, since=since, until=event.updated_at, sessions=sorted(set(touched))
        )
        old = OutlineStep.objects.filter(event=event).order_by("-pk")[STEPS_KEPT:]
        if first_old := old.values_list("pk", flat=True).first():
            OutlineStep.objects.filter(event=event, pk__lte=first_old).delete()
