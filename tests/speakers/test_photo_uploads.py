"""A speaker's new photo is re-encoded by the worker, never by the upload's request
(speakers/photo_uploads.py): the request keeps the file as sent, privately, and queues one task;
the task applies it exactly as the request used to (live, or waiting for review), or fails with
the reason the speaker reads and changes nothing; only the newest of a speaker's photos is ever
applied; a moved square is cut again by the worker too."""

from __future__ import annotations

import hashlib
import io
from datetime import UTC, datetime
from typing import Any

import pytest
from django.utils import translation
from django_tasks_db.models import DBTaskResult
from PIL import Image

from confsched.core import files
from confsched.programme.models import Event, Speaker
from confsched.speakers import keeping, photos, pruning, review
from confsched.speakers.models import EditingRules, PhotoUpload, ProposedChange, SpeakerPhoto
from confsched.speakers.photo_uploads import GONE, prepare_photo
from confsched.speakers.writing import PHOTO_FIELDS
from tests.core.test_files import filesystem_settings
from tests.speakers.test_photo_refusals import png_declaring
from tests.task_queue import committed, queued, run_worker_committed

pytestmark = pytest.mark.django_db

BASE = "https://schedule.example.org"
TASK = "confsched.speakers.photo_uploads.prepare_photo"
WENT_WRONG = "could not be prepared on this server; please try again"


@pytest.fixture(autouse=True)
def _files(settings: Any, tmp_path: Any) -> None:  # noqa: ANN401
    settings.STORAGES = {**settings.STORAGES, "default": filesystem_settings(tmp_path / "m")}
    settings.CONFSCHED_BASE_URL = ""  # the site's address comes with the upload


@pytest.fixture
def speaker(demo_event: Event) -> Speaker:
    return Speaker.objects.filter(event=demo_event).order_by("key").first()


def _jpeg(colour: str) -> bytes:
    """300 × 200: squares of 48, 96 and 192 px (no 400), so five files with the original."""
    out = io.BytesIO()
    Image.new("RGB", (300, 200), colour).save(out, "JPEG")
    return out.getvalue()


def _send(
    speaker: Speaker,
    data: bytes,
    *,
    filename: str = "me.jpg",
    focus: tuple[float, float] = (0.5, 0.5),
) -> str:
    """keeping.keep_photo as the upload's request calls it (its task queued as it commits)."""
    with committed():
        return keeping.keep_photo(
            speaker, io.BytesIO(data), filename=filename, focus=focus, by="ada", base=BASE
        )


def _move(speaker: Speaker, focus: tuple[float, float]) -> str:
    with committed():
        return keeping.move_crop(speaker, focus=focus, by="ada", base=BASE)


def _name(prefix: str, rendition: photos.Rendition) -> str:
    return f"{prefix}/{hashlib.sha256(rendition.data).hexdigest()[:20]}.{rendition.extension}"


def _values(processed: photos.ProcessedPhoto) -> dict[str, Any]:
    """What the request stored and took before this change, for the same file and focus."""
    return {
        "original": _name("photos", processed.original),
        "squares": {str(size): _name("photos", processed.squares[size]) for size in processed.sizes},
        "jpeg": _name("photos", processed.jpeg),
        "width": processed.width, "height": processed.height,
        "focus_x": processed.focus[0], "focus_y": processed.focus[1],
    }  # fmt: skip


def _kept(speaker: Speaker) -> dict[str, Any]:
    photo = SpeakerPhoto.objects.get(speaker=speaker)
    return {field: getattr(photo, field) for field in PHOTO_FIELDS}


def _files_of(values: dict[str, Any]) -> set[str]:
    return {values["original"], values["jpeg"], *values["squares"].values()}


def _results() -> list[tuple[str, Any]]:
    rows = DBTaskResult.objects.order_by("enqueued_at", "pk")
    return list(rows.values_list("status", "return_value"))


def _stored() -> set[str]:
    return set(pruning.stored())


