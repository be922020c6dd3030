"""The two places files people upload may live: a folder of the data directory, or an S3
bucket (settings.STORAGES["default"]; core/files.py is what the rest of the site calls).

Each backend adds what Django's or django-storages' own lacks for these files:

- `AtomicFileSystemStorage` writes a file under a temporary name and links it into place
  once every byte is on disk. Django's FileSystemStorage writes straight into the final name,
  so a write cut off halfway (a full disk, a killed worker, a client gone) leaves half a
  photo there, which nginx would then serve for a year as immutable.
- `ObjectStorage` (core/object_storage.py, imported only where settings name it: boto3 costs
  every web worker 20 MB) stores the type, disposition and download name each file is saved
  with on the object itself (S3 metadata, which the object store or a CDN in front serves as
  they are), and reads a file as a stream: S3File would first copy the whole object into
  memory.

Both answer `open_stream(name)` with the bytes as a stream and what is known of them.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from typing import IO

from django.core.files.base import File
from django.core.files.storage import FileSystemStorage
from django.core.files.utils import validate_file_name

# Where the download name a file was saved with is kept on an S3 object (x-amz-meta-filename),
# percent-encoded: S3 metadata travels in HTTP headers, which are ASCII.
FILENAME_METADATA = "filename"


@dataclass
class StoredStream:
    """A stored file's bytes as a stream, with what the backend knows of them: the content
    type saved with it ("" where the backend keeps none) and its download name."""

    stream: IO[bytes]
    size: int
    content_type: str = ""
    filename: str = ""


class AtomicFileSystemStorage(FileSystemStorage):
    """A folder where a file appears whole or not at all (see the module's docstring)."""

    def _save(self, name: str, content: File) -> str:
        full_path = self.path(name)
        directory = os.path.dirname(full_path)
        os.makedirs(directory, exist_ok=True)
        # In the same folder, so that linking it into place is one step of one file system.
        descriptor, temporary = tempfile.mkstemp(prefix=".partial-", dir=directory)
        try:
            with os.fdopen(descriptor, "wb") as written:
                for chunk in content.chunks():
                    written.write(chunk if isinstance(chunk, bytes) else chunk.encode())
                written.flush()
                os.fsync(written.fileno())
            # Readable by nginx (another user) from the first moment it has its name.
            mode = self.file_permissions_mode
            os.chmod(temporary, 0o644 if mode is None else mode)
            while True:
                try:
                    # A link never replaces: a name taken meanwhile keeps its file.
                    os.link(temporary, full_path)
                    break
                except FileExistsError:
                    name = self.get_available_name(name)
                    full_path = self.path(name)
        finally:
            os.unlink(temporary)
        name = os.path.relpath(full_path, self.location)
        self._ensure_location_group_id(full_path)  # type: ignore[attr-defined] # Django's
        return str(name).replace("\\", "/")

    def open_stream(self, name: str) -> StoredStream:
        """The file, opened for reading (FileNotFoundError when there is none)."""
        validate_file_name(name, allow_relative_path=True)
        stream = open(self.path(name), "rb")  # noqa: SIM115 - the response closes it
        return StoredStream(stream=stream, size=os.fstat(stream.fileno()).st_size)
