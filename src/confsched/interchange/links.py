"""Session links across formats: what kind a link is, and the words each format uses for it.

The frab family (schedule.xml, schedule.json, schedule2) types a link or attachment with the
c3voc vocabulary (voc/schedule, validator/json/schema.json `Reference.type`: slides, paper,
web, blog, article, media, related, activitypub; schema2 writes them in upper case and adds
book, feedback and origin). confsched keeps three kinds (`programme.LINK_KINDS`): "slides",
"video" (a recording: c3voc's "media") and "link" (everything else).

A link without a type (pretalx writes none, nor do older frab files) is told by what it shows:
its title first ("Slides", "Folien", "Recording"), then its address (Speaker Deck, SlideShare,
Google Slides, a .pptx/.key/.odp file; YouTube, Vimeo, media.ccc.de, a .mp4/.webm file). An
attachment (a file uploaded to the programme's own site) that is a PDF and says nothing else is
slides: that is what speakers upload. Anything else is a plain link.

confsched's writers list a file its site holds (slides a speaker uploaded) both as a link, for
the apps that read only links (Giggity's and ConfClerk's frab readers), and as an attachment,
as frab lists its uploads: a reader takes such a pair as one link that is an attachment
(`with_attachments`), as Giggity keeps one link per address.
"""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import urlsplit

from confsched.interchange.programme import LINK, SLIDES, VIDEO, SessionLink

# The c3voc type each kind is written as (both versions read it back case-insensitively).
C3VOC_TYPES = {SLIDES: "slides", VIDEO: "media", LINK: "web"}
_DECLARED = {"slides": SLIDES, "media": VIDEO, "video": VIDEO, "recording": VIDEO}
_SLIDE_WORDS = re.compile(
    r"\b(?:slides?|slide ?deck|deck|folien|diapositivas?|diapositives?|presentation)\b", re.I
)
_VIDEO_WORDS = re.compile(r"\b(?:video|recording|recorded talk|vod)\b", re.I)
_SLIDE_HOSTS = ("speakerdeck.com", "slideshare.net", "slides.com", "slides.google.com")
_VIDEO_HOSTS = ("youtube.com", "youtu.be", "vimeo.com", "media.ccc.de")
_SLIDE_FILES = (".ppt", ".pptx", ".key", ".odp")
_VIDEO_FILES = (".mp4", ".webm", ".mkv", ".mov")


def link_kind(url: str, title: str = "", *, declared: str = "", is_attachment: bool = False) -> str:
    """The kind of a link: its declared c3voc type when it names one, else told from its
    title, then its address; an attachment that is a PDF is slides."""
    declared = declared.strip().casefold()
    if declared:
        return _DECLARED.get(declared, LINK)
    if _SLIDE_WORDS.search(title):
        return SLIDES
    if _VIDEO_WORDS.search(title):
        return VIDEO
    try:
        parts = urlsplit(url)
    except ValueError:  # "http://[" and the like: the database check drops it later
        return LINK
    host = (parts.hostname or "").removeprefix("www.")
    path = parts.path.casefold()
    if _on(host, _SLIDE_HOSTS) or (host == "docs.google.com" and "/presentation/" in path):
        return SLIDES
    if path.endswith(_SLIDE_FILES) or (is_attachment and path.endswith(".pdf")):
        return SLIDES
    if _on(host, _VIDEO_HOSTS) or path.endswith(_VIDEO_FILES):
        return VIDEO
    return LINK


def _on(host: str, sites: tuple[str, ...]) -> bool:
    return any(host == site or host.endswith(f".{site}") for site in sites)


def with_attachments(found: list[SessionLink]) -> tuple[SessionLink, ...]:
    """A session's links as read (its links, then its attachments), an attachment whose url a
    link gave already marking that link as an attachment instead of repeating it."""
    kept: list[SessionLink] = []
    linked: dict[str, int] = {}  # url: where the first plain link to it is in `kept`
    for link in found:
        at = linked.get(link.url) if link.is_attachment else None
        if at is not None and not kept[at].is_attachment:
            kept[at] = replace(kept[at], is_attachment=True)
            continue
        if not link.is_attachment:
            linked.setdefault(link.url, len(kept))
        kept.append(link)
    return tuple(kept)
