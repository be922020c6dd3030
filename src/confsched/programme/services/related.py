"""What sessions point at: rooms, tracks and levels (facets) and speakers, created or
updated as an import needs them."""

from __future__ import annotations

from itertools import count
from typing import Any, TypeVar

from django.utils.translation import gettext

from confsched.core.text import shortened, slugify
from confsched.interchange import programme as pm
from confsched.programme.models import (
    Event,
    Facet,
    Room,
    Speaker,
)
from confsched.programme.services.report import LoadReport

FacetT = TypeVar("FacetT", bound=Facet)


def facets(
    model: type[FacetT], event: Event, names: list[str], *, order: list[str] | None = None
) -> dict[str, FacetT]:
    """Rows for every name, creating the missing ones with unique slugs after the existing ones.

    New names come in `order` first (the source's own order), then by name.
    """
    rows = {row.name: row for row in model._default_manager.filter(event=event)}
    slugs = {row.slug for row in rows.values()}
    positions = count(max((row.position for row in rows.values()), default=-1) + 1)
    missing = set(names) - set(rows) - {""}
    ordered = [name for name in dict.fromkeys(order or []) if name in missing]
    for name in ordered + sorted(missing - set(ordered)):
        slug = base = slugify(name)
        for suffix in count(2):
            if slug not in slugs:
                break
            slug = f"{base}-{suffix}"
        slugs.add(slug)
        rows[name] = model._default_manager.create(
            event=event, name=name, slug=slug, position=next(positions)
        )
    return rows


def set_capacities(rooms: dict[str, Room], capacities: dict[str, int]) -> None:
    """The seats the source gives; a room it says nothing about keeps the organizer's figure."""
    for name, seats in capacities.items():
        room = rooms.get(name)
        if room is not None and room.capacity != seats:
            room.capacity = seats
            room.save(update_fields=["capacity"])


SPEAKER_FIELDS = ("name", "company", "position", "bio", "avatar_url", "homepage", "links")


def link_values(links: tuple[pm.SessionLink, ...]) -> list[dict[str, str]]:
    """A speaker's links as Speaker.links keeps them."""
    return [{"url": link.url, "title": link.title, "kind": link.kind} for link in links]


def _said(value: Any) -> str:
    """A field's value as a report line quotes it: shortened; links by their addresses."""
    if isinstance(value, list):
        value = " ".join(link["url"] for link in value)
    return "“" + shortened(str(value), most=60) + "”"


def _keep_held(
    row: Speaker, values: dict[str, Any], report: LoadReport, *, prefer_source: bool
) -> bool:
    """Leave out of `values` what the speaker holds, each difference a conflict in the report;
    with `prefer_source`, let the file's values in and release them. Whether `held` changed."""
    released = False
    for name in [name for name in values if name in row.held]:
        if prefer_source:
            del row.held[name]
            released = True
            report.released.append(
                gettext("speaker %(key)r %(field)s: the file's value replaces the speaker's")
                % {"key": row.key, "field": name}
            )
            continue
        if values[name] != getattr(row, name):
            report.conflicts.append(
                gettext(
                    "speaker %(key)r %(field)s: kept the speaker's %(kept)s; the file has %(file)s"
                )
                % {
                    "key": row.key,
                    "field": name,
                    "kept": _said(getattr(row, name)),
                    "file": _said(values[name]),
                }  # fmt: skip
            )
        del values[name]
    return released


def load_speakers(
    event: Event, programme: pm.Programme, report: LoadReport, *, prefer_source: bool = False
) -> dict[str, Speaker]:
    """The event's speakers brought in line with the programme's, but for the fields a speaker
    holds (Speaker.held): those keep the speaker's values, unless `prefer_source`."""
    speakers = {row.key: row for row in Speaker.objects.filter(event=event)}
    # New people are written together once all are known (a first import of 5,000 sessions
    # brings about 7,000): one statement per 500 instead of one each.
    fresh: list[Speaker] = []
    for incoming in programme.speakers:
        values = {name: getattr(incoming, name) for name in SPEAKER_FIELDS}
        values["links"] = link_values(incoming.links)
        if programme.carries is not None:
            # A format that tells less about people (no bio, no company) changes only what
            # it does tell.
            values = {
                name: value
                for name, value in values.items()
                if f"speaker.{name}" in programme.carries
            }
        row = speakers.get(incoming.key)
        if row is None:
            row = Speaker(event=event, key=incoming.key, **{"name": incoming.name, **values})
            speakers[incoming.key] = row
            fresh.append(row)
            report.speakers_created += 1
            continue
        released = bool(row.held) and _keep_held(row, values, report, prefer_source=prefer_source)
        changed = [name for name, value in values.items() if getattr(row, name) != value]
        for name in changed:
            setattr(row, name, values[name])
        if (changed or released) and not row._state.adding:
            # One this load makes is written with its last values.
            row.save(update_fields=changed + (["held"] if released else []))
        if changed:
            report.speakers_updated += 1
    Speaker.objects.bulk_create(fresh, batch_size=500)
    return speakers
