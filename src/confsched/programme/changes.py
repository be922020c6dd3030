"""What changed in a session between two states, in words attendees read. Pure."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any

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
    details = [label for key, label in DETAIL_LABELS.items() if before[key] != after[key]]
    if details:
        changes.append((DETAILS, f"{', '.join(details)} changed"))
    return changes
