"""The mail a person gets when a seat freed by someone else becomes theirs."""

from __future__ import annotations

import logging

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext

from confsched.agenda.models import Reservation
from confsched.core.mail import compose_mail
from confsched.core.text import one_line

log = logging.getLogger(__name__)


def promotion_text(reservation: Reservation, *, base_url: str) -> tuple[str, str]:
    """Subject and body of the mail to a person promoted from the waitlist, in the event's
    default language (a person's own choice of language lives in their browser's cookie, out
    of reach of a mail sent for someone else's cancellation). `base_url` is the site's address
    (CONFSCHED_BASE_URL): the agenda's link is absolute, or there is none."""
    session = reservation.session
    event = session.event
    local = session.starts_at.astimezone(event.zone) if session.starts_at else None
    agenda = reverse("web:agenda", kwargs={"event": event.slug})
    with translation.override(event.default_language or "en"):
        day_format = gettext("l d F, H:i")
        when = (
            f"{date_format(local, day_format)} ({event.timezone})"
            if local
            else gettext("time to be announced")
        )
        words = {"event": event.name, "title": session.title, "when": when,
                 "code": reservation.code, "link": f"{base_url}{agenda}"}  # fmt: skip
        subject = gettext("%(event)s: you have a seat for “%(title)s”") % words
        if session.room_id and session.room:
            first = gettext(
                "A seat became free and it is yours: “%(title)s”, %(when)s in %(room)s."
            )
            first %= {**words, "room": session.room.name}
        else:
            first = gettext("A seat became free and it is yours: “%(title)s”, %(when)s.") % words
        if base_url:
            rest = gettext(
                "Your check-in code is %(code)s; your agenda shows it as a QR code.\n"
                "If you cannot come, cancel in your agenda so that the next person gets the seat:\n"
                "%(link)s\n"
            )
        else:  # no address of the site to link to: a path alone is no link in a mail
            rest = gettext(
                "Your check-in code is %(code)s; your agenda shows it as a QR code.\n"
                "If you cannot come, cancel in your agenda on the event's site so that the next "
                "person gets the seat.\n"
            )
        rest %= words
    return one_line(subject), f"{first}\n\n{rest}"


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
            compose_mail(subject=subject, body=body, to=[user.email]).send()
        except Exception:  # noqa: BLE001 - the seat stays theirs; the agenda shows it
            log.exception("could not mail %s about their seat (reservation %s)", user.pk,
                          reservation.pk)  # fmt: skip
            continue
        sent += 1
    return sent
