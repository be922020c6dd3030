"""The mail that brings a speaker their personal link, in the event's language."""

from __future__ import annotations

import smtplib
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from confsched.core import clock
from confsched.core.errors import ConfschedError
from confsched.core.mail import compose_mail
from confsched.speakers.models import SpeakerPass


class LinkNotMailed(ConfschedError):
    """The speaker has no address, or the mail could not be sent (the link is kept)."""


def link_text(speaker_pass: SpeakerPass, *, link: str) -> tuple[str, str]:
    speaker, event = speaker_pass.speaker, speaker_pass.speaker.event
    with translation.override(event.default_language or "en"):
        subject = gettext("Your speaker page at %(event)s") % {"event": event.name}
        body = gettext(
            "Hello %(name)s,\n\n"
            "The organizers of %(event)s invite you to keep your own speaker page: your name, "
            "photo, position, company, bio and links as attendees see them, and your sessions' "
            "slides and links.\n\n"
            "Your personal link (keep it to yourself: it signs in whoever opens it):\n%(link)s\n\n"
            "It works again whenever you need it. An account is made for this address the "
            "first time; you may set a password later to log in as usual.\n"
        ) % {"name": speaker.name, "event": event.name, "link": link}
    return subject, body


def mail_link(speaker_pass: SpeakerPass, *, link: str, connection: Any = None) -> None:
    """Send the speaker their link; LinkNotMailed says why not."""
    if not speaker_pass.email:
        raise LinkNotMailed(
            gettext("%(name)s has no e-mail address: add one, or pass the link on by hand.")
            % {"name": speaker_pass.speaker.name}
        )
    subject, body = link_text(speaker_pass, link=link)
    try:
        compose_mail(
            subject=subject, body=body, to=[speaker_pass.email], connection=connection
        ).send()
    except (smtplib.SMTPException, OSError) as error:
        raise LinkNotMailed(
            gettext("The mail to %(email)s could not be sent (%(reason)s).")
            % {"email": speaker_pass.email, "reason": error}
        ) from error
    speaker_pass.mailed_at = clock.now()
    speaker_pass.save(update_fields=["mailed_at"])
