"""What changed in a session between two states, in words attendees read. Pure."""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime
from typing import Any
from urllib.parse import unquote, urlsplit

from django.utils.translation import gettext

# Plain strings so this module needs no models; they are ChangeKind's values.
ADDED, CANCELLED, RESTORED = "added", "cancelled", "restored"
RETIMED, MOVED, RETITLED = "retimed", "moved", "retitled"
REDESCRIBED, SPEAKERS, DETAILS = "redescribed", "speakers", "details"

DETAIL_LABELS = {
    "kind": "kind",
    "track": "type",
    "level": "audience level",
    "has_slides": "slides",
    "language": "language",
}


def when(starts_at: datetime | None, ends_at: datetime | None, zone: zoneinfo.ZoneInfo) -> str:
    """'Tue 7 Apr 11:45–11:55' in `zone`; 'no time' for an unscheduled session."""
    if starts_at is None:
        return "no time"
    start = starts_at.astimezone(zone)
    text = f"{start:%a} {start.day} {start:%b %H:%M}"
    if ends_at is not None:
        end = ends_at.astimezone(zone)
        text += (
            f"–{end:%H:%M}" if end.date() == start.date() else f"–{end:%a} {end.day} {end:%b %H:%M}"
        )
    return text


def describe_changes(
    before: dict[str, Any], after: dict[str, Any], *, zone: zoneinfo.ZoneInfo
) -> list[tuple[str, str]]:
    """(kind, words) for each way `after` differs from `before`.

    Both dicts hold title, kind, abstract, starts_at, ends_at, room, track, level, has_slides,
    language (facets as names), speakers (a list of names) and is_cancelled.
    """
    changes: list[tuple[str, str]] = []
    if before["is_cancelled"] != after["is_cancelled"]:
        if after["is_cancelled"]:
            changes.append((CANCELLED, "cancelled"))
        else:
            changes.append((RESTORED, "back in the programme"))
    if (before["starts_at"], before["ends_at"]) != (after["starts_at"], after["ends_at"]):
        changes.append(
            (
                RETIMED,
                f"moved in time from {when(before['starts_at'], before['ends_at'], zone)} "
                f"to {when(after['starts_at'], after['ends_at'], zone)}",
            )
        )
    if before["room"] != after["room"]:
        changes.append(
            (MOVED, f"moved from {before['room'] or 'no room'} to {after['room'] or 'no room'}")
        )
    if before["title"] != after["title"]:
        changes.append((RETITLED, f"retitled from “{before['title']}” to “{after['title']}”"))
    if before["abstract"] != after["abstract"]:
        changes.append((REDESCRIBED, "description changed"))
    if before["speakers"] != after["speakers"]:
        now = ", ".join(after["speakers"]) or "none"
        was = ", ".join(before["speakers"]) or "none"
        changes.append((SPEAKERS, f"speakers now {now} (were {was})"))
    details = [
        _detail(label, before[key], after[key])
        for key, label in DETAIL_LABELS.items()
        if before[key] != after[key]
    ]
    if details:
        changes.append((DETAILS, "; ".join(details)))
    return changes


def _detail(label: str, was: Any, now: Any) -> str:
    """'type changed from Keynote to Talk', 'audience level set to Any', 'slides attached'."""
    if isinstance(now, bool):
        return f"{label} {'attached' if now else 'removed'}"
    if not was:
        return f"{label} set to {now}"
    if not now:
        return f"{label} {was} removed"
    return f"{label} changed from {was} to {now}"


# A name a URL's last path segment may show: a file name, without a run of letters and digits
# long enough to be an access token (sessionize's and pretalx's URLs carry those).
_FILE_NAME = re.compile(r"[\w.-]{1,80}\.[A-Za-z0-9]{1,8}")
_TOKEN_LIKE = re.compile(r"(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]{16,}")
# More names than this are counted, not listed.
MAX_SOURCE_NAMES = 3


def _public_name(location: str) -> str:
    """A file's base name; a URL's host and, when it is a file name, its last path segment."""
    if "://" not in location:
        return re.split(r"[\\/]", location)[-1]
    try:
        parts = urlsplit(location)
        host = parts.hostname or ""
    except ValueError:  # an unreadable URL (a broken IPv6 host): nothing of it is shown
        return ""
    last = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
    if _FILE_NAME.fullmatch(last) and not _TOKEN_LIKE.search(last):
        return f"{last} from {host}" if host else last
    return host


def source_label(source: str) -> str:
    """What the public change log says made a version: "imported from schedule.xml", never
    the folder it lay in, a URL's query, credentials or token (the admin shows the source).

    `source` is what load_programme and record_edit wrote: "import: <name>, <name>" (files by
    base name, URLs in full), "import", "edit by <username>", "release by <username>" (drafts),
    or a caller's own text.
    """
    text = source.strip()
    if not text:
        return ""
    if text.startswith("edit by "):
        return gettext("edited by the organizers")
    if text == "release" or text.startswith("release by "):
        return gettext("released by the organizers")
    if text == "import":
        return gettext("imported")
    text = text.removeprefix("import:").strip()
    found = (_public_name(part.strip()) for part in text.split(", "))
    names = list(dict.fromkeys(name for name in found if name))
    if not names:
        return gettext("imported")
    if len(names) > MAX_SOURCE_NAMES:
        shown = ", ".join(names[: MAX_SOURCE_NAMES - 1])
        more = len(names) - MAX_SOURCE_NAMES + 1
        return gettext("imported from %(names)s and %(count)s more files") % {
            "names": shown, "count": more,
        }  # fmt: skip
    return gettext("imported from %(names)s") % {"names": ", ".join(names)}
