"""Files people upload (speakers' photos and slides): saved, opened, deleted and addressed the
same way whether they live in the data directory or in an S3 bucket (core/storage.py).

A file's name is made of its content: `<prefix>/<first 20 hex digits of its SHA-256>.<ext>`.
So a name never changes meaning: a new photo is a new name, which is what lets every copy of
it (the browser's, nginx's, a CDN's) be kept for a year as immutable; two app servers saving
the same bytes agree on the name; and a strong ETag comes from the name without reading the
file. Only the types below are kept and served, each with how a browser should show it:
images and PDFs in the page, office documents as downloads. Nothing else, and never a type a
browser would run (HTML, SVG, scripts).

Every app server must see the same store (one bucket, or one shared folder): a server that
is replaced, or a second one behind the same proxy, then loses or misses no file.
"""

from __future__ import annotations

import hashlib
import io
import re
import unicodedata
from dataclasses import dataclass
from typing import IO
from urllib.parse import quote

from django.conf import settings
from django.core.files.base import File
from django.core.files.storage import Storage, storages
from django.utils.encoding import filepath_to_uri
from django.utils.http import content_disposition_header

from confsched.core.storage import FILENAME_METADATA

PHOTOS = "photos"
SLIDES = "slides"
# The folders (S3 key prefixes) of the files people upload: only names under these are served.
PREFIXES = (PHOTOS, SLIDES)
# Uploads kept as the person sent them until the worker has made what is shown of them (a
# speaker's photo before it is re-encoded, speakers/photo_uploads.py): they still carry their
# metadata (a phone's GPS position), so no address serves them; open_file reads them only when
# asked for `private` ones.
INCOMING = "incoming"
PRIVATE_PREFIXES = (INCOMING,)
STORED_PREFIXES = PREFIXES + PRIVATE_PREFIXES  # every folder save() writes to
DIGEST_LENGTH = 20  # 80 bits of SHA-256: no two different uploads share a name
# A name is its content: every cache may keep it for a year without asking again.
CACHE_CONTROL = "public, max-age=31536000, immutable"
CHUNK_SIZE = 64 * 1024


@dataclass(frozen=True)
class FileType:
    """A kind of file the site keeps: its type, its extension, and whether a browser shows it
    in the page (images, PDF) or saves it (office documents, which it cannot show)."""

    content_type: str
    extension: str
    inline: bool


TYPES = (
    FileType("image/jpeg", "jpg", inline=True),
    FileType("image/png", "png", inline=True),
    FileType("image/webp", "webp", inline=True),
    FileType("application/pdf", "pdf", inline=True),
    FileType(
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "pptx",
        inline=False,
    ),  # fmt: skip
    FileType(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "docx",
        inline=False,
    ),  # fmt: skip
    FileType(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx", inline=False
    ),
    FileType("application/vnd.ms-powerpoint", "ppt", inline=False),
    FileType("application/msword", "doc", inline=False),
    FileType("application/vnd.ms-excel", "xls", inline=False),
    FileType("application/vnd.oasis.opendocument.presentation", "odp", inline=False),
    FileType("application/vnd.oasis.opendocument.text", "odt", inline=False),
    FileType("application/vnd.oasis.opendocument.spreadsheet", "ods", inline=False),
)
BY_CONTENT_TYPE = {kind.content_type: kind for kind in TYPES}
BY_EXTENSION = {kind.extension: kind for kind in TYPES}
# What a stored file of any other type is served as (an object put in the bucket by hand, with
# a type the site never saves): bytes to download, never something a browser would render.
DOWNLOAD = FileType("application/octet-stream", "bin", inline=False)


