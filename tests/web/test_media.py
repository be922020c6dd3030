"""/media/<name> (web/site/media.py): files people upload, served by the app from the data
folder or from a real S3 server, with headers that let a browser do nothing more with them
than their allow-listed type says, and that every cache may share."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from confsched.core import files
from tests.object_store import ObjectStore

JPEG = b"\xff\xd8\xff\xe0" + b"a photo" * 100
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
HTML = b"<!doctype html><script>alert(document.cookie)</script>"
_prefixes = itertools.count()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


@pytest.fixture(params=["filesystem", "s3"])
def home(request: pytest.FixtureRequest, settings: Any, tmp_path: Path) -> str:  # noqa: ANN401
    if request.param == "s3":
        store: ObjectStore = request.getfixturevalue("object_store")
        default = store.storage_settings(f"media-{next(_prefixes)}")
    else:
        default = {
            "BACKEND": "confsched.core.storage.AtomicFileSystemStorage",
            "OPTIONS": {"location": tmp_path / "media", "base_url": "/media/"},
        }
    settings.STORAGES = {**settings.STORAGES, "default": default}
    return request.param


def _served(response: Any) -> tuple[int, dict[str, str], bytes]:  # noqa: ANN401
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, dict(response.headers), body


# What every stored file is served with, whatever its type (besides its own type, length,
# disposition and ETag); X-Frame-Options and the rest come from Django's middleware.
SHARED = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def test_a_photo_is_shown_in_the_page_and_kept_a_year(client: Client, home: str) -> None:
    name = files.save(files.PHOTOS, JPEG, "image/jpeg", filename="Ada.jpg")
    shown = "Ada.jpg" if home == "s3" else f"{_digest(JPEG)}.jpg"
    response = client.get(files.url(name), headers={"Accept-Encoding": "gzip"})
    assert response.streaming
    assert _served(response) == (200, {
        "Content-Type": "image/jpeg",
        "Content-Length": str(len(JPEG)),
        "Content-Disposition": f'inline; filename="{shown}"',
        "ETag": f'"{_digest(JPEG)}"',  # strong, even to a client that takes gzip
        **SHARED,
    }, JPEG)  # fmt: skip


def test_slides_in_an_office_format_are_downloaded(client: Client, home: str) -> None:
    deck = b"PK\x03\x04 a deck"
    name = files.save(files.SLIDES, deck, PPTX, filename="Talk: slides v2.pptx")
    shown = "Talk_ slides v2.pptx" if home == "s3" else f"{_digest(deck)}.pptx"
    status, headers, body = _served(client.get(files.url(name)))
    assert (status, headers["Content-Type"], headers["Content-Disposition"], body) == (
        200, PPTX, f'attachment; filename="{shown}"', deck,
    )  # fmt: skip


def test_html_saved_as_a_pdf_is_served_as_a_pdf_that_runs_nothing(
    client: Client, home: str
) -> None:
    """The type served is the one saved, from the allow-list: never text/html, whatever the
    bytes are; nosniff keeps the browser from guessing, the sandbox from running anything."""
    name = files.save(files.SLIDES, HTML, "application/pdf")
    status, headers, body = _served(client.get(files.url(name)))
    assert (status, headers["Content-Type"], body) == (200, "application/pdf", HTML)
    assert (headers["X-Content-Type-Options"], headers["Content-Security-Policy"]) == (
        "nosniff", "default-src 'none'; sandbox",
    )  # fmt: skip


def test_an_object_of_another_type_is_bytes_to_download(
    client: Client, object_store: ObjectStore, settings: Any,  # noqa: ANN401
) -> None:  # fmt: skip
    """An object put in the bucket by other hands, as text/html under a name the site could
    have made: served as application/octet-stream, saved and never shown."""
    location = f"media-{next(_prefixes)}"
    settings.STORAGES = {**settings.STORAGES, "default": object_store.storage_settings(location)}
    name = f"slides/{_digest(HTML)}.pdf"
    object_store.client().put_object(
        Bucket=object_store.bucket, Key=f"{location}/{name}", Body=HTML, ContentType="text/html"
    )
    status, headers, body = _served(client.get(files.url(name)))
    assert (status, headers["Content-Type"], headers["Content-Disposition"], body) == (
        200, "application/octet-stream", f'attachment; filename="{_digest(HTML)}.bin"', HTML,
    )  # fmt: skip


def test_no_cookie_is_set_and_nothing_varies_with_one(client: Client, home: str) -> None:
    """Even for a browser that brings stale cookies, which any page would delete or replace."""
    name = files.save(files.PHOTOS, JPEG, "image/jpeg")
    stale = "sessionid=stale; csrftoken=x; confsched_language=fr"
    for cookies in ("", stale):
        for path in (files.url(name), "/media/photos/missing.jpg"):
            response = client.get(path, headers={"Cookie": cookies, "Accept-Language": "fr"})
            assert (response.cookies.output(), response.get("Vary")) == ("", None)
            assert "Content-Language" not in response


def test_a_browser_re_checking_its_copy_gets_a_304(client: Client, home: str) -> None:
    name = files.save(files.PHOTOS, JPEG, "image/jpeg")
    tag = f'"{_digest(JPEG)}"'
    response = client.get(files.url(name), headers={"If-None-Match": tag})
    assert (response.status_code, response.content, response["ETag"]) == (304, b"", tag)
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"


def test_head_gets_the_headers_without_the_file(client: Client, home: str) -> None:
    name = files.save(files.PHOTOS, JPEG, "image/jpeg")
    response = client.head(files.url(name))
    status, headers, body = _served(response)
    assert (status, headers["Content-Type"], headers["Content-Length"], body) == (
        200, "image/jpeg", str(len(JPEG)), b"",
    )  # fmt: skip
    assert client.post(files.url(name)).status_code == 405


@pytest.mark.parametrize(
    "path",
    [
        "/media/photos/0123456789abcdef0123.jpg",  # no such file
        "/media/../src/confsched/settings.py",
        "/media/photos/../../settings.py",
        "/media/photos/%2e%2e/%2e%2e/settings.py",
        "/media/photos/..%2f..%2fsettings.py",
        "/media/%2fetc/passwd",
        "/media/photos/0123456789abcdef0123.html",
        "/media/photos/0123456789abcdef0123.svg",
        "/media/other/0123456789abcdef0123.jpg",
        "/media/.partial-abc",
        "/media/",
    ],
)
def test_anything_but_a_stored_file_is_a_404(client: Client, home: str, path: str) -> None:
    status, headers, body = _served(client.get(path))
    assert (status, headers["Content-Type"], headers["X-Content-Type-Options"], body) == (
        404, "text/plain; charset=utf-8", "nosniff", b"No such file.\n",
    )  # fmt: skip


def test_a_file_in_the_folder_but_not_saved_by_the_site_is_not_served(
    client: Client, settings: Any, tmp_path: Path,  # noqa: ANN401
) -> None:  # fmt: skip
    folder = tmp_path / "media"
    (folder / "photos").mkdir(parents=True)
    (folder / "photos" / "page.html").write_bytes(HTML)
    (folder / "secret.txt").write_bytes(b"secret")
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "confsched.core.storage.AtomicFileSystemStorage",
            "OPTIONS": {"location": folder},
        },
    }
    for path in ("/media/photos/page.html", "/media/secret.txt"):
        assert client.get(path).status_code == 404


def test_a_second_app_server_serves_what_the_first_saved(
    client: Client, object_store: ObjectStore, settings: Any,  # noqa: ANN401
) -> None:  # fmt: skip
    """Replacing an app server loses no file: a fresh storage (a new process's) serves it."""
    location = f"media-{next(_prefixes)}"
    settings.STORAGES = {**settings.STORAGES, "default": object_store.storage_settings(location)}
    name = files.save(files.PHOTOS, JPEG, "image/jpeg")
    # The next server: settings read anew, no storage object carried over.
    settings.STORAGES = {
        **settings.STORAGES, "default": object_store.storage_settings(location),
    }  # fmt: skip
    assert _served(client.get(files.url(name)))[::2] == (200, JPEG)
