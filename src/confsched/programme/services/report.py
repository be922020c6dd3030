"""What one load did, for the person who ran it: made, changed, cancelled, warned about."""

from __future__ import annotations

from dataclasses import dataclass, field

from confsched.programme.models import ScheduleVersion


@dataclass
class LoadReport:
    """What one load did, for the person who ran it."""

    created: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    updated: list[tuple[str, list[str]]] = field(default_factory=list)
    unchanged: int = 0
    flagged: list[tuple[str, str]] = field(default_factory=list)
    speakers_created: int = 0
    speakers_updated: int = 0
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    version: ScheduleVersion | None = None
    # Sessions whose number of seats the file changed (not a change of the programme: seats
    # are no schedule version's business, and calendars do not show them).
    seats_changed: int = 0
    # Fields a speaker holds that the file gives otherwise: one line each, naming the speaker,
    # the field, the value kept and the file's (services/held.py).
    conflicts: list[str] = field(default_factory=list)
    # Held fields the file's values replaced (`prefer_source`): the speaker holds them no more.
    released: list[str] = field(default_factory=list)

    @property
    def has_changes(self) -> bool:
        return bool(
            self.created or self.updated or self.cancelled or self.speakers_created
            or self.speakers_updated
        )  # fmt: skip
