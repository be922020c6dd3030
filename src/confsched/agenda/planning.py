"""Pure agenda arithmetic: overlaps, free gaps, what is on now and next. The clock comes in."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class Gap:
    starts_at: datetime
    ends_at: datetime

    @property
    def minutes(self) -> int:
        return int((self.ends_at - self.starts_at).total_seconds() // 60)


def _end(session: Any) -> datetime:
    return session.ends_at or session.starts_at


def _overlaps(a: Any, b: Any) -> bool:
    # Back-to-back is no clash; two sessions starting together always clash, even zero-length.
    return a.starts_at == b.starts_at or (a.starts_at < _end(b) and b.starts_at < _end(a))


def overlapping(sessions: list[Any]) -> dict[Any, list[Any]]:
    """For each session, the others it overlaps, in time order."""
    ordered = sorted(sessions, key=lambda s: (s.starts_at, _end(s)))
    clashes: dict[Any, list[Any]] = {session: [] for session in ordered}
    for index, first in enumerate(ordered):
        for second in ordered[index + 1 :]:
            if second.starts_at >= _end(first) and second.starts_at > first.starts_at:
                break  # sorted by start: nothing later can overlap `first`
            if _overlaps(first, second):
                clashes[first].append(second)
                clashes[second].append(first)
    return clashes


def gaps(
    sessions: list[Any], *, zone: zoneinfo.ZoneInfo, minimum: timedelta = timedelta(minutes=15)
) -> list[Gap]:
    """Free time of at least `minimum` between consecutive picks of the same local day."""
    found = []
    busy_until: datetime | None = None
    for session in sorted(sessions, key=lambda s: s.starts_at):
        if (
            busy_until is not None
            and session.starts_at - busy_until >= minimum
            and session.starts_at.astimezone(zone).date() == busy_until.astimezone(zone).date()
        ):
            found.append(Gap(starts_at=busy_until, ends_at=session.starts_at))
        busy_until = _end(session) if busy_until is None else max(busy_until, _end(session))
    return found


def now_and_next(sessions: list[Any], *, now: datetime) -> tuple[list[Any], Any | None]:
    """The picks running at `now`, and the first one starting after it."""
    current = [s for s in sessions if s.starts_at <= now < _end(s)]
    upcoming = sorted((s for s in sessions if s.starts_at > now), key=lambda s: s.starts_at)
    return current, upcoming[0] if upcoming else None


def changes_since(seen: dict[str, str], now: dict[str, str]) -> list[str]:
    """What moved since the attendee starred: ["time", "room", "title"] or fewer."""
    labels = {"starts_at": "time", "ends_at": "time", "room": "room", "title": "title"}
    changed = []
    for key, label in labels.items():
        if key in seen and seen[key] != now.get(key) and label not in changed:
            changed.append(label)
    return changed
