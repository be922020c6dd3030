"""What changed in a session between two states: as facts a Change keeps, and in words
attendees read in their language (`say`, when the page or the mail is made). Pure."""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime
from typing import Any
from urllib.parse import unquote, urlsplit

from django.utils import dateformat
from django.utils.translation import gettext, gettext_noop

# Plain strings so this module needs no models; they are ChangeKind's values.
ADDED, CANCELLED, RESTORED = "added", "cancelled", "restored"
RETIMED, MOVED, RETITLED = "retimed", "moved", "retitled"
REDESCRIBED, SPEAKERS, DETAILS = "redescribed", "speakers", "details"

# What each detail is called, for `_detail` (English here; gettext_noop marks them for the
# catalogue, `say` translates them when it speaks).
DETAIL_LABELS = {
    "kind": gettext_noop("kind"),
    "track": gettext_noop("type"),
    "level": gettext_noop("audience level"),
    "has_slides": gettext_noop("slides"),
    "language": gettext_noop("language"),
}

# A speaker's fields, as the change log names those a speaker changed (`say`).
PROFILE_LABELS = {
    "name": gettext_noop("name"),
    "company": gettext_noop("company"),
    "position": gettext_noop("position"),
    "bio": gettext_noop("bio"),
    "avatar_url": gettext_noop("photo"),
    "homepage": gettext_noop("homepage"),
    "links": gettext_noop("links"),
}


def when(starts_at: datetime | None, ends_at: datetime | None, zone: zoneinfo.ZoneInfo) -> str:
    """'Tue 7 Apr 11:45–11:55' in `zone`, in the active language ('mar 7 avr 11:45–11:55');
    'no time' for an unscheduled session."""
    if starts_at is None:
        return gettext("no time")
    start = starts_at.astimezone(zone)
    text = _day_and_time(start)
    if ends_at is not None:
        end = ends_at.astimezone(zone)
        text += f"–{end:%H:%M}" if end.date() == start.date() else f"–{_day_and_time(end)}"
    return text


def _day_and_time(moment: datetime) -> str:
    """'Tue 7 Apr 11:45': the month's short name capitalised as the language writes its full
    name (April, April; but avril)."""
    month = dateformat.format(moment, "b")
    if dateformat.format(moment, "F")[:1].isupper():
        month = month[:1].upper() + month[1:]
    return f"{dateformat.format(moment, 'D')} {moment.day} {month} {moment:%H:%M}"


def change_facts(
    before: dict[str, Any], after: dict[str, Any], *, zone: zoneinfo.ZoneInfo
) -> list[tuple[str, dict[str, Any]]]:
    """(kind, facts) for each way `after` differs from `before`: what `say` puts in words, in
    any language, and what a Change keeps (JSON: times as ISO text).

    Both dicts hold title, kind, abstract, starts_at, ends_at, room, track, level, has_slides,
    language (facets as names), speakers (a list of names), is_cancelled and needs_review
    (False when absent).
    """
    found: list[tuple[str, dict[str, Any]]] = []
    if before["is_cancelled"] != after["is_cancelled"]:
        found.append((CANCELLED if after["is_cancelled"] else RESTORED, {}))
    if (before["starts_at"], before["ends_at"]) != (after["starts_at"], after["ends_at"]):
        found.append((RETIMED, {
            "was": [_iso(before["starts_at"]), _iso(before["ends_at"])],
            "now": [_iso(after["starts_at"]), _iso(after["ends_at"])],
            "zone": zone.key,
        }))  # fmt: skip
    if before["room"] != after["room"]:
        found.append((MOVED, {"was": before["room"], "now": after["room"]}))
    if before["title"] != after["title"]:
        found.append((RETITLED, {"was": before["title"], "now": after["title"]}))
    if before["abstract"] != after["abstract"]:
        found.append((REDESCRIBED, {}))
    if before["speakers"] != after["speakers"]:
        found.append((SPEAKERS, {"was": list(before["speakers"]), "now": list(after["speakers"])}))
    details = [[key, before[key], after[key]] for key in DETAIL_LABELS if before[key] != after[key]]
    # Flagged for review or cleared: the session leaves or joins what attendees see, a change
    # even when nothing else is (history.py tells it to them as withdrawn or added).
    flags = (before.get("needs_review", False), after.get("needs_review", False))
    if flags[0] != flags[1]:
        details.append(["needs_review", *flags])
    if details:
        found.append((DETAILS, {"details": details}))
    return found


def is_public(state: dict[str, Any]) -> bool:
    """Whether attendees see a session in `state` (change_facts' dict): it has a time and waits
    for no review, SessionQuerySet.published's rule."""
    return state["starts_at"] is not None and not state.get("needs_review", False)


