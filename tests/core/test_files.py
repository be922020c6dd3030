"""Files people upload (core/files.py, core/storage.py) in both homes: the data folder and a
real S3 server (SeaweedFS, tests/object_store.py). Names are the content's, writes are whole
or absent, and every app server sees what another saved."""

from __future__ import annotations

import hashlib
import io
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from botocore.response import StreamingBody
from django.core.files.base import File
from django.core.files.storage import Storage, storages
from django.utils.module_loading import import_string

from confsched.core import files
from confsched.core.object_storage import ObjectStorage
from confsched.core.storage import AtomicFileSystemStorage
from tests.object_store import ObjectStore

JPEG = b"\xff\xd8\xff\xe0" + b"a photo" * 100
PDF = b"%PDF-1.7\n" + b"slides" * 100
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
_prefixes = itertools.count()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def filesystem_settings(folder: Path) -> dict[str, object]:
    return {
        "BACKEND": "confsched.core.storage.AtomicFileSystemStorage",
        "OPTIONS": {"location": folder, "base_url": "/media/"},
    }


@pytest.fixture(params=["filesystem", "s3"])
def home(request: pytest.FixtureRequest, settings: Any, tmp_path: Path) -> Iterator[str]:  # noqa: ANN401
    """The site's default storage, in the data folder or in a new bucket of SeaweedFS."""
    if request.param == "s3":
        store: ObjectStore = request.getfixturevalue("object_store")
        default = store.storage_settings(f"files-{next(_prefixes)}")
    else:
        default = filesystem_settings(tmp_path / "media")
    # Django's own setting_changed receiver forgets the storages made from the old value.
    settings.STORAGES = {**settings.STORAGES, "default": default}
    yield request.param


def _second_server(settings: Any) -> Storage:  # noqa: ANN401
    """Another app server's storage: a new instance from the same settings."""
    default = settings.STORAGES["default"]
    return import_string(default["BACKEND"])(**default["OPTIONS"])


def _read(name: str, storage: Storage | None = None) -> bytes:
    stored = files.open_file(name, storage=storage)
    try:
        return stored.stream.read()
    finally:
        stored.stream.close()


def test_a_file_is_kept_under_its_content_s_name(home: str) -> None:
    name = files.save(files.PHOTOS, JPEG, "image/jpeg", filename="me.jpg")
    assert name == f"photos/{_digest(JPEG)}.jpg"
    assert _read(name) == JPEG
    assert files.url(name) == f"/media/photos/{_digest(JPEG)}.jpg"
    # The same bytes again are the same file; new bytes a new name.
    assert files.save(files.PHOTOS, io.BytesIO(JPEG), "image/jpeg") == name
    changed = JPEG + b"!"
    assert files.save(files.PHOTOS, File(io.BytesIO(changed)), "image/jpeg") == (
        f"photos/{_digest(changed)}.jpg"
    )
    assert sorted(storages["default"].listdir("photos")[1]) == sorted(
        [f"{_digest(JPEG)}.jpg", f"{_digest(changed)}.jpg"]
    )


def test_opening_tells_the_type_size_name_and_tag(home: str) -> None:
    name = files.save(files.SLIDES, PDF, "application/pdf; charset=binary", filename="Talk.pdf")
    stored = files.open_file(name)
    stored.stream.close()
    expected_name = "Talk.pdf" if home == "s3" else f"{_digest(PDF)}.pdf"
    assert (stored.file_type, stored.size, stored.filename, stored.etag) == (
        files.BY_EXTENSION["pdf"], len(PDF), expected_name, f'"{_digest(PDF)}"',
    )  # fmt: skip
    assert stored.content_disposition == f'inline; filename="{expected_name}"'


def test_a_deleted_file_is_gone(home: str) -> None:
    name = files.save(files.SLIDES, PDF, "application/pdf")
    assert files.exists(name) is True
    files.delete(name)
    assert files.exists(name) is False
    with pytest.raises(FileNotFoundError):
        files.open_file(name)
    files.delete(name)  # a second time: nothing to do


