"""Checking and cleaning a programme before it is stored: keys, times, links and text that
the database and every page can hold."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from urllib.parse import urlsplit

from django.db import models

from confsched.core.errors import InvalidProgrammeError
from confsched.core.text import slugify
from confsched.interchange import programme as pm
from confsched.programme.models import (
    Event,
    Room,
    Session,
    SessionLink,
    SessionSpeaker,
    Speaker,
)

KEY_MAX_LENGTH = 200


# Times outside these years are mistakes in a schedule, and near year 1 or 9999 a zone's offset
# overflows Python's datetime on every page that shows them.
EARLIEST_YEAR, LATEST_YEAR = 1900, 2999


def safe_key(key: str) -> str:
    """A key that fits a URL segment and the key column; others get a stable, readable stand-in.

    Sources use UIDs such as "12@pretalx.example/abc" or 300-character ids; the same key
    always gives the same stand-in, so identity across imports is kept.
    """
    if key and len(key) <= KEY_MAX_LENGTH and "/" not in key and key.strip() == key:
        return key
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return f"{slugify(key, max_length=100)}-{digest}"


def with_safe_keys(programme: pm.Programme) -> pm.Programme:
    speaker_keys = {speaker.key: safe_key(speaker.key) for speaker in programme.speakers}
    if all(k == v for k, v in speaker_keys.items()) and all(
        safe_key(s.key) == s.key for s in programme.sessions
    ):
        return programme
    return replace(
        programme,
        speakers=[replace(sp, key=speaker_keys[sp.key]) for sp in programme.speakers],
        sessions=[
            replace(
                session,
                key=safe_key(session.key),
                speakers=tuple(
                    replace(
                        link,
                        speaker_key=speaker_keys.get(link.speaker_key, safe_key(link.speaker_key)),
                    )
                    for link in session.speakers
                ),
            )
            for session in programme.sessions
        ],
    )


_WEB_ADDRESS = re.compile(r"https?://[^\s/]", re.IGNORECASE)
# C0 controls other than tab, line feed and carriage return: PostgreSQL refuses NUL in text, XML
# refuses them all. Lone surrogates (from JSON "\\ud800") cannot be written as UTF-8.
_UNWRITABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
# Characters that show nothing but make equal names differ: a second byte-order mark, a zero-width
# space pasted before a speaker's name, a word joiner. Removed from keys and one-line texts; at
# the ends of abstracts and bios.
_INVISIBLE = "\ufeff\u200b\u2060\u180e"
_INVISIBLES = re.compile(f"[{_INVISIBLE}]")
# A title, name or facet is one line: a break in it (CSV cells may hold them) ends mail subjects
# and calendar summaries early, or breaks them.
_LINE_BREAKS = re.compile(r"[ \t]*[\r\n\u2028\u2029\x85]+[ \t]*")


def _limit(model: type[models.Model], name: str) -> int | None:
    return model._meta.get_field(name).max_length  # type: ignore[union-attr]


@dataclass
class _Cleaner:
    """Fits one programme's texts to the database, counting what it had to change."""

    replaced: Counter[str] = field(default_factory=Counter)
    joined: Counter[str] = field(default_factory=Counter)
    shortened: dict[str, str] = field(default_factory=dict)  # "what" -> first example
    dropped: dict[str, str] = field(default_factory=dict)  # "what" -> first example
    # "what" -> (owner, length, column's length) of each value cut, for texts that name their
    # owner (a title: the import report names the session, so the organizer can fix it).
    cut: dict[str, list[tuple[str, int, int, str]]] = field(default_factory=dict)

    def text(
        self, value: str, *, what: str, max_length: int | None = None, is_line: bool = True,
        owner: str = "",
    ) -> str:  # fmt: skip
        """`value` fit for its column: one line unless `is_line` is False (abstracts, bios);
        `owner` names whose value it is in the warning when it has to be shortened."""
        cleaned = _UNWRITABLE.sub("\ufffd", value)
        if cleaned != value:
            self.replaced[what] += 1
        if is_line:
            cleaned = _INVISIBLES.sub("", cleaned)
            if (one_line := _LINE_BREAKS.sub(" ", cleaned)) != cleaned:
                self.joined[what] += 1
                cleaned = one_line.strip()
        else:
            cleaned = cleaned.strip(_INVISIBLE)
        if max_length is not None and len(cleaned) > max_length:
            if owner:
                self.cut.setdefault(what, []).append(
                    (owner, len(cleaned), max_length, cleaned[:40])
                )
            else:
                self.shortened.setdefault(what, cleaned[:40])
            cleaned = cleaned[: max_length - 1].rstrip() + "…"
        return cleaned

    def warnings(self) -> list[str]:
        found = [
            f"{count} {what} held control characters or broken Unicode, replaced by �"
            for what, count in sorted(self.replaced.items())
        ]
        found += [
            f"{count} {what} held line breaks, joined into one line"
            for what, count in sorted(self.joined.items())
        ]
        found += [
            f"a {what} was longer than the database keeps and was shortened (e.g. “{start}…”)"
            for what, start in sorted(self.shortened.items())
        ]
        for what, cuts in sorted(self.cut.items()):
            owner, length, limit, start = cuts[0]
            others = f" and {len(cuts) - 1} more" if len(cuts) > 1 else ""
            found.append(
                f"{len(cuts)} {what}{'s were' if len(cuts) > 1 else ' was'} longer than the "
                f"database keeps ({limit} characters) and {'were' if len(cuts) > 1 else 'was'} "
                f"shortened to it, ending in “…”: session {owner!r}, {length} characters, "
                f"“{start.rstrip()}…”{others}"
            )
        found += [
            f"a {what} was left out (e.g. “{example[:40]}{'…' if len(example) > 40 else ''}”)"
            for what, example in sorted(self.dropped.items())
        ]
        return found


