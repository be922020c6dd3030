"""Reminders before my sessions: the attendee's choice (none, 5, 10, 15 or 30 minutes before),
read by the private calendar feed for its alarms, and the reminder mails for reserved seats.

A mail is owed for every confirmed reservation of a person who turned reminders by mail on,
for a published, not cancelled session starting within (now, now + their minutes]. All the
person's sessions starting at the same moment go in one mail (an organizer may have forced two
seats at once): a delivery is one (person, event, start) slot, recorded before it is sent.

`send_reminders` (the `send-reminders` command, run every minute by cron or a timer) claims
each slot before mailing it, like alerts.py's digests, so two senders running at once never
mail the same slot twice, and a failed send stays for the next run. Never late: a slot whose
sessions have started is neither planned nor claimed any more, so a run that comes after the
start (cron down, or every retry failed) leaves it unsent rather than mail a reminder of the
past; a run that comes late but before the start still mails it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import models, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext
from django_tasks import task

from confsched.agenda.alerts import SendReport, checked_base_url
from confsched.agenda.claims import claim_row
from confsched.agenda.models import (
    AgendaItem,
    ReminderDelivery,
    ReminderMinutes,
    ReminderSetting,
    Reservation,
    ReservationStatus,
)
from confsched.core import clock
from confsched.core.errors import ConfschedError
from confsched.core.mail import compose_mail
from confsched.core.text import one_line
from confsched.programme.models import Event, Session
from confsched.push import news as push_news
from confsched.push import tasks as push_tasks
from confsched.push.delivery import Target
from confsched.push.messages import Notice, Urgency
from confsched.push.models import PushSubscription

# The longest lead an attendee can choose: how far ahead the planner looks.
LONGEST_LEAD = timedelta(minutes=max(ReminderMinutes.values))


class InvalidReminderError(ConfschedError):
    """A reminder setting that cannot be kept; the message says why, to the person."""


@dataclass(frozen=True)
class ReminderSession:
    """One reserved session in a reminder mail, as the attendee reads it."""

    title: str
    room: str
    code: str
    starts_at: datetime
    ends_at: datetime | None


@dataclass(frozen=True)
class ReminderMail:
    subject: str
    text: str


# ---- the setting ----------------------------------------------------------------------------


def reminder_setting(user: User, event: Event) -> ReminderSetting:
    """The person's setting for `event`; an unsaved default (no reminder, no mail) when they
    never chose one: reading it writes nothing."""
    setting = ReminderSetting.objects.filter(user=user, event=event).first()
    if setting is None:
        return ReminderSetting(user=user, event=event, minutes=ReminderMinutes.NONE, by_mail=False)
    return setting


@transaction.atomic
def set_reminders(user: User, event: Event, *, minutes: int, by_mail: bool) -> ReminderSetting:
    """Keep the person's choice; InvalidReminderError when `minutes` is not one offered, or
    when mail is asked for an account without an email address."""
    if minutes not in ReminderMinutes.values:
        offered = ", ".join(str(value) for value in ReminderMinutes.values)
        raise InvalidReminderError(
            gettext("Reminders can be %(offered)s minutes before a session (0: none); got %(got)s.")
            % {"offered": offered, "got": repr(minutes)}
        )
    if by_mail and not user.email:
        raise InvalidReminderError(
            gettext(
                "Your account has no email address, so reminders cannot be emailed: add one to "
                "your account first, or leave “email me” unticked."
            )
        )
    setting, _ = ReminderSetting.objects.update_or_create(
        user=user, event=event, defaults={"minutes": minutes, "by_mail": by_mail}
    )
    return setting


# ---- the mail -------------------------------------------------------------------------------


def build_reminder(
    *, event_name: str, zone_name: str, sessions: list[ReminderSession], agenda_url: str
) -> ReminderMail:
    """The plain-text mail for one slot: its sessions (usually one) with room and check-in
    code; times in the event's zone (`sessions` hold them already converted)."""
    first = sessions[0]
    at = f"{first.starts_at:%H:%M}"
    words = {"event": event_name, "title": first.title, "at": at, "room": first.room,
             "count": len(sessions), "zone": zone_name, "agenda": agenda_url}  # fmt: skip
    if len(sessions) == 1 and first.room:
        subject = gettext("%(event)s: “%(title)s” starts at %(at)s in %(room)s") % words
    elif len(sessions) == 1:
        subject = gettext("%(event)s: “%(title)s” starts at %(at)s") % words
    else:
        subject = gettext("%(event)s: %(count)s of your sessions start at %(at)s") % words
    day_format = gettext("D j M")
    words["day"] = date_format(first.starts_at, day_format)
    lines = [gettext("Starting soon at %(event)s, %(day)s at %(at)s (%(zone)s time):") % words, ""]
    for session in sessions:
        until = f"–{session.ends_at:%H:%M}" if session.ends_at else ""
        lines += [
            f"* {session.title}",
            "  " + gettext("Time: %(time)s") % {"time": f"{session.starts_at:%H:%M}{until}"},
            "  " + gettext("Room: %(room)s") % {"room": session.room or gettext("to be announced")},
            "  " + gettext("Check-in code: %(code)s") % {"code": session.code},
            "",
        ]
    if len(sessions) > 1:
        lines += [
            gettext("You have a seat in each: choose one and cancel the others to free them."),
            "",
        ]
    lines += [
        gettext("Your agenda: %(agenda)s") % words,
        "",
        gettext(
            "You get this email because you asked for reminders by email before the sessions you "
            "have a seat in at %(event)s. Change that on your agenda page: %(agenda)s#reminders"
        )
        % words,
    ]
    return ReminderMail(subject=one_line(subject), text="\n".join(lines) + "\n")