def seen_by_public(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """What a change keeps of what attendees saw (its facts' "public"): whether the session was
    public before its version (never, when `before` is None: a new session) and after it, and
    its full title as they last saw it ("" when they never did). The public history is told
    from these alone (history.py): a later title or flag must not reach an older version."""
    was, now = before is not None and is_public(before), is_public(after)
    seen = after if now else before if was else None
    if seen is None:
        return {"before": was, "after": now, "title": ""}
    title = f"{seen['kind']}: {seen['title']}" if seen["kind"] else seen["title"]
    return {"before": was, "after": now, "title": title}


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _moment(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


FIXED_WORDS = {
    ADDED: gettext_noop("added"),
    CANCELLED: gettext_noop("cancelled"),
    RESTORED: gettext_noop("back in the programme"),
    REDESCRIBED: gettext_noop("description changed"),
}


def say(kind: str, facts: dict[str, Any], *, zone: zoneinfo.ZoneInfo | None = None) -> str:
    """A change in words, in the active language: 'moved from Room A to Room B'; times in
    `zone` (the reader's), else in the zone the change was recorded in."""
    if kind in FIXED_WORDS:
        return gettext(FIXED_WORDS[kind])
    if kind == RETIMED:
        zone = zone or zoneinfo.ZoneInfo(facts["zone"])
        was, now = ([_moment(text) for text in facts[side]] for side in ("was", "now"))
        return gettext("moved in time from %(was)s to %(now)s") % {
            "was": when(was[0], was[1], zone), "now": when(now[0], now[1], zone),
        }  # fmt: skip
    if kind == MOVED:
        return gettext("moved from %(was)s to %(now)s") % {
            "was": facts["was"] or gettext("no room"), "now": facts["now"] or gettext("no room"),
        }  # fmt: skip
    if kind == RETITLED:
        return gettext("retitled from “%(was)s” to “%(now)s”") % facts
    if kind == SPEAKERS:
        return gettext("speakers now %(now)s (were %(was)s)") % {
            "now": ", ".join(facts["now"]) or gettext("none"),
            "was": ", ".join(facts["was"]) or gettext("none"),
        }  # fmt: skip
    if kind == DETAILS:
        words = [_detail(key, was, now) for key, was, now in facts.get("details", [])]
        if facts.get("links"):
            words.append(gettext("links changed"))
        if profile := facts.get("profile"):
            fields = ", ".join(gettext(PROFILE_LABELS[name]) for name in profile["fields"])
            words.append(
                gettext("%(speaker)s's profile changed: %(fields)s")
                % {"speaker": profile["speaker"], "fields": fields}
            )
        return "; ".join(words)
    raise ValueError(f"no words for a change of kind {kind!r}")


def _detail(key: str, was: Any, now: Any) -> str:
    """'type changed from Keynote to Talk', 'audience level set to Any', 'slides attached'."""
    if key == "needs_review":
        return gettext("waiting for review") if now else gettext("reviewed")
    if isinstance(now, bool):
        return gettext("slides attached") if now else gettext("slides removed")
    label = gettext(DETAIL_LABELS[key])
    if not was:
        return gettext("%(label)s set to %(now)s") % {"label": label, "now": now}
    if not now:
        return gettext("%(label)s %(was)s removed") % {"label": label, "was": was}
    return gettext("%(label)s changed from %(was)s to %(now)s") % {
        "label": label, "was": was, "now": now,
    }  # fmt: skip


# A name a URL's last path segment may show: a file name, without a run of letters and digits
# long enough to be an access token (sessionize's and pretalx's URLs carry those).
_FILE_NAME = re.compile(r"[\w.-]{1,80}\.[A-Za-z0-9]{1,8}")
_TOKEN_LIKE = re.compile(r"(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]{16,}")
# More names than this are counted, not listed.
MAX_SOURCE_NAMES = 3


def _public_name(location: str, *, with_files: bool) -> str:
    """A URL's host; with `with_files`, a file's base name too, and a URL's last path segment
    when it is a file name."""
    if "://" not in location:
        return re.split(r"[\\/]", location)[-1] if with_files else ""
    try:
        parts = urlsplit(location)
        host = parts.hostname or ""
    except ValueError:  # an unreadable URL (a broken IPv6 host): nothing of it is shown
        return ""
    last = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
    if with_files and _FILE_NAME.fullmatch(last) and not _TOKEN_LIKE.search(last):
        return f"{last} from {host}" if host else last
    return host


def source_label(source: str, *, for_team: bool = False) -> str:
    """What the change log says made a version: "imported from sessionize.com" for anyone;
    for the event's team the file names too ("imported from schedule.xml"), which name the
    organizers' own files (Sched pages saved as 000_1139db4cf8be8007.txt). Never the folder
    a file lay in, a URL's query, credentials or token (the admin shows the source).

    `source` is what load_programme and record_edit wrote: "import: <name>, <name>" (files by
    base name, URLs in full), "import", "edit by <username>", "speaker edit by <username>"
    (services/held.py), "release by <username>" (drafts), or a caller's own text.
    """
    text = source.strip()
    if not text:
        return ""
    if text.startswith("edit by "):
        return gettext("edited by the organizers")
    if text.startswith("speaker edit by "):
        return gettext("edited by a speaker")
    if text == "release" or text.startswith("release by "):
        return gettext("released by the organizers")
    if text == "import":
        return gettext("imported")
    text = text.removeprefix("import:").strip()
    found = (_public_name(part.strip(), with_files=for_team) for part in text.split(", "))
    names = list(dict.fromkeys(name for name in found if name))
    if not names:
        return gettext("imported")
    if len(names) > MAX_SOURCE_NAMES:
        shown = ", ".join(names[: MAX_SOURCE_NAMES - 1])
        more = len(names) - MAX_SOURCE_NAMES + 1
        return gettext("imported from %(names)s and %(count)s more files") % {
            "names": shown, "count": more,
        }  # fmt: skip
    return gettext("imported from %(names)s") % {"names": ", ".join(names)}