def _checked_time(value: datetime | None, *, session: str, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        stored = value.astimezone(UTC)
    except OverflowError:
        stored = None
    if stored is None or not EARLIEST_YEAR <= stored.year <= LATEST_YEAR:
        raise InvalidProgrammeError(
            f"session {session!r}: {name} {value.isoformat()} is not a time between the years "
            f"{EARLIEST_YEAR} and {LATEST_YEAR}; nothing was imported"
        )
    return stored


def _checked_links(
    links: tuple[pm.SessionLink, ...], clean: _Cleaner
) -> tuple[pm.SessionLink, ...]:
    """Links fit for the table: web addresses only, each once, titles cut to their column."""
    kept: dict[str, pm.SessionLink] = {}
    for link in links:
        url = clean.text(link.url.strip(), what="session link address")
        if not _is_web_address(url):
            # Pages link to it: javascript:, data:, relative and broken addresses never get there.
            clean.dropped.setdefault("session link that is not an http(s) URL", url)
            continue
        if len(url) > (_limit(SessionLink, "url") or 0):
            clean.dropped.setdefault("session link address too long to keep", url)
            continue
        title = clean.text(link.title, what="link title", max_length=_limit(SessionLink, "title"))
        kept.setdefault(url, replace(link, url=url, title=title))
    return tuple(kept.values())


def _is_web_address(url: str) -> bool:
    if not _WEB_ADDRESS.match(url) or any(character.isspace() for character in url):
        return False
    try:
        urlsplit(url)
    except ValueError:  # "http://[": a bracketed host left open
        return False
    return True


def _once_each(links: list[pm.SessionSpeaker], clean: _Cleaner) -> tuple[pm.SessionSpeaker, ...]:
    """A session's speakers, each once (the first mention): two spellings of one name that
    differ only by an invisible character are one person."""
    kept: dict[str, pm.SessionSpeaker] = {}
    for link in links:
        if link.speaker_key in kept:
            clean.dropped.setdefault("second mention of a speaker on one session", link.speaker_key)
        kept.setdefault(link.speaker_key, link)
    return tuple(kept.values())


def _first_of_each_key(speakers: list[pm.Speaker]) -> list[pm.Speaker]:
    """One person per key, as the file first gives them (keys may meet once cleaned)."""
    kept: dict[str, pm.Speaker] = {}
    for person in speakers:
        kept.setdefault(person.key, person)
    return list(kept.values())


def validate_programme(programme: pm.Programme) -> pm.Programme:
    """The programme made fit for the database, or InvalidProgrammeError naming the session.

    Every database sees the same values: texts lose the characters PostgreSQL or XML refuse and
    are shortened to their columns (each with a warning), times are converted to UTC (an offset
    such as -23:59 is fine there) and must lie between the years 1900 and 2999. Keys longer than
    their column are handled by safe_key. Picture and link addresses that are not http(s) URLs,
    or longer than their column, are left out with a warning; a session's links keep the first
    of each address.
    """
    clean = _Cleaner()

    def facet(name: str, what: str) -> str:
        return clean.text(name, what=what, max_length=_limit(Room, "name"))

    speakers = []
    for person in programme.speakers:
        avatar = clean.text(person.avatar_url, what="speaker picture address")
        if avatar and not _WEB_ADDRESS.match(avatar):
            # Pages and exports link to it: javascript:, data: and the like never get there.
            clean.dropped.setdefault("speaker picture address that is not an http(s) URL", avatar)
            avatar = ""
        if len(avatar) > (_limit(Speaker, "avatar_url") or 0):
            clean.dropped.setdefault("speaker picture address too long to keep", avatar)
            avatar = ""
        homepage = clean.text(person.homepage.strip(), what="speaker homepage")
        if homepage and not _is_web_address(homepage):
            clean.dropped.setdefault("speaker homepage that is not an http(s) URL", homepage)
            homepage = ""
        if len(homepage) > (_limit(Speaker, "homepage") or 0):
            clean.dropped.setdefault("speaker homepage too long to keep", homepage)
            homepage = ""
        speakers.append(
            replace(
                person,
                key=clean.text(person.key, what="speaker key"),
                avatar_url=avatar,
                homepage=homepage,
                links=_checked_links(person.links, clean) if person.links else (),
                bio=clean.text(person.bio, what="speaker bio", is_line=False),
                **{
                    name: clean.text(
                        getattr(person, name),
                        what=f"speaker {name}",
                        max_length=_limit(Speaker, name),
                    )  # fmt: skip
                    for name in ("name", "company", "position")
                },
            )
        )
    sessions = []
    for session in programme.sessions:
        sessions.append(
            replace(
                session,
                key=clean.text(session.key, what="session key"),
                title=clean.text(
                    session.title,
                    what="title",
                    max_length=_limit(Session, "title"),
                    owner=session.key,
                ),  # fmt: skip
                kind=clean.text(session.kind, what="type", max_length=_limit(Session, "kind")),
                language=clean.text(
                    session.language, what="language", max_length=_limit(Session, "language")
                ),
                abstract=clean.text(session.abstract, what="abstract", is_line=False),
                review_note=clean.text(session.review_note, what="review note", is_line=False),
                room=facet(session.room, "room name"),
                track=facet(session.track, "track name"),
                level=facet(session.level, "level name"),
                starts_at=_checked_time(session.starts_at, session=session.key, name="start"),
                ends_at=_checked_time(session.ends_at, session=session.key, name="end"),
                links=_checked_links(session.links, clean),
                speakers=_once_each(
                    [
                        replace(
                            link,
                            speaker_key=clean.text(link.speaker_key, what="speaker key"),
                            affiliation=clean.text(
                                link.affiliation,
                                what="affiliation",
                                max_length=_limit(SessionSpeaker, "affiliation"),
                            ),  # fmt: skip
                        )
                        for link in session.speakers
                    ],
                    clean,
                ),
            )
        )
    cleaned = replace(
        programme,
        name=clean.text(programme.name, what="event name", max_length=_limit(Event, "name")),
        location=clean.text(
            programme.location, what="event location", max_length=_limit(Event, "location")
        ),
        rooms=[facet(room, "room name") for room in programme.rooms],
        sessions=sessions,
        speakers=_first_of_each_key(speakers),
    )
    cleaned.warnings = [*programme.warnings, *clean.warnings()]
    return cleaned
