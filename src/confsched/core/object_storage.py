"""The S3 bucket where files people upload may live (settings.STORAGES["default"] when
CONFSCHED_S3_BUCKET is set; core/storage.py says what it adds to django-storages' backend). A
module of its own so that a site keeping files in its data folder never imports boto3."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from botocore.exceptions import ClientError
from storages.backends.s3 import S3Storage
from storages.utils import clean_name

from confsched.core.storage import FILENAME_METADATA, StoredStream


class ObjectStorage(S3Storage):
    """django-storages' S3 backend, with per-file object parameters and streamed reads."""

    def _get_write_parameters(self, name: str, content: Any = None) -> dict[str, Any]:
        """The storage's own parameters (Cache-Control), then the file's: a File that carries
        `object_parameters` (core/files.py's) gets its ContentType, ContentDisposition and
        metadata stored with it in the one PUT, so no object is ever without them."""
        params: dict[str, Any] = super()._get_write_parameters(name, content)
        params.update(getattr(content, "object_parameters", {}))
        return params

    def open_stream(self, name: str) -> StoredStream:
        """One GET: the body as it arrives, never the whole object in memory (S3File's way)."""
        key = self._normalize_name(clean_name(name))
        try:
            answer = self.connection.meta.client.get_object(Bucket=self.bucket_name, Key=key)
        except ClientError as error:
            if error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") == 404:
                raise FileNotFoundError(f"No such file: {name}") from error
            raise
        metadata = answer.get("Metadata", {})
        return StoredStream(
            stream=answer["Body"],
            size=int(answer["ContentLength"]),
            content_type=answer.get("ContentType", ""),
            filename=unquote(metadata.get(FILENAME_METADATA, "")),
        )