# ---- the sender -----------------------------------------------------------------------------


def _confirmed(now: datetime) -> models.QuerySet[Reservation]:
    """Confirmed seats of people with an account in published, not cancelled sessions that
    start after `now` (the one rule that keeps a reminder from coming late)."""
    return Reservation.objects.filter(
        status=ReservationStatus.CONFIRMED,
        user__isnull=False,
        session__is_cancelled=False,
        session__needs_review=False,
        session__starts_at__gt=now,
    )


def plan_deliveries(*, now: datetime) -> int:
    """A delivery row for every slot owed at `now` and not yet recorded; returns how many.

    Four queries whatever the number of attendees: the seats starting within the longest
    lead, the settings of their holders, the slots already recorded, one insert. Safe from two
    senders at once: the unique (person, event, start) lets one insert win.
    """
    seats = set(
        _confirmed(now)
        .filter(session__starts_at__lte=now + LONGEST_LEAD)
        .values_list("user_id", "session__event_id", "session__starts_at")
    )
    if not seats:
        return 0
    leads = {
        (user_id, event_id): timedelta(minutes=minutes)
        for user_id, event_id, minutes in ReminderSetting.objects.filter(
            by_mail=True, minutes__gt=0, user_id__in={user_id for user_id, _, _ in seats}
        )
        .exclude(user__email="")
        .values_list("user_id", "event_id", "minutes")
    }
    owed = {
        (user_id, event_id, starts_at)
        for user_id, event_id, starts_at in seats
        if (lead := leads.get((user_id, event_id))) is not None
        and starts_at is not None  # the query asked for a start after now: never None
        and starts_at <= now + lead
    }
    if not owed:
        return 0
    known = set(
        ReminderDelivery.objects.filter(
            user_id__in={user_id for user_id, _, _ in owed},
            starts_at__in={starts_at for _, _, starts_at in owed},
        ).values_list("user_id", "event_id", "starts_at")
    )
    wanted = [
        ReminderDelivery(user_id=user_id, event_id=event_id, starts_at=starts_at)
        for user_id, event_id, starts_at in sorted(owed - known)
    ]
    ReminderDelivery.objects.bulk_create(wanted, ignore_conflicts=True)
    return len(wanted)


def claim_next(*, now: datetime, skip: set[int]) -> ReminderDelivery | None:
    """Take one unsent slot that has not started yet, or None when none is left.

    As alerts.claim_next: SKIP LOCKED on PostgreSQL, and everywhere an UPDATE that succeeds
    only while the row is unsent and its claim unchanged (or stale), so one sender gets it.
    """
    return claim_row(
        ReminderDelivery.objects.filter(sent_at__isnull=True, starts_at__gt=now),
        now=now, skip=skip, order=("starts_at", "pk"),
    )  # fmt: skip


