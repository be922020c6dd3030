"""A document made of per-session pieces: how the writers of whole programmes (frab XML, both
c3voc JSONs, both xCals, CSV) render, so that a caller may keep each piece and render again
only those of the sessions that changed.

A writer lays the document out itself (days, rooms, the conference's head), asks for one piece
per session it writes, in the order the document holds them, each as `(session, context)`:
`context` is everything besides the session that the piece shows (the zone, the site's
address, the speakers it names, its frab id…), so that `(session, context)` decides the
piece's bytes. It asks through a `Keeper`, which returns the pieces' bytes: `build_all` (the
default) renders every one; a caller's keeper may return kept bytes for the pieces it has seen
before (`web/site/stencils.kept_pieces`) and call `build` for the others only. Either way the
writer joins the same bytes: the document is the same whoever keeps its pieces.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from confsched.interchange.programme import Session, SessionSpeaker, Speaker

Context = tuple[Any, ...]
Build = Callable[[Session, Context], bytes]


class Keeper(Protocol):
    """Returns the bytes of each wanted piece, in order; `build(session, context)` renders one.
    `kind` names the writer's piece ("confsched.interchange.frab.write:event")."""

    def __call__(
        self, kind: str, wanted: Sequence[tuple[Session, Context]], build: Build, /
    ) -> list[bytes]: ...


def build_all(kind: str, wanted: Sequence[tuple[Session, Context]], build: Build, /) -> list[bytes]:
    """Every piece rendered: the keeper of a writer called without one."""
    del kind
    return [build(session, context) for session, context in wanted]


def billed(
    billing: Iterable[SessionSpeaker], speakers: dict[str, Speaker]
) -> tuple[tuple[str, Speaker | None], ...]:
    """The speakers a session names, by key, as its piece's context holds them (a piece shows
    its own speakers, not the programme's)."""
    return tuple((link.speaker_key, speakers.get(link.speaker_key)) for link in billing)


class Slots:
    """Places for pieces in a skeleton the writer serializes: `slot(index)` is a value to put
    where piece `index` goes (a JSON string, an XML comment's text), and `join` puts the
    pieces there. The marker holds an unguessable tag, so no programme text can be taken for
    one: it never reaches the output."""

    def __init__(self) -> None:
        self.tag = "confsched-piece-" + secrets.token_hex(8)

    def slot(self, index: int) -> str:
        return f"{self.tag}-{index}"

    def split(self, skeleton: bytes, *, before: bytes, after: bytes) -> list[bytes | int]:
        """The skeleton's text and, where a slot was written as `before` slot `after`, the
        index of the piece that goes there."""
        pattern = re.compile(re.escape(before + self.tag.encode()) + rb"-(\d+)" + re.escape(after))
        parts = pattern.split(skeleton)
        return [part if i % 2 == 0 else int(part) for i, part in enumerate(parts)]


def joined(parts: list[bytes | int], pieces: Sequence[bytes]) -> bytes:
    return b"".join(pieces[part] if isinstance(part, int) else part for part in parts)


def digest_of(parts: list[bytes | int], pieces: Sequence[bytes]) -> str:
    """The SHA-256 of `joined(parts, pieces)`, without joining them."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(pieces[part] if isinstance(part, int) else part)
    return digest.hexdigest()
