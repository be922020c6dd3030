"""Rendered fragments kept in the cache (shared by every app process when REDIS_URL is set).

A session card is the bulk of a schedule page and the same on every filtered view, so it is
rendered once per content, zone, language and heading level and kept under a digest of all
that (stencils.kept_parts): after an organizer's edit, a page renders the cards of the
sessions that changed and finds the others.
"""

from __future__ import annotations

import hashlib
import zoneinfo
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import lru_cache
from urllib.parse import quote

from django.http import HttpRequest
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from confsched.live.queries import News, current_announcements
from confsched.programme import queries
from confsched.programme.models import Event, Session
from confsched.speakers.showing import picture_shown, shown_photo
from confsched.web.site.languages import page_language
from confsched.web.site.stencils import kept_parts

_KEY_MARK = "confsched-key-placeholder"


def session_urls(
    name: str, event: Event, around: Callable[[str], str] = str
) -> Callable[[str], str]:
    """The address `name` ("web:star") of a session by its key, from one reverse() for every
    session: the key is quoted exactly as reverse() quotes a path segment. `around` (such as
    request.build_absolute_uri) is applied once, to the pattern; it must leave such a quoted
    segment as it is, as build_absolute_uri does."""
    pattern = around(reverse(name, kwargs={"event": event.slug, "key": _KEY_MARK}))
    return lambda key: pattern.replace(_KEY_MARK, quote(key, safe=RFC3986_SUBDELIMS + "/~:@"))


def account_html(request: HttpRequest, token: str) -> str:
    """The account corner (a kept page's "account" hole): who is signed in, their roles'
    links, log-out; or the log-in and sign-up links."""
    return render_to_string(
        "confsched/_account.html", {"user": request.user, "request": request, "csrf_token": token}
    )


def news_html(event: Event, *, now: datetime) -> str:
    """The announcements' banner (a kept page's "news" hole) in the page's language, or ""
    when none is current; no query unless an announcement was made or ended since this
    process last read them."""
    items = current_announcements(event, now=now)
    if not items:
        return ""
    return _news_html(tuple(items), page_language(), event.default_language)


@lru_cache(maxsize=256)
def _news_html(items: tuple[News, ...], language: str, default: str) -> str:
    shown = []
    for item in items:
        texts = dict(item.texts)
        own = language if texts.get(language) else default
        shown.append({
            "pk": item.pk, "text": texts.get(own, ""), "link": item.link,
            "lang": own if own != language else "",
        })  # fmt: skip
    return render_to_string("confsched/_news.html", {"items": shown})


def attach_star_urls(sessions: Sequence[Session], *, event: Event) -> None:
    """Set `session.star_url`: one reverse() for the page instead of two per session."""
    star_url = session_urls("web:star", event)
    for session in sessions:
        session.star_url = star_url(session.key)


def attach_cards(
    sessions: Sequence[Session | queries.Outline],
    *,
    event: Event,
    zone: zoneinfo.ZoneInfo,
    heading: int,
    show_day: bool = False,
) -> None:
    """Set `session.card` to its rendered card for every session, rendering only the cards
    whose content no page rendered before (see `card_digest`). With `show_day`, a card names
    its day before its time (pages listing sessions of several days without day headings).

    Sessions read as an outline (queries.published_outline: they carry `billing`) are read
    whole only when their card is to be rendered."""
    base = _card_base(event, zone, heading, show_day=show_day)
    keys = {session: "card:" + card_digest(session, base) for session in sessions}

    def render(missing: list[Session | queries.Outline]) -> dict[Session | queries.Outline, str]:
        whole = {session.pk: session for session in missing}
        if any(hasattr(session, "billing") for session in missing):
            read = queries.published_sessions(event, with_texts=False, pks=list(whole))
            whole = {row.pk: row for row in read}
        cards = {}
        for session in missing:
            row = whole.get(session.pk, session)  # unpublished meanwhile: read as needed
            row.is_likely_full = getattr(session, "is_likely_full", False)
            context = {"session": row, "heading": heading, "show_day": show_day}
            cards[session] = render_to_string("confsched/_card.html", context)
        return cards

    with timezone.override(zone):
        cards = kept_parts(keys, render)
    for session in sessions:
        session.card = mark_safe(cards[session])  # noqa: S308 - our own template's escaped output


def kept_stars(sessions: Sequence[Session]) -> dict[int, tuple[str, str]]:
    """Each session's star, unstarred and starred, rendered only when no page did before for
    its address, title and the page's language (`session.star_url` set)."""
    star = get_template("confsched/_star.html")
    base = f"star:{template_digest('confsched/_star.html')}:{page_language()}:"
    keys = {
        (session, state): base + hashlib.blake2b(
            f"{state}\n{session.star_url}\n{session.title}".encode(), digest_size=16
        ).hexdigest()
        for session in sessions
        for state in (False, True)
    }  # fmt: skip
    texts = kept_parts(
        keys,
        lambda missing: {
            (session, state): star.render({"session": session, "is_starred": state})
            for session, state in missing
        },
    )
    return {session.pk: (texts[session, False], texts[session, True]) for session in sessions}


