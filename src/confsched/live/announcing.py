"""The rules an announcement obeys, as pure functions: its texts, its link, its end time.

Each raises AnnouncementError with a message for a person (the staff page shows it, the
command line prints it); none reads the clock or the database.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping
from datetime import datetime
from urllib.parse import urlsplit

from django.utils.translation import gettext

from confsched.core.errors import ConfschedError

TEXT_MAX = 500
LINK_MAX = 500
# What the command line and the staff form take as a local time ("2026-06-01 14:30"; the
# form's datetime-local control sends "2026-06-01T14:30").
TIME_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M")


class AnnouncementError(ConfschedError):
    """An announcement that cannot be made or ended; the message says why."""


def clean_texts(texts: Mapping[str, str], *, offered: list[str], default: str) -> dict[str, str]:
    """The texts stripped, the empty ones dropped, in the offered languages' order. The
    default language's is required; a language the event does not offer is refused."""
    cleaned: dict[str, str] = {}
    for language, text in texts.items():
        if language not in offered:
            raise AnnouncementError(
                gettext("The event is not offered in “%(language)s”; its languages: %(offered)s.")
                % {"language": language, "offered": ", ".join(offered)}
            )
        text = " ".join((text or "").split())
        if len(text) > TEXT_MAX:
            raise AnnouncementError(
                gettext(
                    "The text in “%(language)s” is %(length)s characters long; at most %(max)s."
                )
                % {"language": language, "length": len(text), "max": TEXT_MAX}
            )
        if text:
            cleaned[language] = text
    if default not in cleaned:
        raise AnnouncementError(
            gettext(
                "An announcement needs a text in the event's default language (“%(language)s”)."
            )
            % {"language": default}
        )
    return {language: cleaned[language] for language in offered if language in cleaned}


def check_link(link: str) -> str:
    """`link` stripped: "" (none), an https address or a path on this site; else refused."""
    link = (link or "").strip()
    if not link:
        return ""
    parts = urlsplit(link)
    is_path = link.startswith("/") and not link.startswith("//") and "\\" not in link
    is_https = parts.scheme == "https" and bool(parts.hostname) and "\\" not in link
    if len(link) > LINK_MAX or not (is_path or is_https) or any(c.isspace() for c in link):
        raise AnnouncementError(
            gettext(
                "The link must be an https:// address or a path on this site starting with "
                "“/” (at most %(max)s characters), not “%(link)s”."
            )
            % {"max": LINK_MAX, "link": link[:80]}
        )
    return link


def parse_local_time(text: str, *, zone: zoneinfo.ZoneInfo) -> datetime | None:
    """ "YYYY-MM-DD HH:MM" in the event's `zone` as an aware time; None for ""."""
    text = (text or "").strip()
    if not text:
        return None
    for pattern in TIME_FORMATS:
        try:
            naive = datetime.strptime(text, pattern)  # noqa: DTZ007 - made aware just below
        except ValueError:
            continue
        return naive.replace(tzinfo=zone)
    raise AnnouncementError(
        gettext("“%(text)s” is not a time: write it as YYYY-MM-DD HH:MM, in the event's zone.")
        % {"text": text[:40]}
    )


def check_end(ends_at: datetime | None, *, now: datetime) -> None:
    """An end time must lie in the future."""
    if ends_at is not None and ends_at <= now:
        raise AnnouncementError(
            gettext("The end time %(time)s has passed: give a time in the future, or none.")
            % {"time": ends_at.strftime("%Y-%m-%d %H:%M %Z")}
        )
