"""Mail headers are one line, whatever they are made from: an event named across lines (an
admin's edit before names were kept on one line, an imported file's title) and titles with
line breaks reach every mail the site sends (core/mail.py), and new names are stored on one
line."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings

from confsched.agenda import alerts, reminders, reservations
from confsched.agenda.reservation_mail import send_promotions
from confsched.agenda.services import star_session
from confsched.core.mail import compose_mail
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import create_event, load_programme
from confsched.teams.rights import Role
from confsched.teams.services import add_member

pytestmark = pytest.mark.django_db

BROKEN = "Py\nCon\r\nEU"
SITE = "https://schedule.example.org"
PARIS = ZoneInfo("Europe/Paris")
START = datetime(2030, 6, 4, 10, 0, tzinfo=PARIS)


@pytest.fixture
def event() -> Event:
    """An event whose stored name has line breaks (as names stored before were kept)."""
    event = create_event(slug="conf", name="Conf", timezone="Europe/Paris")
    Event.objects.filter(pk=event.pk).update(name=BROKEN)
    event.refresh_from_db()
    return event


def _session(event: Event, *, seats: int | None = None) -> Session:
    room, _ = Room.objects.get_or_create(event=event, name="Room\n1", slug="room-1")
    return Session.objects.create(
        event=event, key="keynote", title="Key\r\nnote", starts_at=START,
        ends_at=START + timedelta(minutes=25), room=room, seats=seats,
    )  # fmt: skip


def _owner(event: Event) -> Client:
    owner = User.objects.create_user("ada", "ada@example.org", "a fine password 7")
    add_member(event, owner, Role.OWNER, by="command line")
    client = Client()
    client.force_login(owner)
    return client


def test_every_header_is_made_one_line() -> None:
    message = compose_mail(
        subject="A\nB\r\nC\u2028D", body="line one\nline two\n", to=["x@example.org\r\n"],
        headers={"X-Title": "one\rtwo"}, html="<p>hi</p>",
    ).message()  # fmt: skip
    assert (message["Subject"], message["To"], message["X-Title"]) == (
        "A B C D",
        "x@example.org",
        "one two",
    )
    assert [part.get_content_type() for part in message.get_payload()] == [
        "text/plain",
        "text/html",
    ]


def test_the_team_page_mails_an_invitation_with_a_one_line_subject(event: Event) -> None:
    response = _owner(event).post(
        "/conf/team/", {"action": "invite", "email": "new@example.org", "role": "viewer"}
    )
    assert response.status_code == 302
    [sent] = mail.outbox
    assert (sent.to, sent.subject) == (["new@example.org"], "Py Con EU: join the team as viewer")


@override_settings(CONFSCHED_BASE_URL=SITE)
def test_the_team_command_mails_an_invitation_with_a_one_line_subject(event: Event) -> None:
    out = StringIO()
    call_command("team", "add", "conf", "new@example.org", "editor", stdout=out)
    assert out.getvalue() == (
        "No account has new@example.org: an invitation to be editor of conf was mailed "
        "(its link works once, for 7 days)\n"
    )
    [sent] = mail.outbox
    assert sent.subject == "Py Con EU: join the team as editor"


def test_a_reminder_s_subject_is_one_line(event: Event) -> None:
    session = _session(event, seats=10)
    ada = User.objects.create_user("ada", "ada@example.org")
    reminders.set_reminders(ada, event, minutes=10, by_mail=True)
    reservations.reserve(ada, session)
    report = reminders.send_reminders(base_url=SITE, now=START - timedelta(minutes=10))
    assert report.sent == 1
    [sent] = mail.outbox
    assert sent.subject == "Py Con EU: “Key note” starts at 10:00 in Room 1"


def test_an_alert_digest_s_subject_is_one_line(event: Event) -> None:
    load_programme(event, synthetic_programme(2), by="command line")
    session = Session.objects.get(event=event, key="s0")
    ada = User.objects.create_user("ada", "ada@example.org")
    star_session(ada, session)
    alerts.set_alerts(ada, event, is_on=True)
    later = synthetic_programme(2)
    later.sessions = [
        replace(s, starts_at=s.starts_at + timedelta(hours=1), ends_at=s.ends_at + timedelta(hours=1))
        if s.key == "s0" else s
        for s in later.sessions
    ]  # fmt: skip
    load_programme(event, later, by="command line")
    assert alerts.send_alerts(base_url=SITE).sent == 1
    [sent] = mail.outbox
    assert sent.subject == "Py Con EU: “Talk: Session number 0 about tensors” changed"


def test_a_digest_subject_joins_a_title_s_lines() -> None:
    changed = alerts.ChangedSession(title="A\nchanged\r\ntalk", changes=("moved",))
    assert alerts.digest_subject(event_name=BROKEN, sessions=[changed]) == (
        "Py Con EU: “A changed talk” changed"
    )


def test_a_seat_s_promotion_subject_is_one_line(event: Event) -> None:
    session = _session(event, seats=1)
    ada = User.objects.create_user("ada", "ada@example.org")
    bob = User.objects.create_user("bob", "bob@example.org")
    reservations.reserve(ada, session)
    reservations.reserve(bob, session)
    promoted = reservations.cancel(ada, session)
    mail.outbox.clear()  # the cancellation's commit may have mailed already
    assert send_promotions(promoted) == 1
    [sent] = mail.outbox
    assert (sent.to, sent.subject) == (
        ["bob@example.org"],
        "Py Con EU: you have a seat for “Key note”",
    )


def test_a_new_event_s_name_is_stored_on_one_line() -> None:
    event = create_event(slug="new", name=" Py\nCon\r\nEU ", timezone="UTC")
    assert Event.objects.get(pk=event.pk).name == "Py Con EU"


def test_an_admin_edit_stores_the_name_on_one_line(event: Event) -> None:
    admin = User.objects.create_superuser("root", "root@example.org", "a fine password 7")
    client = Client()
    client.force_login(admin)
    url = f"/admin/programme/event/{event.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    data = {
        "name": "Py\r\nCon  EU", "slug": "conf", "timezone": "Europe/Paris",
        "location": "Paris,\r\nFrance", "walking_minutes": "5", "attendees_per_star": "1",
        "feedback_days": "7", "default_language": "en", "_save": "Save",
    }  # fmt: skip
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert (event.name, event.location) == ("Py Con EU", "Paris, France")