def _card_base(
    event: Event, zone: zoneinfo.ZoneInfo, heading: int, *, show_day: bool = False
) -> tuple[str, ...]:
    """What every card of a page is rendered with: the template, the sessions' address (with
    any path prefix), the zone, the page's language (a card's words, and which titles it marks
    with lang=), the heading level and whether the day is shown."""
    url = reverse("web:session", kwargs={"event": event.slug, "key": _KEY_MARK})
    template = template_digest("confsched/_card.html")
    return (template, url, zone.key, page_language(), str(heading), "day" if show_day else "")


def card_digest(session: Session | queries.Outline, base: tuple[str, ...]) -> str:
    """A digest of everything a session's card shows: a card is rendered again exactly when
    its session, a speaker's name, company or picture, its room, track or level's name,
    "likely full" (which moves with the stars; the caller sets `is_likely_full`), or `base`
    changed."""
    shown = (base, *card_shown(session))
    return hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()


def card_shown(session: Session | queries.Outline) -> tuple[object, ...]:
    """What a session's card (and its star: key and title) shows, beyond the page's `base`."""
    return (
        session.key, session.title, session.language, session.kind,
        session.starts_at, session.ends_at, session.room.name if session.room else None,
        _billing(session),
        session.is_cancelled, getattr(session, "is_likely_full", False),
        session.track.name if session.track else None,
        session.level.name if session.level else None, session.has_slides,
    )  # fmt: skip


def _billing(session: Session | queries.Outline) -> list[tuple[str, ...]]:
    """The session's speakers' (name, company, picture) in order, as its card shows them; the
    same from an outline's columns as from the rows (speaker.photo read with them)."""
    if hasattr(session, "billing"):  # read as an outline
        return [
            (name, company, *picture_shown(avatar_url, small_square=square, jpeg=jpeg))
            for name, company, avatar_url, square, jpeg in session.billing
        ]
    billed = []
    for link in session.speaker_links.all():
        photo = shown_photo(link.speaker)
        square = photo.squares.get(queries.SMALLEST_SQUARE) if photo is not None else None
        jpeg = photo.jpeg if photo is not None else None
        picture = picture_shown(link.speaker.avatar_url, small_square=square, jpeg=jpeg)
        billed.append((link.speaker.name, link.company, *picture))
    return billed


@lru_cache(maxsize=64)
def template_digest(name: str) -> str:
    """A digest of a template's source: parts kept in the shared cache by an older release
    of a template are not served by a newer one."""
    source = get_template(name).template.source  # type: ignore[attr-defined]
    return hashlib.blake2b(source.encode(), digest_size=8).hexdigest()


# The zones most attendees read schedules in, west to east; every other zone is one link away
# (the zones page), so the picker on every page is 50 options, not 430 (20 KB of HTML).
COMMON_ZONES = (
    "Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Denver",
    "America/Chicago", "America/New_York", "America/Halifax", "America/Sao_Paulo",
    "America/Argentina/Buenos_Aires", "Atlantic/Azores", "UTC", "Europe/London",
    "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Brussels", "Europe/Amsterdam",
    "Europe/Berlin", "Europe/Zurich", "Europe/Madrid", "Europe/Rome", "Europe/Vienna",
    "Europe/Prague", "Europe/Warsaw", "Europe/Stockholm", "Europe/Athens", "Europe/Helsinki",
    "Europe/Kyiv", "Europe/Istanbul", "Africa/Lagos", "Africa/Cairo", "Africa/Johannesburg",
    "Africa/Nairobi", "Asia/Dubai", "Asia/Tehran", "Asia/Karachi", "Asia/Kolkata",
    "Asia/Kathmandu", "Asia/Dhaka", "Asia/Bangkok", "Asia/Jakarta", "Asia/Singapore",
    "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Seoul", "Asia/Tokyo",
    "Australia/Perth", "Australia/Adelaide", "Australia/Brisbane", "Australia/Sydney",
    "Pacific/Auckland",
)  # fmt: skip


def zone_options(event_zone: str, selected: str) -> SafeString:
    """The <option>s of the zone picker: the event's zone first, then the common zones (and
    the chosen one when it is not among them), in the page's language."""
    return _zone_options(event_zone, selected, page_language())


@lru_cache(maxsize=256)
def _zone_options(event_zone: str, selected: str, language: str) -> SafeString:
    mark = " selected"
    label = gettext("Event time ({zone})").format(zone=event_zone)
    first = (
        f'<option value="{escape(event_zone)}"{mark if selected == event_zone else ""}>'
        f"{escape(label)}</option>"
    )
    names = list(COMMON_ZONES)
    if selected != event_zone and selected not in names:
        names.insert(0, selected)
    rest = "".join(
        f"<option{mark if name == selected != event_zone else ''}>{escape(name)}</option>"
        for name in names
    )
    return mark_safe(first + rest)  # noqa: S308 - names escaped above