def slot_sessions(delivery: ReminderDelivery, *, now: datetime) -> list[ReminderSession]:
    """What the slot's mail names, read again at sending time (a seat given up, a session
    moved or cancelled since the slot was planned is not reminded)."""
    zone = delivery.event.zone
    rows = (
        _confirmed(now)
        .filter(user_id=delivery.user_id, session__event_id=delivery.event_id)
        .filter(session__starts_at=delivery.starts_at)
        .select_related("session__room")
        .order_by("session__title", "pk")
    )
    return [
        ReminderSession(
            title=row.session.title,
            room=row.session.room.name if row.session.room else "",
            code=row.code,
            starts_at=delivery.starts_at.astimezone(zone),
            ends_at=row.session.ends_at.astimezone(zone) if row.session.ends_at else None,
        )
        for row in rows
    ]


def _message(
    delivery: ReminderDelivery, *, base_url: str, now: datetime, connection: BaseEmailBackend
) -> EmailMultiAlternatives | None:
    """The slot's mail, or None when nothing is owed any more (mail turned off, no address)."""
    setting = ReminderSetting.objects.filter(
        user_id=delivery.user_id, event_id=delivery.event_id, by_mail=True, minutes__gt=0
    ).first()
    if setting is None or not delivery.user.email:
        return None
    sessions = slot_sessions(delivery, now=now)
    if not sessions:
        return None
    event = delivery.event
    # In the event's default language: a person's own choice lives in their browser's cookie.
    with translation.override(event.default_language or "en"):
        mail = build_reminder(
            event_name=event.name,
            zone_name=event.timezone,
            sessions=sessions,
            agenda_url=base_url + reverse("web:agenda", kwargs={"event": event.slug}),
        )
    return compose_mail(
        subject=mail.subject,
        body=mail.text,
        to=[delivery.user.email],
        connection=connection,
        headers={"Auto-Submitted": "auto-generated"},
    )


def send_reminders(
    *,
    base_url: str,
    now: datetime | None = None,
    progress: Callable[[str], None] | None = None,
) -> SendReport:
    """Send every reminder owed: plan, then claim, send and mark one slot at a time.

    `now` fixes the moment (tests); by default each step reads the clock.
    """
    base = checked_base_url(base_url)

    def moment() -> datetime:
        return now if now is not None else clock.now()

    queue_reminder_pushes(now=moment())
    plan_deliveries(now=moment())
    report = SendReport()
    skip: set[int] = set()
    connection = get_connection()
    while (delivery := claim_next(now=moment(), skip=skip)) is not None:
        skip.add(delivery.pk)
        mine = ReminderDelivery.objects.filter(pk=delivery.pk, claim=delivery.claim)
        delivery = ReminderDelivery.objects.select_related("user", "event").get(pk=delivery.pk)
        message = _message(delivery, base_url=base, now=moment(), connection=connection)
        name = f"{delivery.user.get_username()} {delivery.starts_at:%Y-%m-%d %H:%M} UTC"
        if message is None:
            # Mail turned off or the seat given up since it was planned: nothing to keep.
            mine.delete()
            report.skipped += 1
            continue
        try:
            message.send()
        except Exception as exc:  # noqa: BLE001 - any failure to send leaves it for next run
            mine.update(claim="", claimed_at=None, last_error=f"{type(exc).__name__}: {exc}")
            report.failed.append(name)
            if progress:
                progress(f"failed: {name}: {exc}")
            continue
        mine.update(sent_at=moment(), last_error="")
        report.sent += 1
        if progress:
            progress(f"sent: {delivery.user.email} {delivery.starts_at:%Y-%m-%d %H:%M} UTC")
    return report


# ---- "starts in N minutes" on people's devices (Web Push) -----------------------------------


def queue_reminder_pushes(*, now: datetime) -> None:
    """Each run of the sender queues a task that pushes what is due at `now` (when any device
    is on at all): starred or reserved sessions, within each person's chosen minutes."""
    if PushSubscription.objects.exists():
        push_reminders.enqueue(now.isoformat())


