"""Reading an import's input: a local file or an http(s) URL, within a size limit and a timeout.

The one place the importer touches the network; parsers stay pure and get bytes.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from confsched.core.errors import ParseError

MAX_BYTES = 50 * 1024 * 1024
TIMEOUT_SECONDS = 30


def is_url(location: str) -> bool:
    return "://" in location


def read_source(
    location: str, *, max_bytes: int = MAX_BYTES, timeout: float = TIMEOUT_SECONDS
) -> tuple[str, bytes]:
    """(name for messages, content) of a file path or an http(s) URL."""
    if not is_url(location):
        path = Path(location)
        try:
            size = path.stat().st_size
            if size > max_bytes:
                raise ParseError(
                    f"is {size} bytes, over the {max_bytes}-byte limit", source=location
                )
            return path.name, path.read_bytes()
        except OSError as exc:
            raise ParseError(f"cannot read: {exc.strerror}", source=location) from exc
    scheme = urlsplit(location).scheme.lower()
    if scheme not in {"http", "https"}:
        raise ParseError(
            f"only http and https URLs can be imported, not {scheme}:", source=location
        )
    request = urllib.request.Request(location, headers={"User-Agent": "confsched-import"})  # noqa: S310 - scheme checked above
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - scheme checked above
            declared = int(response.headers.get("Content-Length") or 0)
            if declared > max_bytes:
                raise ParseError(
                    f"is {declared} bytes, over the {max_bytes}-byte limit", source=location
                )
            data = response.read(max_bytes + 1)
    except urllib.error.HTTPError as exc:
        raise ParseError(f"the server answered {exc.code} {exc.reason}", source=location) from exc
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ParseError(f"could not be fetched: {reason}", source=location) from exc
    if len(data) > max_bytes:
        raise ParseError(f"is over the {max_bytes}-byte limit", source=location)
    return location, data
