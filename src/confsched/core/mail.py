"""Mail the site sends: every header one line, whatever it is made from.

A subject is made of an event's name and a session's title, which may hold line breaks (an
admin's edit, an imported file's title). Django refuses a header with one (BadHeaderError, a
500 on the team page and a traceback from `confsched team add`), and a header that took it
would end where the line breaks and start one of the sender's choosing.
"""

from __future__ import annotations

from typing import Any

from django.core.mail import EmailMultiAlternatives

from confsched.core.text import one_line


def compose_mail(
    *, subject: str, body: str, to: list[str], headers: dict[str, str] | None = None,
    html: str = "", connection: Any = None,
) -> EmailMultiAlternatives:  # fmt: skip
    """A message with its subject, each address and each header on one line; `html`, when
    given, as the alternative to the plain `body`."""
    message = EmailMultiAlternatives(
        subject=one_line(subject),
        body=body,
        to=[one_line(address) for address in to],
        headers={name: one_line(value) for name, value in (headers or {}).items()},
        connection=connection,
    )
    if html:
        message.attach_alternative(html, "text/html")
    return message
