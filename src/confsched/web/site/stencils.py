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

import hashlib
import re
import secrets
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from isal import isal_zlib

from confsched import interchange
from confsched.interchange import programme as pm
from confsched.interchange.pieces import Build, Context
from confsched.programme.services.export import forget_snapshots
from confsched.web.site.collection import collect_after_response
from confsched.web.site.compression import FINAL_EMPTY_BLOCK, GZIP_LEVEL, gzip_header

STENCIL_TTL = 24 * 3600
# Process-local copies: enough for every layout and zone of a few events, bounded in bytes.
LOCAL_BYTES = 64 * 1024 * 1024
# A kept page is compressed in runs of about this many bytes (and at its holes): a changed card
# compresses its run again (and the next, which refers back into it), not the page. A run
# refers back into the end of the one before it (deflate's window), as one stream would: at
# 5,000 sessions the page compresses 0.5 to 0.7 % larger than in one run.
RUN_BYTES = 128 * 1024
WINDOW = 32 * 1024


@dataclass(frozen=True)
class Hole:
    """A place a request fills: "csrf", "account", or "star" or "seat" with the session's pk."""

    name: str
    session: int = 0

    @property
    def key(self) -> str:
        """What `fill` looks the hole up by: "csrf", or "seat:12" for one session's seat."""
        return f"{self.name}:{self.session}" if self.session else self.name


Part = bytes | str | Hole  # text as UTF-8 bytes (or str, encoded when kept)


class Stencil:
    """A page cut at its holes, laid out so that a request costs a list copy and a join.

    The page is kept as UTF-8 pieces with every session's star in its plain state; the named
    holes ("csrf", "account", each session's "seat:<pk>") are listed by index, and each
    session's star is a span of pieces that a request replaces by the starred version when
    the person starred it.

    The plain page (no star filled) is also kept gzip-compressed, cut at the named holes: a
    visitor's page is then that, with the few bytes of their holes compressed in between
    (see `gzip_plain`), at a cost that does not grow with the page.
    """

    def __init__(
        self, parts: list[Part], *, stars: dict[int, tuple[list[Part], list[Part]]],
        status: int = 200,
    ) -> None:  # fmt: skip
        self.status = status
        self.pieces: list[bytes | None] = []
        self.holes: dict[str, list[int]] = {}
        self.spans: dict[int, tuple[int, int]] = {}
        self.starred: dict[int, list[bytes]] = {}
        for part in parts:
            if isinstance(part, Hole) and part.name == "star":
                plain, filled = stars[part.session]
                if any(isinstance(p, Hole) for p in plain + filled):
                    raise ValueError("a star control holds no hole (the page's form has the token)")
                start = len(self.pieces)
                self._extend(plain)
                self.spans[part.session] = (start, len(self.pieces))
                self.starred[part.session] = [
                    p if isinstance(p, bytes) else p.encode()
                    for p in filled
                    if not isinstance(p, Hole)
                ]
            else:
                self._extend([part])
        self.plain = _Deflated(self.pieces, self.holes)
        self.size = sum(len(piece) for piece in self.pieces if piece is not None) + self.plain.size
        # Whether kept() puts it in the shared cache too: not a page spliced from a frame
        # (replaced), which any process holding the frame splices for less than reading it
        # back (5,000 sessions: 9 MB pickled, 20 ms to store, 31 ms to read); a process without
        # one splices from the last frame built whole, which is shared (schedule/frames.py).
        self.is_shared = True

    def replaced(self, pieces: Mapping[int, bytes], starred: Mapping[int, bytes]) -> Stencil:
        """This page with the pieces at `pieces`' indexes replaced, and the stars of `starred`'s
        sessions (each star one piece: plain in `pieces`, starred here), without cutting the
        page again: what a changed card costs (schedule/frames.py)."""
        copy = object.__new__(Stencil)
        copy.status, copy.holes, copy.spans = self.status, self.holes, self.spans
        copy.is_shared = False
        copy.pieces = self.pieces.copy()
        for index, piece in pieces.items():
            if self.pieces[index] is None:
                raise ValueError(f"piece {index} is a hole, not text")
            copy.pieces[index] = piece
        copy.starred = self.starred | {pk: [piece] for pk, piece in starred.items()}
        copy.plain = self.plain.replaced(copy.pieces, pieces.keys())
        grown = sum(len(piece) - len(self.pieces[index] or b"") for index, piece in pieces.items())
        copy.size = self.size + grown + copy.plain.size - self.plain.size
        return copy

    def _extend(self, parts: list[Part]) -> None:
        for part in parts:
            if isinstance(part, bytes):
                self.pieces.append(part)
            elif isinstance(part, str):
                self.pieces.append(part.encode())
            else:
                self.holes.setdefault(part.key, []).append(len(self.pieces))
                self.pieces.append(None)

    def fill(self, *, values: dict[str, bytes], starred: set[int] | frozenset[int]) -> bytes:
        """The page for one request: `values` for the named holes, stars set for `starred`."""
        pieces = self.pieces.copy()
        for name, indexes in self.holes.items():
            value = values[name]
            for index in indexes:
                pieces[index] = value
        # From the end, so that replacing one span leaves the indexes of the others valid.
        for pk in sorted(starred & self.spans.keys(), key=self.spans.__getitem__, reverse=True):
            start, end = self.spans[pk]
            pieces[start:end] = self.starred[pk]
        return b"".join(pieces)  # type: ignore[arg-type]

    def gzip_plain(self, *, values: dict[str, bytes], padded: bool = True) -> bytes:
        """`fill(values=values, starred=set())` as a gzip member, without compressing the page
        (`padded`: see compression.gzip_header)."""
        return self.plain.gzip(values, padded=padded)


