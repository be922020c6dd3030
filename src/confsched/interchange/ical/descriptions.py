"""What SUMMARY and DESCRIPTION say besides the title and the abstract: the kind before a
title ("Lightning Talk: X") and the speakers line ("Speakers: A (Org), B") in any of the
languages of SPEAKER_LABELS (see `ical.read`)."""

from __future__ import annotations

import re

from confsched.interchange.html_text import html_to_text as _html_to_text
from confsched.interchange.sched.titles import KINDS

# What confsched's writers put before a cancelled session's SUMMARY (iCalendar and xCal):
# Giggity, and other apps that ignore STATUS, would list it as a session still to come. The
# readers take it off again when STATUS is CANCELLED (`ical.events`).
CANCELLED_PREFIX = "Cancelled: "

# How a description's first line introduces the speakers, by language. Matched whatever the
# case, before a colon (French typography puts a space before it).
SPEAKER_LABELS: dict[str, tuple[str, ...]] = {
    "en": ("Speaker", "Speakers", "Speaker(s)", "Presenter", "Presenters"),
    "de": (
        "Referent", "Referentin", "Referenten", "Referentinnen", "Referent*innen",
        "Referent:innen", "Sprecher", "Sprecherin", "Sprecherinnen", "Sprecher*innen",
        "Sprecher:innen", "Vortragende", "Vortragender",
    ),
    "fr": (
        "Intervenant", "Intervenante", "Intervenants", "Intervenantes", "Intervenant(e)s",
        "Orateur", "Oratrice", "Orateurs", "Conférencier", "Conférencière", "Conférenciers",
        "Conférencières",
    ),
    "es": (
        "Ponente", "Ponentes", "Orador", "Oradora", "Oradores", "Conferenciante",
        "Conferenciantes",
    ),
    "it": ("Relatore", "Relatrice", "Relatori", "Relatrici", "Oratore", "Oratori"),
    "nl": ("Spreker", "Sprekers"),
    "pt": ("Palestrante", "Palestrantes", "Orador", "Oradores", "Apresentador", "Apresentadores"),
    "ca": ("Ponent", "Ponents"),
    "pl": ("Prelegent", "Prelegentka", "Prelegenci"),
    "cs": ("Přednášející",),
    "sv": ("Talare",),
    "da": ("Taler", "Talere"),
    "fi": ("Puhuja", "Puhujat"),
    "tr": ("Konuşmacı", "Konuşmacılar"),
    "ru": ("Докладчик", "Докладчики", "Спикер", "Спикеры"),
    "uk": ("Доповідач", "Доповідачі"),
    "ja": ("登壇者", "講演者", "スピーカー"),
    "zh": ("讲者", "演讲者", "講者", "演講者"),
    "ko": ("연사", "발표자"),
}  # fmt: skip

# The label, then the rest of the line: no part of it can match in two ways, so the match is
# linear whatever the line holds.
_SPEAKERS_LINE = re.compile(
    "^(?:"
    + "|".join(
        re.escape(label)
        for label in sorted(
            {label for labels in SPEAKER_LABELS.values() for label in labels}, key=len, reverse=True
        )
    )
    + ")[ \t\u00a0\u202f]*[:\uff1a][ \t]*(?P<names>[^\n]*)(?:\n|$)",
    re.IGNORECASE,
)
# A tag ends before the next "<": each try stops there, so a text of a thousand unclosed "<b"
# is read once, not a thousand times over.
_HTML_TAG = re.compile(
    r"</?(?:p|br|a|em|strong|b|i|u|s|strike|del|ins|small|ul|ol|li|dl|dt|dd|div|span|h[1-6]"
    r"|blockquote|pre|code|table|thead|tbody|tr|td|th|img|hr|sup|sub)\b[^<>]*>",
    re.IGNORECASE,
)


def split_kind(summary: str) -> tuple[str, str]:
    """'Lightning Talk: X' -> ('Lightning Talk', 'X'); other 'A: B' summaries stay whole."""
    for kind in sorted(KINDS, key=len, reverse=True):
        prefix = f"{kind}: "
        if summary.casefold().startswith(prefix.casefold()):
            return kind, summary[len(prefix) :].strip()
    return "", summary.strip()


def split_description(description: str, *, base_url: str = "") -> tuple[list[tuple[str, str]], str]:
    """Billed speakers (name, affiliation) from a leading speakers line, and the abstract.

    The line is "Speakers: …" or its like in another language (SPEAKER_LABELS).
    """
    text = description.replace("\r\n", "\n").replace("\r", "\n").strip()
    match = _SPEAKERS_LINE.match(text)
    if match is None and _HTML_TAG.search(text):  # "<p>Speakers: …</p>"
        text = _html_to_text(text, base_url=base_url)
        match = _SPEAKERS_LINE.match(text)
    speakers = []
    if match is not None:
        for piece in _split_outside_parentheses(match["names"]):
            name, affiliation = _split_affiliation(piece)
            if name:
                speakers.append((name, affiliation))
        text = text[match.end() :].strip()
    if _HTML_TAG.search(text):
        text = _html_to_text(text, base_url=base_url)
    return speakers, text


def _split_outside_parentheses(names: str) -> list[str]:
    """'A (X, Y), B' -> ['A (X, Y)', 'B']: affiliations may hold commas."""
    pieces: list[str] = []
    current: list[str] = []
    depth = 0
    for char in names:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth <= 0:
            pieces.append("".join(current))
            current, depth = [], 0
        else:
            current.append(char)
    pieces.append("".join(current))
    return [piece.strip() for piece in pieces if piece.strip()]


def _split_affiliation(piece: str) -> tuple[str, str]:
    """'Ada (Royal Society (UK))' -> ('Ada', 'Royal Society (UK)')."""
    if not piece.endswith(")"):
        return piece, ""
    depth = 0
    for index in range(len(piece) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(piece[index], 0)
        if depth == 0:
            name = piece[:index].strip()
            return (name, piece[index + 1 : -1].strip()) if name else (piece, "")
    return piece, ""
