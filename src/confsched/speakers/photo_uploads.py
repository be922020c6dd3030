"""A speaker's new photo between the request that takes it and the pages that show it.

Re-encoding a photo (speakers/photos.py, steps 4 to 7) takes up to a second of CPU for a phone's
picture, and cutting the squares again around a moved focal point from the 2048-pixel original
about 0.1 s (bench/README.md): both are the worker's, from the task queue's general queue,
never a request's. The request runs only the checks that need no decoding
(photos.check_upload), so that a refused file is still refused at once with its reason; it
stores the upload as sent under a private name (core/files.py INCOMING: never served, since it
still carries its metadata), records a PhotoUpload and queues `prepare_photo` once its
transaction commits (a worker must find the row).

The task makes the files and hands them to the event's rules (review.take: live, or waiting
for review) exactly as the request used to, then deletes the row and the upload as sent. A
file refused once decoded, or editing closed since, makes the row failed with the reason the
speaker reads, and changes nothing else. Only the newest row of a speaker is ever applied:
the task of an older one applies nothing, nor does a second run of a task, nor a row the
speaker dropped by removing their photo, so a photo is never replaced by one sent before it.
A moved square is cut from the original the speaker has when the task runs, and only if it is
still the one they moved it on. Pages and exports read the speaker's photo, never these rows:
attendees see the photo before until the task has applied the new one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext
from django_tasks import DEFAULT_TASK_QUEUE_NAME, task

from confsched.core import files
from confsched.core.errors import ConfschedError, UploadError
from confsched.programme.models import Speaker
from confsched.speakers import photos, review, writing
from confsched.speakers.models import PhotoUpload, ProposedChange, SpeakerPhoto

Kind, State = PhotoUpload.Kind, PhotoUpload.State

# A person watches their page for it, as they wait for a mail: before previews (5) and
# waiting embeddings (0).
PHOTO_PRIORITY = 10
# What the task returns when it applied nothing (kept as its result in the queue's table);
# otherwise review's outcome (LIVE, WAITING, UNCHANGED).
GONE, REPLACED, FAILED = "gone", "replaced by a newer one", "failed"


def receive(
    speaker: Speaker, checked: photos.CheckedUpload, *, filename: str,
    focus: tuple[float, float], by: str, base: str,
) -> str:  # fmt: skip
    """Store the checked upload as sent (privately) and queue its preparation;
    review.PREPARING."""
    source = files.save(files.INCOMING, checked.content, checked.content_type, filename=filename)
    return _record(speaker, Kind.UPLOAD, source, filename=filename, focus=focus, by=by, base=base)


def move_square(speaker: Speaker, *, focus: tuple[float, float], by: str, base: str) -> str:
    """Queue the squares cut again around `focus`: the photo still being prepared, if any,
    prepared again with it, else the speaker's own (current_photo). review.UNCHANGED when the
    square is there already, or when there is no photo."""
    newest = latest(speaker)
    if newest is not None and newest.state == State.PENDING:
        if (newest.focus_x, newest.focus_y) == focus:
            return review.UNCHANGED
        return _record(
            speaker, newest.kind, newest.source, filename=newest.filename, focus=focus, by=by,
            base=base,
        )  # fmt: skip
    current = current_photo(speaker)
    if current is None or current[1] == focus:
        return review.UNCHANGED
    return _record(speaker, Kind.CROP, current[0], filename="", focus=focus, by=by, base=base)


def current_photo(speaker: Speaker) -> tuple[str, tuple[float, float]] | None:
    """The stored original the speaker's squares are cut from, and their focus: the photo
    waiting for review, if any, else the public one."""
    waiting = review.waiting_for(speaker).get(ProposedChange.Kind.PHOTO)
    if waiting is not None and not waiting.values.get(writing.REMOVE):
        return waiting.values["original"], (waiting.values["focus_x"], waiting.values["focus_y"])
    kept = SpeakerPhoto.objects.filter(speaker=speaker).first()
    return (kept.original, (kept.focus_x, kept.focus_y)) if kept is not None else None


def latest(speaker: Speaker) -> PhotoUpload | None:
    """The speaker's newest photo still being prepared, or that failed: their page says which."""
    return PhotoUpload.objects.filter(speaker=speaker).last()


def latest_of(speakers: Iterable[Speaker]) -> dict[int, PhotoUpload]:
    """latest() of each speaker that has one, by speaker id, in one query."""
    newest: dict[int, PhotoUpload] = {}
    for upload in PhotoUpload.objects.filter(speaker__in=list(speakers)):  # oldest first
        newest[upload.speaker_id] = upload
    return newest


def drop(speaker: Speaker) -> None:
    """Forget every photo of the speaker being prepared or failed: they removed their photo,
    and nothing sent before may bring one back."""
    rows = PhotoUpload.objects.filter(speaker=speaker)
    sources = set(rows.values_list("source", flat=True))
    rows.delete()
    _forget(sources)


def photo_values(processed: photos.ProcessedPhoto) -> dict[str, Any]:
    """Every file of the photo stored (core/files.py), as review.take and writing expect."""

    def keep(rendition: photos.Rendition) -> str:
        return files.save(
            files.PHOTOS, rendition.data, rendition.content_type, filename=rendition.filename
        )

    return {
        "original": keep(processed.original),
        "squares": {str(size): keep(processed.squares[size]) for size in processed.sizes},
        "jpeg": keep(processed.jpeg),
        "width": processed.width, "height": processed.height,
        "focus_x": processed.focus[0], "focus_y": processed.focus[1],
    }  # fmt: skip


