"""A Programme as JSON and back, losslessly: how a schedule version's programme is kept.

Unlike the exchange formats this one drops nothing: warnings, notes, `carries`, `unknown`,
and the fields comparisons ignore (`sequence`, `last_modified`) included, so that a version's
exports rendered from it later are the bytes that version served. A time keeps its zone
("2026-04-07T11:45:00+02:00[Europe/Paris]"): writers name the zone a time was given in.
Pure: no ORM, no settings, no clock.
"""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from confsched.interchange import programme as pm

# Bumped when the layout changes; programme_from_json refuses what it does not know.
LAYOUT = 1


def _time(value: datetime | None) -> str | None:
    if value is None:
        return None
    zone = value.tzinfo.key if isinstance(value.tzinfo, ZoneInfo) else ""
    return f"{value.isoformat()}[{zone}]" if zone else value.isoformat()


def _read_time(text: str | None) -> datetime | None:
    if text is None:
        return None
    written, _, zone = text.partition("[")
    value = datetime.fromisoformat(written)
    return value.astimezone(ZoneInfo(zone.rstrip("]"))) if zone else value


# A digest of the database rows a snapshot read (pm.Session.fingerprint): not the programme's.
_NOT_KEPT = frozenset({"fingerprint"})
# A speaker's pages, written only when there are some.
_PAGES = frozenset({"homepage", "links"})


def _session(session: pm.Session) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for spec in fields(session):
        if spec.name in _NOT_KEPT:
            continue
        value = getattr(session, spec.name)
        if spec.name in ("starts_at", "ends_at", "last_modified"):
            value = _time(value)
        elif spec.name == "speakers":
            value = [[link.speaker_key, link.affiliation] for link in value]
        elif spec.name == "links":
            value = [_link(link) for link in value]
        elif spec.name == "unknown":
            value = sorted(value)
        found[spec.name] = value
    return found


def _link(link: pm.SessionLink) -> list[Any]:
    """[url, title, kind], and `true` after them for an attachment (a version kept before
    links had the flag has three: none is)."""
    written: list[Any] = [link.url, link.title, link.kind]
    return [*written, True] if link.is_attachment else written


def _read_session(data: dict[str, Any]) -> pm.Session:
    values = dict(data)
    for name in ("starts_at", "ends_at", "last_modified"):
        values[name] = _read_time(values[name])
    values["speakers"] = tuple(
        pm.SessionSpeaker(key, affiliation) for key, affiliation in data["speakers"]
    )
    values["links"] = tuple(pm.SessionLink(*link) for link in data["links"])
    values["unknown"] = frozenset(data["unknown"])
    return pm.Session(**values)


def _speaker(speaker: pm.Speaker) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for spec in fields(speaker):
        value = getattr(speaker, spec.name)
        if spec.name in _NOT_KEPT or (spec.name in _PAGES and not value):
            continue  # no pages: the text versions kept before speakers had them
        if spec.name == "links":
            value = [[link.url, link.title, link.kind] for link in value]
        found[spec.name] = value
    return found


def _read_speaker(data: dict[str, Any]) -> pm.Speaker:
    values = dict(data)
    values["links"] = tuple(
        pm.SessionLink(url, title, kind) for url, title, kind in data.get("links", ())
    )
    return pm.Speaker(**values)


def programme_to_json(programme: pm.Programme) -> str:
    """The programme as one JSON document, the same text for the same programme."""
    document = {
        "layout": LAYOUT,
        "name": programme.name,
        "timezone": programme.timezone,
        "start_date": programme.start_date.isoformat() if programme.start_date else None,
        "end_date": programme.end_date.isoformat() if programme.end_date else None,
        "location": programme.location,
        "rooms": programme.rooms,
        "room_capacities": programme.room_capacities,
        "sessions": [_session(session) for session in programme.sessions],
        "speakers": [_speaker(speaker) for speaker in programme.speakers],
        "carries": None if programme.carries is None else sorted(programme.carries),
        "warnings": programme.warnings,
        "notes": programme.notes,
    }
    return json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def programme_from_json(text: str | bytes) -> pm.Programme:
    """The programme programme_to_json wrote; ValueError for another layout or no programme."""
    document = json.loads(text)
    if not isinstance(document, dict) or document.get("layout") != LAYOUT:
        raise ValueError(f"not a programme in layout {LAYOUT}")
    carries = document["carries"]
    return pm.Programme(
        name=document["name"],
        timezone=document["timezone"],
        start_date=date.fromisoformat(document["start_date"]) if document["start_date"] else None,
        end_date=date.fromisoformat(document["end_date"]) if document["end_date"] else None,
        location=document["location"],
        rooms=list(document["rooms"]),
        room_capacities=dict(document["room_capacities"]),
        sessions=[_read_session(session) for session in document["sessions"]],
        speakers=[_read_speaker(speaker) for speaker in document["speakers"]],
        carries=None if carries is None else frozenset(carries),
        warnings=list(document["warnings"]),
        notes=list(document["notes"]),
    )