def _name_pattern(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(
        rf"(?P<prefix>{'|'.join(prefixes)})/(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})"
        rf"\.(?P<extension>{'|'.join(BY_EXTENSION)})"
    )


NAME = _name_pattern(PREFIXES)  # what is served
ANY_NAME = _name_pattern(STORED_PREFIXES)  # what save() makes


@dataclass
class StoredFile:
    """A stored file being read: its bytes as a stream (close it, or hand it to a response
    that will), and how it is served."""

    name: str
    stream: IO[bytes]
    size: int
    file_type: FileType  # one of TYPES, else DOWNLOAD
    filename: str  # a safe download name
    etag: str  # strong: the content's digest, from the name

    @property
    def content_disposition(self) -> str:
        return disposition(self.file_type, self.filename)


def storage_for(storage: Storage | None = None) -> Storage:
    """The storage given (tests: two app servers), else the site's (settings.STORAGES)."""
    return storage if storage is not None else storages["default"]


def file_type(content_type: str) -> FileType | None:
    """The kept type a Content-Type names ("image/JPEG; q" is image/jpeg), or None."""
    return BY_CONTENT_TYPE.get(content_type.split(";")[0].strip().lower())


def is_stored_name(name: str) -> bool:
    """A name save() could have made: a known prefix (a private one too), a digest, a kept
    extension. Nothing else (a path with .., a leading /, another folder) reaches a storage
    backend."""
    return ANY_NAME.fullmatch(name) is not None


def is_private_name(name: str) -> bool:
    """A name save() makes under a private prefix: stored, never served."""
    found = ANY_NAME.fullmatch(name)
    return found is not None and found["prefix"] in PRIVATE_PREFIXES


def safe_filename(filename: str, kind: FileType, *, fallback: str) -> str:
    """The download name a person's file name becomes: its last part only, letters, digits,
    spaces and -_.() kept, at most 80 characters, and the extension of its real type."""
    base = unicodedata.normalize("NFC", filename.replace("\\", "/").rsplit("/", 1)[-1])
    kept = "".join(c if c.isalnum() or c in " -_.()" else "_" for c in base)
    stem = re.sub(r"\s+", " ", kept.rsplit(".", 1)[0] if "." in kept else kept)
    stem = stem.strip(" ._")[:80].strip(" ._")
    return f"{stem or fallback}.{kind.extension}"


def disposition(kind: FileType, filename: str) -> str:
    """`inline` for what a browser shows, `attachment` for the rest, with the file's name."""
    header = content_disposition_header(not kind.inline, filename)
    assert header is not None  # noqa: S101 - a name is always given
    return header


def _digest(upload: File) -> str:
    digest = hashlib.sha256()
    for chunk in upload.chunks(CHUNK_SIZE):
        digest.update(chunk)
    return digest.hexdigest()[:DIGEST_LENGTH]


class _Upload(File):
    """The bytes being saved, with what the S3 backend stores on the object with them
    (ObjectStorage reads `object_parameters`; the file system keeps only the bytes)."""

    content_type: str
    object_parameters: dict[str, object]


def save(
    prefix: str,
    content: bytes | IO[bytes] | File,
    content_type: str,
    *,
    filename: str = "",
    storage: Storage | None = None,
) -> str:
    """Keep the file under its content's name and return that name (the same bytes saved
    twice, by one server or two, are one file). `content_type` must be one of TYPES (the
    caller has checked the bytes are what they claim, and refused anything else with an
    UploadError); `filename`, the person's, becomes the download name."""
    if prefix not in STORED_PREFIXES:
        raise ValueError(f"Unknown prefix {prefix!r}: one of {', '.join(STORED_PREFIXES)}")
    kind = file_type(content_type)
    if kind is None:
        # The upload's own checks refuse such a file to the person (UploadError) first.
        raise ValueError(f"Not a type the site keeps: {content_type!r}")
    if isinstance(content, bytes):
        stream: IO[bytes] = io.BytesIO(content)
    elif isinstance(content, File):
        if content.file is None:
            raise ValueError(f"{content!r} is not open")
        stream = content.file
    else:
        stream = content
    upload = _Upload(stream)
    digest = _digest(upload)
    name = f"{prefix}/{digest}.{kind.extension}"
    store = storage_for(storage)
    if store.exists(name):
        return name
    download = safe_filename(filename, kind, fallback=digest)
    upload.content_type = kind.content_type
    upload.object_parameters = {
        "ContentType": kind.content_type,
        "ContentDisposition": disposition(kind, download),
        "Metadata": {FILENAME_METADATA: quote(download)},
    }
    saved = store.save(name, upload)
    if saved != name:
        # Another server saved the same bytes between exists() and save() (file_overwrite is
        # off, so the store chose another name): the content's name holds them already.
        store.delete(saved)
    return name


def open_file(name: str, *, storage: Storage | None = None, private: bool = False) -> StoredFile:
    """The stored file `name` for reading. FileNotFoundError when there is none, and for a
    name save() never makes (so no other name reaches the store), or a private one unless
    `private` (the media view never asks: such a file is not served)."""
    found = (ANY_NAME if private else NAME).fullmatch(name)
    if found is None:
        raise FileNotFoundError(f"Not a stored file's name: {name!r}")
    store = storage_for(storage)
    opener = getattr(store, "open_stream", None)
    if opener is not None:
        stored = opener(name)
        stream, size, saved_type, saved_name = (
            stored.stream, stored.size, stored.content_type, stored.filename,
        )  # fmt: skip
    else:  # another Django storage: its own open, the type from the extension
        opened = store.open(name, "rb")
        stream, size, saved_type, saved_name = opened, opened.size, "", ""
    by_extension = BY_EXTENSION[found["extension"]]
    # The type saved with the file where the store keeps one (S3), else its extension's; one
    # outside TYPES (put there by other hands) is served as bytes to download.
    kind = (file_type(saved_type) or DOWNLOAD) if saved_type else by_extension
    digest = found["digest"]
    return StoredFile(
        name=name,
        stream=stream,
        size=size,
        file_type=kind,
        filename=safe_filename(saved_name, kind, fallback=digest),
        etag=f'"{digest}"',
    )


def delete(name: str, *, storage: Storage | None = None) -> None:
    """Remove the stored file (nothing happens when there is none)."""
    if not is_stored_name(name):
        raise ValueError(f"Not a stored file's name: {name!r}")
    storage_for(storage).delete(name)


def exists(name: str, *, storage: Storage | None = None) -> bool:
    return is_stored_name(name) and storage_for(storage).exists(name)


def url(name: str) -> str:
    """Where a browser fetches the file: MEDIA_URL (the site's /media/, served by nginx or
    the app; or CONFSCHED_MEDIA_URL, the bucket's public address or a CDN) and the name."""
    return settings.MEDIA_URL + filepath_to_uri(name)


# An address that ends in the stored name of uploaded slides (url() of a name save() made, made
# absolute or not): how a session's link to a file the site holds is told from a typed link.
UPLOADED_SLIDES = re.compile(rf"/{SLIDES}/[0-9a-f]{{{DIGEST_LENGTH}}}\.[a-z]+$")


def is_uploaded_slides(address: str) -> bool:
    """True when `address` is that of slides a speaker uploaded (UPLOADED_SLIDES)."""
    return UPLOADED_SLIDES.search(address) is not None
