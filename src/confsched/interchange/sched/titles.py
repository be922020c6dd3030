"""The title line of a Sched listing entry: kind, title and the speakers after it, told apart
by the names the page's speaker blocks give (matched by look-up, misspellings included)."""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Sequence

from confsched.core.text import fold

# Only the first few " - " of a title line are tried as the start of its speakers: each try
# reads the rest of the line, and no title has more.
_TITLE_SEPARATORS = 10


# A misspelt name is looked for among the block names sharing its first word; past this many
# (no session has them) only exact names count, so that a page cannot ask for names × blocks
# fuzzy comparisons.
_FUZZY_CANDIDATES = 16


# Title prefixes Sched events use for the kind of session; other "X: Y" titles stay whole.
KINDS = (
    "Lightning Talk", "Keynote", "Sponsored Keynote", "Panel", "Panel Discussion", "Tutorial",
    "Workshop", "BoF", "Birds of a Feather", "Poster", "Sponsored Session", "Demo",
    "Breakout Session", "Fireside Chat", "Hands-on Lab",
)  # fmt: skip


class _KnownNames:
    """The names of an entry's speaker blocks, indexed so that matching a piece of the title
    line costs a few look-ups, not one comparison per block."""

    def __init__(self, names: Sequence[str]) -> None:
        self.members = set(names)
        self.exact: dict[str, str] = {}
        self.by_first_word: dict[str, list[str]] = {}
        for name in names:
            words = name.split()
            if words:
                self.exact.setdefault(fold(" ".join(words)), name)
                self.by_first_word.setdefault(fold(words[0]), []).append(name)
        # Word counts, longest first: the longest name a piece starts with wins.
        self.sizes = sorted({len(name.split()) for name in self.members}, reverse=True)


def _match_name(piece: str, known: Sequence[str] | _KnownNames) -> tuple[str, str] | None:
    """Known speaker `piece` starts with, tolerating a typo, plus any words after the name.

    'Amir Afzail Meta' -> ('Amir Afzali', 'Meta'): a misspelt surname and a company written
    without its comma, both seen on Sched pages.
    """
    index = known if isinstance(known, _KnownNames) else _KnownNames(known)
    words = piece.split()
    if not words:
        return None
    for size in index.sizes:
        if 0 < size <= len(words) and (name := index.exact.get(fold(" ".join(words[:size])))):
            return name, " ".join(words[size:])
    candidates = index.by_first_word.get(fold(words[0]), [])
    if len(candidates) > _FUZZY_CANDIDATES:
        return None
    best: tuple[float, int, str] | None = None
    for name in candidates:
        size = len(name.split())
        if size > len(words):
            continue
        head = " ".join(words[:size])
        score = difflib.SequenceMatcher(a=fold(head), b=fold(name)).ratio()
        if score >= 0.88 and (best is None or (score, size) > best[:2]):
            best = (score, size, name)
    if best is None:
        return None
    return best[2], " ".join(words[best[1] :])


def _split_speakers(tail: str, known: Sequence[str] | _KnownNames) -> list[tuple[str, str]] | None:
    """'A & B, Co & C, Other Co' -> [(A, Co), (B, Co), (C, Other Co)], or None if it is no list."""
    known = known if isinstance(known, _KnownNames) else _KnownNames(known)
    parts = re.split(r"(, | & )", tail)
    texts, delimiters = parts[0::2], parts[1::2]
    groups: list[tuple[list[str], str]] = []
    names: list[str] = []
    company = ""
    in_company = False
    for index, piece in enumerate(texts):
        before = delimiters[index - 1] if index else None
        after = delimiters[index] if index < len(delimiters) else None
        matched = _match_name(piece, known)
        if in_company:
            new_person = matched is not None or (before == " & " and after == ", ")
            if not new_person:
                company += f"{before}{piece}"
                continue
            groups.append((names, company))
            names, company, in_company = [], "", False
        if matched:
            name, rest = matched
            names.append(name)
            # Words after a known name are its company written without a comma only at the
            # end ("Amir Afzail Meta"); before " & " they are the rest of a longer name
            # ("Daniel Holanda Noronha & Iswarya Alex, AMD" with a block for "Daniel Holanda").
            if rest and after is None:
                company, in_company = rest, True
        elif before == ", " and names:
            company, in_company = piece, True
        else:
            names.append(piece)
    if names:
        groups.append((names, company))
    if not any(name in known.members for group_names, _ in groups for name in group_names):
        return None
    return [(name, group_company) for group_names, group_company in groups for name in group_names]


def _split_title(title_line: str, known: Sequence[str]) -> tuple[str, list[tuple[str, str]]]:
    """Title and billed speakers of 'Title - Speaker, Company & …', checked against the blocks."""
    if known:
        index = _KnownNames(known)
        separators = re.finditer(" - ", title_line)
        for match in itertools.islice(separators, _TITLE_SEPARATORS):
            speakers = _split_speakers(title_line[match.end() :], index)
            if speakers is not None:
                return title_line[: match.start()].strip(), speakers
    return title_line, []


def _split_kind(title: str) -> tuple[str, str]:
    for kind in sorted(KINDS, key=len, reverse=True):
        prefix = f"{kind}: "
        if title.casefold().startswith(prefix.casefold()):
            return kind, title[len(prefix) :].strip()
    return "", title
