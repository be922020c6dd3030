"""Stored files nothing points at any more, removed: a photo or slides replaced or removed, an
edit rejected or replaced under review, an upload refused after it was stored.

A file counts as kept while a speaker's photo or slides, a proposal waiting for review or a
photo being prepared (speakers/photo_uploads.py: its upload as sent, however long the worker
takes to reach it) names it. A photo that failed names nothing: its upload as sent goes, which
the worker does itself unless it was stopped first. Files younger than the grace period stay
whatever points at them: an upload is stored before anything points at it
(speakers/keeping.py), and a request doing that may be running now. Old versions' pages that
linked to a replaced file then link to nothing: the speaker replaced it, and a removed photo
must not stay reachable.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.files.storage import Storage

from confsched.core import clock, files
from confsched.speakers.models import PhotoUpload, ProposedChange, SlideFile, SpeakerPhoto

GRACE = timedelta(hours=24)
FOLDERS = files.STORED_PREFIXES  # every folder uploads are stored in


@dataclass(frozen=True)
class Pruned:
    kept: int  # files something points at
    young: int  # unreferenced, but within the grace period
    removed: tuple[str, ...]  # the names removed (or, in a dry run, that would be)


def referenced() -> set[str]:
    """Every stored name a speaker's photo, slides, waiting proposal or photo being prepared
    names."""
    names: set[str] = set()
    for original, jpeg, squares in SpeakerPhoto.objects.values_list("original", "jpeg", "squares"):
        names |= {original, jpeg, *squares.values()}
    for name, thumbnail in SlideFile.objects.values_list("name", "thumbnail"):
        names |= {name, thumbnail}
    waiting = ProposedChange.objects.filter(status=ProposedChange.Status.PENDING)
    for values in waiting.values_list("values", flat=True):
        names |= set(_names_in(values))
    preparing = PhotoUpload.objects.filter(state=PhotoUpload.State.PENDING)
    names |= set(preparing.values_list("source", flat=True))
    return names - {""}


def _names_in(values: Any) -> Iterator[str]:  # noqa: ANN401 - a proposal's JSON
    if isinstance(values, str):
        if files.is_stored_name(values):
            yield values
    elif isinstance(values, dict):
        for value in values.values():
            yield from _names_in(value)
    elif isinstance(values, list):
        for value in values:
            yield from _names_in(value)


def stored(storage: Storage | None = None) -> Iterator[str]:
    store = files.storage_for(storage)
    for folder in FOLDERS:
        try:
            names = store.listdir(folder)[1]
        except FileNotFoundError:  # the file system's folder is made by the first upload
            continue
        for name in names:
            full = f"{folder}/{name}"
            if files.is_stored_name(full):  # only what save() makes; nothing else is touched
                yield full


def prune(
    *, grace: timedelta = GRACE, dry_run: bool = False, storage: Storage | None = None
) -> Pruned:
    store = files.storage_for(storage)
    keep = referenced()
    since = clock.now() - grace
    kept = young = 0
    removed: list[str] = []
    for name in sorted(stored(store)):
        if name in keep:
            kept += 1
        elif store.get_modified_time(name) > since:
            young += 1
        else:
            removed.append(name)
            if not dry_run:
                files.delete(name, storage=store)
    return Pruned(kept=kept, young=young, removed=tuple(removed))
