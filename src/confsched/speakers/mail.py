"""The mails that bring a speaker their personal link, in the event's language: the link itself,
and a reminder naming what their profile is missing (speakers/completeness.py). The team's page
queues them (speakers/mailing.py); the worker sends them (speakers/tasks.py)."""

from __future__ import annotations

import smtplib
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from confsched.core import clock
from confsched.core.errors import ConfschedError
from confsched.core.mail import compose_mail
from confsched.speakers.completeness import missing_words
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


def reminder_text(
    speaker_pass: SpeakerPass, *, link: str, missing: tuple[str, ...]
) -> tuple[str, str]:
    speaker, event = speaker_pass.speaker, speaker_pass.speaker.event
    with translation.override(event.default_language or "en"):
        subject = gettext("Your speaker page at %(event)s is missing: %(missing)s") % {
            "event": event.name, "missing": missing_words(missing),
        }  # fmt: skip
        body = gettext(
            "Hello %(name)s,\n\n"
            "Your speaker page at %(event)s is still missing: %(missing)s. Attendees read it "
            "when they choose their sessions.\n\n"
            "Your personal link (keep it to yourself: it signs in whoever opens it):\n%(link)s\n"
        ) % {
            "name": speaker.name, "event": event.name, "missing": missing_words(missing),
            "link": link,
        }  # fmt: skip
    return subject, body


def mail_link(speaker_pass: SpeakerPass, *, link: str, connection: Any = None) -> None:
    """Send the speaker their link and note when (`mailed_at`); LinkNotMailed says why not."""
    _send(speaker_pass, *link_text(speaker_pass, link=link), connection=connection)
    speaker_pass.mailed_at = clock.now()
    SpeakerPass.objects.filter(pk=speaker_pass.pk).update(mailed_at=speaker_pass.mailed_at)


def mail_reminder(
    speaker_pass: SpeakerPass, *, link: str, missing: tuple[str, ...], connection: Any = None
) -> None:
    """Remind the speaker what their profile is missing, with their link, and note when
    (`reminded_at`); LinkNotMailed says why not."""
    subject, body = reminder_text(speaker_pass, link=link, missing=missing)
    _send(speaker_pass, subject, body, connection=connection)
    speaker_pass.reminded_at = clock.now()
    SpeakerPass.objects.filter(pk=speaker_pass.pk).update(reminded_at=speaker_pass.reminded_at)


def address_of(speaker_pass: SpeakerPass) -> str:
    """Where the speaker's mails go: the address the team gave, else the one of the account
    the link signed in to (a speaker the team gave no address typed theirs)."""
    if speaker_pass.email:
        return speaker_pass.email
    user = speaker_pass.user
    return (user.email or "") if user is not None and user.is_active else ""


def require_address(speaker_pass: SpeakerPass) -> str:
    """The speaker's address (`address_of`), or LinkNotMailed when there is none."""
    address = address_of(speaker_pass)
    if not address:
        raise LinkNotMailed(
            gettext("%(name)s has no e-mail address: add one, or pass the link on by hand.")
            % {"name": speaker_pass.speaker.name}
        )
    return address


def _send(speaker_pass: SpeakerPass, subject: str, body: str, *, connection: Any) -> None:
    address = require_address(speaker_pass)
    try:
        compose_mail(subject=subject, body=body, to=[address], connection=connection).send()
    except (smtplib.SMTPException, OSError) as error:
        raise LinkNotMailed(
            gettext("The mail to %(email)s could not be sent (%(reason)s).")
            % {"email": address, "reason": error}
        ) from error
