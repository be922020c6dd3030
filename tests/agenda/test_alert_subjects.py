"""A mail subject is one line whatever the titles hold: a line break would make Django refuse
the header (BadHeaderError) and stop every digest naming the session."""

from __future__ import annotations

from email.header import decode_header, make_header

from django.core.mail import EmailMessage

from confsched.agenda.alerts import ChangedSession, digest_subject


def test_a_title_with_line_breaks_makes_a_one_line_subject() -> None:
    sessions = [ChangedSession(title="Keynote\r\nwith a break", changes=("cancelled",))]
    subject = digest_subject(event_name="Conf\n2026", sessions=sessions)
    assert subject == "Conf 2026: “Keynote with a break” changed"
    message = EmailMessage(subject=subject, body="x", to=["a@example.org"])
    header = message.message()["Subject"]  # no BadHeaderError
    assert str(make_header(decode_header(header))) == subject
