"""Stars, the personal agenda, its calendar feed and its shared read-only page."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotFound,
    HttpResponseRedirect,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from confsched.agenda import queries as agenda_queries
from confsched.agenda import services as agenda_services
from confsched.agenda.models import Reservation
from confsched.agenda.planning import changes_since, gaps, now_and_next, overlapping
from confsched.agenda.services import session_fingerprint
from confsched.core import clock
from confsched.programme import queries
from confsched.programme.layout import days_and_slots
from confsched.programme.models import Event, Session
from confsched.programme.queries import Outline
from confsched.web.agenda import kept, seats, stars
from confsched.web.agenda.reminders import panel_context
from confsched.web.site.calendars import calendar_response, event_etag
from confsched.web.site.feeds import in_page_language
from confsched.web.site.fragments import attach_cards, attach_star_urls, kept_stars
from confsched.web.site.local_paths import local_path
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.private import (
    OFFLINE_ACCOUNT_HEADER,
    OFFLINE_COPY,
    OFFLINE_HEADER,
    account_marker,
    keep_private,
)
from confsched.web.site.qr import code_qr_svg
from confsched.web.site.shared_cache import same_site_only
from confsched.web.site.stencils import Markers
from confsched.web.site.zones import ViewerZone, viewer_zone


def _session(event: Event, key: str) -> Session:
    session = queries.session_for_key(event, key)
    if session is None:
        raise Http404(f"No session {key!r}")
    return session


@same_site_only
@require_POST
def star(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """Set a session's star from a plain form (redirects back) or from htmx (the button)."""
    event_row = event_or_404(event)
    session = _session(event_row, key)
    is_starred = request.POST.get("starred") == "1"
    stars.set_star(request, session, is_starred=is_starred)
    if request.htmx:
        attach_star_urls([session], event=event_row)
        response = render(
            request, "confsched/_star.html", {"session": session, "is_starred": is_starred}
        )
        response["HX-Trigger"] = seats.GOING_CHANGED  # the session page's "who's going" reads again
        return response
    target = local_path(request.POST.get("next"), default=session.get_absolute_url())
    # Back to the same card (schedule, grid and agenda give it this id), not the page's top.
    return HttpResponseRedirect(f"{target.split('#', 1)[0]}#s-{session.pk}")


