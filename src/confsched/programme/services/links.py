"""A session's speakers and links as rows: read in bulk, written per session."""

from __future__ import annotations

from typing import Any

from confsched.core import files
from confsched.interchange import programme as pm
from confsched.programme.models import (
    Event,
    LinkKind,
    Session,
    SessionLink,
    SessionSpeaker,
)


def speaker_links(event: Event, speaker: str) -> dict[int, list[tuple[Any, str]]]:
    """Per session id, its speakers (the `speaker` field of each) and affiliations in order.

    One join for the whole event, not a prefetch: a prefetch sends every id as a query
    parameter, and past ~1,000 speakers SQLite refuses the expression as too deep.
    """
    links: dict[int, list[tuple[Any, str]]] = {}
    for session_id, who, affiliation in (
        SessionSpeaker.objects.filter(session__event=event)
        .order_by("session_id", "position")
        .values_list("session_id", speaker, "affiliation")
    ):
        links.setdefault(session_id, []).append((who, affiliation))
    return links


def session_links(event: Event) -> dict[int, tuple[pm.SessionLink, ...]]:
    """Per session id, its links in order: one query for the whole event (see speaker_links).
    A link to slides a speaker uploaded is an attachment (exports list it as one)."""
    found: dict[int, list[pm.SessionLink]] = {}
    for session_id, url, title, kind, held_by in (
        SessionLink.objects.filter(session__event=event)
        .order_by("session_id", "position", "pk")
        .values_list("session_id", "url", "title", "kind", "held_by")
    ):
        is_attachment = bool(held_by) and files.is_uploaded_slides(url)
        found.setdefault(session_id, []).append(
            pm.SessionLink(url=url, title=title, kind=kind, is_attachment=is_attachment)
        )
    return {session_id: tuple(links) for session_id, links in found.items()}


def organizer_links(
    event: Event,
) -> tuple[dict[int, tuple[pm.SessionLink, ...]], dict[int, tuple[pm.SessionLink, ...]]]:
    """Per session id, the links of the organizer's file and, apart, those speakers hold
    (SessionLink.held_by): an import compares and replaces only the first. One query."""
    files: dict[int, list[pm.SessionLink]] = {}
    held: dict[int, list[pm.SessionLink]] = {}
    for session_id, url, title, kind, held_by in (
        SessionLink.objects.filter(session__event=event)
        .order_by("session_id", "position", "pk")
        .values_list("session_id", "url", "title", "kind", "held_by")
    ):
        found = held if held_by else files
        found.setdefault(session_id, []).append(pm.SessionLink(url=url, title=title, kind=kind))
    return (
        {session_id: tuple(links) for session_id, links in files.items()},
        {session_id: tuple(links) for session_id, links in held.items()},
    )


def has_slides_link(links: tuple[pm.SessionLink, ...]) -> bool:
    return any(link.kind == LinkKind.SLIDES for link in links)


def link_rows(session: Session, links: tuple[pm.SessionLink, ...]) -> list[SessionLink]:
    return [
        SessionLink(session=session, position=index, kind=link.kind, title=link.title, url=link.url)
        for index, link in enumerate(links)
    ]


def set_links(session: Session, links: list[tuple[int, str]]) -> None:
    SessionSpeaker.objects.filter(session=session).delete()
    add_links([(session, links)])


def add_links(sessions: list[tuple[Session, list[tuple[int, str]]]]) -> None:
    """The speakers of sessions just written (none has any yet), for all of them at once."""
    SessionSpeaker.objects.bulk_create(
        (
            SessionSpeaker(session=row, speaker_id=pk, position=index, affiliation=affiliation)
            for row, links in sessions
            for index, (pk, affiliation) in enumerate(links)
        ),
        batch_size=500,
    )