def test_a_second_app_server_sees_what_the_first_saved(home: str, settings: Any) -> None:  # noqa: ANN401
    first, second = storages["default"], _second_server(settings)
    assert first is not second
    name = files.save(files.SLIDES, b"PK\x03\x04 deck", PPTX, filename="deck.pptx", storage=first)
    assert _read(name, storage=second) == b"PK\x03\x04 deck"
    # The second saving the same bytes finds them; deleting through it removes them for both.
    assert files.save(files.SLIDES, b"PK\x03\x04 deck", PPTX, storage=second) == name
    files.delete(name, storage=second)
    assert (files.exists(name, storage=first), files.exists(name, storage=second)) == (False, False)


def test_two_servers_saving_the_same_bytes_at_once_keep_one_file(home: str) -> None:
    storage = storages["default"]
    name = files.save(files.PHOTOS, JPEG, "image/jpeg")
    # The other server's exists() ran before this one's save landed: the store, which never
    # replaces a name, picks another one, which save() removes.
    asked = iter([False])
    real = storage.exists
    storage.exists = lambda name: next(asked, None) or real(name)  # type: ignore[method-assign]
    assert files.save(files.PHOTOS, JPEG, "image/jpeg") == name
    del storage.exists
    assert storage.listdir("photos")[1] == [f"{_digest(JPEG)}.jpg"]