class _Deflated:
    """A stencil's plain page as raw deflate runs, each ending on a byte boundary (a sync flush)
    so that runs and separately compressed hole values concatenate into one valid stream; with
    each run's CRC-32 and length, the gzip trailer of the whole is combined, not recomputed.
    No back-reference crosses a hole, so a hole's content (a CSRF token) is never compressed
    against the page around it."""

    def __init__(self, pieces: list[bytes | None], holes: dict[str, list[int]]) -> None:
        names = {index: name for name, indexes in holes.items() for index in indexes}
        self.sequence: list[str | tuple[bytes, int, int]] = []
        # Per item of the sequence, the pieces it is made of ([start, end)), and whether it is a
        # run compressed against the end of the run before it (no hole in between).
        self.ranges: list[tuple[int, int]] = []
        self.chained: list[bool] = []
        start, size, tail = -1, 0, None
        for index, piece in enumerate(pieces + [None]):
            if piece is not None:
                start = index if start < 0 else start
                size += len(piece)
                if size >= RUN_BYTES:  # a run of its own, compressed again only if it changes
                    tail = self._add_run(pieces, start, index + 1, tail)
                    start, size = -1, 0
                continue
            if start >= 0:
                self._add_run(pieces, start, index, tail)
                start, size = -1, 0
            tail = None  # no back-reference crosses a hole
            if index < len(pieces):
                self.sequence.append(names[index])
                self.ranges.append((index, index + 1))
                self.chained.append(False)
        self.size = sum(len(item[0]) for item in self.sequence if isinstance(item, tuple))

    def _add_run(
        self, pieces: list[bytes | None], start: int, end: int, window: bytes | None
    ) -> bytes:
        run, tail = _run(pieces, start, end, window)
        self.sequence.append(run)
        self.ranges.append((start, end))
        self.chained.append(window is not None)
        return tail

    def replaced(self, pieces: list[bytes | None], changed: Collection[int]) -> _Deflated:
        """The runs of `pieces`, which differ from this one's only at the `changed` indexes
        (text pieces): those runs compressed again, and each run chained to one of them (its
        window changed); the others as they are."""
        copy = object.__new__(_Deflated)
        copy.ranges, copy.chained = self.ranges, self.chained
        copy.sequence = []
        touched = False  # whether the item before holds a changed piece
        for position, (item, (start, end)) in enumerate(
            zip(self.sequence, self.ranges, strict=True)
        ):
            chained = self.chained[position]
            was_touched, touched = touched, any(start <= index < end for index in changed)
            if not isinstance(item, str) and (touched or (chained and was_touched)):
                window = None
                if chained:
                    before = self.ranges[position - 1]
                    window = b"".join(pieces[before[0] : before[1]])[-WINDOW:]  # type: ignore[arg-type]
                item = _run(pieces, start, end, window)[0]
            copy.sequence.append(item)
        copy.size = sum(len(item[0]) for item in copy.sequence if isinstance(item, tuple))
        return copy

    def gzip(self, values: dict[str, bytes], *, padded: bool = True) -> bytes:
        chunks = [gzip_header(padded=padded)]
        crc = length = 0
        for item in self.sequence:
            if isinstance(item, str):
                value = values[item]
                chunks.append(_deflate(value))
                crc, length = isal_zlib.crc32(value, crc), length + len(value)
            else:
                data, run_crc, run_length = item
                chunks.append(data)
                crc = isal_zlib.crc32_combine(crc, run_crc, run_length)
                length += run_length
        chunks.append(FINAL_EMPTY_BLOCK)
        chunks.append(struct.pack("<II", crc, length & 0xFFFFFFFF))
        return b"".join(chunks)


