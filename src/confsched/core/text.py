"""Small text helpers shared by parsers and views: slugs and search folding."""

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


def slugify(text: str, *, max_length: int = 80) -> str:
    """ASCII slug for URLs and stable keys; never empty."""
    slug = _NON_WORD.sub("-", _APOSTROPHES.sub("", fold(text))).strip("-")
    if len(slug) > max_length:
        slug = slug[:max_length].rsplit("-", 1)[0] or slug[:max_length]
    return slug or "untitled"
