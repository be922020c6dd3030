"""The history as each reader may see it: the change log, its feed, the version pages, the API.

Attendees read what was public at each version, and nothing else. Each Change keeps whether
its session was public before its version and after it, and the title attendees saw
(changes.seen_by_public): a session waiting for review or without a time is in no line of
theirs, one that became public is one "added" line, one that stopped is one "withdrawn" line
under the title it had, and a later title or flag never reaches an older version's lines. The
event's team (web/schedule/changes.py: who may read the admin) reads every line, each marked
whether attendees read it too.
"""

from __future__ import annotations

import functools
import zoneinfo
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext_lazy

from confsched.programme.changes import ADDED, say, source_label
from confsched.programme.models import Change, ChangeKind, ScheduleVersion, Session

# A session that left what attendees see (flagged for review, or its time taken away): a kind
# of line of the public history only, told from the facts of the changes that took it away.
WITHDRAWN = "withdrawn"
WITHDRAWN_LABEL = gettext_noop("Withdrawn")
WITHDRAWN_WORDS = gettext_noop("withdrawn from the programme")
# The order kinds are counted in a summary: ChangeKind's, a withdrawal beside an addition.
SUMMARY_ORDER = (ADDED, WITHDRAWN, *(kind.value for kind in ChangeKind if kind != ADDED))
# Each kind counted, as a whole phrase with its plural: the label alone ("New room") takes no
# number in French or German ("28 ajoutée", "1 neue zeit").
_COUNTED = {
    ADDED: ngettext_lazy("%(count)s added", "%(count)s added", "count"),
    WITHDRAWN: ngettext_lazy("%(count)s withdrawn", "%(count)s withdrawn", "count"),
    ChangeKind.CANCELLED.value: ngettext_lazy(
        "%(count)s cancelled", "%(count)s cancelled", "count"
    ),
    ChangeKind.RESTORED.value: ngettext_lazy(
        "%(count)s back in the programme", "%(count)s back in the programme", "count"
    ),
    ChangeKind.RETIMED.value: ngettext_lazy("%(count)s new time", "%(count)s new times", "count"),
    ChangeKind.MOVED.value: ngettext_lazy("%(count)s new room", "%(count)s new rooms", "count"),
    ChangeKind.RETITLED.value: ngettext_lazy(
        "%(count)s new title", "%(count)s new titles", "count"
    ),
    ChangeKind.REDESCRIBED.value: ngettext_lazy(
        "%(count)s new description", "%(count)s new descriptions", "count"
    ),
    ChangeKind.SPEAKERS.value: ngettext_lazy(
        "%(count)s speakers changed", "%(count)s speakers changed", "count"
    ),
    ChangeKind.DETAILS.value: ngettext_lazy(
        "%(count)s details changed", "%(count)s details changed", "count"
    ),
}


@dataclass(frozen=True)
class ChangeLine:
    """One line of a version's history as one reader reads it."""

    session: Session
    title: str
    kind: str  # a ChangeKind's value, or WITHDRAWN
    words: str
    is_public: bool  # whether attendees read this line (the team's view marks the others)

    @property
    def kind_label(self) -> str:
        return kind_label(self.kind)

    @property
    def url(self) -> str:
        """The session's page, when it has one now ("" when it is not published)."""
        return self.session.get_absolute_url() if self.session.is_published else ""


def kind_label(kind: str) -> str:
    """'New room', 'Withdrawn': a kind of line as the page names it, in the active language."""
    return gettext(WITHDRAWN_LABEL) if kind == WITHDRAWN else str(ChangeKind(kind).label)


@dataclass(frozen=True)
class VersionEntry:
    """A version as one reader reads it: what made it, how much changed, its lines."""

    version: ScheduleVersion
    source: str
    summary: str
    lines: list[ChangeLine]


def _seen(changes: list[Change]) -> tuple[bool, bool, str]:
    """Whether one session's changes in one version were public before and after it, and the
    title attendees saw. A Change recorded before these facts were kept is judged by the
    session as it is now: shown, under today's title, only while it is published."""
    kept = [change.facts["public"] for change in changes if "public" in change.facts]
    if not kept:
        session = changes[0].session
        return session.is_published, session.is_published, session.full_title
    return kept[0]["before"], kept[-1]["after"], kept[-1]["title"]


