"""Sched schedule pages, saved as text (what a browser's "save as text" or copy-all gives).

There is no published spec; this reader follows the pages Sched renders (see the demo folder):

* A listing page has a header (event dates, place, "displayed in CEST (UTC/GMT +2)", and the
  active filter such as "Type: Training Systems clear filter"), then per entry: an optional
  slot heading "11:00 CEST", the title line "Title - Speaker, Company & Speaker, Company", a
  time line "Tuesday April 7, 2026 11:00 - 11:10 CEST", the abstract, "Speakers" with one
  block per speaker (avatar line, name, "Position, Company", bio), the time line again, the
  room, and indented lines for the type and for "• Audience Level Any" / "• Slides Attached Yes".
* A session page, as saved, may carry no title and no time: only the abstract and the bios.
  It is matched to a listing entry by its text; when nothing matches it is kept as an
  unscheduled session flagged for review.

Facets come from the page's filter: "Type: X" is the track, the audience-level filter (Sched
labels it "Company: Intermediate" on some pages) is the level, "Venue: X" is the room. The
header's year ("7-8 April, 2025") is not trusted: the sessions' own dates give the year.

Times must fall between 0001-01-02 and 9999-12-30 (UTC), so that every time zone can show
them. Hostile pages cost time in proportion to their size: markers are found by string search
rather than patterns that backtrack, speaker names by look-up (see _KnownNames).

Slides: "• Slides Attached Yes" sets `has_slides`. The saved text holds no address of the files
(Sched shows them behind its own links), so the pages carry no session links: `carries` is
every field but "links", and a re-import leaves the links an organizer or another source gave.

Identity: Sched's text gives no ids, so a session's key is the slug of its title line (kind
and title, without speakers); a speaker's key is the slug of their name; an unmatched session
page is keyed by a hash of its text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from confsched.core.errors import ParseError
from confsched.core.text import fold, slugify
from confsched.interchange.programme import (
    EVERY_FIELD,
    Programme,
    Session,
    SessionSpeaker,
    Speaker,
)
from confsched.interchange.sched.listing import (
    _DATE_RANGE,
    _TIME_LINE,
    MONTHS,
    _Entry,
    _Page,
    _read_listing,
    _without_read_more,
)
from confsched.interchange.sched.titles import _split_kind, _split_title

FORMAT_NAME = "sched-pages"
CARRIES = EVERY_FIELD - {"links"}
# What a listing entry may or may not show, depending on the page's filter.
_ENTRY_FACTS = frozenset({"room", "track", "level", "has_slides"})
_BIO_STEM = 60  # characters of a bio cut short that find its whole text on a session page


# Page chrome of session pages: never part of a session's text.
_CHROME_PREFIXES = (
    "The Sched app allows you to build your schedule",
    "This schedule is automatically displayed in",
    "Sign up or log in to add sessions",
    "Note: The schedule is subject to change",
    "Loading…",
    "View More Details & Registration",
)


def looks_like_sched_page(text: str) -> bool:
    """True for text that Sched rendered: its chrome sentences or its entry time lines."""
    if any(prefix in text for prefix in _CHROME_PREFIXES[:3]):
        return True
    return sum(1 for line in text.splitlines() if _TIME_LINE.match(line.strip())) >= 2


def parse_sched_pages(files: Sequence[tuple[str, bytes]]) -> Programme:
    """Read listing and session pages of one event into one Programme, merging what they say."""
    if not files:
        raise ParseError("no Sched pages given")
    listings: list[_Page] = []
    session_pages: list[_Page] = []
    for source, data in files:
        lines = _decode(source, data).splitlines()
        page = _Page(source=source, lines=lines)
        if any(_TIME_LINE.match(line.strip()) for line in lines):
            _read_listing(page)
            listings.append(page)
        elif looks_like_sched_page("\n".join(lines)):
            session_pages.append(page)
        else:
            raise ParseError(
                "not a Sched page: no session time lines such as "
                "'Tuesday April 7, 2026 11:00 - 11:10 CEST' and none of Sched's page text",
                source=source,
            )
    programme = Programme(carries=CARRIES)
    speakers: dict[str, Speaker] = {}
    sessions: dict[str, Session] = {}
    for page in listings:
        for entry in page.entries:
            session, entry_speakers = _entry_to_session(entry, programme.warnings)
            for speaker in entry_speakers:
                speakers[speaker.key] = _merge_speaker(speakers.get(speaker.key), speaker)
            if session.key in sessions:
                session = _merge_session(sessions[session.key], session, entry, programme.warnings)
            sessions[session.key] = session
    abstracts: dict[str, list[str]] = {}
    for page in session_pages:
        _apply_session_page(
            page, sessions, speakers, programme.warnings, programme.notes, abstracts
        )
    programme.sessions = list(sessions.values())
    programme.speakers = list(speakers.values())
    _fill_event_facts(programme, listings + session_pages)
    return programme


def _decode(source: str, data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError(
            f"not UTF-8 text (byte {exc.start} cannot be decoded); save the page as UTF-8",
            source=source,
            line=line,
        ) from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --- the title line ------------------------------------------------------------------------


def _entry_to_session(entry: _Entry, warnings: list[str]) -> tuple[Session, list[Speaker]]:
    known = [block.name for block in entry.blocks]
    full_title, billed = _split_title(entry.title_line, known)
    kind, title = _split_kind(full_title)
    blocks = {block.name: block for block in entry.blocks}
    speakers: list[Speaker] = []
    links: list[SessionSpeaker] = []
    linked: set[str] = set()
    for name, affiliation in billed:
        block = blocks.pop(name, None)
        speaker = (
            Speaker(
                key=slugify(block.name),
                name=block.name,
                position=block.position,
                company=block.company or affiliation,
                bio=block.bio,
            )
            if block
            else Speaker(key=slugify(name), name=name, company=affiliation)
        )
        if speaker.key in linked:
            continue
        linked.add(speaker.key)
        speakers.append(speaker)
        links.append(SessionSpeaker(speaker_key=speaker.key, affiliation=affiliation))
    for block in blocks.values():  # in a block but not in the title: still a speaker
        warnings.append(
            f"{entry.source}, line {entry.line}: speaker {block.name!r} has a block "
            "but is not named in the title line"
        )
        speaker = Speaker(
            key=slugify(block.name),
            name=block.name,
            position=block.position,
            company=block.company,
            bio=block.bio,
        )
        speakers.append(speaker)
        links.append(SessionSpeaker(speaker_key=speaker.key, affiliation=block.company))
    facets = entry.facets
    session = Session(
        key=slugify(full_title, max_length=120),
        title=title,
        kind=kind,
        abstract=entry.abstract,
        starts_at=entry.starts_at,
        ends_at=entry.ends_at,
        room=entry.room or facets.get("room", ""),
        track=entry.track or facets.get("track", ""),
        level=entry.level or facets.get("level", ""),
        has_slides=entry.has_slides,
        speakers=tuple(links),
    )
    # A listing shows only some facets of an entry (the one it is filtered by, and not always
    # the type or level): what it does not show is unknown, not empty.
    shown = {facet for facet in ("room", "track", "level") if getattr(session, facet)}
    if entry.is_slides_shown:
        shown.add("has_slides")
    session = replace(session, unknown=frozenset(_ENTRY_FACTS - shown))
    for facet in ("track", "level", "room"):
        stated, implied = getattr(session, facet), facets.get(facet, "")
        if implied and stated != implied:
            warnings.append(
                f"{entry.source}, line {entry.line}: {session.title!r} shows {facet} "
                f"{stated!r} on a page filtered by {facet} {implied!r}; kept {stated!r}"
            )
    return session, speakers


def _merge_speaker(old: Speaker | None, new: Speaker) -> Speaker:
    if old is None:
        return new
    return replace(
        old,
        company=old.company or new.company,
        position=old.position or new.position,
        bio=max(old.bio, new.bio, key=len),
        avatar_url=old.avatar_url or new.avatar_url,
    )


def _merge_session(old: Session, new: Session, entry: _Entry, warnings: list[str]) -> Session:
    """The same session seen on several filtered pages gets every facet they show."""
    merged: dict[str, object] = {}
    for facet in ("room", "track", "level"):
        first, second = getattr(old, facet), getattr(new, facet)
        if first and second and first != second:
            warnings.append(
                f"{entry.source}, line {entry.line}: {old.title!r} has {facet} {first!r} on "
                f"one page and {second!r} on another; kept {first!r}"
            )
        merged[facet] = first or second
    # What one page shows of it is known, whatever the other pages left out.
    merged["unknown"] = old.unknown & new.unknown
    if (old.starts_at, old.ends_at) != (new.starts_at, new.ends_at):
        warnings.append(
            f"{entry.source}, line {entry.line}: {old.title!r} has another time on an earlier "
            "page; kept the earlier page's time"
        )
    return replace(
        old,
        abstract=max(old.abstract, new.abstract, key=len),
        has_slides=old.has_slides or new.has_slides,
        speakers=old.speakers if len(old.speakers) >= len(new.speakers) else new.speakers,
        **merged,  # type: ignore[arg-type]  # keys are the str fields named above
    )


# --- session pages -------------------------------------------------------------------------


def _content_lines(page: _Page) -> list[str]:
    """A session page's own text: no chrome, no "Read More →" links."""
    return [
        _without_read_more(line.strip())
        for line in page.lines
        if line.strip() and not line.strip().startswith(_CHROME_PREFIXES)
    ]


