"""The speakers' own pages (web/speakers/): the link's door, their pages across events, the
profile and photo, a session's slides, links and note; what attendees then see; and each way a
speaker could reach what is not theirs (a 404), or send what must be refused (nothing kept)."""

from __future__ import annotations

import io
import re
import uuid
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image

from confsched.programme.models import Session, SessionLink, Speaker
from confsched.speakers import passes
from confsched.speakers.models import (
    PhotoUpload,
    SessionNote,
    SlideFile,
    SpeakerPass,
    SpeakerPhoto,
)
from tests.conftest import DEMO_SLUG
from tests.task_queue import committed, queued, run_worker, run_worker_committed
from tests.teams import on_team
from tests.web.conftest import BASE

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("speaker_media")]


@pytest.fixture(params=["filesystem", "s3"])
def any_store(request, settings) -> str:  # noqa: ANN001 - the data folder, or SeaweedFS
    if request.param == "s3":
        store = request.getfixturevalue("object_store")
        settings.STORAGES = {
            **settings.STORAGES, "default": store.storage_settings(f"speakers-{uuid.uuid4().hex[:12]}"),
        }  # fmt: skip
    return request.param


def _signed_in(speaker: Speaker, email: str = "speaker@example.org") -> tuple[Client, User]:
    made = passes.issue_pass(speaker, by="olga", email=email)
    client = Client()
    response = client.post(f"/speaker/{passes.token_for(made)}/")
    assert (response.status_code, response["Location"]) == (302, "/speaker/")
    return client, User.objects.get(email=email)


def _team_client(role: str) -> Client:
    client = Client()
    client.force_login(on_team(User.objects.create_user(f"team-{role}"), role))
    return client


