"""Reserving a seat: the control on cards and session pages, the POST that reserves or cancels,
and the person's page for their seat (its state, the check-in code, the waitlist position).

Kept pages (stencils) are the same for everyone; a seat's state is not (how many are free,
whether this person holds one), so each control is a hole the request fills with
`seat_controls`: three queries per page that shows sessions taking reservations, none on one
that shows none.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import quote

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from confsched.agenda import reservations
from confsched.agenda.models import Reservation
from confsched.agenda.reservations import ReservationError, Seats
from confsched.core import clock
from confsched.programme.models import Event, Session
from confsched.web.site.local_paths import local_path
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.private import keep_private
from confsched.web.site.qr import code_qr_svg
from confsched.web.site.stencils import Markers

RESERVE, CANCEL = "reserve", "cancel"


# The htmx event after which a session page reads its "who's going" again.
GOING_CHANGED = "going-changed"


def _seat_url(event: Event, key: str, name: str) -> str:
    return reverse(name, kwargs={"event": event.slug, "key": key})


def mine(user: User | None, sessions: Iterable[Session]) -> dict[int, tuple[Reservation, int]]:
    """The person's reservations among `sessions`, each with its waitlist position (0: a seat)."""
    pks = [session.pk for session in sessions]
    if user is None or not user.is_authenticated or not pks:
        return {}
    rows = list(Reservation.objects.filter(user=user, session_id__in=pks))
    return {row.session_id: (row, reservations.position(row)) for row in rows}


def seat_control(
    session: Session, *, event: Event, seats: Seats, held: tuple[Reservation, int] | None,
    note: str = "", note_kind: str = "",
) -> str:  # fmt: skip
    """The control for one session in this person's state: what they can do, and how full."""
    action = _seat_url(event, session.key, "web:reserve")
    seat_page = _seat_url(event, session.key, "web:seat")
    title = session.title
    if held is not None:
        row, place = held
        if place == 0:
            state = format_html(
                '<a class="seat-state is-confirmed" href="{}">'
                '<span aria-hidden="true">✓ </span>{}</a>',
                seat_page, gettext("Seat reserved"),
            )  # fmt: skip
            button = _button(action, CANCEL, gettext("Cancel my seat"), _for(title))
        else:
            state = format_html(
                '<a class="seat-state is-waitlisted" href="{}">{}</a>',
                seat_page, gettext("On the waitlist: #%(place)s") % {"place": place},
            )  # fmt: skip
            button = _button(action, CANCEL, gettext("Leave the waitlist"), _of(title))
    elif session.is_cancelled:
        # Its seats count for nothing now: no button a press of which would be refused.
        state, button = _state(gettext("Cancelled: no reservations")), ""
    elif seats.seats is None:
        state, button = _state(gettext("Open entry")), ""
    else:
        closes = session.reservations_close
        if closes is not None and clock.now() >= closes:
            state, button = _state(gettext("Reservations closed")), ""
        elif seats.is_full:
            state = format_html(
                '<span class="seat-state is-full">{}</span>',
                gettext("Full · %(waiting)s waiting") % {"waiting": seats.waitlisted},
            )
            button = _button(
                action, RESERVE,
                gettext("Join the waitlist (#%(place)s)") % {"place": seats.waitlisted + 1},
                _of(title),
            )  # fmt: skip
        else:
            state = _state(
                gettext("%(free)s of %(seats)s seats free")
                % {"free": seats.free, "seats": seats.seats}
            )
            button = _button(action, RESERVE, gettext("Reserve a seat"), _for(title))
    message = (
        format_html('<p class="seat-note {}" role="status">{}</p>', note_kind, note) if note else ""
    )
    return format_html(
        '<div class="seat" id="seat-{}">{}{}{}</div>', session.pk, state, button, message
    )


def _state(text: str) -> str:
    return format_html('<span class="seat-state">{}</span>', text)


def _for(title: str) -> str:
    """What a screen reader hears after the button's words: for “Title”."""
    return gettext("for “%(title)s”") % {"title": title}


def _of(title: str) -> str:
    return gettext("of “%(title)s”") % {"title": title}


def _button(action: str, value: str, label: str, spoken: str) -> str:
    return format_html(
        '<button type="submit" form="star-form" formaction="{}" name="action" value="{}" '
        'data-hx-post="{}" data-hx-target="closest .seat" data-hx-swap="outerHTML" '
        'class="seat-button{}">{}<span class="visually-hidden"> {}</span></button>',
        action, value, action, " secondary" if value == CANCEL else "", label, spoken,
    )  # fmt: skip


def seat_controls(request: HttpRequest, event: Event, session_pks: Iterable[int]) -> dict[int, str]:
    """The filled control of each session in `session_pks` that takes reservations."""
    rows = list(
        Session.objects.filter(event=event, pk__in=list(session_pks), seats__isnull=False).only(
            "pk", "key", "title", "seats", "starts_at", "reservations_close_at", "is_cancelled"
        )
    )
    counts = reservations.seat_counts(rows)
    held = mine(request.user, rows)
    return {
        row.pk: seat_control(row, event=event, seats=counts[row.pk], held=held.get(row.pk))
        for row in rows
    }


def seat_hole_values(request: HttpRequest, event: Event, holes: Iterable[str]) -> dict[str, bytes]:
    """What a kept page's "seat:<pk>" holes hold for this request: each session's control in
    this person's state (seats move with every reservation, not with the schedule), empty for
    a session that no longer takes reservations. No query when the page has no such hole."""
    names = [name for name in holes if name.startswith("seat:")]
    if not names:
        return {}
    controls = seat_controls(request, event, [int(name.split(":", 1)[1]) for name in names])
    return {name: controls.get(int(name.split(":", 1)[1]), "").encode() for name in names}


