"""Slides' previews are made by the worker (speakers/previews.py): listed on the slides that
are public or waiting for review, by their stored name; a file gone or that does not render
gets none, and says so."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from confsched.core import files
from confsched.programme.models import Session, Speaker
from confsched.speakers import keeping
from confsched.speakers.models import EditingRules, ProposedChange
from confsched.speakers.previews import GONE, MADE, NO_PREVIEW, make_preview
from tests.core.test_files import filesystem_settings
from tests.task_queue import queued, run_worker

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _files(settings: Any, tmp_path: Any) -> None:  # noqa: ANN401
    settings.STORAGES = {**settings.STORAGES, "default": filesystem_settings(tmp_path / "m")}


def test_slides_waiting_for_review_get_their_preview(
    demo_event: Any,
    django_capture_on_commit_callbacks: Any,  # noqa: ANN401
) -> None:
    EditingRules.objects.create(event=demo_event, review=True)
    speaker = Speaker.objects.filter(event=demo_event, session_links__isnull=False).first()
    session = Session.objects.filter(speaker_links__speaker=speaker).first()
    out = io.BytesIO()
    Image.new("RGB", (300, 200), "teal").save(out, "PDF")
    upload = io.BytesIO(out.getvalue())
    upload.name, upload.size = "talk.pdf", len(out.getvalue())  # type: ignore[attr-defined]
    with django_capture_on_commit_callbacks(execute=True):
        keeping.keep_slides(session, speaker, upload, by="ada", base="https://s.example")
    change = ProposedChange.objects.get()
    assert change.values["thumbnail"] == ""
    updated_at = type(demo_event).objects.get(pk=demo_event.pk).updated_at
    run_worker()
    change.refresh_from_db()
    assert files.is_stored_name(change.values["thumbnail"])
    assert change.values["thumbnail"].endswith(".webp")
    assert [row[3] for row in queued()] == ["SUCCESSFUL"]
    # Nothing public changed: the event's pages stay as they were.
    assert type(demo_event).objects.get(pk=demo_event.pk).updated_at == updated_at


def test_a_file_gone_or_not_a_pdf_gets_no_preview() -> None:
    assert make_preview.call("slides/" + "0" * 20 + ".pdf") == GONE
    name = files.save(files.SLIDES, b"%PDF-1.7 not really", "application/pdf", filename="x.pdf")
    assert make_preview.call(name) == NO_PREVIEW
    out = io.BytesIO()
    Image.new("RGB", (300, 200), "teal").save(out, "PDF")
    name = files.save(files.SLIDES, out.getvalue(), "application/pdf", filename="t.pdf")
    assert make_preview.call(name) == MADE  # listed nowhere: pruning removes the preview later