class _CutOff(io.RawIOBase):
    """A body that ends in an error halfway through (a client gone, a disk full)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.position = data, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.position = offset if whence == io.SEEK_SET else len(self.data) + offset
        return self.position

    def tell(self) -> int:
        return self.position

    def read(self, size: int = -1) -> bytes:
        if self.position >= len(self.data) // 2:
            raise OSError("connection reset halfway")
        size = len(self.data) // 2 - self.position if size < 0 else size
        size = min(size, len(self.data) // 2 - self.position)
        chunk = self.data[self.position : self.position + size]
        self.position += len(chunk)
        return chunk


def test_a_write_cut_off_halfway_leaves_nothing_under_the_name(home: str) -> None:
    storage = storages["default"]
    data = JPEG * 50
    name = f"photos/{_digest(data)}.jpg"
    with pytest.raises(OSError, match="halfway"):
        storage.save(name, File(_CutOff(data), name="upload.jpg"))
    assert storage.exists(name) is False
    if home == "filesystem":  # nor the temporary file
        assert list((Path(storage.location) / "photos").iterdir()) == []


def test_a_write_cut_off_leaves_the_file_already_there(settings: Any, tmp_path: Path) -> None:  # noqa: ANN401
    storage = AtomicFileSystemStorage(location=tmp_path)
    name = files.save(files.PHOTOS, JPEG, "image/jpeg", storage=storage)
    # A second writer of that name that found it free (a race), whose body is cut off.
    storage.get_available_name = lambda name, max_length=None: name  # type: ignore[method-assign]
    with pytest.raises(OSError, match="halfway"):
        storage.save(name, File(_CutOff(JPEG * 50), name="upload.jpg"))
    assert (tmp_path / name).read_bytes() == JPEG
    assert [path.name for path in (tmp_path / "photos").iterdir()] == [f"{_digest(JPEG)}.jpg"]
    assert oct((tmp_path / name).stat().st_mode & 0o777) == "0o644"  # nginx may read it


def test_only_the_kept_types_and_prefixes_are_saved(home: str) -> None:
    with pytest.raises(ValueError, match="Not a type the site keeps: 'text/html'"):
        files.save(files.SLIDES, b"<html><script>", "text/html", filename="x.html")
    for kind in ("image/svg+xml", "application/javascript", "application/octet-stream"):
        with pytest.raises(ValueError, match="Not a type the site keeps"):
            files.save(files.PHOTOS, b"<svg/>", kind)
    with pytest.raises(ValueError, match="Unknown prefix 'avatars'"):
        files.save("avatars", JPEG, "image/jpeg")


@pytest.mark.parametrize(
    "name",
    [
        "../settings.py", "photos/../../secret", "/etc/passwd", "photos/abc.jpg",
        f"other/{'a' * 20}.jpg", f"photos/{'a' * 20}.html", f"photos/{'a' * 20}.svg",
        f"photos/{'A' * 20}.jpg", f"photos/{'a' * 20}.jpg/", f"photos//{'a' * 20}.jpg",
        f"./photos/{'a' * 20}.jpg",
    ],
)  # fmt: skip
def test_no_other_name_reaches_the_store(name: str) -> None:
    assert files.is_stored_name(name) is False
    with pytest.raises(FileNotFoundError):
        files.open_file(name)
    with pytest.raises(ValueError, match="Not a stored file's name"):
        files.delete(name)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("Talk slides.pptx", "Talk slides.pptx"),
        ("../../etc/passwd", "passwd.pptx"),
        ("C:\\Users\\ada\\Résumé final.PPTX", "Résumé final.pptx"),
        ('a"; filename="evil.html', "a__ filename__evil.pptx"),
        ("line\r\nbreak.pptx", "line__break.pptx"),
        ("", "fallback.pptx"),
        ("...", "fallback.pptx"),
        ("x" * 200 + ".pptx", "x" * 80 + ".pptx"),
    ],
)
def test_download_names_are_safe(given: str, expected: str) -> None:
    kind = files.BY_EXTENSION["pptx"]
    assert files.safe_filename(given, kind, fallback="fallback") == expected


def test_the_object_keeps_its_type_disposition_and_cache_rules(
    object_store: ObjectStore, settings: Any,  # noqa: ANN401
) -> None:  # fmt: skip
    location = f"files-{next(_prefixes)}"
    settings.STORAGES = {**settings.STORAGES, "default": object_store.storage_settings(location)}
    bucket = object_store.bucket
    assert isinstance(storages["default"], ObjectStorage)
    name = files.save(files.SLIDES, b"PK\x03\x04 deck", PPTX, filename="Über slides.pptx")
    head = object_store.client().head_object(Bucket=bucket, Key=f"{location}/{name}")
    assert (
        head["ContentType"], head["CacheControl"], head["ContentDisposition"], head["Metadata"],
        head["ContentLength"],
    ) == (
        PPTX, "public, max-age=31536000, immutable",
        "attachment; filename*=utf-8''%C3%9Cber%20slides.pptx",
        {"filename": "%C3%9Cber%20slides.pptx"}, 9,
    )  # fmt: skip
    photo = files.save(files.PHOTOS, JPEG, "image/jpeg", filename="me.jpeg")
    head = object_store.client().head_object(Bucket=bucket, Key=f"{location}/{photo}")
    assert (head["ContentType"], head["ContentDisposition"]) == (
        "image/jpeg", 'inline; filename="me.jpg"',
    )  # fmt: skip
    # Read as a stream straight from the GET, not copied whole into memory first.
    stored = files.open_file(photo)
    assert isinstance(stored.stream, StreamingBody)
    assert (stored.stream.read(4), stored.filename) == (JPEG[:4], "me.jpg")
    stored.stream.close()


def test_with_a_public_address_links_lead_there(
    object_store: ObjectStore, settings: Any,  # noqa: ANN401
) -> None:  # fmt: skip
    settings.MEDIA_URL = "https://cdn.example.org/media/"
    settings.STORAGES = {
        **settings.STORAGES,
        "default": object_store.storage_settings(
            "", custom_domain="cdn.example.org/media", querystring_auth=False
        ),
    }
    name = files.save(files.PHOTOS, JPEG, "image/jpeg")
    expected = f"https://cdn.example.org/media/photos/{_digest(JPEG)}.jpg"
    assert (files.url(name), storages["default"].url(name)) == (expected, expected)


def test_an_upload_kept_as_sent_is_stored_privately_and_never_served(
    home: str,
    client: Any,
    settings: Any,  # noqa: ANN401
) -> None:
    settings.MEDIA_URL = "/media/"
    name = files.save(files.INCOMING, JPEG, "image/jpeg", filename="me.jpg")
    assert name == f"incoming/{_digest(JPEG)}.jpg"
    assert (files.is_stored_name(name), files.is_private_name(name), files.exists(name)) == (
        True, True, True,
    )  # fmt: skip
    assert files.is_private_name(f"photos/{_digest(JPEG)}.jpg") is False
    with pytest.raises(FileNotFoundError):  # what the media view opens
        files.open_file(name)
    stored = files.open_file(name, private=True)
    with stored.stream:
        assert stored.stream.read() == JPEG
    assert client.get(f"/media/{name}").status_code == 404
    files.delete(name)
    assert files.exists(name) is False
