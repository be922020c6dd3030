"""Changes of a session's number of seats: refused below the seats people hold unless the
organizer says they keep them, and each written to the team's log (SeatsChange).

An import says what it changes through programme.signals.seats_changing, inside its own
transaction; the seats page through reservations.set_seats, under the session's lock.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import Count, Q, QuerySet

from confsched.agenda.models import Reservation, ReservationStatus, SeatsChange
from confsched.core.errors import InvalidProgrammeError
from confsched.programme.models import Event, Session

# The option that lets an import give fewer seats than are held (import, sync, the admin's box).
KEEP_OPTION = "--keep-reservations-over-seats"
# The most sessions an import's refusal names one by one.
NAMED = 10


def confirmed_counts(session_pks: Iterable[int]) -> dict[int, int]:
    """Seats held (confirmed, forced and walk-ins included) in each session, in one query."""
    rows = (
        Reservation.objects.filter(session_id__in=list(session_pks))
        .values("session_id")
        .annotate(held=Count("pk", filter=Q(status=ReservationStatus.CONFIRMED)))
        .values_list("session_id", "held")
    )
    return dict(rows)


def record(
    session_pk: int, *, before: int | None, after: int | None, confirmed: int, by: str,
    source: str,
) -> SeatsChange:  # fmt: skip
    """One line of the team's log: the session's seats went from `before` to `after`."""
    return SeatsChange.objects.create(
        session_id=session_pk, before=before, after=after, confirmed=confirmed, by=by[:150],
        source=source[:300],
    )  # fmt: skip


def check_and_record(
    sender: object, *, changes: dict[int, tuple[int | None, int | None]], keep_over: bool,
    by: str, source: str, **_: object,
) -> None:  # fmt: skip
    """seats_changing's receiver: InvalidProgrammeError naming every session whose new number
    is below the seats people hold there, unless `keep_over`; else each change logged.

    Inside the import's transaction, the sessions are locked first (PostgreSQL; SQLite's write
    lock is the transaction's): no reservation lands between the count and the new number."""
    if connection.vendor == "postgresql":
        locking = Session.objects.select_for_update(of=("self",)).filter(pk__in=list(changes))
        list(locking.order_by("pk").values_list("pk"))  # in one order: no deadlock
    held = confirmed_counts(changes)
    below = [
        pk for pk, (_, after) in changes.items()
        if after is not None and held.get(pk, 0) > after
    ]  # fmt: skip
    if below and not keep_over:
        raise InvalidProgrammeError(_refusal(below, changes, held))
    SeatsChange.objects.bulk_create(
        SeatsChange(
            session_id=pk,
            before=before,
            after=after,
            confirmed=held.get(pk, 0),
            by=by[:150],
            source=source[:300],
        )  # fmt: skip
        for pk, (before, after) in sorted(changes.items())
    )


def _refusal(
    below: list[int], changes: dict[int, tuple[int | None, int | None]], held: dict[int, int]
) -> str:
    # As the file names them (its titles are written already, in the same transaction).
    names = {
        pk: (title, key)
        for pk, title, key in Session.objects.filter(pk__in=below).values_list("pk", "title", "key")
    }
    named = sorted(below, key=lambda pk: names[pk])
    lines = [
        f"“{names[pk][0]}” ({names[pk][1]}): {changes[pk][1]} seat(s), {held[pk]} already held"
        for pk in named[:NAMED]
    ]
    if len(named) > NAMED:
        lines.append(f"and {len(named) - NAMED} more")
    return (
        f"{len(below)} session(s) would have fewer seats than people hold: {'; '.join(lines)}. "
        f"Give them at least as many seats, or import again with {KEEP_OPTION} (the admin's "
        "import page: “Keep reservations over fewer seats”): everyone keeps their seat, and "
        "the waitlist moves once enough give theirs up"
    )


def team_log(event: Event, *, limit: int = 100) -> QuerySet[SeatsChange]:
    """The event's latest changes of seats, newest first, with their sessions."""
    return SeatsChange.objects.filter(session__event=event).select_related("session")[:limit]