def attach_seat_html(
    request: HttpRequest, event: Event, sessions: list[Session], *, markers: Markers | None
) -> None:
    """Set `session.seat_html`: for a session taking reservations, a marker in a stencil,
    else the control in this person's state; nothing for open entry."""
    taking = [session for session in sessions if session.seats is not None]
    controls = (
        {} if markers or not taking else seat_controls(request, event, [s.pk for s in taking])
    )
    for session in sessions:
        if session.seats is None:
            session.seat_html = ""
        elif markers:
            session.seat_html = mark_safe(markers.mark("seat", session.pk))  # noqa: S308 - our marker
        else:
            session.seat_html = mark_safe(controls.get(session.pk, ""))  # noqa: S308 - format_html's


def _session(event: Event, key: str) -> Session:
    """The published session `key`, without its speakers and links (no page shows them here)."""
    session = (
        Session.objects.published()
        .filter(event=event, key=key)
        .select_related("room")
        .defer("abstract", "review_note")
        .first()
    )
    if session is None:
        raise Http404(f"No session {key!r}")
    session.event = event
    return session


@require_POST
def reserve(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """Reserve (or cancel) from a card, a session page or the agenda: htmx gets the control
    back with what happened; a plain form goes to the person's seat page, which says it."""
    if not request.user.is_authenticated:
        event_row = event_or_404(event)
        login = reverse("login") + "?next=" + quote(_session(event_row, key).get_absolute_url())
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = login
            return response
        return redirect(login)
    action = request.POST.get("action", RESERVE)
    # Reserving finds the event with the session it locks: one query fewer in a rush.
    event_row = event_or_404(event) if action != RESERVE else None
    note, kind, status = "", "", 200
    held: tuple[Reservation, int] | None = None
    session: Session | None = None
    try:
        if action == RESERVE:
            # Found and locked in one query: the path a rush of attendees takes.
            outcome = reservations.reserve_key(request.user, event, key)
            if outcome is None or outcome.session is None:
                event_or_404(event)  # which of the two is missing, said the same way
                raise Http404(f"No session {key!r}")
            session, event_row = outcome.session, outcome.session.event
            note, kind = _outcome_note(outcome)
            held = (outcome.reservation, outcome.position)
        elif action == CANCEL:
            assert event_row is not None  # noqa: S101 - found above for every other action
            session = _session(event_row, key)
            before = mine(request.user, [session]).get(session.pk)
            reservations.cancel(request.user, session)
            if before is not None:
                note = (
                    gettext("You left the waitlist.")
                    if before[1]
                    else gettext("Your seat is cancelled.")
                )
                kind = "is-ok"
        else:
            note = gettext("Unknown action '%s': reserve or cancel.") % action
            kind, status = "is-error", 400
    except ReservationError as exc:
        note, kind, status = str(exc), "is-error", 409
    if session is None or event_row is None:
        event_row = event_row or event_or_404(event)
        session = session or _session(event_row, key)
    if request.htmx:
        if held is None:  # what the person can do now, from the seats as they are
            held = mine(request.user, [session]).get(session.pk)
        # A held seat's control shows no counts: none are read for it.
        counts = reservations.seats(session) if held is None else Seats(session.seats)
        html = seat_control(
            session, event=event_row, seats=counts, held=held, note=note, note_kind=kind
        )
        response = keep_private(HttpResponse(html, status=status))
        # The session page's "who's going" was read before: it asks again (session.html).
        response["HX-Trigger"] = GOING_CHANGED
        return response
    target = local_path(request.POST.get("next"), default=session.get_absolute_url())
    request.session["seat_note"] = {"key": session.key, "note": note, "kind": kind, "back": target}
    return redirect(_seat_url(event_row, session.key, "web:seat"))


def _outcome_note(outcome: reservations.Outcome) -> tuple[str, str]:
    if outcome.reservation.is_confirmed:
        note = gettext("Your seat is reserved.")
    else:
        note = gettext("The session is full: you are number %(place)s on the waitlist.") % {
            "place": outcome.position
        }
    if outcome.overlaps:
        titles = ", ".join(f"“{other.title}”" for other in outcome.overlaps)
        overlap = gettext("It overlaps %(titles)s, which you also reserved.") % {"titles": titles}
        return f"{note} {overlap}", "is-warning"
    return note, "is-ok"


@require_safe
def seat(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """The person's seat for one session: confirmed with its check-in code, or their place on
    the waitlist, or what they can do; what their last reservation did."""
    event_row = event_or_404(event)
    session = _session(event_row, key)
    note = request.session.pop("seat_note", None) if request.user.is_authenticated else None
    if note and note.get("key") != session.key:
        note = None
    held = mine(request.user, [session]).get(session.pk)
    counts = reservations.seats(session)
    control = (
        seat_control(session, event=event_row, seats=counts, held=held)
        if session.requires_reservation or held
        else ""
    )
    qr_svg = code_qr_svg(held[0].code) if held and held[1] == 0 else ""
    response = event_page(
        request, "confsched/seat.html", event=event_row, moment=session.starts_at,
        session=session, held=held, seats=counts, control=control, note=note, qr_svg=qr_svg,
    )  # fmt: skip
    return keep_private(response)
