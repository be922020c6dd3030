"""Every version's programme kept, so that /<event>/v/<number>/ and its exports stay readable."""

from __future__ import annotations

import zlib

from confsched.interchange import programme as pm
from confsched.interchange.programme_json import programme_from_json, programme_to_json
from confsched.programme.models import Event, ScheduleVersion, VersionSnapshot
from confsched.programme.services.export import snapshot


def keep_programme(event: Event, version: ScheduleVersion) -> None:
    """Store the event's programme as `version` leaves it (called in the version's transaction,
    after its last write). A draft's versions are nobody's to read: nothing is kept."""
    if event.draft_of_id:
        return
    text = programme_to_json(snapshot(event))
    VersionSnapshot.objects.create(version=version, data=zlib.compress(text.encode(), 6))


def version_programme(version: ScheduleVersion) -> pm.Programme | None:
    """The programme `version` left; None for a version recorded before they were kept."""
    row = VersionSnapshot.objects.filter(version=version).first()
    if row is None:
        return None
    return programme_from_json(zlib.decompress(bytes(row.data)))
