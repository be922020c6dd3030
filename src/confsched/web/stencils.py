"""Pages rendered once per schedule version and filled in per request.

A schedule page of 1,000 sessions is the same for every visitor who asks for the same address
in the same zone, except for a few things: the CSRF token in its forms, the account corner,
and which sessions carry a filled star. So the page is rendered once with a marker in each of
those places and kept as a *stencil*: its text cut at the markers. A request fills the holes
(a join over a list of strings) instead of building 1,000 sessions from the database and
running the template engine over them.

Stencils are keyed by the event's `updated_at` (it moves on every import and edit), so a key
can never name stale content: each process keeps its recent stencils in memory, and the
shared cache (Redis when REDIS_URL is set) hands them to other processes.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache

STENCIL_TTL = 24 * 3600
# Process-local copies: enough for every layout and zone of a few events, bounded in bytes.
LOCAL_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Hole:
    """A place a request fills: "csrf", "account", or "star" with the session's pk."""

    name: str
    session: int = 0


Part = str | Hole


class Stencil:
    """A page cut at its holes, laid out so that a request costs a list copy and a join.

    The page is kept as UTF-8 pieces with every session's star in its plain state; the CSRF
    token holes are listed by index, and each session's star is a span of pieces that a
    request replaces by the starred version when the person starred it.
    """

    def __init__(
        self, parts: list[Part], *, stars: dict[int, tuple[list[Part], list[Part]]],
        status: int = 200,
    ) -> None:  # fmt: skip
        self.status = status
        self.pieces: list[bytes | None] = []
        self.holes: dict[str, list[int]] = {}
        self.spans: dict[int, tuple[int, int]] = {}
        self.starred: dict[int, list[bytes | None]] = {}
        for part in parts:
            if isinstance(part, Hole) and part.name == "star":
                plain, filled = stars[part.session]
                start = len(self.pieces)
                self._extend(plain)
                self.spans[part.session] = (start, len(self.pieces))
                self.starred[part.session] = [
                    p.encode() if isinstance(p, str) else None for p in filled
                ]
                if any(isinstance(p, Hole) and p.name != "csrf" for p in filled):
                    raise ValueError("a star control may only hold the CSRF token")
            else:
                self._extend([part])
        self.size = sum(len(piece) for piece in self.pieces if piece is not None)

    def _extend(self, parts: list[Part]) -> None:
        for part in parts:
            if isinstance(part, str):
                self.pieces.append(part.encode())
            else:
                self.holes.setdefault(part.name, []).append(len(self.pieces))
                self.pieces.append(None)

    def fill(self, *, values: dict[str, bytes], starred: set[int] | frozenset[int]) -> bytes:
        """The page for one request: `values` for the named holes, stars set for `starred`."""
        pieces = self.pieces.copy()
        for name, indexes in self.holes.items():
            value = values[name]
            for index in indexes:
                pieces[index] = value
        token = values.get("csrf", b"")
        # From the end, so that replacing one span leaves the indexes of the others valid.
        for pk in sorted(starred & self.spans.keys(), key=self.spans.__getitem__, reverse=True):
            start, end = self.spans[pk]
            pieces[start:end] = [token if p is None else p for p in self.starred[pk]]
        return b"".join(pieces)  # type: ignore[arg-type]


class Markers:
    """Unguessable markers for one rendering, and the cutting of its output at them."""

    def __init__(self) -> None:
        self._tag = secrets.token_hex(8)
        self._pattern = re.compile(f"\x1e{self._tag}:([a-z]+):(\\d+)\x1f")

    def mark(self, name: str, session: int = 0) -> str:
        return f"\x1e{self._tag}:{name}:{session}\x1f"

    def cut(self, html: str) -> list[Part]:
        pieces = self._pattern.split(html)
        parts: list[Part] = []
        for index in range(0, len(pieces) - 1, 3):
            if pieces[index]:
                parts.append(pieces[index])
            parts.append(Hole(pieces[index + 1], int(pieces[index + 2])))
        if pieces[-1]:
            parts.append(pieces[-1])
        return parts


class _Sized(Protocol):
    size: int


class _LocalCache:
    """A least-recently-used map of stencils and renditions, bounded by their size in bytes."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._items: OrderedDict[str, _Sized] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> _Sized | None:
        with self._lock:
            stencil = self._items.get(key)
            if stencil is not None:
                self._items.move_to_end(key)
            return stencil

    def put(self, key: str, stencil: _Sized) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = stencil
            self._size += stencil.size
            while self._size > self._limit and len(self._items) > 1:
                _, dropped = self._items.popitem(last=False)
                self._size -= dropped.size

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0


_local = _LocalCache(LOCAL_BYTES)
_building: dict[str, threading.Lock] = {}
_building_guard = threading.Lock()
SizedT = TypeVar("SizedT", bound=_Sized)


def kept(key: str, build: Callable[[], SizedT]) -> SizedT:
    """What is stored under `key` (here, then in the shared cache), else built and kept.

    Keys name the schedule version they were built from, so nothing kept can be stale.
    """
    found: Any = _local.get(key)
    if found is not None:
        return cast(SizedT, found)
    # One build per key in this process: the threads that ask meanwhile wait for it rather than
    # each building the same 5,000-session page at once.
    with _building_guard:
        building = _building.setdefault(key, threading.Lock())
    try:
        with building:
            found = _local.get(key)
            if found is None:
                # Without Redis the default cache lives in this process too: a second
                # (pickled) copy there would only double the memory.
                shared = not isinstance(caches["default"], LocMemCache)
                found = cache.get(key) if shared else None
                if found is None:
                    found = build()
                    if shared:
                        cache.set(key, found, STENCIL_TTL)
                _local.put(key, found)
    finally:
        # Also when the build fails (a page that is a 404): no lock is left behind per key.
        with _building_guard:
            _building.pop(key, None)
    return cast(SizedT, found)


def forget_local_stencils() -> None:
    """Drop this process's copies (tests; the shared cache is cleared on its own)."""
    _local.clear()