def _apply_session_page(
    page: _Page,
    sessions: dict[str, Session],
    speakers: dict[str, Speaker],
    warnings: list[str],
    notes: list[str],
    abstracts: dict[str, list[str]],
) -> None:
    """Enrich the listing session whose abstract this page repeats; else keep it for review.

    A speaker's bio cut short on the listing ("… Read More →") becomes the longest line of the
    page that starts like it.
    """
    content = _content_lines(page)
    folded = {fold(line) for line in content}
    best_key, best_score = None, 0.0
    for key, session in sessions.items():
        if key not in abstracts:  # folded once for all the session pages
            abstracts[key] = [
                fold(line.strip()) for line in session.abstract.splitlines() if line.strip()
            ]
        abstract_lines = abstracts[key]
        if not abstract_lines:
            continue
        score = sum(line in folded for line in abstract_lines) / len(abstract_lines)
        if score > best_score:
            best_key, best_score = key, score
    if best_key is not None and best_score >= 0.5:
        session = sessions[best_key]
        abstract_folded = {fold(line.strip()) for line in session.abstract.splitlines()}
        extra = [(fold(line), line) for line in content if fold(line) not in abstract_folded]
        # The longest line for each start, one table per length of start (at most _BIO_STEM
        # of them): a bio costs a look-up, not a pass over the page.
        longest: dict[int, dict[str, str]] = {}
        for link in session.speakers:
            speaker = speakers[link.speaker_key]
            stem = fold(speaker.bio.removesuffix("...").removesuffix("…"))[:_BIO_STEM]
            if not stem:
                continue
            if len(stem) not in longest:
                table = longest[len(stem)] = {}
                for folded_line, line in extra:
                    start = folded_line[: len(stem)]
                    if len(line) > len(table.get(start, "")):
                        table[start] = line
            bio = longest[len(stem)].get(stem, "")
            if len(bio) > len(speaker.bio):
                speakers[link.speaker_key] = replace(speaker, bio=bio)
        notes.append(f"{page.source}: session page matched {session.title!r}")
        return
    text = "\n\n".join(content)  # each line of a session page is a paragraph
    key = "sched-page-" + hashlib.sha256(fold(text).encode()).hexdigest()[:12]
    sessions[key] = Session(
        key=key,
        title=f"Untitled session page ({page.source})",
        abstract=text,
        needs_review=True,
        review_note=(
            f"{page.source} shows a session page with no title and no time, and its text "
            "matches no session on the listing pages. Its whole text is kept as the abstract "
            "(it may include speaker bios): give it a title, time, room and speakers."
        ),
    )


def _fill_event_facts(programme: Programme, pages: list[_Page]) -> None:
    header: dict[str, str] = {}
    for page in pages:
        for key, value in page.header.items():
            header.setdefault(key, value)
    programme.name = header.get("name", "")
    programme.location = header.get("location", "")
    local_days = sorted(
        session.starts_at.date() for session in programme.sessions if session.starts_at
    )
    if local_days:
        programme.start_date, programme.end_date = local_days[0], local_days[-1]
    if (match := _DATE_RANGE.match(header.get("date_range", ""))) and local_days:
        # The header's year is unreliable (PyTorch Conference Europe 2026 says 2025): the
        # sessions' year wins; the header only widens the range to days without sessions.
        year, month = local_days[0].year, MONTHS[match["month"]]
        try:
            first = date(year, month, int(match["first"]))
            last = date(year, month, int(match["last"] or match["first"]))
        except ValueError:
            return
        if first <= local_days[0] and last >= local_days[-1]:
            programme.start_date, programme.end_date = first, last