def change_lines(
    changes: Iterable[Change], *, for_team: bool, zone: zoneinfo.ZoneInfo | None = None
) -> list[ChangeLine]:
    """A version's changes, in the order given, as the event's team (`for_team`) or attendees
    read them (see the module's note); times in `zone`, else in each change's own."""
    rows = list(changes)
    by_session: dict[int, list[Change]] = {}
    for change in rows:
        by_session.setdefault(change.session_id, []).append(change)
    seen = {pk: _seen(same) for pk, same in by_session.items()}
    lines: list[ChangeLine] = []
    told: set[int] = set()  # sessions told as one "added" or "withdrawn" line
    for change in rows:
        was, now, title = seen[change.session_id]
        if for_team:
            words = change.words_in(zone)
            lines.append(ChangeLine(change.session, change.session.full_title, change.kind,
                                    words, is_public=was or now))  # fmt: skip
        elif was and now:
            lines.append(ChangeLine(change.session, title, change.kind, change.words_in(zone),
                                    is_public=True))  # fmt: skip
        elif (was or now) and change.session_id not in told:
            # What made it public or took it away (a time given, a flag) is not theirs to read.
            told.add(change.session_id)
            kind, words = (ADDED, say(ADDED, {})) if now else (WITHDRAWN, gettext(WITHDRAWN_WORDS))
            lines.append(ChangeLine(change.session, title, kind, words, is_public=True))
    return lines


def summary_of(kinds: Iterable[str]) -> str:
    """'2 added, 1 new room': the kinds counted, in the active language; "" for none. Said
    from the changes each time it is shown, so every version reads in the reader's language
    (ScheduleVersion.summary keeps the English, for the admin and the command line)."""
    counts = Counter(kinds)
    return ", ".join(
        _COUNTED[kind] % {"count": counts[kind]} for kind in SUMMARY_ORDER if counts[kind]
    )


@functools.cache
def _english_phrases() -> dict[str, str]:
    """Each kind's counted phrase in English, singular and plural, and as summaries said it
    before phrases had plurals ("2 new room"): the kind it names."""
    phrases: dict[str, str] = {}
    with translation.override("en"):
        for kind in SUMMARY_ORDER:
            for count in (1, 2):
                phrases[(_COUNTED[kind] % {"count": count}).split(" ", 1)[1]] = kind
            phrases.setdefault(kind_label(kind).lower(), kind)
    return phrases


def summary_in_language(summary: str) -> str:
    """A stored English summary (ScheduleVersion.summary, "29 added, 1 new room") said again in
    the active language, for pages that show a version without its changes at hand (the
    admin's import preview, whose changes were rolled back, and the draft page). A part it does
    not know leaves the summary as it was stored."""
    phrases = _english_phrases()
    kinds: list[str] = []
    for part in summary.split(", ") if summary else []:
        count, _, phrase = part.partition(" ")
        if not count.isdigit() or phrase not in phrases:
            return summary
        kinds += [phrases[phrase]] * int(count)
    return summary_of(kinds)


def version_entry(
    version: ScheduleVersion,
    changes: Iterable[Change],
    *,
    for_team: bool,
    zone: zoneinfo.ZoneInfo | None = None,
) -> VersionEntry:
    """`version` with its `changes` (in the order to show them) as the event's team or
    attendees read it: its lines, their summary, and what made it (file names for the team
    only)."""
    lines = change_lines(changes, for_team=for_team, zone=zone)
    return VersionEntry(
        version=version,
        source=source_label(version.source, for_team=for_team),
        summary=summary_of(line.kind for line in lines)
        or gettext("no change to the public programme"),
        lines=lines,
    )


def history(
    versions: Iterable[ScheduleVersion], *, for_team: bool, zone: zoneinfo.ZoneInfo | None = None
) -> list[VersionEntry]:
    """`version_entry` of each version, its changes prefetched in order
    (queries.versions_with_changes)."""
    return [
        version_entry(version, version.changes.all(), for_team=for_team, zone=zone)
        for version in versions
    ]