def _run(
    pieces: list[bytes | None], start: int, end: int, window: bytes | None
) -> tuple[tuple[bytes, int, int], bytes]:
    """Pieces [start, end) compressed as a run (its deflate, CRC-32 and length), against
    `window`, the end of the run just before it in the stream; and this run's own end."""
    data = b"".join(pieces[start:end])  # type: ignore[arg-type]  # text pieces only
    return (_deflate(data, level=3, window=window), isal_zlib.crc32(data), len(data)), data[
        -WINDOW:
    ]


def _deflate(data: bytes, *, level: int = GZIP_LEVEL, window: bytes | None = None) -> bytes:
    """Raw deflate of `data`, not final, ending on a byte boundary; with `window` (what the
    stream holds just before it), referring back into that as a continuous stream does."""
    if window:
        deflater = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15, zdict=window)
    else:
        deflater = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15)
    return deflater.compress(data) + deflater.flush(isal_zlib.Z_SYNC_FLUSH)


class Markers:
    """Unguessable markers for one rendering, and the cutting of its output at them."""

    def __init__(self) -> None:
        self._tag = secrets.token_hex(8)
        self._pattern = re.compile(f"\x1e{self._tag}:([a-z]+):(\\d+)\x1f".encode())

    def mark(self, name: str, session: int = 0) -> str:
        return f"\x1e{self._tag}:{name}:{session}\x1f"

    def cut(self, html: bytes | str) -> list[Part]:
        """The rendered page (bytes as the response holds them: no decoded copy of a 5 MB page)
        as the text between markers and the holes they mark."""
        pieces = self._pattern.split(html.encode() if isinstance(html, str) else html)
        parts: list[Part] = []
        for index in range(0, len(pieces) - 1, 3):
            if pieces[index]:
                parts.append(pieces[index])
            parts.append(Hole(pieces[index + 1].decode(), int(pieces[index + 2])))
        if pieces[-1]:
            parts.append(pieces[-1])
        return parts


class _Sized(Protocol):
    size: int


class _LocalCache:
    """A least-recently-used map of stencils and renditions, bounded by their size in bytes."""

    def __init__(self, limit: int, sizeof: Callable[[Any], int] = lambda item: item.size) -> None:
        self._limit = limit
        self._sizeof = sizeof
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            stencil = self._items.get(key)
            if stencil is not None:
                self._items.move_to_end(key)
            return stencil

    def put(self, key: Any, stencil: Any) -> None:
        """Keep `stencil` under `key`, in place of what was there (a frame is replaced by the
        next version's; a stencil's key names its content, so there it is the same)."""
        with self._lock:
            if key in self._items:
                self._size -= self._sizeof(self._items.pop(key))
            self._items[key] = stencil
            self._size += self._sizeof(stencil)
            while self._size > self._limit and len(self._items) > 1:
                _, dropped = self._items.popitem(last=False)
                self._size -= self._sizeof(dropped)

    __setitem__ = put

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0


_local = _LocalCache(LOCAL_BYTES)
# Calendar entries (VEVENT text) by a digest of what they are made from: a feed after a change,
# a filtered view's feed or an attendee's agenda renders only what no feed rendered before.
calendar_entries = _LocalCache(32 * 1024 * 1024, sizeof=len)
# Per-session parts (a card, a star) by a digest of everything they show: a page built after a
# change of one session renders that session's parts and finds every other one here.
session_parts = _LocalCache(48 * 1024 * 1024, sizeof=len)
# Export pieces (kept_pieces) apart from cards, so that neither pushes the other out: the six
# exports of 5,000 sessions are 50 MB of pieces in all.
export_pieces = _LocalCache(96 * 1024 * 1024, sizeof=len)
# The last list or grid built per address, zone and language (schedule/frames.py), the next
# version's starting point.
page_frames = _LocalCache(64 * 1024 * 1024)
# The last session page built per address, zone and language, and what it showed
# (web/sessions/frames.py): about 30 KB each, some thousands.
session_frames = _LocalCache(48 * 1024 * 1024, sizeof=lambda frame: frame.stencil.size + 512)
# The outline those pages read, per event at its last version seen (queries.Outlined): the first
# page after a change makes it from the one before, the others (the grid, other zones and
# languages) find it. Four (about 5.5 MB each at 5,000 sessions): the events being changed.
page_outlines = _LocalCache(4, sizeof=lambda outline: 1)
# Signed-in people's agendas (web/agenda/kept.py), about 60 KB each, and when each page's picks
# run (what now/next is told from): kept in each process only, as nobody else asks for them.
agenda_pages = _LocalCache(32 * 1024 * 1024)
agenda_times = _LocalCache(4 * 1024 * 1024, sizeof=lambda times: 64 + 48 * len(times.sessions))
_building: dict[str, threading.Lock] = {}
_building_guard = threading.Lock()
SizedT = TypeVar("SizedT", bound=_Sized)
ItemT = TypeVar("ItemT", bound=Hashable)
TextT = TypeVar("TextT", str, bytes)