def _jpeg(size: tuple[int, int] = (640, 480)) -> bytes:
    """A photo whose left part is red and right part blue: where the square sits shows."""
    image = Image.new("RGB", size, "blue")
    image.paste("red", (0, 0, size[0] // 3, size[1]))
    out = io.BytesIO()
    image.save(out, "JPEG")
    return out.getvalue()


def _pdf() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (400, 300), "orange").save(out, "PDF")
    return out.getvalue()


def _upload(name: str, data: bytes, content_type: str) -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = name
    upload.content_type = content_type  # type: ignore[attr-defined]
    return upload


def test_the_link_shows_whose_it_is_and_signs_in_only_on_the_button(speaker: Speaker) -> None:
    made = passes.issue_pass(speaker, by="olga", email="speaker@example.org")
    url = f"/speaker/{passes.token_for(made)}/"
    client = Client()
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert f"Speaker page of {speaker.name}" in unescape(html)
    assert page["Cache-Control"] == "private, no-store"
    assert page["Referrer-Policy"] == "same-origin"
    assert "_auth_user_id" not in client.session  # a scanner fetching it signs in no one
    made.refresh_from_db()
    assert made.opened_at is None
    assert client.post(url)["Location"] == "/speaker/"
    home = client.get("/speaker/").content.decode()
    assert unescape(f"Edit the profile of {speaker.name}") in unescape(home)
    # Logged out, the link signs in again, to the same account.
    client.logout()
    assert client.post(url).status_code == 302
    assert User.objects.filter(email="speaker@example.org").count() == 1


def test_a_revoked_or_forged_link_is_dead(speaker: Speaker) -> None:
    made = passes.issue_pass(speaker, by="olga", email="speaker@example.org")
    url = f"/speaker/{passes.token_for(made)}/"
    client, _user = _signed_in(speaker)
    passes.revoke_pass(speaker, by="olga")
    for tried in (url, url[:-3] + "0/"):
        assert Client().get(tried).status_code == 404
        assert Client().post(tried).status_code == 404
    # The account that used it no longer opens the speaker's pages.
    profile = f"/speaker/{speaker.event.slug}/{speaker.key}/"
    assert client.get(profile).status_code == 404


def test_an_address_with_an_account_logs_in_first(speaker: Speaker) -> None:
    owner = User.objects.create_user("taken", "speaker@example.org", "a long password 42")
    made = passes.issue_pass(speaker, by="olga", email="speaker@example.org")
    url = f"/speaker/{passes.token_for(made)}/"
    response = Client().post(url)
    token = passes.token_for(made)
    assert response["Location"] == f"/accounts/login/?next=%2Fspeaker%2F{token}%2F&speaker=1"
    client = Client()
    client.force_login(owner)
    assert client.post(url)["Location"] == "/speaker/"
    made.refresh_from_db()
    assert made.user.username == "taken"


def test_the_profile_saves_and_attendees_see_it(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    url = f"/speaker/{speaker.event.slug}/{speaker.key}/"
    response = client.post(url, {
        "form": "profile", "name": "Ada Lovelace", "position": "Analyst", "company": "Engines",
        "bio": "Wrote the *first* program.\n\nAnd more.", "homepage": "ada.example.org",
        "links": "https://social.example/@ada\nhttps://code.example/ada",
    })  # fmt: skip
    assert (response.status_code, response["Location"]) == (
        302,
        f"{url}?saved=profile&outcome=live",
    )
    speaker.refresh_from_db()
    assert (speaker.name, speaker.position, speaker.company, speaker.homepage) == (
        "Ada Lovelace", "Analyst", "Engines", "https://ada.example.org",
    )  # fmt: skip
    assert [link["url"] for link in speaker.links] == [
        "https://social.example/@ada",
        "https://code.example/ada",
    ]
    page = Client().get(speaker.get_absolute_url()).content.decode()
    assert "Wrote the <em>first</em> program." in page
    assert "speaker@example.org" not in page  # the address is never shown


def test_a_bad_profile_is_refused_whole(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    before = Speaker.objects.values().get(pk=speaker.pk)
    response = client.post(f"/speaker/{speaker.event.slug}/{speaker.key}/", {
        "form": "profile", "name": "Ada", "homepage": "javascript:alert(1)",
        "links": "not a link",
    })  # fmt: skip
    assert response.status_code == 400
    html = unescape(response.content.decode())
    assert "Nothing was saved: please correct what is marked below." in html
    assert "“not a link” is not a web address (https://…)." in html
    assert Speaker.objects.values().get(pk=speaker.pk) == before


def test_a_photo_is_stored_in_every_size_and_shown(speaker: Speaker, settings, any_store) -> None:  # noqa: ANN001
    settings.CONFSCHED_BASE_URL = BASE
    client, _user = _signed_in(speaker)
    url = f"/speaker/{speaker.event.slug}/{speaker.key}/"
    with committed():
        response = client.post(url, {
            "form": "photo", "focus_x": "50", "focus_y": "50",
            "photo": _upload("me.jpg", _jpeg(), "image/jpeg"),
        })  # fmt: skip
    assert (response.status_code, response["Location"]) == (
        302, f"{url}?saved=photo&outcome=preparing",
    )  # fmt: skip
    run_worker_committed()  # the worker makes every size
    photo = SpeakerPhoto.objects.get(speaker=speaker)
    assert sorted(photo.squares, key=int) == ["48", "96", "192", "400"]
    assert (photo.width, photo.height) == (640, 480)
    speaker.refresh_from_db()
    assert speaker.avatar_url == f"{BASE}/media/{photo.jpeg}"
    assert re.fullmatch(r"photos/[0-9a-f]{20}\.jpg", photo.jpeg)
    page = Client().get(speaker.get_absolute_url()).content.decode()
    # The page shows the photo's own squares (96 px: the 96 one, the 192 for 2x screens).
    assert f'src="/media/{photo.squares["96"]}" srcset="/media/{photo.squares["96"]} 1x, ' in page
    # The crop moves without a new upload: new squares, the same original (cut by the worker).
    original, square = photo.original, photo.squares["400"]
    with committed():
        moved = client.post(url, {"form": "photo", "focus_x": "0", "focus_y": "50"})
    assert moved["Location"] == f"{url}?saved=photo&outcome=preparing"
    run_worker_committed()
    photo.refresh_from_db()
    assert (photo.original, photo.focus_x, photo.squares["400"] != square) == (original, 0.0, True)


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("me.jpg", b"<html><script>alert(1)</script></html>", "is not a JPEG, PNG or WebP image"),
        ("me.jpg", b'<svg xmlns="http://www.w3.org/2000/svg"></svg>', "is not a JPEG, PNG or WebP"),
        ("me.png", b"\x7fELF" + bytes(100), "is not a JPEG, PNG or WebP image"),
    ],
)
def test_a_bad_photo_is_refused_and_the_old_one_stays(
    speaker: Speaker, name: str, data: bytes, message: str
) -> None:
    client, _user = _signed_in(speaker)
    url = f"/speaker/{speaker.event.slug}/{speaker.key}/"
    with committed():
        client.post(url, {"form": "photo", "focus_x": "50", "focus_y": "50",
                          "photo": _upload("first.jpg", _jpeg(), "image/jpeg")})  # fmt: skip
    run_worker_committed()
    kept = SpeakerPhoto.objects.values().get(speaker=speaker)
    with committed():
        response = client.post(url, {"form": "photo", "focus_x": "50", "focus_y": "50",
                                     "photo": _upload(name, data, "image/jpeg")})  # fmt: skip
    assert response.status_code == 400
    assert f"{name}: {message}" in unescape(response.content.decode())
    assert SpeakerPhoto.objects.values().get(speaker=speaker) == kept
    # Refused by the request itself: nothing kept, nothing queued for the worker.
    assert (PhotoUpload.objects.count(), len(queued())) == (0, 1)


def test_a_photo_over_10_mb_is_refused_as_it_arrives(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    url = f"/speaker/{speaker.event.slug}/{speaker.key}/"
    big = _upload("huge.jpg", b"\xff\xd8\xff" + bytes(10 * 1024 * 1024), "image/jpeg")
    response = client.post(url, {"form": "photo", "focus_x": "50", "focus_y": "50", "photo": big})
    assert response.status_code == 400
    assert "huge.jpg: " in unescape(response.content.decode())
    assert (SpeakerPhoto.objects.count(), PhotoUpload.objects.count(), queued()) == (0, 0, [])


def test_slides_are_stored_listed_and_previewed(
    speaker: Speaker,
    settings,
    any_store,
    django_capture_on_commit_callbacks,  # noqa: ANN001
) -> None:
    settings.CONFSCHED_BASE_URL = BASE
    client, _user = _signed_in(speaker)
    session = Session.objects.filter(speaker_links__speaker=speaker).order_by("key").first()
    url = f"/speaker/{speaker.event.slug}/{speaker.key}/sessions/{session.key}/"
    pdf = _pdf()
    with django_capture_on_commit_callbacks(execute=True):  # as a request's commit runs them
        response = client.post(
            url, {"form": "slides", "slides": _upload("talk.pdf", pdf, "application/pdf")}
        )
    assert (response.status_code, response["Location"]) == (302, f"{url}?saved=slides&outcome=live")
    slides = SlideFile.objects.get(session=session)
    assert (slides.kind, slides.filename, slides.pages, slides.thumbnail) == (
        "pdf", "talk.pdf", 1, "",
    )  # fmt: skip
    held = SessionLink.objects.filter(session=session).exclude(held_by="")
    assert [(link.kind, link.url, link.title) for link in held] == [
        ("slides", f"{BASE}/media/{slides.name}", "talk.pdf"),
    ]
    # The preview is the worker's: listed at once, shown once made.
    assert [(path, args["args"]) for path, _q, _p, _s, args in queued()] == [
        ("confsched.speakers.previews.make_preview", [slides.name]),
    ]
    public = session.get_absolute_url()
    assert 'class="slides-preview"' not in Client().get(public).content.decode()
    run_worker()
    slides.refresh_from_db()
    assert re.fullmatch(r"slides/[0-9a-f]{20}\.webp", slides.thumbnail)
    assert f'<img src="/media/{slides.thumbnail}"' in Client().get(public).content.decode()
    # The same bytes again: the preview is known, nothing is queued.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"form": "slides", "slides": _upload("again.pdf", pdf, "application/pdf")})
    assert len(queued()) == 1


def test_bad_slides_are_refused_and_the_old_ones_stay(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    session = Session.objects.filter(speaker_links__speaker=speaker).order_by("key").first()
    url = f"/speaker/{speaker.event.slug}/{speaker.key}/sessions/{session.key}/"
    client.post(url, {"form": "slides", "slides": _upload("talk.pdf", _pdf(), "application/pdf")})
    kept = SlideFile.objects.values().get(session=session)
    html_as_pdf = _upload(
        "evil.pdf", b"<!doctype html><script>alert(1)</script>", "application/pdf"
    )
    response = client.post(url, {"form": "slides", "slides": html_as_pdf})
    assert response.status_code == 400
    assert "evil.pdf: " in unescape(response.content.decode())
    assert SlideFile.objects.values().get(session=session) == kept


def test_links_and_a_note_are_kept(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    session = Session.objects.filter(speaker_links__speaker=speaker).order_by("key").first()
    url = f"/speaker/{speaker.event.slug}/{speaker.key}/sessions/{session.key}/"
    response = client.post(url, {
        "form": "links", "recording": "https://video.example/1", "code": "code.example/repo",
        "note": "I need an HDMI adapter.",
    })  # fmt: skip
    assert response.status_code == 302
    held = SessionLink.objects.filter(session=session).exclude(held_by="").order_by("pk")
    assert [(link.kind, link.url, link.title) for link in held] == [
        ("video", "https://video.example/1", "Recording"),
        ("link", "https://code.example/repo", "Code"),
    ]
    assert SessionNote.objects.get(session=session).text == "I need an HDMI adapter."
    page = Client().get(session.get_absolute_url()).content.decode()
    assert "https://video.example/1" in page
    assert "HDMI" not in page  # the note is the team's only


def test_a_speaker_never_reaches_what_is_not_theirs(speaker: Speaker) -> None:
    client, _user = _signed_in(speaker)
    other = Speaker.objects.filter(event=speaker.event).exclude(pk=speaker.pk).order_by("key")[0]
    theirs = Session.objects.filter(event=speaker.event).exclude(speaker_links__speaker=speaker)[0]
    slug = speaker.event.slug
    for url in (
        f"/speaker/{slug}/{other.key}/",
        f"/speaker/{slug}/{speaker.key}/sessions/{theirs.key}/",
        f"/speaker/{slug}/{other.key}/sessions/{theirs.key}/",
        f"/speaker/no-event/{speaker.key}/",
    ):
        assert client.get(url).status_code == 404, url
        assert client.post(url, {"form": "profile", "name": "Mine now"}).status_code == 404, url
    other.refresh_from_db()
    assert other.name != "Mine now"
    # Signed out: the log-in page.
    assert Client().get(f"/speaker/{slug}/{speaker.key}/").status_code == 302


def test_the_team_page_lists_each_link_and_mails_it(speaker: Speaker, mailoutbox, settings) -> None:  # noqa: ANN001
    settings.CONFSCHED_BASE_URL = BASE
    client = _team_client("editor")
    url = f"/{DEMO_SLUG}/team/speakers/"
    response = client.post(url, {"action": "mail", "key": speaker.key, "email": "ada@example.org"})
    assert response.status_code == 302
    made = SpeakerPass.objects.get(speaker=speaker)
    page = unescape(client.get(url).content.decode())
    assert f"The link of {speaker.name} is queued to be mailed to ada@example.org." in page
    run_worker()  # the worker sends it (tests/web/test_speakers_staff.py)
    assert [m.to for m in mailoutbox] == [["ada@example.org"]]
    assert f"{BASE}/speaker/{passes.token_for(made)}/" in mailoutbox[0].body
    count = Speaker.objects.filter(event=speaker.event).count()
    assert f"{count} speakers have not opened their link yet." in page
    client.post(url, {"action": "revoke", "key": speaker.key})
    assert passes.pass_from_token(passes.token_for(made)) is None
    # Attendees and viewers do not reach it.
    assert _team_client("viewer").get(url).status_code == 404


def test_download_my_data_names_what_the_speaker_set_and_uploaded(speaker: Speaker) -> None:
    import json

    client, _user = _signed_in(speaker)
    session = Session.objects.filter(speaker_links__speaker=speaker).order_by("key").first()
    slug = speaker.event.slug
    with committed():
        client.post(f"/speaker/{slug}/{speaker.key}/", {"form": "photo", "focus_x": "50",
                    "focus_y": "50", "photo": _upload("me.jpg", _jpeg(), "image/jpeg")})  # fmt: skip
    run_worker_committed()
    url = f"/speaker/{slug}/{speaker.key}/sessions/{session.key}/"
    client.post(url, {"form": "slides", "slides": _upload("talk.pdf", _pdf(), "application/pdf")})
    client.post(url, {"form": "links", "code": "https://code.example/repo", "note": "Thanks"})
    data = json.loads(client.get("/accounts/data.json").content)
    [page] = data["speaker_pages"]
    photo = SpeakerPhoto.objects.get(speaker=speaker)
    slides = SlideFile.objects.get(session=session)
    assert (page["event"], page["key"], sorted(page["photo"]["squares"], key=int)) == (
        slug, speaker.key, ["48", "96", "192", "400"],
    )  # fmt: skip
    assert page["photo"]["original"] == f"{BASE}/media/{photo.original}"
    assert page["photos_being_prepared"] == []  # prepared, and nothing of it left
    mine = next(s for s in page["sessions"] if s["key"] == session.key)
    assert mine == {
        "key": session.key, "title": session.title,
        "slides": {"file_name": "talk.pdf", "kind": "pdf", "size": slides.size,
                   "url": f"{BASE}/media/{slides.name}"},
        "links": [{"url": "https://code.example/repo", "title": "Code", "kind": "link"}],
        "note_to_organizers": "Thanks",
    }  # fmt: skip
