"""Small text helpers shared by parsers and views: slugs, search folding, one line, quoting."""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")
_APOSTROPHES = re.compile(r"['\u2019\u02bc]")


def fold(text: str) -> str:
    """Lower-case, accent-free form for comparing and searching ("Valérian" -> "valerian")."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.casefold()


_NON_WORD_UNICODE = re.compile(r"[\W_]+")


def slugify(text: str, *, max_length: int = 80) -> str:
    """Slug for URLs and stable keys: ASCII where the text has Latin letters or digits, else
    the text's own letters ("张伟" stays "张伟", never a shared "untitled"); never empty."""
    slug = _NON_WORD.sub("-", _APOSTROPHES.sub("", fold(text))).strip("-")
    if not slug:
        slug = _NON_WORD_UNICODE.sub("-", text.casefold()).strip("-")
    if len(slug) > max_length:
        slug = slug[:max_length].rsplit("-", 1)[0] or slug[:max_length]
    return slug or "untitled"


def one_line(text: str) -> str:
    """`text` on one line: every run of blanks and line breaks (CR, LF, U+2028 and the like)
    becomes one space. Mail headers are made of it: a line break in one is refused by Python's
    mail library, or, unchecked, would start a header of the sender's choosing."""
    return " ".join(text.split())


def shortened(text: str, *, most: int = 40) -> str:
    """`text` as a message quotes what someone typed: its first `most` characters and "…"."""
    return text if len(text) <= most else text[:most] + "…"