@task(priority=push_tasks.PUSH_PRIORITY, queue_name=push_tasks.QUEUE)
def push_reminders(now_iso: str) -> dict[str, int]:
    """Push each reminder due at `now_iso` that no run has pushed yet (claimed one by one)."""
    now = datetime.fromisoformat(now_iso)
    chosen = [pair for pair in reminder_candidates(now=now) if push_tasks.claim_reminder(*pair)]
    return push_tasks.deliver(reminder_notices(chosen, now=now))


def reminder_candidates(*, now: datetime) -> list[tuple[int, Session]]:
    """(person, session) for each starred or reserved session of a person with a device on at
    its event and a reminder chosen, starting within (now, now + their minutes], by person and
    time. Four queries however many people: the settings, the sessions starting before the
    latest of their reminders' ends, and who starred or holds a seat at those."""
    minutes_of = {
        (user_id, event_id): minutes
        for user_id, event_id, minutes in ReminderSetting.objects.filter(
            minutes__gt=0, event__push_subscriptions__user_id=F("user_id")
        )
        .distinct()
        .values_list("user_id", "event_id", "minutes")
    }
    if not minutes_of:
        return []
    soon = Session.objects.filter(
        event_id__in={event_id for _, event_id in minutes_of}, is_cancelled=False,
        needs_review=False, starts_at__gt=now,
        starts_at__lte=now + timedelta(minutes=max(minutes_of.values())),
    )  # fmt: skip
    sessions = {row.pk: row for row in soon.select_related("event", "room")}
    columns = ("user_id", "session_id")
    starred = AgendaItem.objects.filter(session_id__in=sessions).values_list(*columns)
    seated = Reservation.objects.filter(
        session_id__in=sessions, status=ReservationStatus.CONFIRMED
    ).values_list(*columns)
    due = []
    for user_id, pk in {*starred, *seated}:
        session = sessions[pk]
        minutes = minutes_of.get((user_id, session.event_id))
        if minutes and session.starts_at <= now + timedelta(minutes=minutes):  # type: ignore[operator]
            due.append((user_id, session))
    return sorted(due, key=lambda pair: (pair[0], pair[1].starts_at, pair[1].pk))


def reminder_notices(
    chosen: list[tuple[int, Session]], *, now: datetime
) -> Iterator[tuple[Target, Notice]]:
    """The devices' notices for the (person, session) pairs `chosen`, each in its language:
    each event's devices of those people read at once."""
    by_event: dict[int, list[tuple[int, Session]]] = {}
    for user_id, session in chosen:
        by_event.setdefault(session.event_id, []).append((user_id, session))
    for event_id, pairs in by_event.items():
        held: dict[int, list[PushSubscription]] = {}
        for device in push_news.devices(event_id, {user_id for user_id, _ in pairs}):
            held.setdefault(device.user_id, []).append(device)
        for user_id, session in pairs:
            for device in held.get(user_id, []):
                with translation.override(push_news.language(device, session.event)):
                    yield push_news.target(device), _reminder_notice(session, now=now)


def _reminder_notice(session: Session, *, now: datetime) -> Notice:
    assert session.starts_at is not None  # noqa: S101 - chosen for starting soon
    left = session.starts_at - now
    minutes = max(math.ceil(left.total_seconds() / 60), 1)
    event = session.event
    words = {"title": session.full_title, "minutes": minutes,
             "at": date_format(session.starts_at.astimezone(event.zone), "H:i")}  # fmt: skip
    title = (
        ngettext(
            "“%(title)s” starts in %(minutes)s minute",
            "“%(title)s” starts in %(minutes)s minutes",
            minutes,
        )
        % words
    )
    if session.room:
        body = gettext("At %(at)s in %(room)s.") % {**words, "room": session.room.name}
    else:
        body = gettext("At %(at)s.") % words
    return Notice(
        title=title, body=body, url=push_news.session_path(session),
        tag=f"reminder-{event.slug}-{session.key}",
        ttl=max(int(left.total_seconds()), 60), urgency=Urgency.HIGH,
    )  # fmt: skip
