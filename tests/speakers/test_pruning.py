"""Stored files nothing points at are removed (speakers/pruning.py, `confsched speakers
prune`): replaced photos and slides go, what a speaker's photo, slides, waiting proposal or
photo being prepared names stays, so do files younger than the grace period and anything save()
never made; a photo that failed keeps nothing; on the file system and on a real S3 server."""

from __future__ import annotations

import io
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.storage import storages
from django.core.management import CommandError, call_command
from PIL import Image

from confsched.core import files
from confsched.programme.models import Session, Speaker
from confsched.speakers import keeping, pruning
from confsched.speakers.models import (
    EditingRules,
    PhotoUpload,
    ProposedChange,
    SlideFile,
    SpeakerPhoto,
)
from tests.core.test_files import filesystem_settings
from tests.speakers.test_photo_refusals import png_declaring
from tests.task_queue import committed, run_worker, run_worker_committed

pytestmark = pytest.mark.django_db
BASE = "https://schedule.example.org"


@pytest.fixture(params=["filesystem", "s3"])
def store(request: pytest.FixtureRequest, settings: Any, tmp_path: Any) -> str:  # noqa: ANN401
    if request.param == "s3":
        object_store = request.getfixturevalue("object_store")
        location = f"prune-{uuid.uuid4().hex[:12]}"
        settings.STORAGES = {
            **settings.STORAGES,
            "default": object_store.storage_settings(location),
        }
    else:
        settings.STORAGES = {**settings.STORAGES, "default": filesystem_settings(tmp_path / "m")}
    return request.param


def _upload(name: str, data: bytes) -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = name
    upload.size = len(data)  # type: ignore[attr-defined]
    return upload


def _photo(colour: str) -> io.BytesIO:
    """Stored as five files: its original, squares of 48, 96 and 192 px (200 px high: no 400),
    and the largest square as JPEG."""
    out = io.BytesIO()
    Image.new("RGB", (300, 200), colour).save(out, "JPEG")
    return _upload("me.jpg", out.getvalue())


def _pdf(colour: str) -> io.BytesIO:
    out = io.BytesIO()
    Image.new("RGB", (300, 200), colour).save(out, "PDF")
    return _upload("talk.pdf", out.getvalue())


def _speaker(demo_event: Any) -> tuple[Speaker, Session]:  # noqa: ANN401
    speaker = Speaker.objects.filter(event=demo_event, session_links__isnull=False).first()
    return speaker, Session.objects.filter(speaker_links__speaker=speaker).first()


def _all_stored() -> set[str]:
    return set(pruning.stored())


def _keep_photo(speaker: Speaker, colour: str) -> None:
    """A photo as the upload's request takes it, then as the worker prepares and applies it."""
    with committed():
        keeping.keep_photo(
            speaker, _photo(colour), filename="me.jpg", focus=(0.5, 0.5), by="a", base=BASE
        )
    run_worker_committed()


def test_replaced_files_go_and_kept_ones_stay(
    demo_event: Any,
    store: str,
    django_capture_on_commit_callbacks: Any,  # noqa: ANN401
) -> None:
    speaker, session = _speaker(demo_event)
    _keep_photo(speaker, "red")
    first = set(SpeakerPhoto.objects.values_list("squares", flat=True).get().values())
    _keep_photo(speaker, "blue")
    for colour in ("green", "orange"):  # each with the preview the worker makes
        with django_capture_on_commit_callbacks(execute=True):
            keeping.keep_slides(session, speaker, _pdf(colour), by="a", base=BASE)
        run_worker()
    # Under review, a waiting photo's files are kept too.
    EditingRules.objects.create(event=demo_event, review=True)
    _keep_photo(speaker, "white")
    # A file save() never made is never touched.
    storages["default"].save("photos/README.txt", io.BytesIO(b"notes"))
    before = _all_stored()

    # Within the grace period nothing goes.
    young = pruning.prune()
    assert (young.removed, young.young) == ((), len(before) - young.kept)
    # A dry run names them and removes nothing.
    dry = pruning.prune(grace=timedelta(0), dry_run=True)
    assert _all_stored() == before
    done = pruning.prune(grace=timedelta(0))
    assert done.removed == dry.removed
    photo = SpeakerPhoto.objects.get()
    slides = SlideFile.objects.get()
    waiting = ProposedChange.objects.get(status="pending").values
    in_use = {photo.original, photo.jpeg, *photo.squares.values(), slides.name, slides.thumbnail,
              waiting["original"], waiting["jpeg"], *waiting["squares"].values()}  # fmt: skip
    assert _all_stored() == in_use
    assert done.kept == len(in_use)
    assert first <= set(done.removed)  # the first photo's squares
    assert len(done.removed) == len(before) - len(in_use) == 5 + 2  # one photo's, one slides'
    assert storages["default"].exists("photos/README.txt")
    assert all(files.exists(name) for name in in_use)


def test_the_command_reports_and_refuses_a_bad_age(demo_event: Any, store: str) -> None:  # noqa: ANN401
    speaker, _session = _speaker(demo_event)
    _keep_photo(speaker, "red")
    keeping.remove_photo(speaker, by="a")
    out = io.StringIO()
    call_command("speakers", "prune", "--older-than", "0", "--dry-run", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[-1] == "5 would remove, 0 in use, 0 younger than 0 h kept"
    assert all(line.startswith("would remove photos/") for line in lines[:-1])
    out = io.StringIO()
    call_command("speakers", "prune", stdout=out)
    assert out.getvalue().splitlines()[-1] == "0 removed, 0 in use, 5 younger than 24 h kept"
    with pytest.raises(CommandError, match="--older-than: -1.0 is not a number of hours"):
        call_command("speakers", "prune", "--older-than", "-1")


def test_an_upload_being_prepared_stays_and_one_that_failed_goes(
    demo_event: Any,  # noqa: ANN401
    store: str,
) -> None:
    speaker, _session = _speaker(demo_event)
    with committed():
        keeping.keep_photo(
            speaker, _photo("red"), filename="me.jpg", focus=(0.5, 0.5), by="a", base=BASE
        )
    source = PhotoUpload.objects.get().source
    # However long the worker takes to reach it, the upload as sent stays.
    done = pruning.prune(grace=timedelta(0))
    assert (done.removed, done.kept, _all_stored()) == ((), 1, {source})
    # Cut off after its header, it fails in the worker, which removes it (and the red one it
    # replaced, never applied).
    with committed():
        keeping.keep_photo(
            speaker, _upload("cut.png", png_declaring(100, 100)), filename="cut.png",
            focus=(0.5, 0.5), by="a", base=BASE,
        )  # fmt: skip
    run_worker_committed()
    failed = PhotoUpload.objects.get()
    assert (failed.state, failed.error, _all_stored()) == (
        "failed", "cut.png: is cut off or damaged: it is not a complete PNG image", set(),
    )  # fmt: skip
    # One the worker was stopped before removing goes too: a failed photo names nothing.
    left = files.save(files.INCOMING, png_declaring(100, 100), "image/png", filename="cut.png")
    assert left == failed.source
    done = pruning.prune(grace=timedelta(0))
    assert (done.removed, done.kept, _all_stored()) == ((left,), 0, set())
