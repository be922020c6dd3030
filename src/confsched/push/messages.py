"""What a notification says, as the service worker reads it, and a device's name: pure.

A payload is JSON {title, body, url, tag}. Push services must take 4,096 bytes of encrypted
body (RFC 8030 section 7.2); aes128gcm adds 103 bytes to it (RFC 8291: an 86-byte header,
one padding delimiter and a 16-byte tag), so the JSON is at most 3,993 bytes: a longer body is
cut at a character, with an ellipsis.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext

MAX_RECORD = 4096
ENCRYPTION_OVERHEAD = 86 + 1 + 16
MAX_PAYLOAD = MAX_RECORD - ENCRYPTION_OVERHEAD
MAX_TITLE = 200
ELLIPSIS = "…"


class Urgency(StrEnum):
    """RFC 8030 section 5.3: how much a device may spend of its battery to show it now."""

    VERY_LOW = "very-low"
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


@dataclass(frozen=True)
class Notice:
    """One notification for one device: what it says, and how long and how urgently the push
    service should try to deliver it."""

    title: str
    body: str
    url: str  # a path on the site: the page the notification opens
    tag: str  # a newer notification with the same tag replaces the older one
    ttl: int  # seconds the push service keeps it for a device that is offline
    urgency: Urgency


def payload(notice: Notice) -> bytes:
    """The notice as UTF-8 JSON of at most MAX_PAYLOAD bytes, the body shortened if need be."""
    title = _cut(notice.title, MAX_TITLE)
    body = notice.body
    data = _encoded(title, body, notice)
    if len(data) <= MAX_PAYLOAD:
        return data
    # Each character of the body costs 1 to 12 bytes in JSON ("\ud83d\ude00"): halve until it
    # fits, then grow back a character at a time would be slow; a binary search is exact.
    low, high = 0, len(body)
    while low < high:
        middle = (low + high + 1) // 2
        if len(_encoded(title, _cut(body, middle), notice)) <= MAX_PAYLOAD:
            low = middle
        else:
            high = middle - 1
    return _encoded(title, _cut(body, low), notice)


def _cut(text: str, length: int) -> str:
    if len(text) <= length:
        return text
    return text[: max(length - 1, 0)].rstrip() + ELLIPSIS


def _encoded(title: str, body: str, notice: Notice) -> bytes:
    return json.dumps(
        {"title": title, "body": body, "url": notice.url, "tag": notice.tag},
        ensure_ascii=False, separators=(",", ":"),
    ).encode("utf-8")  # fmt: skip


_BROWSERS = (
    ("Edge", re.compile(r"\bEdg(e|A|iOS)?/")),
    ("Opera", re.compile(r"\bOPR/")),
    ("Samsung Internet", re.compile(r"\bSamsungBrowser/")),
    ("Firefox", re.compile(r"\b(Firefox|FxiOS)/")),
    ("Chrome", re.compile(r"\b(Chrome|CriOS)/")),
    ("Safari", re.compile(r"\bSafari/")),
)
_SYSTEMS = (
    ("Android", re.compile(r"\bAndroid\b")),
    ("iOS", re.compile(r"\b(iPhone|iPad|iPod)\b")),
    ("Windows", re.compile(r"\bWindows\b")),
    ("macOS", re.compile(r"\bMac OS X\b|\bMacintosh\b")),
    ("ChromeOS", re.compile(r"\bCrOS\b")),
    ("Linux", re.compile(r"\bLinux\b")),
)
_BROWSER_NAMES = frozenset(name for name, _ in _BROWSERS)
_SYSTEM_NAMES = frozenset(name for name, _ in _SYSTEMS)


# How a device's label is stored (in English, whatever the page's language) and shown.
_ANY_BROWSER, _ON = "A browser", " on "


def device_label(user_agent: str) -> str:
    """'Firefox on Android' from a User-Agent header; 'A browser' when it names neither. Kept
    in English; `shown_device_label` says it in the page's language."""
    browser = next((name for name, pattern in _BROWSERS if pattern.search(user_agent)), "")
    system = next((name for name, pattern in _SYSTEMS if pattern.search(user_agent)), "")
    if browser and system:
        return f"{browser}{_ON}{system}"
    return browser or system or _ANY_BROWSER


def shown_device_label(label: str) -> str:
    """A stored `device_label` in the active language ("Firefox sur Android"): the names of
    browsers and systems stay as they are."""
    if label == _ANY_BROWSER:
        return gettext("A browser")
    browser, on, system = label.partition(_ON)
    if on and browser in _BROWSER_NAMES and system in _SYSTEM_NAMES:
        return gettext("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return label
