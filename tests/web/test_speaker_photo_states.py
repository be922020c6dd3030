"""A speaker's new photo as their pages show it while the worker prepares it
(speakers/photo_uploads.py): the upload is received at once, the page says the photo is being
prepared with the photo before still shown (asked again with htmx every 2 s, a plain reload
without), a failure says why and the form takes another; attendees see the photo before until
the new one is applied. The pages stay valid HTML in each state."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import Client

from confsched.programme.models import Speaker
from confsched.speakers.models import PhotoUpload, SpeakerPhoto
from tests.speakers.test_photo_refusals import png_declaring
from tests.task_queue import committed, run_worker_committed
from tests.web.test_html_valid import _duplicate_ids, _errors
from tests.web.test_speaker_pages import _jpeg, _signed_in, _upload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("speaker_media")]

PREPARING = (
    '<p class="speaker-waiting" role="status">Your new photo is being prepared. It will appear '
    "here in a few seconds.</p>"
)
CUT = "cut.png: is cut off or damaged: it is not a complete PNG image"


def _url(speaker: Speaker) -> str:
    return f"/speaker/{speaker.event.slug}/{speaker.key}/"


def _send(client: Client, speaker: Speaker, data: bytes, name: str = "me.jpg") -> HttpResponse:
    with committed():
        return client.post(_url(speaker), {
            "form": "photo", "focus_x": "50", "focus_y": "50",
            "photo": _upload(name, data, "image/jpeg"),
        })  # fmt: skip


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return unescape(response.content.decode())


def _square(photo: SpeakerPhoto, size: str) -> str:
    return f'src="/media/{photo.squares[size]}"'


def test_a_new_photo_is_received_at_once_and_shown_once_prepared(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    _send(client, speaker, _jpeg((640, 480)))
    run_worker_committed()
    before = SpeakerPhoto.objects.get(speaker=speaker)
    response = _send(client, speaker, _jpeg((480, 640)))
    assert response["Location"] == f"{_url(speaker)}?saved=photo&outcome=preparing"
    upload = PhotoUpload.objects.get()
    page = _page(client, response["Location"])
    assert '<p class="saved-note" role="status">Your photo was received. <a href=' in page
    assert PREPARING in page
    assert f'{_square(before, "192")} alt="Your photo as pages show it"' in page  # still
    assert (
        f'<div id="speaker-photo-state" class="speaker-photo-state" data-hx-get="{_url(speaker)}'
        f'?preparing={upload.pk}" data-hx-trigger="every 2s" data-hx-swap="outerHTML">'
    ) in page
    # The square's place shown is the new photo's.
    assert 'name="focus_x" id="id_focus_x" value="50"' in page
    assert PREPARING.replace("speaker-waiting", "help") in _page(client, "/speaker/")
    # Attendees see the photo before, and nothing of the new one.
    public = _page(Client(), speaker.get_absolute_url())
    assert _square(before, "96") in public
    assert "being prepared" not in public
    run_worker_committed()
    after = SpeakerPhoto.objects.get(speaker=speaker)
    assert (after.width, after.height) == (480, 640)
    page = _page(client, _url(speaker))
    assert f'{_square(after, "192")} alt="Your photo as pages show it"' in page
    assert ("being prepared" in page, "hx-get" in page) == (False, False)
    assert _square(after, "96") in _page(Client(), speaker.get_absolute_url())


def test_a_photo_that_failed_says_why_and_another_can_be_sent(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    assert _send(client, speaker, png_declaring(100, 100), "cut.png").status_code == 302
    run_worker_committed()
    page = _page(client, _url(speaker))
    assert (
        f'<div class="notice" role="status"><p>Your new photo could not be used: {CUT}</p></div>'
    ) in page
    assert '<input type="file" name="photo" id="id_photo"' in page
    assert "<fieldset disabled" not in page
    home = _page(client, "/speaker/")
    assert '<p class="help">Your new photo could not be used: your profile says why.</p>' in home
    failed = PhotoUpload.objects.get()
    data = json.loads(client.get("/accounts/data.json").content)
    assert data["speaker_pages"][0]["photos_being_prepared"] == [{
        "kind": "upload", "file_name": "cut.png", "state": "failed",
        "sent_at": failed.created_at.isoformat(), "focus": [0.5, 0.5], "reason": CUT,
    }]  # fmt: skip
    # Another one answers the failure: being prepared, and the failure no longer said.
    _send(client, speaker, _jpeg())
    page = _page(client, _url(speaker))
    assert (PREPARING in page, "could not be used" in page) == (True, False)
    assert PhotoUpload.objects.get().state == "pending"


def test_a_photo_pending_for_minutes_says_the_worker_may_be_stopped(speaker: Speaker) -> None:
    from datetime import timedelta

    from django.utils import timezone

    client, _user = _signed_in(speaker)
    _send(client, speaker, _jpeg())  # no worker runs: it stays pending
    late = (
        "Your new photo is taking longer than it should: the site's background worker may be "
        "stopped. It will appear here once it is prepared; you can also send it again."
    )
    PhotoUpload.objects.update(created_at=timezone.now() - timedelta(seconds=110))
    assert (PREPARING in _page(client, _url(speaker)), late in _page(client, "/speaker/")) == (
        True, False,
    )  # fmt: skip
    PhotoUpload.objects.update(created_at=timezone.now() - timedelta(seconds=130))
    page = _page(client, _url(speaker))
    assert f'<p class="speaker-waiting" role="status">{late}</p>' in page
    assert ("in a few seconds" in page, 'data-hx-trigger="every 2s"' in page) == (False, True)
    assert f'<p class="help" role="status">{late}</p>' in _page(client, "/speaker/")
    # htmx asking again: the part that said "a few seconds" gets the late one, once.
    upload = PhotoUpload.objects.get()
    said_soon = client.get(f"{_url(speaker)}?preparing={upload.pk}", headers={"HX-Request": "true"})
    assert (said_soon.status_code, "<h1>" in said_soon.text) == (200, False)
    assert f'data-hx-get="{_url(speaker)}?preparing={upload.pk}-late"' in said_soon.text
    assert late in unescape(said_soon.text)
    said_late = client.get(
        f"{_url(speaker)}?preparing={upload.pk}-late", headers={"HX-Request": "true"}
    )
    assert (said_late.status_code, said_late.content) == (204, b"")


def test_htmx_asks_for_the_photo_s_part_until_the_photo_is_prepared(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    _send(client, speaker, _jpeg())
    upload = PhotoUpload.objects.get()
    part = f"{_url(speaker)}?preparing={upload.pk}"
    waiting = client.get(part, headers={"HX-Request": "true"})
    assert (waiting.status_code, waiting.content, waiting["Cache-Control"]) == (
        204, b"", "private, no-store",
    )  # fmt: skip
    assert "<h1>" in _page(client, part)  # without htmx, the whole page
    run_worker_committed()
    photo = SpeakerPhoto.objects.get(speaker=speaker)
    done = client.get(part, headers={"HX-Request": "true"})
    html = unescape(done.content.decode())
    assert (done.status_code, done["Cache-Control"]) == (200, "private, no-store")
    assert html.startswith('\n<div id="speaker-photo-state" class="speaker-photo-state">\n')
    assert f'{_square(photo, "192")} alt="Your photo as pages show it"' in html
    assert ("<h1>" in html, "hx-get" in html) == (False, False)


def test_the_photo_s_states_are_valid_html(speaker: Speaker, tmp_path: Path) -> None:
    client, _user = _signed_in(speaker)
    pages = {}
    _send(client, speaker, _jpeg())
    pages["being prepared"] = _page(client, _url(speaker) + "?saved=photo&outcome=preparing")
    pages["home, being prepared"] = _page(client, "/speaker/")
    run_worker_committed()
    _send(client, speaker, png_declaring(100, 100), "cut.png")
    run_worker_committed()
    pages["failed"] = _page(client, _url(speaker))
    pages["home, failed"] = _page(client, "/speaker/")
    duplicates = {kind: _duplicate_ids(html) for kind, html in pages.items()}
    assert {kind: found for kind, found in duplicates.items() if found} == {}
    assert _errors(pages, tmp_path) == []