def _agenda_context(
    event: Event, ids: set[int], *, zone: zoneinfo.ZoneInfo, items: dict | None = None,
    starred: set[int] | None = None, now: datetime | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Days of starred sessions with their clashes, changes, the gaps, and now/next (at `now`,
    else the clock's); "times": when the picks that run run, for the kept page's key."""
    sessions = agenda_queries.agenda_outline(event, ids)
    attach_star_urls(sessions, event=event)
    # The schedule's own kept cards and stars: each is rendered once per content, zone and
    # language, not once per person and page (a rendered agenda of 50 cost 50 ms of CPU).
    attach_cards(sessions, event=event, zone=zone, heading=3)
    if starred is not None:
        stars_html = kept_stars(sessions)
        for session in sessions:
            star = stars_html[session.pk][session.pk in starred]
            session.star_html = mark_safe(star)  # noqa: S308 - our template's output
    # A cancelled pick clashes with nothing and fills no time.
    running = [session for session in sessions if not session.is_cancelled]
    clashes = overlapping(running)
    for session in sessions:
        session.clashes = clashes.get(session, [])
        session.clash_note = _clash_note(session.clashes)
        item = (items or {}).get(session.pk)
        session.changed_since_starred = (
            changes_since(item.seen, session_fingerprint(session)) if item else []
        )
    current, upcoming = now_and_next(running, now=now or clock.now())
    free = gaps(running, zone=zone)
    days = days_and_slots(sessions, zone)
    for day in days:
        free_today = [g for g in free if g.starts_at.astimezone(zone).date() == day.day]
        for slot in day.slots:  # a free time shows before the slot it ends at
            slot.gaps_before = [g for g in free_today if g.ends_at == slot.starts_at]
    shown = {session.pk for session in sessions}
    return {
        "days": days,
        "agenda_count": len(sessions),
        "clash_count": sum(1 for s in sessions if s.clashes),
        "current": current,
        "upcoming": upcoming,
        "gone": list(Session.objects.filter(pk__in=ids - shown).order_by("title")),
        "starred": ids if starred is None else starred,
        "times": kept.times_of(running),
    }


def _clash_note(clashes: list[Outline]) -> str:
    """An entry's "Overlaps with …" note: built here rather than by a template loop, since a
    crowded agenda has hundreds of such links (262 for 50 picks of a 5,000-session event)."""
    if not clashes:
        return ""
    links = ", ".join(f'<a href="#s-{other.pk}">{escape(other.title)}</a>' for other in clashes)
    note = f"<strong>{escape(gettext('Overlaps'))}</strong> {escape(gettext('with'))} {links}."
    return mark_safe(f'<p class="clash" role="note">{note}</p>')  # noqa: S308 - escaped above


def _my_seats(
    request: HttpRequest, event: Event, sessions: list[Session], *,
    held: dict[int, tuple[Reservation, int]], markers: Markers | None,
) -> dict[str, Any]:  # fmt: skip
    """The person's reservations apart (`held`: by session, with the waitlist place): seats
    held (with their codes) and places waited for; each session's seat control to cancel or
    leave from here (a hole of the kept page when `markers`)."""
    seats.attach_seat_html(request, event, sessions, markers=markers)
    confirmed = [(s, held[s.pk][0]) for s in sessions if s.pk in held and not held[s.pk][1]]
    for _, row in confirmed:
        row.qr_svg = code_qr_svg(row.code)
    waiting = [(s, held[s.pk][1]) for s in sessions if s.pk in held and held[s.pk][1]]
    return {"seats_confirmed": confirmed, "seats_waitlisted": waiting}


@require_safe
def agenda(request: HttpRequest, event: str) -> HttpResponse:
    event_row = event_or_404(event)
    viewer = viewer_zone(request, event_row)
    # The copy the service worker keeps for reading offline: the sessions, without the secrets
    # (feed, share and alert addresses, check-in codes), which need the network to use anyway.
    is_offline_copy = request.headers.get(OFFLINE_HEADER) == OFFLINE_COPY
    if not request.user.is_authenticated or is_offline_copy:
        response = _plain_agenda(request, event_row, viewer, is_offline_copy=is_offline_copy)
    else:
        person = kept.read_person(request.user, event_row)
        if person.links is None:  # the first visit makes the feed's secret address
            agenda_services.agenda_links(request.user, event_row)
            person = kept.read_person(request.user, event_row)

        def render(markers: Markers | None, now: datetime) -> tuple[HttpResponse, kept.Times]:
            return _person_agenda(request, event_row, viewer, person, markers=markers, now=now)

        response = kept.agenda_response(request, event_row, viewer, person, render=render)
    # The page shows the feed and share secrets and the alert settings: no cache keeps it.
    keep_private(response)
    patch_vary_headers(response, (OFFLINE_HEADER,))
    if is_offline_copy:
        # Nothing secret in it: the person's own offline copy (dropped at log-out) may keep it,
        # and only theirs (a log-out while it was on its way: not the next person's).
        response[OFFLINE_HEADER] = "account"
        response[OFFLINE_ACCOUNT_HEADER] = account_marker(request)
    return response


def _plain_agenda(
    request: HttpRequest, event: Event, viewer: ViewerZone, *, is_offline_copy: bool
) -> HttpResponse:
    """A visitor's agenda (their stars, kept in this browser), or the copy of a signed-in
    person's that the service worker keeps: their sessions and nothing secret."""
    starred = stars.starred_ids(request, event)
    ids, items = set(starred), {}
    if request.user.is_authenticated:
        items = agenda_queries.agenda_items(request.user, event)
        ids |= agenda_queries.reserved_ids(request.user, event)
    context = _agenda_context(event, ids, zone=viewer.zone, items=items, starred=starred)
    return event_page(
        request, "confsched/agenda.html", event=event, viewer=viewer, nav="agenda",
        is_offline_copy=is_offline_copy, **context,
    )  # fmt: skip


def _person_agenda(
    request: HttpRequest, event: Event, viewer: ViewerZone, person: kept.Person, *,
    markers: Markers | None, now: datetime,
) -> tuple[HttpResponse, kept.Times]:  # fmt: skip
    """The signed-in person's agenda from the rows `person` holds, with `markers` where each
    request differs (the CSRF token, the seats' controls)."""
    user = request.user
    context = _agenda_context(
        event, person.picks, zone=viewer.zone, items=person.items, starred=person.starred,
        now=now,
    )  # fmt: skip
    sessions = [s for day in context["days"] for slot in day.slots for s in slot.sessions]
    context.update(_my_seats(request, event, sessions, held=person.held, markers=markers))
    links = person.links or agenda_services.agenda_links(user, event)  # made meanwhile
    feed_url = request.build_absolute_uri(
        reverse("web:agenda_feed", kwargs={"event": event.slug, "token": links.feed_token})
    )
    share_path = (
        reverse("web:agenda_shared", kwargs={"event": event.slug, "token": links.share_token})
        if links.share_token
        else ""
    )
    context.update(
        feed_url=feed_url,
        webcal_url="webcal://" + feed_url.split("://", 1)[1],
        share_url=request.build_absolute_uri(share_path) if share_path else "",
        alert={
            "is_on": bool(person.alerts and person.alerts.is_on),
            "has_email": bool(user.email),
            "feed_url": request.build_absolute_uri(
                in_page_language(
                    reverse(
                        "web:alerts_feed", kwargs={"event": event.slug, "token": links.feed_token}
                    ),
                    event,
                )
            ),
        },
    )
    if markers:
        context["csrf_token"] = markers.mark("csrf")
    reminders = panel_context(user, event, setting=person.reminder)
    context.update((name, value) for name, value in reminders.items() if name != "event")
    page = event_page(
        request, "confsched/agenda.html", event=event, viewer=viewer, nav="agenda", **context
    )
    return page, context["times"]


@require_safe
def agenda_shared(request: HttpRequest, event: str, token: str) -> HttpResponse:
    """Someone's agenda, read-only, for as long as they keep the link on."""
    event_row = event_or_404(event)
    links = agenda_queries.links_for_share(event_row, token)
    if links is None:
        raise Http404("No such shared agenda")
    ids = agenda_queries.starred_ids(links.user, event_row)
    viewer = viewer_zone(request, event_row)
    context = _agenda_context(event_row, ids, zone=viewer.zone)
    response = event_page(
        request, "confsched/agenda.html", event=event_row, viewer=viewer,
        is_shared_view=True, owner=links.user.first_name, **context,
    )  # fmt: skip
    # Its address is the credential: no cache keeps the page, no link passes the address on.
    return keep_private(response, is_secret_address=True)


@require_safe
def agenda_feed(request: HttpRequest, event: str, token: str) -> HttpResponse:
    """The private feed calendar apps subscribe to; the token is the only credential."""
    event_row = event_or_404(event)
    links = agenda_queries.links_for_feed(event_row, token)
    if links is None:
        raise Http404("No such feed")
    # Starred and reserved sessions; a seat's status, code or waitlist place, and reminders.
    ids = agenda_queries.starred_ids(links.user, event_row)
    ids |= agenda_queries.reserved_ids(links.user, event_row)
    personal = agenda_queries.personal_calendar(links.user, event_row, ids)
    keys = set(Session.objects.filter(pk__in=ids).values_list("key", flat=True))
    response = calendar_response(
        request,
        event=event_row,
        keys=keys,
        name=f"{event_row.name}: my agenda",
        filename=f"{event_row.slug}-agenda.ics",
        is_private=True,
        etag=event_etag(event_row, token, sorted(ids), sorted(personal.items())),
        personal=personal,
    )
    response["Referrer-Policy"] = "no-referrer"  # the address is the credential
    return response


@require_safe
def agenda_download(request: HttpRequest, event: str) -> HttpResponse:
    """This browser's starred sessions as an .ics download: visitors have no feed to subscribe
    to, so they take a copy (signed-in people get the same, from their account's stars)."""
    event_row = event_or_404(event)
    ids = stars.starred_ids(request, event_row)
    keys = set(Session.objects.filter(event=event_row, pk__in=ids).values_list("key", flat=True))
    if keys:
        filename = f"{event_row.slug}-my-agenda.ics"
        response = calendar_response(
            request, event=event_row, keys=keys, name=f"{event_row.name}: my agenda",
            filename=filename, is_private=True, etag=event_etag(event_row, "download", sorted(ids)),
        )  # fmt: skip
        if response.status_code == 200:
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
    else:
        response = HttpResponseNotFound(
            f"No starred sessions of {event_row.name} to download: star sessions on the "
            "schedule first (they are kept in this browser until you sign up).",
            content_type="text/plain; charset=utf-8",
        )
    # Whose stars these are comes from the session cookie: no cache may keep or share them.
    return keep_private(response)


@login_required
@require_POST
def agenda_feed_reset(request: HttpRequest, event: str) -> HttpResponse:
    agenda_services.reset_feed_token(request.user, event_or_404(event))
    return redirect(reverse("web:agenda", kwargs={"event": event}) + "#feed")


@login_required
@require_POST
def agenda_share(request: HttpRequest, event: str) -> HttpResponse:
    is_on = request.POST.get("share") == "on"
    # The name the shared page shows: what the person typed where they turned sharing on.
    display_name = request.POST.get("display_name") if is_on else None
    agenda_services.set_sharing(
        request.user, event_or_404(event), is_on=is_on, display_name=display_name
    )
    return redirect(reverse("web:agenda", kwargs={"event": event}) + "#share")
