"""What speakers set themselves: their profile's fields and their sessions' links, written into
the programme's own rows (so every export carries them) and held against later imports.

A field a speaker set is held (Speaker.held): an import keeps the speaker's value and its report
names each field the file gives otherwise, until the organizer releases it (`release_held`, or
an import with `prefer_source`). A link a speaker added (SessionLink.held_by) is never removed
or changed by an import. Each write takes the import lock, so that an import and a speaker's
edit of one event never interleave, and records a version whose changes the change log names.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models, transaction
from django.db.models import F
from django.utils.translation import gettext

from confsched.core import clock
from confsched.core.database import sqlite_wait
from confsched.core.errors import InvalidProgrammeError
from confsched.core.text import one_line, shortened
from confsched.interchange import programme as pm
from confsched.programme.models import (
    HOLDABLE,
    LinkKind,
    ScheduleVersion,
    Session,
    SessionLink,
    Speaker,
)
from confsched.programme.services.journal import move_version
from confsched.programme.services.loading import SQLITE_IMPORT_WAIT_SECONDS, lock_imports
from confsched.programme.services.related import link_values
from confsched.programme.services.snapshots import keep_programme
from confsched.programme.services.versions import describe, record_version, session_facts

# Where a speaker's links of a session start: after the organizer's, whatever their number.
HELD_POSITION = 1000
MOST_LINKS = 20
MOST_BIO = 10_000
_LINE_FIELDS = ("name", "company", "position")
_ADDRESS_FIELDS = ("avatar_url", "homepage")
_WEB = URLValidator(schemes=["http", "https"])


def _longest(model: type[models.Model], name: str) -> int:
    field = model._meta.get_field(name)
    return getattr(field, "max_length", None) or 0


def _refuse(field: str, problem: str) -> InvalidProgrammeError:
    return InvalidProgrammeError(
        gettext("%(field)s: %(problem)s; nothing was changed")
        % {"field": field, "problem": problem}
    )


def _address(value: Any, *, field: str, most: int) -> str:
    if not isinstance(value, str):
        raise _refuse(field, gettext("an address must be text"))
    text = value.strip()
    if not text:
        return ""
    if len(text) > most:
        raise _refuse(field, gettext("longer than %(most)s characters") % {"most": most})
    try:
        _WEB(text)
    except ValidationError:
        raise _refuse(
            field,
            gettext("“%(value)s” is not an http or https address") % {"value": shortened(text)},
        ) from None
    return text


def clean_links(links: Any, *, field: str = "links") -> tuple[pm.SessionLink, ...]:
    """Links as the hub keeps them, from SessionLinks, (url, title, kind) triples or dicts with
    those keys; InvalidProgrammeError for anything else, a bad address or kind, or too many."""
    if not isinstance(links, list | tuple):
        raise _refuse(field, gettext("a list of links is needed"))
    if len(links) > MOST_LINKS:
        raise _refuse(field, gettext("at most %(most)s links") % {"most": MOST_LINKS})
    found: list[pm.SessionLink] = []
    for link in links:
        url: Any
        title: Any
        kind: Any
        if isinstance(link, pm.SessionLink):
            url, title, kind = link.url, link.title, link.kind
        elif isinstance(link, dict):
            url, title, kind = link.get("url"), link.get("title", ""), link.get("kind", pm.LINK)
        elif isinstance(link, list | tuple) and len(link) == 3:
            url, title, kind = link
        else:
            raise _refuse(field, gettext("each link is an address, a title and a kind"))
        if kind not in pm.LINK_KINDS:
            raise _refuse(field, gettext("“%(kind)s” is not a kind of link") % {"kind": kind})
        if not isinstance(title, str):
            raise _refuse(field, gettext("a link's title must be text"))
        title = one_line(title)
        if len(title) > _longest(SessionLink, "title"):
            raise _refuse(field, gettext("a link's title is too long"))
        url = _address(url, field=field, most=_longest(SessionLink, "url"))
        if not url:
            raise _refuse(field, gettext("a link needs an address"))
        if url not in {link.url for link in found}:
            found.append(pm.SessionLink(url=url, title=title, kind=kind))
    return tuple(found)


def clean_speaker_values(values: dict[str, Any]) -> dict[str, Any]:
    """The values as Speaker's columns keep them (links as Speaker.links' dicts), or
    InvalidProgrammeError naming the first field that is wrong."""
    cleaned: dict[str, Any] = {}
    for name, value in values.items():
        if name not in HOLDABLE:
            raise _refuse(name, gettext("not a field a speaker sets"))
        if name == "links":
            cleaned[name] = link_values(clean_links(value))
        elif name in _ADDRESS_FIELDS:
            cleaned[name] = _address(value, field=name, most=_longest(Speaker, name))
        elif not isinstance(value, str):
            raise _refuse(name, gettext("must be text"))
        elif name == "bio":
            cleaned[name] = value.strip()
            if len(cleaned[name]) > MOST_BIO:
                raise _refuse(name, gettext("longer than %(most)s characters") % {"most": MOST_BIO})
        else:
            cleaned[name] = one_line(value)
            most = _longest(Speaker, name)
            if len(cleaned[name]) > most:
                raise _refuse(name, gettext("longer than %(most)s characters") % {"most": most})
    if "name" in cleaned and not cleaned["name"]:
        raise _refuse("name", gettext("a speaker needs a name"))
    return cleaned


def _record(
    sessions: list[Session], befores: dict[int, dict[str, Any]], *, by: str,
    profile: dict[str, Any] | None,
) -> ScheduleVersion | None:  # fmt: skip
    """A version with what changed on each session (a profile change among its details)."""
    changes = []
    for session in sessions:
        after = session_facts(session)
        changes += describe(
            session, befores[session.pk], after, zone=session.event.zone, profile=profile
        )
    if not changes:
        return None
    event = sessions[0].event
    version = record_version(event, changes, source=f"speaker edit by {by}", by=by)
    keep_programme(event, version)
    return version


@sqlite_wait(SQLITE_IMPORT_WAIT_SECONDS)  # before BEGIN, where SQLite waits for the lock
@transaction.atomic
def set_speaker_fields(
    speaker: Speaker, values: dict[str, Any], *, by: str
) -> ScheduleVersion | None:
    """Write a speaker's own values (fields of HOLDABLE; links as (url, title, kind)), hold each
    one that changed, and record a version naming the change on each of their sessions. None
    when nothing changed (or the speaker is on no session: the rows are written all the same).
    InvalidProgrammeError for a bad value, with nothing written."""
    cleaned = clean_speaker_values(values)
    lock_imports(speaker.event.slug)
    row = Speaker.objects.select_related("event").get(pk=speaker.pk)
    changed = [name for name in HOLDABLE if name in cleaned and getattr(row, name) != cleaned[name]]
    if not changed:
        return None
    sessions = list(row.sessions.select_related("event").order_by("starts_at", "key"))
    befores = {session.pk: session_facts(session) for session in sessions}
    held_at = clock.now().isoformat()
    for name in changed:
        setattr(row, name, cleaned[name])
        row.held[name] = {"by": by, "at": held_at}
    row.save(update_fields=[*changed, "held"])
    speaker.refresh_from_db()
    if "name" in changed:  # calendars name the speakers: tell them through SEQUENCE
        Session.objects.filter(pk__in=befores).update(
            sequence=F("sequence") + 1, updated_at=clock.now()
        )
    profile = [name for name in changed if name != "name"]
    version = None
    if sessions:
        said = {"speaker": row.name, "fields": profile} if profile else None
        version = _record(sessions, befores, by=by, profile=said)
    move_version(row.event, befores)  # the sessions that bill the speaker
    return version


@sqlite_wait(SQLITE_IMPORT_WAIT_SECONDS)
@transaction.atomic
def set_session_links(session: Session, links: list[Any], *, by: str) -> ScheduleVersion | None:
    """Replace the links speakers hold on the session (the organizer's stay as they are) with
    `links` ((url, title, kind) each), held by `by`; a version when that changed anything."""
    cleaned = clean_links(links)
    lock_imports(session.event.slug)
    row = Session.objects.select_related("event").get(pk=session.pk)
    held = row.links.exclude(held_by="")
    now = tuple(
        pm.SessionLink(url=link.url, title=link.title, kind=link.kind)
        for link in held.order_by("position", "pk")
    )
    if now == cleaned:
        return None
    befores = {row.pk: session_facts(row)}
    had_held_slides = any(link.kind == LinkKind.SLIDES for link in now)
    held.delete()
    SessionLink.objects.bulk_create(
        SessionLink(session=row, position=HELD_POSITION + index, kind=link.kind, title=link.title,
                    url=link.url, held_by=by[:150])
        for index, link in enumerate(cleaned)
    )  # fmt: skip
    has_slides = row.links.filter(kind=LinkKind.SLIDES).exists()
    if has_slides or had_held_slides:  # a slides link attached or taken away
        row.has_slides = has_slides
    row.sequence += 1  # calendars carry the links (ATTACH)
    row.save(update_fields=["has_slides", "sequence", "updated_at"])
    version = _record([row], befores, by=by, profile=None)
    move_version(row.event, [row.pk])
    session.refresh_from_db()
    return version


@sqlite_wait(SQLITE_IMPORT_WAIT_SECONDS)
@transaction.atomic
def release_held(speaker: Speaker, fields: list[str]) -> None:
    """The organizer takes the fields back: the next import writes the file's values."""
    if unknown := [name for name in fields if name not in HOLDABLE]:
        raise _refuse(unknown[0], gettext("not a field a speaker sets"))
    lock_imports(speaker.event.slug)
    row = Speaker.objects.get(pk=speaker.pk)
    if any(name in row.held for name in fields):
        row.held = {name: mark for name, mark in row.held.items() if name not in fields}
        row.save(update_fields=["held"])
    speaker.held = row.held
