"""A signed-in person's agenda page, kept per person and filled in per request.

Built whole, the agenda of 50 picks at a 5,000-session event cost 25 ms of CPU (its cards,
clashes, free times and panels), twelve times a visitor's kept list page. What it shows moves
only with the schedule, with the person's own rows (stars, reservations, links, alerts,
reminders, the account and its rights on the event), with the team's current announcements
and with the moment now/next changes. So
the page is kept in this process under a digest of exactly those, read in six small compiled
queries, and filled per request in its holes: the CSRF token and each seat's control (seats
move with everyone's reservations). Kept per process only: one page per person and version
would fill a shared cache with pages nobody else asks for.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers

from confsched.agenda.models import (
    AgendaItem,
    AgendaLinks,
    AlertSubscription,
    ReminderSetting,
    Reservation,
)
from confsched.agenda.planning import now_and_next
from confsched.agenda.reservations import position
from confsched.core import clock
from confsched.core.prepared import Prepared
from confsched.live.queries import current_announcements
from confsched.programme.models import Event
from confsched.teams.access import rights_on_slug
from confsched.web.agenda.seats import seat_hole_values
from confsched.web.site.compression import accepts_gzip
from confsched.web.site.languages import page_language
from confsched.web.site.stencils import Markers, Stencil, agenda_pages, agenda_times
from confsched.web.site.zones import ViewerZone, remember_zone


def _per_person(model: type[Model]) -> Prepared[Any]:
    return Prepared(
        model,
        lambda user, event: model._default_manager.filter(user_id=user, event_id=event).order_by(
            "pk"
        ),
        user=int,
        event=int,
    )


# (session, what it was when starred): rows, not instances, as there may be a hundred.
_STARS = Prepared(
    AgendaItem,
    lambda user, event: (
        AgendaItem.objects.filter(user_id=user, session__event_id=event)
        .order_by("pk")
        .values_list("session_id", "seen")
    ),
    user=int,
    event=int,
)
_RESERVATIONS = Prepared(
    Reservation,
    lambda user, event: Reservation.objects.filter(user_id=user, session__event_id=event).order_by(
        "pk"
    ),
    user=int,
    event=int,
)
_LINKS = _per_person(AgendaLinks)
_ALERTS = _per_person(AlertSubscription)
_REMINDERS = _per_person(ReminderSetting)


@dataclass(frozen=True)
class Star:
    """A star as the agenda reads it: what the session was when starred (planning.changes_since)."""

    seen: dict[str, str]


@dataclass(frozen=True)
class Person:
    """What of the signed-in person their agenda shows, as read for this request."""

    user: User
    items: dict[int, Star]  # their stars by session
    held: dict[int, tuple[Reservation, int]]  # reservations by session, with waitlist place
    links: AgendaLinks | None
    alerts: AlertSubscription | None
    reminder: ReminderSetting | None
    digest: str = field(compare=False)

    @property
    def starred(self) -> set[int]:
        return set(self.items)

    @property
    def picks(self) -> set[int]:
        """Starred and reserved: the sessions on the page."""
        return set(self.items) | set(self.held)


def read_person(user: User, event: Event) -> Person:
    """The person's rows for `event`, and a digest of every field of each (and of the account
    and the waitlist places, which move when others leave): equal digests, equal pages."""
    values = {"user": user.pk, "event": event.pk}
    stars = _STARS.rows(**values)
    reservations = _RESERVATIONS.instances(**values)
    held = {row.session_id: (row, position(row)) for row in reservations}
    links, alerts, reminder = (
        next(iter(query.instances(**values)), None) for query in (_LINKS, _ALERTS, _REMINDERS)
    )
    # The account corner's links to the team's pages (the same read its tag makes).
    rights = sorted(right.value for right in rights_on_slug(user, event.slug))
    digest = hashlib.sha256(repr((stars, rights)).encode())
    for row in (user, *reservations, links, alerts, reminder):
        digest.update(repr(_fields(row)).encode())
    digest.update(repr(sorted((pk, place) for pk, (_, place) in held.items())).encode())
    return Person(
        user=user, items={pk: Star(seen) for pk, seen in stars}, held=held, links=links,
        alerts=alerts, reminder=reminder, digest=digest.hexdigest(),
    )  # fmt: skip


def _fields(row: Model | None) -> tuple[Any, ...]:
    if row is None:
        return ()
    if isinstance(row, User):  # the password's hash is no part of any page
        return tuple(
            getattr(row, name)
            for name in ("pk", "username", "first_name", "last_name", "email", "is_active")
        )
    return (type(row).__name__, *(getattr(row, f.attname) for f in row._meta.concrete_fields))


@dataclass(frozen=True)
class Times:
    """When each running pick of a page starts and ends (what now/next is told from)."""

    sessions: tuple[Any, ...]

    def now_state(self, now: datetime) -> str:
        current, upcoming = now_and_next(list(self.sessions), now=now)
        return repr(([s.pk for s in current], upcoming.pk if upcoming else None))


@dataclass(frozen=True)
class _Slot:
    pk: int
    starts_at: datetime
    ends_at: datetime | None


def times_of(running: Iterable[Any]) -> Times:
    return Times(tuple(_Slot(s.pk, s.starts_at, s.ends_at) for s in running))


# render(markers, now) -> (the page with markers in its holes, when its picks run); without
# markers, the page as this request sees it.
Render = Callable[[Markers | None, datetime], tuple[HttpResponse, Times]]


def agenda_response(
    request: HttpRequest, event: Event, viewer: ViewerZone, person: Person, *, render: Render
) -> HttpResponse:
    """The person's agenda: their kept page filled for this request, else rendered (with
    markers), kept and filled."""
    place = repr((
        event.pk, event.updated_at.isoformat(), page_language(), viewer.zone.key,
        request.scheme, request.get_host(), request.get_full_path(),
        request.headers.get("HX-Request", ""), request.headers.get("HX-Target", ""),
    ))  # fmt: skip
    picks = hashlib.sha256(
        f"{event.pk} {event.updated_at.isoformat()} {sorted(person.picks)}".encode()
    ).hexdigest()
    now = clock.now()
    if not settings.CONFSCHED_PAGE_STENCILS:  # the plain way, which the kept page must equal
        return render(None, now)[0]
    # The team's announcements are drawn into the page: it is kept under the ones current now
    # (read through their stamp, no query unless one was made or ended).
    place += "\n" + repr([news.pk for news in current_announcements(event, now=now)])
    times = agenda_times.get(picks)
    stencil = None
    if times is not None:
        stencil = agenda_pages.get(_key(place, person, times.now_state(now)))
    if stencil is None:
        markers = Markers()
        page, times = render(markers, now)
        stencil = Stencil(markers.cut(page.content), stars={}, status=page.status_code)
        # Kept only when nothing the page shows was written while it was drawn.
        if page.status_code == 200 and read_person(person.user, event).digest == person.digest:
            agenda_times.put(picks, times)
            agenda_pages.put(_key(place, person, times.now_state(now)), stencil)
    values = {"csrf": get_token(request).encode()}
    values |= seat_hole_values(request, event, stencil.holes)
    if accepts_gzip(request):
        # BREACH: the page holds secrets (its token, the feed's address) beside what the
        # address reflects, so the compressed copy is padded at random.
        response = HttpResponse(stencil.gzip_plain(values=values, padded=True))
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(stencil.fill(values=values, starred=frozenset()))
    response.status_code = stencil.status
    response["Vary"] = "Cookie, HX-Request"
    patch_vary_headers(response, ("Accept-Encoding",))
    return remember_zone(response, viewer)


def _key(place: str, person: Person, now_state: str) -> str:
    return hashlib.sha256(f"{place}\n{person.digest}\n{now_state}".encode()).hexdigest()
