"""The writers' pieces (interchange/pieces.py): a writer asks its keeper for one piece per
session it writes, and `(session, context)` decides a piece's bytes, so a keeper that hands
back the pieces of an earlier render for the same pairs gives the document a whole render
gives."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace

import pytest

from confsched.interchange.formats import WRITERS
from confsched.interchange.pieces import Build, Context
from confsched.interchange.programme import Programme, Session

SITE = "https://testserver/"
# The writers made of pieces, by extension (the .ics writer keeps its own memo).
PIECED = ["csv", "json", "rfc6321.xcal", "schedule2", "xcal", "xml"]
KINDS = {
    "csv": "confsched.interchange.csv.write:row",
    "json": "confsched.interchange.c3voc.write:event",
    "rfc6321.xcal": "confsched.interchange.ical.xcal_write:vevent",
    "schedule2": "confsched.interchange.c3voc.schedule2_write:event",
    "xcal": "confsched.interchange.ical.xcal_write:pentabarf-vevent",
    "xml": "confsched.interchange.frab.write:event",
}
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


class Memo:
    """A keeper that keeps each piece under its (kind, session, context) and counts builds."""

    def __init__(self) -> None:
        self.kept: dict[Hashable, bytes] = {}
        self.built: list[tuple[str, str]] = []

    def __call__(
        self, kind: str, wanted: Sequence[tuple[Session, Context]], build: Build, /
    ) -> list[bytes]:
        pieces = []
        for session, context in wanted:
            key = (kind, session, session.sequence, session.last_modified, context)
            if key not in self.kept:
                self.built.append((kind, session.key))
                self.kept[key] = build(session, context)
            pieces.append(self.kept[key])
        return pieces


def _render(extension: str, programme: Programme, **options: object) -> bytes:
    render: Callable[..., bytes] = WRITERS[extension].render
    return render(programme, slug="demo", base_url=SITE, **options)


@pytest.mark.parametrize("extension", PIECED)
def test_a_writer_asks_one_piece_of_each_written_session(
    demo_programme: Programme, extension: str
) -> None:
    memo = Memo()
    assert _render(extension, demo_programme, keep=memo) == _render(extension, demo_programme)
    # The demo's 29 sessions less the one awaiting review, which no export writes.
    assert len(memo.built) == 28
    assert {kind for kind, _ in memo.built} == {KINDS[extension]}


@pytest.mark.parametrize("extension", PIECED)
def test_kept_pieces_make_the_document_of_a_whole_render(
    demo_programme: Programme, extension: str
) -> None:
    memo = Memo()
    _render(extension, demo_programme, keep=memo)
    renamed = replace(
        demo_programme,
        sessions=[
            replace(s, title="Jacobian descent, renamed") if s.key == TORCHJD else s
            for s in demo_programme.sessions
        ],
    )
    memo.built.clear()
    assert _render(extension, renamed, keep=memo) == _render(extension, renamed)
    assert memo.built == [(KINDS[extension], TORCHJD)]


@pytest.mark.parametrize("extension", PIECED)
def test_a_renamed_speaker_is_in_the_context_of_their_sessions(
    demo_programme: Programme, extension: str
) -> None:
    memo = Memo()
    _render(extension, demo_programme, keep=memo)
    speakers = [
        replace(p, name="Ada Lovelace") if p.key == "valerian-rey" else p
        for p in demo_programme.speakers
    ]
    memo.built.clear()
    renamed = replace(demo_programme, speakers=speakers)
    assert _render(extension, renamed, keep=memo) == _render(extension, renamed)
    assert memo.built == [(KINDS[extension], TORCHJD)]