def test_the_request_keeps_the_file_as_sent_and_queues_one_task_decoding_nothing(
    speaker: Speaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _jpeg("red")

    def refuse_to_open(*args: object, **kwargs: object) -> None:
        raise AssertionError("Image.open was called")

    monkeypatch.setattr(photos.Image, "open", refuse_to_open)
    assert _send(speaker, data, focus=(0.25, 1)) == review.PREPARING
    upload = PhotoUpload.objects.get()
    source = f"incoming/{hashlib.sha256(data).hexdigest()[:20]}.jpg"
    assert (
        upload.speaker, upload.kind, upload.source, upload.filename, upload.focus_x,
        upload.focus_y, upload.by, upload.base, upload.state, upload.error,
    ) == (speaker, "upload", source, "me.jpg", 0.25, 1.0, "ada", BASE, "pending", "")  # fmt: skip
    assert _stored() == {source}
    with files.open_file(source, private=True).stream as stream:
        assert stream.read() == data
    with pytest.raises(FileNotFoundError):  # what the media view opens: never served
        files.open_file(source)
    assert (SpeakerPhoto.objects.count(), ProposedChange.objects.count()) == (0, 0)
    assert queued() == [(TASK, "default", 10, "READY", {"args": [upload.pk], "kwargs": {}})]


def test_the_worker_applies_the_photo_exactly_as_the_request_did(speaker: Speaker) -> None:
    data = _jpeg("red")
    expected = _values(photos.process_photo(data, filename="me.jpg", focus=(0.25, 0.5)))
    _send(speaker, data, focus=(0.25, 0.5))
    run_worker_committed()
    assert _kept(speaker) == expected
    speaker.refresh_from_db()
    assert speaker.avatar_url == f"{BASE}/media/{expected['jpeg']}"
    # Done with: the row and the file as sent are gone, the five files made are all there is.
    assert (PhotoUpload.objects.count(), _stored()) == (0, _files_of(expected))
    assert _results() == [("SUCCESSFUL", review.LIVE)]


def test_under_review_the_worker_leaves_the_photo_waiting(speaker: Speaker) -> None:
    EditingRules.objects.create(event=speaker.event, review=True)
    data = _jpeg("red")
    _send(speaker, data)
    run_worker_committed()
    change = ProposedChange.objects.get()
    assert (change.kind, change.status, change.proposed_by, change.values) == (
        "photo", "pending", "ada", _values(photos.process_photo(data, filename="me.jpg")),
    )  # fmt: skip
    assert (SpeakerPhoto.objects.count(), PhotoUpload.objects.count()) == (0, 0)
    assert _results() == [("SUCCESSFUL", review.WAITING)]


def test_a_file_damaged_after_its_header_fails_in_the_worker_and_the_photo_stays(
    speaker: Speaker,
) -> None:
    _send(speaker, _jpeg("red"))
    run_worker_committed()
    kept, before = _kept(speaker), _stored()
    assert _send(speaker, png_declaring(100, 100), filename="cut.png") == review.PREPARING
    run_worker_committed()
    failed = PhotoUpload.objects.get()
    assert (failed.state, failed.error) == (
        "failed", "cut.png: is cut off or damaged: it is not a complete PNG image",
    )  # fmt: skip
    assert (_kept(speaker), _stored()) == (kept, before)  # the file as sent is gone too
    assert _results() == [("SUCCESSFUL", review.LIVE), ("SUCCESSFUL", "failed")]
    with committed():
        assert prepare_photo.call(failed.pk) == GONE  # a second run does nothing


def test_the_reason_is_in_the_language_the_speaker_sent_it_in(speaker: Speaker) -> None:
    with translation.override("fr"):
        _send(speaker, png_declaring(100, 100), filename="coupée.png")
    run_worker_committed()
    assert PhotoUpload.objects.get().error == (
        "coupée.png : est tronqué ou endommagé : ce n’est pas une image PNG complète"
    )


def test_of_two_uploads_in_a_row_only_the_newer_is_applied(speaker: Speaker) -> None:
    _send(speaker, _jpeg("red"))
    _send(speaker, _jpeg("blue"))
    run_worker_committed()
    blue = _values(photos.process_photo(_jpeg("blue"), filename="me.jpg"))
    assert _kept(speaker) == blue
    assert _results() == [("SUCCESSFUL", "replaced by a newer one"), ("SUCCESSFUL", review.LIVE)]
    # The red one was never made: only the blue one's files are stored.
    assert (PhotoUpload.objects.count(), _stored()) == (0, _files_of(blue))


def test_an_older_upload_s_task_run_after_the_newer_one_applies_nothing(speaker: Speaker) -> None:
    _send(speaker, _jpeg("red"))
    _send(speaker, _jpeg("blue"))
    older, newer = PhotoUpload.objects.all()
    with committed():
        assert prepare_photo.call(newer.pk) == review.LIVE
    with committed():
        assert prepare_photo.call(older.pk) == GONE
        assert prepare_photo.call(newer.pk) == GONE
    blue = _values(photos.process_photo(_jpeg("blue"), filename="me.jpg"))
    assert (_kept(speaker), _stored()) == (blue, _files_of(blue))


def test_editing_closed_before_the_worker_runs_applies_nothing(speaker: Speaker) -> None:
    _send(speaker, _jpeg("red"))
    closes_at = datetime(2026, 1, 5, 17, 0, tzinfo=UTC)
    EditingRules.objects.create(event=speaker.event, closes_at=closes_at)
    run_worker_committed()
    failed = PhotoUpload.objects.get()
    assert (failed.state, failed.error) == (
        "failed",
        "Editing closed on Jan. 5, 2026, 6 p.m. (Europe/Paris): write to the organizers for a "
        "change.",
    )
    assert (SpeakerPhoto.objects.count(), ProposedChange.objects.count(), _stored()) == (
        0, 0, set(),
    )  # fmt: skip


def test_a_moved_square_is_cut_again_by_the_worker(speaker: Speaker) -> None:
    _send(speaker, _jpeg("red"))
    run_worker_committed()
    kept = _kept(speaker)
    assert _move(speaker, (0.5, 0.5)) == review.UNCHANGED  # where it is already
    assert _move(speaker, (0.0, 0.5)) == review.PREPARING
    upload = PhotoUpload.objects.get()
    assert (upload.kind, upload.source, upload.filename) == ("crop", kept["original"], "")
    assert _kept(speaker) == kept  # until the worker has cut it
    run_worker_committed()
    with files.open_file(kept["original"]).stream as stream:
        moved = _values(photos.recrop(stream.read(), focus=(0.0, 0.5)))
    assert _kept(speaker) == {**moved, "width": kept["width"], "height": kept["height"]}
    assert moved["original"] == kept["original"]
    assert PhotoUpload.objects.count() == 0


def test_a_square_moved_while_the_photo_is_prepared_moves_in_the_new_photo(
    speaker: Speaker,
) -> None:
    data = _jpeg("red")
    _send(speaker, data)
    assert _move(speaker, (0.5, 0.5)) == review.UNCHANGED  # as the photo being prepared has it
    assert _move(speaker, (0.0, 0.5)) == review.PREPARING
    first, second = PhotoUpload.objects.all()
    assert (second.kind, second.source) == ("upload", first.source)
    run_worker_committed()
    moved = _values(photos.process_photo(data, filename="me.jpg", focus=(0.0, 0.5)))
    assert (_kept(speaker), _stored()) == (moved, _files_of(moved))
    assert _results() == [
        ("SUCCESSFUL", "replaced by a newer one"), ("SUCCESSFUL", review.LIVE),
    ]  # fmt: skip


def test_a_square_moved_on_a_photo_the_team_rejected_since_applies_nothing(
    speaker: Speaker,
) -> None:
    EditingRules.objects.create(event=speaker.event, review=True)
    _send(speaker, _jpeg("red"))
    run_worker_committed()
    _move(speaker, (0.0, 0.5))
    change = ProposedChange.objects.get()
    review.reject(speaker.event, change.pk, by="olga", reason="Blurred.")
    run_worker_committed()
    assert [row[:2] for row in ProposedChange.objects.values_list("status", "reason")] == [
        ("rejected", "Blurred.")
    ]
    assert (SpeakerPhoto.objects.count(), PhotoUpload.objects.count()) == (0, 0)
    assert _results()[-1] == ("SUCCESSFUL", GONE)


def test_removing_the_photo_drops_the_one_being_prepared(speaker: Speaker) -> None:
    _send(speaker, _jpeg("red"))
    run_worker_committed()
    _send(speaker, _jpeg("blue"))
    with committed():
        assert keeping.remove_photo(speaker, by="ada") == review.LIVE
    incoming = {name for name in _stored() if name.startswith("incoming/")}
    assert (PhotoUpload.objects.count(), incoming) == (0, set())
    run_worker_committed()
    assert SpeakerPhoto.objects.count() == 0
    assert _results()[-1] == ("SUCCESSFUL", GONE)


def test_the_same_file_sent_by_two_speakers_is_kept_until_both_are_prepared(
    speaker: Speaker,
) -> None:
    other = Speaker.objects.filter(event=speaker.event).exclude(pk=speaker.pk).first()
    data = _jpeg("red")
    _send(speaker, data)
    _send(other, data)
    first, second = PhotoUpload.objects.all()
    assert first.source == second.source
    with committed():
        assert prepare_photo.call(first.pk) == review.LIVE
    assert files.exists(second.source)
    with committed():
        assert prepare_photo.call(second.pk) == review.LIVE
    assert files.exists(second.source) is False
    assert _kept(speaker) == _kept(other)


def test_a_file_as_sent_gone_before_the_worker_reads_it_fails(speaker: Speaker) -> None:
    _send(speaker, _jpeg("red"))
    files.delete(PhotoUpload.objects.get().source)
    run_worker_committed()
    failed = PhotoUpload.objects.get()
    assert (failed.state, failed.error) == ("failed", f"me.jpg: {WENT_WRONG}")
    assert _results() == [("SUCCESSFUL", "failed")]


def test_an_unforeseen_failure_is_said_to_the_speaker_and_kept_for_the_site(
    speaker: Speaker,
) -> None:
    # A square moved on a photo whose original is a JPEG (no original process_photo makes).
    jpeg = files.save(files.PHOTOS, _jpeg("red"), "image/jpeg", filename="me.jpg")
    SpeakerPhoto.objects.create(
        speaker=speaker, original=jpeg, squares={}, jpeg=jpeg, width=300, height=200,
        uploaded_by="ada",
    )  # fmt: skip
    _move(speaker, (0.0, 0.5))
    run_worker_committed()
    failed = PhotoUpload.objects.get()
    assert (failed.state, failed.error) == ("failed", WENT_WRONG)
    task = DBTaskResult.objects.get()
    assert (task.status, task.exception_class_path) == (
        "FAILED", "confsched.speakers.photos.NotAnOriginalError",
    )  # fmt: skip
    assert SpeakerPhoto.objects.get().original == jpeg