def kept_parts(
    keys: Mapping[ItemT, str],
    build: Callable[[list[ItemT]], Mapping[ItemT, TextT]],
    *,
    local: _LocalCache = session_parts,
) -> dict[ItemT, TextT]:
    """The text kept under each item's key (here, then in the shared cache, in one round trip),
    and for the others what `build(those items)` gives, which is then kept in both.

    A key is a digest of everything its text is made from, so nothing kept can be stale: a
    changed session has a new key, and its old text is simply never asked for again.
    """
    found: dict[ItemT, TextT] = {}
    missing: list[ItemT] = []
    for item, key in keys.items():
        text = local.get(key)
        if text is None:
            missing.append(item)
        else:
            found[item] = text
    if not missing:
        return found
    shared = has_shared_cache()
    from_shared = cache.get_many([keys[item] for item in missing]) if shared else {}
    for item in missing:
        text = from_shared.get(keys[item])
        if text is not None:
            local.put(keys[item], text)
            found[item] = text
    unbuilt = [item for item in missing if item not in found]
    built = build(unbuilt) if unbuilt else {}
    for item, text in built.items():
        local.put(keys[item], text)
        found[item] = text
    if built and shared:
        cache.set_many({keys[item]: text for item, text in built.items()}, STENCIL_TTL)
    return found


def kept_pieces(kind: str, wanted: Sequence[tuple[Any, Context]], build: Build) -> list[bytes]:
    """A writer's pieces (interchange/pieces.py), kept as session parts are: each under a
    digest of its session, its context (everything else it shows) and the writers' code, so
    that an export after a change renders the pieces of the sessions that changed."""
    code = _writers_digest()
    keys = {
        index: "piece:"
        + hashlib.blake2b(
            repr((code, kind, _shown(session), _shown(context))).encode(), digest_size=16
        ).hexdigest()
        for index, (session, context) in enumerate(wanted)
    }
    texts = kept_parts(
        keys, lambda missing: {i: build(*wanted[i]) for i in missing}, local=export_pieces
    )
    return [texts[index] for index in range(len(wanted))]


def _shown(value: Any) -> Any:
    """`value` for a piece's digest: a session or speaker that a snapshot read stands for its
    fingerprint (a digest of its every field), whose repr costs less than the whole's."""
    if isinstance(value, pm.Session | pm.Speaker) and value.fingerprint:
        return value.fingerprint
    if isinstance(value, tuple):
        return tuple(_shown(item) for item in value)
    return value


@lru_cache(maxsize=1)
def _writers_digest() -> str:
    """A digest of the writers' source: pieces kept in the shared cache by an older release
    are not joined into a newer one's documents."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(Path(interchange.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def has_shared_cache() -> bool:
    """Whether the default cache is shared between processes (Redis). Without Redis it lives in
    this process too: a second (pickled) copy there of what is kept here would only double the
    memory."""
    return not isinstance(caches["default"], LocMemCache)


def held_stencil(key: str) -> Stencil | None:
    """The stencil kept under `key` (here, else in the shared cache), or None: never built."""
    found = _local.get(key)
    if found is None and has_shared_cache():
        found = cache.get(key)
        if found is not None:
            _local.put(key, found)
    return cast(Stencil | None, found)


def kept(key: str, build: Callable[[], SizedT], *, collect: bool = True) -> SizedT:
    """What is stored under `key` (here, then in the shared cache), else built and kept.

    Keys name the schedule version they were built from, so nothing kept can be stale.
    `collect`: a full collection after the response of a build (collect_after_response);
    False for a builder that asks for one only when it did build a page whole
    (schedule/frames.py).
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
            found = held_stencil(key)
            if found is None:
                found = build()
                if collect:
                    collect_after_response()
                if has_shared_cache() and getattr(found, "is_shared", True):
                    cache.set(key, found, STENCIL_TTL)
                _local.put(key, found)
    finally:
        # Also when the build fails (a page that is a 404): no lock is left behind per key.
        with _building_guard:
            _building.pop(key, None)
    return cast(SizedT, found)


def forget_local_stencils() -> None:
    """Drop this process's copies (tests; the shared cache is cleared on its own), and what
    its snapshots built (export.snapshot), as a new process has neither."""
    forget_snapshots()
    _local.clear()
    calendar_entries.clear()
    session_parts.clear()
    export_pieces.clear()
    page_frames.clear()
    session_frames.clear()
    page_outlines.clear()
    agenda_pages.clear()
    agenda_times.clear()
