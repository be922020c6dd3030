"""A session's language, as imported ("English", "German", "de, en", "pt-BR"), as a BCP 47 tag.

Pages are written in English (`<html lang="en">`); a session in another language marks its own
title and abstract, so screen readers and hyphenation switch language there and only there.
"""

from __future__ import annotations

import re

PAGE_LANGUAGE = "en"

# Names programmes use for a language, in English and in the language itself.
_NAMES = {
    "english": "en", "german": "de", "deutsch": "de", "french": "fr", "français": "fr",
    "francais": "fr", "spanish": "es", "español": "es", "espanol": "es", "italian": "it",
    "italiano": "it", "dutch": "nl", "nederlands": "nl", "portuguese": "pt", "português": "pt",
    "polish": "pl", "polski": "pl", "czech": "cs", "russian": "ru", "ukrainian": "uk",
    "swedish": "sv", "norwegian": "no", "danish": "da", "finnish": "fi", "greek": "el",
    "turkish": "tr", "japanese": "ja", "chinese": "zh", "korean": "ko", "hindi": "hi",
    "arabic": "ar", "hebrew": "he", "hungarian": "hu", "romanian": "ro", "catalan": "ca",
}  # fmt: skip
_TAG = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})*")


def language_tag(name: str) -> str:
    """The BCP 47 tag of a language name or tag; the first one when several are given
    ("de, en" is German); "" when it is not recognised."""
    first = re.split(r"[,;/]|\s+(?:and|und|&)\s+", name.strip(), maxsplit=1)[0].strip()
    lowered = first.lower().replace("_", "-")
    if lowered in _NAMES:
        return _NAMES[lowered]
    if _TAG.fullmatch(lowered):
        primary, _, rest = lowered.partition("-")
        return primary + (f"-{rest.upper()}" if len(rest) == 2 else f"-{rest}" if rest else "")
    return ""


def other_language(name: str) -> str:
    """The tag to mark content in `name`'s language with, or "" when it is the page's language
    or unknown."""
    tag = language_tag(name)
    return "" if tag.split("-")[0] in ("", PAGE_LANGUAGE) else tag
