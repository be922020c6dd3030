"""Responses compressed on the wire, chosen by the client's Accept-Encoding.

A schedule page of 1,000 sessions is 1.4 MB of HTML and about 60 KB gzipped; on conference
Wi-Fi that is the difference that matters. Pages are compressed per request with ISA-L's gzip
(a millisecond for a megabyte, where zlib's default level takes eight). Bodies that are the same
for everyone and cached (exports, feeds) carry their `gzipped` body, made once per schedule
version. Brotli is left out on purpose: installed, it also makes WhiteNoise compress every
static file at brotli's slowest level whenever `serve` collects them.

BREACH: pages that carry a CSRF token are safe as Django masks the token anew for every
response; every gzip body also carries 2-100 random bytes in its header's file name field
(as Django's own GZipMiddleware does), so lengths do not repeat.
"""

from __future__ import annotations

import secrets
import struct
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.regex_helper import _lazy_re_compile
from isal import isal_zlib

MIN_SIZE = 512
GZIP_LEVEL = 1  # ISA-L's levels run 0-3; 1 keeps a 1.4 MB page near 1 ms
_COMPRESSIBLE = (
    "text/", "application/json", "application/xml", "application/calendar+xml",
    "application/atom+xml", "application/javascript", "image/svg+xml",
)  # fmt: skip
_ACCEPTS = _lazy_re_compile(r"(?:^|,)\s*([a-z*]+)\s*(?:;\s*q\s*=\s*([0-9.]+))?", 0)


# A deflate block that ends the stream: final, fixed codes, only the end-of-block code.
FINAL_EMPTY_BLOCK = b"\x03\x00"


def gzip_header(*, padded: bool = True) -> bytes:
    """A gzip member's header, with a random-length file name as BREACH padding; without
    (`padded=False`) for a body that holds no secret and must be the same bytes every time."""
    if not padded:
        return b"\x1f\x8b\x08\x00" + b"\x00\x00\x00\x00" + b"\x00\xff"
    padding = secrets.token_hex(secrets.randbelow(50) + 1).encode()  # 2-100 bytes, no NUL
    return b"\x1f\x8b\x08\x08" + b"\x00\x00\x00\x00" + b"\x00\xff" + padding + b"\x00"


def gzip_bytes(data: bytes, *, level: int = GZIP_LEVEL, padded: bool = True) -> bytes:
    """A gzip member of `data` (see gzip_header for its padding)."""
    deflater = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15)
    body = deflater.compress(data) + deflater.flush()
    trailer = struct.pack("<II", isal_zlib.crc32(data), len(data) & 0xFFFFFFFF)
    return gzip_header(padded=padded) + body + trailer


def accepted_encodings(header: str) -> set[str]:
    """The codings a client takes ("gzip", "br"), q=0 meaning no."""
    found = set()
    for name, quality in _ACCEPTS.findall(header.lower()):
        try:
            if quality and float(quality) == 0:
                continue
        except ValueError:
            continue
        found.add(name)
    return found


class CompressionMiddleware:
    """Compress what is worth it; leave streaming, small and already-encoded responses."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        takes_gzip = accepts_gzip(request)
        response = self._compressed(request, self.get_response(request), takes_gzip=takes_gzip)
        etag = response.get("ETag")
        # A streamed response (an uploaded file) is never compressed here: the same bytes for
        # every client, so its ETag stays strong.
        if takes_gzip and etag and not etag.startswith("W/") and not response.streaming:
            # To a client that takes gzip, a body may come in either coding: the same entity,
            # equal in meaning, not in bytes. Weak for the 200 and for its 304 alike (a 304 has
            # no body to tell whether the 200 would have been compressed).
            response["ETag"] = "W/" + etag
        return response

    def _compressed(
        self, request: HttpRequest, response: HttpResponse, *, takes_gzip: bool
    ) -> HttpResponse:
        if (
            response.streaming
            or response.has_header("Content-Encoding")
            or not response.get("Content-Type", "").startswith(_COMPRESSIBLE)
        ):
            return response
        gzipped: bytes | None = getattr(response, "gzipped", None)
        if gzipped is None and len(response.content) < MIN_SIZE:
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not takes_gzip:
            return response
        # A response any cache may share holds no secret (shared_cache.py): no BREACH padding,
        # so that every process sends the same bytes for it.
        public = "public" in response.get("Cache-Control", "")
        body = gzip_bytes(response.content, padded=not public) if gzipped is None else gzipped
        response.content = body
        response["Content-Encoding"] = "gzip"
        response["Content-Length"] = str(len(body))
        return response


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(accepted_encodings(request.META.get("HTTP_ACCEPT_ENCODING", "")) & {"gzip", "*"})


class Rendition:
    """A body that is the same for everyone until the schedule changes (an export, a feed),
    compressed once at ISA-L's best level and kept only so: at 5,000 sessions the exports are
    30 MB plain and 3 MB gzipped. The rare client that takes no gzip gets it decompressed."""

    def __init__(self, body: bytes) -> None:
        # The same for everyone, no secret in it: no padding, the same bytes in every process.
        self.gzip = gzip_bytes(body, level=3, padded=False)
        self.size = len(self.gzip)

    @property
    def body(self) -> bytes:
        return isal_zlib.decompress(self.gzip, 16 + isal_zlib.MAX_WBITS)

    def response(self, request: HttpRequest, content_type: str) -> HttpResponse:
        if accepts_gzip(request):
            response = HttpResponse(self.gzip, content_type=content_type)
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(self.body, content_type=content_type)
        patch_vary_headers(response, ("Accept-Encoding",))
        return response
