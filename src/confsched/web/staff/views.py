"""Insight for organizers (the event's team, Right.READ): stars against room capacity and
demand per time slot, and per session the stars, reservations, waitlist, check-ins and seats.

Not stenciled: it is for a few staff and changes with every star. Bounded: one query for the
sessions with their account stars counted, one for visitors' stars counted, one for the
reservations counted; the rest is computed in memory (programme/insight.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from confsched.agenda.demand import session_stars
from confsched.agenda.models import Reservation, ReservationStatus
from confsched.agenda.reservations import Seats
from confsched.programme.insight import (
    LIKELY_FULL_SHARE,
    Bar,
    SessionStars,
    bar_chart_svg,
    session_demands,
    slot_demands,
)
from confsched.programme.models import Event
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_page
from confsched.web.site.zones import viewer_zone


@dataclass(frozen=True)
class SeatRow:
    """One session's line in the insight's reservations table."""

    row: SessionStars
    seats: Seats

    @property
    def is_open_entry(self) -> bool:
        return self.seats.seats is None


def door_figures(event: Event) -> dict[int, Seats]:
    """Reservations, waitlist and check-ins of every session of the event that has any, in one
    query: `seat_counts`' figures, open-entry sessions' walk-ins (a head count) included."""
    return {
        row["session_id"]: Seats(
            row["session__seats"],
            confirmed=row["confirmed"],
            waitlisted=row["waitlisted"],
            checked_in=row["checked_in"],
        )
        for row in Reservation.objects.filter(session__event=event)
        .values("session_id", "session__seats")
        .annotate(
            confirmed=Count("pk", filter=Q(status=ReservationStatus.CONFIRMED)),
            waitlisted=Count("pk", filter=Q(status=ReservationStatus.WAITLISTED)),
            checked_in=Count("pk", filter=Q(checked_in_at__isnull=False)),
        )
        .order_by()
    }


def seat_rows(rows: list[SessionStars], figures: dict[int, Seats]) -> list[SeatRow]:
    """Sessions that take reservations or counted people at the door, in time order."""
    return [
        SeatRow(row=row, seats=figures.get(row.pk, Seats(row.seats)))
        for row in sorted(rows, key=lambda row: (row.starts_at, row.title))
        if row.seats is not None or figures.get(row.pk, Seats(None)).checked_in
    ]


@require_safe
def insight(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.READ)
    if isinstance(found, HttpResponse):
        return found
    rows = session_stars(found)
    demands = session_demands(rows, attendees_per_star=found.attendees_per_star)
    viewer = viewer_zone(request, found)  # slots are labelled in the zone the page shows
    slots = slot_demands(rows, zone=viewer.zone)
    response = event_page(
        request, "confsched/insight.html", event=found, viewer=viewer,
        seat_rows=seat_rows(rows, door_figures(found)), **_charts(demands, slots),
        # A plural form is chosen by a whole number: "1.0 attendee", "2.5 attendees".
        per_star_form=1 if found.attendees_per_star == 1 else 2,
    )  # fmt: skip
    patch_cache_control(response, private=True, no_store=True)
    return response


def _charts(demands: list, slots: list) -> dict[str, Any]:
    measured = [d for d in demands if d.fill is not None]
    fill_chart = bar_chart_svg(
        [
            Bar(
                label=d.row.title,
                value=d.fill_percent,
                text=f"{d.fill_percent} %",
                is_marked=d.is_likely_full,
            )
            for d in measured
        ],
        title=gettext("Expected attendance as a share of the room's seats, per session"),
        largest=max([100, *(d.fill_percent for d in measured)]),
    )
    slot_chart = bar_chart_svg(
        [
            Bar(label=date_format(s.starts_at, gettext("D H:i")), value=s.stars, text=str(s.stars))
            for s in slots
        ],
        title=gettext("Stars of the sessions starting at each time"),
    )
    return {
        "demands": demands,
        "slots": slots,
        "fill_chart": fill_chart,
        "slot_chart": slot_chart,
        "measured_count": len(measured),
        "unmeasured_count": len(demands) - len(measured),
        "likely_full_count": sum(1 for d in demands if d.is_likely_full),
        "threshold_percent": round(LIKELY_FULL_SHARE * 100),
        "total_stars": sum(d.row.stars for d in demands),
    }