@task(priority=PHOTO_PRIORITY, queue_name=DEFAULT_TASK_QUEUE_NAME)
def prepare_photo(upload_id: int) -> str:
    """Make the files of a speaker's new photo (or moved square) and take it as the event's
    rules say: review's outcome, or why nothing was taken (GONE, REPLACED, FAILED). Messages
    are in the language the speaker was answered in when they sent it."""
    upload = (
        PhotoUpload.objects.select_related("speaker__event")
        .filter(pk=upload_id, state=State.PENDING)
        .first()
    )
    if upload is None:  # applied, dropped or failed already: a second run does nothing
        return GONE
    with translation.override(upload.language or None):
        return _prepare(upload)


def _prepare(upload: PhotoUpload) -> str:
    if _is_replaced(upload):  # before spending a second on it
        return _drop_row(upload, REPLACED)
    try:
        review.check_open(upload.speaker.event)
        values = photo_values(_processed(upload))
    except (UploadError, review.EditingClosed) as refused:
        return _fail(upload, str(refused))
    except FileNotFoundError:  # removed with a row no longer there, as this one was read
        return _fail(upload, _went_wrong(upload))
    except Exception:
        _fail(upload, _went_wrong(upload))  # never "being prepared" for ever
        raise  # the queue keeps the traceback for whoever runs the site
    with transaction.atomic():
        row = PhotoUpload.objects.select_for_update().filter(pk=upload.pk).first()
        if row is None or row.state != State.PENDING:
            return GONE
        if _is_replaced(row):
            return _drop_row(row, REPLACED)
        if row.kind == Kind.CROP and (current_photo(row.speaker) or ("",))[0] != row.source:
            return _drop_row(row, GONE)  # the photo it was moved on was replaced or removed
        try:
            outcome = review.take(
                ProposedChange.Kind.PHOTO, upload.speaker, values, by=row.by, base=row.base
            )
        except ConfschedError as refused:  # closed meanwhile, or a proposal at the same moment
            return _fail(row, str(refused))
        # Applied: this row and any older one of the speaker are done with.
        done = PhotoUpload.objects.filter(speaker_id=row.speaker_id, pk__lte=row.pk)
        sources = set(done.values_list("source", flat=True))
        done.delete()
        _forget(sources)
    return outcome


def _processed(upload: PhotoUpload) -> photos.ProcessedPhoto:
    with files.open_file(upload.source, private=True).stream as stream:
        data = stream.read()
    focus = (upload.focus_x, upload.focus_y)
    if upload.kind == Kind.CROP:
        return photos.recrop(data, focus=focus)
    return photos.process_photo(data, filename=upload.filename, focus=focus)


def _went_wrong(upload: PhotoUpload) -> str:
    message = gettext("could not be prepared on this server; please try again")
    return str(UploadError(message, filename=upload.filename))


def _record(
    speaker: Speaker, kind: str, source: str, *, filename: str, focus: tuple[float, float],
    by: str, base: str,
) -> str:  # fmt: skip
    with transaction.atomic():
        # A failure the speaker has read is answered by what they send now.
        PhotoUpload.objects.filter(speaker=speaker, state=State.FAILED).delete()
        upload = PhotoUpload.objects.create(
            speaker=speaker, kind=kind, source=source, filename=filename[:200],
            focus_x=focus[0], focus_y=focus[1], language=translation.get_language() or "",
            by=by[:150], base=base[:500],
        )  # fmt: skip
        transaction.on_commit(lambda: prepare_photo.enqueue(upload.pk))
    return review.PREPARING


def _is_replaced(upload: PhotoUpload) -> bool:
    """The speaker sent something newer (being prepared, or failed): that one says what
    becomes of their photo."""
    return PhotoUpload.objects.filter(speaker_id=upload.speaker_id, pk__gt=upload.pk).exists()


def _drop_row(upload: PhotoUpload, outcome: str) -> str:
    PhotoUpload.objects.filter(pk=upload.pk).delete()
    _forget({upload.source})
    return outcome


def _fail(upload: PhotoUpload, reason: str) -> str:
    """The row failed with `reason`, its upload as sent deleted; older rows of the speaker
    dropped (applying one of those now would bring back a photo sent before this one)."""
    with transaction.atomic():
        rows = PhotoUpload.objects.filter(speaker_id=upload.speaker_id, pk__lte=upload.pk)
        sources = set(rows.values_list("source", flat=True))
        rows.filter(pk__lt=upload.pk).delete()
        rows.filter(pk=upload.pk, state=State.PENDING).update(
            state=State.FAILED, error=reason[:2000]
        )
        _forget(sources)
    return FAILED


def _forget(sources: set[str]) -> None:
    """Delete the uploads as sent that no row being prepared names any more, once this commits
    (a failed row keeps its name only to say which file failed). Only private ones: a moved
    square's source is the speaker's own original. Names are content, so two rows (the same
    file sent twice, by one speaker or two) may share one."""
    private = {name for name in sources if files.is_private_name(name)}

    def delete_unnamed() -> None:
        pending = PhotoUpload.objects.filter(source__in=private, state=State.PENDING)
        named = set(pending.values_list("source", flat=True))
        for name in private - named:
            files.delete(name)

    if private:
        transaction.on_commit(delete_unnamed)
