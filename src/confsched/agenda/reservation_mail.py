"""The mail a person gets when a seat freed by someone else becomes theirs."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse

from confsched.agenda.models import Reservation

log = logging.getLogger(__name__)


def promotion_text(reservation: Reservation, *, base_url: str) -> tuple[str, str]:
    """Subject and body of the mail to a person promoted from the waitlist."""
    session = reservation.session
    event = session.event
    local = session.starts_at.astimezone(event.zone) if session.starts_at else None
    when = f"{local:%A %d %B, %H:%M} ({event.timezone})" if local else "time to be announced"
    room = f" in {session.room.name}" if session.room_id and session.room else ""
    agenda = reverse("web:agenda", kwargs={"event": event.slug})
    subject = " ".join(f"{event.name}: you have a seat for “{session.title}”".split())
    body = (
        f"A seat became free and it is yours: “{session.title}”, {when}{room}.\n\n"
        f"Your check-in code is {reservation.code}; your agenda shows it as a QR code.\n"
        f"If you cannot come, cancel in your agenda so that the next person gets the seat:\n"
        f"{base_url}{agenda}\n"
    )
    return subject, body


def send_promotions(promoted: list[Reservation]) -> int:
    """Mail each promoted person; a failure is logged, never undoes the seat. Returns how many
    mails went."""
    sent = 0
    for reservation in promoted:
        user = reservation.user
        if user is None or not user.email:
            continue
        subject, body = promotion_text(reservation, base_url=settings.CONFSCHED_BASE_URL)
        try:
            EmailMessage(subject, body, to=[user.email]).send()
        except Exception:  # noqa: BLE001 - the seat stays theirs; the agenda shows it
            log.exception("could not mail %s about their seat (reservation %s)", user.pk,
                          reservation.pk)  # fmt: skip
            continue
        sent += 1
    return sent
