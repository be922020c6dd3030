"""Reminders before my sessions: the setting, and the mails before reserved sessions.

The event's sessions are in June 2030 (Europe/Paris, UTC+2), so reservations are open now;
each run of the sender is given its moment.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import CommandError, call_command

from confsched.agenda import reminders, reservations
from confsched.agenda.claims import CLAIM_LEASE
from confsched.agenda.models import (
    AgendaItem,
    ReminderDelivery,
    ReminderSetting,
    ReservationStatus,
)
from confsched.core import clock
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import create_event
from confsched.push.models import PushSubscription

pytestmark = pytest.mark.django_db

SITE = "https://schedule.example.org"
PARIS = ZoneInfo("Europe/Paris")
AGENDA = f"{SITE}/conf/agenda/"


def at(hour: int, minute: int, second: int = 0) -> datetime:
    """A moment on Tuesday 4 June 2030 in Paris."""
    return datetime(2030, 6, 4, hour, minute, second, tzinfo=PARIS)


def _event(*, double_booking: bool = False) -> Event:
    event = create_event(slug="conf", name="Conf & Co", timezone="Europe/Paris")
    event.allow_double_booking = double_booking
    event.save(update_fields=["allow_double_booking"])
    return event


def _session(event: Event, key: str, *, starts: datetime, room: str = "Room 1", seats: int = 10):  # noqa: ANN202
    room_row, _ = Room.objects.get_or_create(
        event=event, name=room, slug=room.lower().replace(" ", "-")
    )
    return Session.objects.create(
        event=event, key=key, title=key.replace("-", " ").title(), starts_at=starts,
        ends_at=starts + timedelta(minutes=25), room=room_row, seats=seats,
    )  # fmt: skip


def _person(
    name: str, event: Event, *, minutes: int = 10, by_mail: bool = True, email: str | None = None
) -> User:  # noqa: E501
    user = User.objects.create_user(name, f"{name}@example.org" if email is None else email)
    if minutes or by_mail:
        reminders.set_reminders(user, event, minutes=minutes, by_mail=by_mail)
    return user


def _run(now: datetime) -> reminders.SendReport:
    return reminders.send_reminders(base_url=SITE, now=now)


@pytest.fixture
def event() -> Event:
    return _event()


@pytest.fixture
def keynote(event: Event) -> Session:
    return _session(event, "keynote", starts=at(10, 0))


# ---- the setting ----------------------------------------------------------------------------


def test_setting_defaults_to_none_without_writing_a_row(event: Event) -> None:
    ada = User.objects.create_user("ada", "ada@example.org")
    setting = reminders.reminder_setting(ada, event)
    assert (setting.pk, setting.minutes, setting.by_mail) == (None, 0, False)
    assert ReminderSetting.objects.count() == 0


def test_set_reminders_keeps_the_choice_and_changes_it(event: Event) -> None:
    ada = User.objects.create_user("ada", "ada@example.org")
    reminders.set_reminders(ada, event, minutes=15, by_mail=True)
    reminders.set_reminders(ada, event, minutes=30, by_mail=False)
    assert list(ReminderSetting.objects.values_list("user__username", "minutes", "by_mail")) == [
        ("ada", 30, False)
    ]
    setting = reminders.reminder_setting(ada, event)
    assert (setting.minutes, setting.by_mail) == (30, False)


@pytest.mark.parametrize("minutes", [7, -5, 60])
def test_minutes_not_offered_are_refused(event: Event, minutes: int) -> None:
    ada = User.objects.create_user("ada", "ada@example.org")
    with pytest.raises(reminders.InvalidReminderError) as error:
        reminders.set_reminders(ada, event, minutes=minutes, by_mail=False)
    assert str(error.value) == (
        f"Reminders can be 0, 5, 10, 15, 30 minutes before a session (0: none); got {minutes}."
    )
    assert ReminderSetting.objects.count() == 0


def test_mail_without_an_email_address_is_refused(event: Event) -> None:
    ada = User.objects.create_user("ada", "")
    with pytest.raises(reminders.InvalidReminderError) as error:
        reminders.set_reminders(ada, event, minutes=10, by_mail=True)
    assert str(error.value) == (
        "Your account has no email address, so reminders cannot be emailed: add one to your "
        "account first, or leave “email me” unticked."
    )
    assert ReminderSetting.objects.count() == 0
    reminders.set_reminders(ada, event, minutes=10, by_mail=False)  # the feed's alarm is fine
    assert ReminderSetting.objects.get().minutes == 10


# ---- when the mail goes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moment", "sent"),
    [
        (at(9, 49, 59), 0),  # 10 min 1 s before: not yet
        (at(9, 50, 0), 1),  # exactly the lead: due
        (at(9, 55, 0), 1),
        (at(9, 59, 59), 1),  # late (cron missed its minute) but before the start: still sent
        (at(10, 0, 0), 0),  # the session starts: never sent at or after the start
        (at(10, 5, 0), 0),
    ],
)
def test_reminder_is_sent_within_the_lead_and_never_after_the_start(
    event: Event, keynote: Session, moment: datetime, sent: int
) -> None:
    ada = _person("ada", event, minutes=10)
    reservations.reserve(ada, keynote)
    assert _run(moment).sent == sent
    assert len(mail.outbox) == sent
    assert ReminderDelivery.objects.filter(sent_at__isnull=False).count() == sent


def test_the_mail_names_time_room_code_and_agenda(event: Event, keynote: Session) -> None:
    ada = _person("ada", event, minutes=10)
    code = reservations.reserve(ada, keynote).reservation.code
    assert _run(at(9, 50)).sent == 1
    [message] = mail.outbox
    assert message.to == ["ada@example.org"]
    assert message.subject == "Conf & Co: “Keynote” starts at 10:00 in Room 1"
    sent = message.message()
    assert (sent["Auto-Submitted"], sent.get_content_type()) == ("auto-generated", "text/plain")
    assert message.body.splitlines() == [
        "Starting soon at Conf & Co, Tue 4 Jun at 10:00 (Europe/Paris time):",
        "",
        "* Keynote",
        "  Time: 10:00–10:25",
        "  Room: Room 1",
        f"  Check-in code: {code}",
        "",
        f"Your agenda: {AGENDA}",
        "",
        "You get this email because you asked for reminders by email before the sessions you "
        f"have a seat in at Conf & Co. Change that on your agenda page: {AGENDA}#reminders",
    ]


def test_subject_stays_on_one_line_and_leaves_out_an_unknown_room(event: Event) -> None:
    mail_ = reminders.build_reminder(
        event_name="Conf\nCo",
        zone_name="Europe/Paris",
        sessions=[
            reminders.ReminderSession(
                title="Two\r\nlines", room="", code="C0DE", starts_at=at(10, 0), ends_at=None
            )
        ],
        agenda_url=AGENDA,
    )
    assert mail_.subject == "Conf Co: “Two lines” starts at 10:00"
    assert "  Time: 10:00\n  Room: to be announced\n" in mail_.text


def test_two_sessions_at_the_same_start_are_one_mail_naming_both() -> None:
    event = _event(double_booking=True)
    first = _session(event, "keynote", starts=at(10, 0))
    second = _session(event, "workshop", starts=at(10, 0), room="Room 2")
    _session(event, "later", starts=at(10, 30))
    ada = _person("ada", event, minutes=15)
    codes = [reservations.reserve(ada, s).reservation.code for s in (first, second)]
    assert _run(at(9, 50)).sent == 1
    [message] = mail.outbox
    assert message.subject == "Conf & Co: 2 of your sessions start at 10:00"
    assert message.body.splitlines()[2:13] == [
        "* Keynote",
        "  Time: 10:00–10:25",
        "  Room: Room 1",
        f"  Check-in code: {codes[0]}",
        "",
        "* Workshop",
        "  Time: 10:00–10:25",
        "  Room: Room 2",
        f"  Check-in code: {codes[1]}",
        "",
        "You have a seat in each: choose one and cancel the others to free them.",
    ]
    assert list(ReminderDelivery.objects.values_list("starts_at", "attempts")) == [(at(10, 0), 1)]


def test_each_slot_is_its_own_mail_at_its_own_time(event: Event, keynote: Session) -> None:
    talk = _session(event, "talk", starts=at(10, 30))
    ada = _person("ada", event, minutes=30)
    reservations.reserve(ada, keynote)
    reservations.reserve(ada, talk)
    assert _run(at(9, 40)).sent == 1
    assert _run(at(10, 0)).sent == 1
    assert [m.subject for m in mail.outbox] == [
        "Conf & Co: “Keynote” starts at 10:00 in Room 1",
        "Conf & Co: “Talk” starts at 10:30 in Room 1",
    ]


def test_a_second_run_sends_nothing(event: Event, keynote: Session) -> None:
    reservations.reserve(_person("ada", event), keynote)
    assert _run(at(9, 52)).sent == 1
    second = _run(at(9, 53))
    assert (second.sent, second.failed, second.skipped) == (0, [], 0)
    assert len(mail.outbox) == 1


def test_a_waitlisted_reservation_is_never_mailed(event: Event) -> None:
    full = _session(event, "full", starts=at(10, 0), seats=1)
    ada, bob = _person("ada", event), _person("bob", event)
    reservations.reserve(ada, full)
    assert reservations.reserve(bob, full).reservation.status == ReservationStatus.WAITLISTED
    assert _run(at(9, 55)).sent == 1
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]


def test_nothing_without_mail_turned_on_or_with_no_reminder(event: Event, keynote: Session) -> None:
    reservations.reserve(_person("ada", event, minutes=10, by_mail=False), keynote)
    reservations.reserve(_person("bob", event, minutes=0, by_mail=True), keynote)
    reservations.reserve(_person("cy", event, minutes=0, by_mail=False), keynote)
    assert _run(at(9, 55)).sent == 0
    assert (mail.outbox, ReminderDelivery.objects.count()) == ([], 0)


def test_a_setting_for_another_event_does_not_count(event: Event, keynote: Session) -> None:
    other = create_event(slug="other", name="Other", timezone="Europe/Paris")
    ada = _person("ada", other)
    reservations.reserve(ada, keynote)
    assert _run(at(9, 55)).sent == 0


def test_cancelled_unpublished_or_given_up_sessions_are_not_mailed() -> None:
    event = _event(double_booking=True)
    ada = _person("ada", event)
    sessions = [_session(event, key, starts=at(10, 0)) for key in ("a", "b", "c")]
    for session in sessions:
        reservations.reserve(ada, session)
    Session.objects.filter(key="a").update(is_cancelled=True)
    Session.objects.filter(key="b").update(needs_review=True)
    reservations.cancel(ada, sessions[2])
    assert _run(at(9, 55)).sent == 0
    assert ReminderDelivery.objects.count() == 0


def test_a_change_after_planning_is_read_again_before_sending(
    event: Event, keynote: Session
) -> None:
    ada = _person("ada", event)
    reservations.reserve(ada, keynote)
    assert reminders.plan_deliveries(now=at(9, 55)) == 1
    reminders.set_reminders(ada, event, minutes=10, by_mail=False)
    report = _run(at(9, 56))
    assert (report.sent, report.skipped) == (0, 1)
    assert (mail.outbox, ReminderDelivery.objects.count()) == ([], 0)


def test_a_moved_session_is_reminded_at_its_new_time(event: Event, keynote: Session) -> None:
    reservations.reserve(_person("ada", event), keynote)
    assert _run(at(9, 55)).sent == 1
    Session.objects.filter(pk=keynote.pk).update(starts_at=at(11, 0), ends_at=at(11, 25))
    assert _run(at(10, 50)).sent == 1
    assert [m.subject for m in mail.outbox] == [
        "Conf & Co: “Keynote” starts at 10:00 in Room 1",
        "Conf & Co: “Keynote” starts at 11:00 in Room 1",
    ]


def test_planning_costs_four_queries_whatever_the_number_of_people(
    event: Event, keynote: Session, django_assert_num_queries
) -> None:
    talk = _session(event, "talk", starts=at(10, 25))
    for number in range(6):
        person = _person(f"p{number}", event, minutes=(5, 10, 30)[number % 3])
        reservations.reserve(person, keynote)
        if number % 2:
            reservations.reserve(person, talk)
    with django_assert_num_queries(4):
        # At 09:56: everyone for the 10:00 keynote; for the 10:25 talk only p5, the one of
        # p1 (10 minutes), p3 (5) and p5 (30) whose lead reaches it.
        assert reminders.plan_deliveries(now=at(9, 56)) == 6 + 1
    assert sorted(
        ReminderDelivery.objects.filter(starts_at=at(10, 25)).values_list("user__username")
    ) == [("p5",)]
    with django_assert_num_queries(3):
        assert reminders.plan_deliveries(now=at(9, 56)) == 0


# ---- failures and two senders ---------------------------------------------------------------


def _refuse(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202 - send()'s shape
    raise ConnectionRefusedError("smtp down")


def test_a_failed_send_is_kept_and_sent_by_the_next_run(
    event: Event, keynote: Session, monkeypatch
) -> None:
    reservations.reserve(_person("ada", event), keynote)
    with monkeypatch.context() as patched:
        patched.setattr("django.core.mail.EmailMessage.send", _refuse)
        report = _run(at(9, 51))
    assert (report.sent, report.failed) == (0, ["ada 2030-06-04 08:00 UTC"])
    delivery = ReminderDelivery.objects.get()
    assert (delivery.sent_at, delivery.claimed_at, delivery.attempts, delivery.last_error) == (
        None,
        None,
        1,
        "ConnectionRefusedError: smtp down",
    )
    assert _run(at(9, 52)).sent == 1
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]
    delivery.refresh_from_db()
    assert (delivery.sent_at, delivery.attempts, delivery.last_error) == (at(9, 52), 2, "")


def test_a_failed_send_is_not_retried_after_the_start(
    event: Event, keynote: Session, monkeypatch
) -> None:
    reservations.reserve(_person("ada", event), keynote)
    with monkeypatch.context() as patched:
        patched.setattr("django.core.mail.EmailMessage.send", _refuse)
        _run(at(9, 59))
    assert _run(at(10, 0)).sent == 0
    assert mail.outbox == []
    assert ReminderDelivery.objects.get().last_error == "ConnectionRefusedError: smtp down"


def test_a_slot_claimed_by_another_sender_is_left_to_it(event: Event, keynote: Session) -> None:
    """Two senders at once, one after the other in this thread (SQLite has one writer; the
    threaded race is in test_reminders_concurrency.py on PostgreSQL)."""
    reservations.reserve(_person("ada", event), keynote)
    assert reminders.plan_deliveries(now=at(9, 55)) == 1
    held = reminders.claim_next(now=at(9, 55), skip=set())
    assert held is not None
    assert reminders.claim_next(now=at(9, 55), skip=set()) is None
    assert reminders.plan_deliveries(now=at(9, 55)) == 0
    assert _run(at(9, 56)).sent == 0  # the other sender's live claim
    assert mail.outbox == []
    # The claim of a sender that died is taken over once the lease is over... if still in time.
    assert reminders.claim_next(now=at(9, 55) + CLAIM_LEASE, skip=set()) is None
    ReminderDelivery.objects.update(claimed_at=at(9, 30))
    assert _run(at(9, 56)).sent == 1
    assert ReminderDelivery.objects.get().attempts == 2


# ---- the command ----------------------------------------------------------------------------


def test_command_prints_what_it_sent(event: Event, keynote: Session, monkeypatch) -> None:
    reservations.reserve(_person("ada", event), keynote)
    monkeypatch.setattr(clock, "now", lambda: at(9, 55))
    out = StringIO()
    call_command("send-reminders", base_url=SITE, stdout=out)
    assert out.getvalue() == "1 sent, 0 failed\n"
    assert len(mail.outbox) == 1


def test_command_fails_when_a_send_failed(event: Event, keynote: Session, monkeypatch) -> None:
    reservations.reserve(_person("ada", event), keynote)
    monkeypatch.setattr(clock, "now", lambda: at(9, 55))
    monkeypatch.setattr("django.core.mail.EmailMessage.send", _refuse)
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("send-reminders", base_url=SITE, stdout=out)
    assert out.getvalue() == "0 sent, 1 failed\n"
    assert str(error.value) == (
        "1 reminder(s) could not be sent and will be retried on the next run while their "
        "sessions have not started: ada 2030-06-04 08:00 UTC"
    )


def test_command_without_base_url_fails_and_sends_nothing(event: Event, keynote: Session) -> None:
    reservations.reserve(_person("ada", event), keynote)
    with pytest.raises(CommandError, match=r"the base URL \(--base-url or CONFSCHED_BASE_URL\)"):
        call_command("send-reminders", base_url="")
    assert (mail.outbox, ReminderDelivery.objects.count()) == ([], 0)


def test_command_answers_to_one_name_only() -> None:
    with pytest.raises(CommandError, match="Unknown command: 'send_reminders'"):
        call_command("send_reminders")


# ---- whom a push reminds ----------------------------------------------------------------------


def _device(user: User, event: Event) -> None:
    PushSubscription.objects.create(
        user=user, event=event, endpoint=f"https://push.example.net/{user.username}",
        p256dh="k", auth="a", label="Firefox on Android", language="en",
    )  # fmt: skip


def test_a_push_reminds_each_person_of_what_starts_within_their_minutes_in_four_queries(
    event: Event, keynote: Session, django_assert_num_queries
) -> None:  # noqa: ANN001
    talk = _session(event, "talk", starts=at(10, 10), room="Room 2")
    _session(event, "late", starts=at(10, 40))
    ada = _person("ada", event, minutes=10, by_mail=False)  # the keynote; the talk is too late
    bo = _person("bo", event, minutes=30, by_mail=False)  # a seat at the talk
    cy = _person("cy", event, minutes=10, by_mail=False)  # starred, but no device on
    di = User.objects.create_user("di")  # a device, starred, no reminder chosen
    more = [_person(f"p{number}", event, minutes=5, by_mail=False) for number in range(5)]
    for person in (ada, bo, di, *more):
        _device(person, event)
    starred = [(ada, keynote), (ada, talk), (cy, keynote), (di, keynote)]
    for person, session in starred + [(person, keynote) for person in more]:
        AgendaItem.objects.create(user=person, session=session)
    reservations.reserve(bo, talk)
    with django_assert_num_queries(4):  # not one more per person
        due = reminders.reminder_candidates(now=at(9, 55))
    assert [(user, session.key, session.room.name) for user, session in due] == [
        (ada.pk, "keynote", "Room 1"),
        (bo.pk, "talk", "Room 2"),
        *[(person.pk, "keynote", "Room 1") for person in more],
    ]
