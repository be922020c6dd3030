"""Alerts about my sessions only: one email digest per attendee and schedule version, listing
only the sessions they starred and what changed, plus the same digests as a private feed.

Nothing is sent by an import or an edit: `send_alerts` (the `send-alerts` command, run by cron
or a timer) claims each (attendee, version) digest before sending it, so two senders running
at once never mail the same change twice, and a failed send stays unsent for the next run.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlsplit

from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import DatabaseError, models, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django_tasks import task

from confsched.agenda.claims import claim_row
from confsched.agenda.models import (
    AgendaItem,
    AgendaLinks,
    AlertDelivery,
    AlertSubscription,
    new_token,
)
from confsched.core import clock
from confsched.core.errors import ConfschedError
from confsched.core.mail import compose_mail
from confsched.core.text import one_line
from confsched.programme.history import change_lines
from confsched.programme.models import Change, ChangeKind, Event, ScheduleVersion, Session
from confsched.push import news as push_news
from confsched.push import tasks as push_tasks
from confsched.push.delivery import Target
from confsched.push.messages import Notice, Urgency
from confsched.push.models import PushedVersion, PushSubscription

logger = logging.getLogger(__name__)

# The feed shows this many digests, newest first.
FEED_DIGESTS = 50


class InvalidBaseURLError(ConfschedError):
    """The address links in emails start with is not a web address."""


@dataclass(frozen=True)
class ChangedSession:
    """One starred session in a digest and what happened to it, in changes.py's words."""

    title: str
    changes: tuple[str, ...]
    is_cancelled: bool = False


@dataclass(frozen=True)
class Digest:
    subject: str
    text: str
    html: str


@dataclass
class SendReport:
    sent: int = 0
    failed: list[str] = field(default_factory=list)
    skipped: int = 0


def digest_subject(*, event_name: str, sessions: list[ChangedSession]) -> str:
    """'PyTorch Conference Europe 2026: 2 of your sessions changed', on one line whatever the
    names hold (a line break in a header is refused by the mail library: no digest would go)."""
    count = len(sessions)
    if count == 1:
        subject = gettext("%(event)s: “%(title)s” changed") % {
            "event": event_name, "title": sessions[0].title,
        }  # fmt: skip
    else:
        subject = ngettext(
            "%(event)s: %(count)s of your sessions changed",
            "%(event)s: %(count)s of your sessions changed",
            count,
        ) % {"event": event_name, "count": count}
    return one_line(subject)


def build_digest(
    *,
    event_name: str,
    version_number: int,
    sessions: list[ChangedSession],
    agenda_url: str,
    unsubscribe_url: str,
) -> Digest:
    """The email for one attendee and one version: plain text and a matching HTML part."""
    context = {
        "event_name": event_name,
        "version_number": version_number,
        "sessions": sessions,
        "agenda_url": agenda_url,
        "unsubscribe_url": unsubscribe_url,
    }
    return Digest(
        subject=digest_subject(event_name=event_name, sessions=sessions),
        text=render_to_string("confsched/alerts_email.txt", context),
        html=render_to_string("confsched/alerts_email.html", context),
    )


def checked_base_url(base_url: str) -> str:
    """The site's address the links in emails start with, without a trailing slash."""
    text = base_url.strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise InvalidBaseURLError(
            "the base URL (--base-url or CONFSCHED_BASE_URL) must be the site's http:// or "
            f"https:// address, e.g. https://schedule.example.org (got {base_url!r})"
        )
    return text


# ---- reads ----------------------------------------------------------------------------------


def _starred_changes(user: User) -> models.QuerySet[Change]:
    """Changes to sessions `user` had starred when the version was made (a star given later
    is not news about that session), never "added" (nobody starred it before)."""
    return (
        Change.objects.filter(
            session__agenda_items__user=user,
            session__agenda_items__created_at__lte=models.F("version__created_at"),
        )
        .exclude(kind=ChangeKind.ADDED)
        .select_related("session", "version")
        .order_by("-version__number", "session__starts_at", "session__title", "pk")
    )


def _grouped(changes: list[Change]) -> list[ChangedSession]:
    return [changed for _, changed in session_news(changes)]


def session_news(changes: list[Change]) -> list[tuple[Session, ChangedSession]]:
    """One version's changes as attendees may read them (history.py), a session each, in the
    active language: a session taken out of the programme is "withdrawn" under the title it
    had, whatever it became since."""
    titles: dict[int, tuple[Session, str, list[str], bool]] = {}
    for line in change_lines(changes, for_team=False):
        session, title, words, cancelled = titles.setdefault(
            line.session.pk, (line.session, line.title, [], False)
        )
        words.append(line.words)
        if line.kind == ChangeKind.CANCELLED:
            titles[line.session.pk] = (session, title, words, True)
    return [
        (session, ChangedSession(title=title, changes=tuple(words), is_cancelled=cancelled))
        for session, title, words, cancelled in titles.values()
    ]


def version_watchers(version: ScheduleVersion) -> dict[int, list[Change]]:
    """By person, the changes `version` made to the sessions they had starred before it was
    made (as `digest_sessions` reads them, for every person at once): two queries whatever the
    number of people. Web Push (push/news.py) tells each person's devices."""
    changes = list(
        Change.objects.filter(version=version)
        .exclude(kind=ChangeKind.ADDED)
        .select_related("session", "version")
        .order_by("session__starts_at", "session__title", "pk")
    )
    by_session: dict[int, list[Change]] = {}
    for change in changes:
        by_session.setdefault(change.session_id, []).append(change)
    stars = AgendaItem.objects.filter(
        session_id__in=by_session, created_at__lte=version.created_at
    ).values_list("user_id", "session_id")
    watchers: dict[int, list[Change]] = {}
    for user_id, session_id in stars.order_by("user_id", "pk"):
        watchers.setdefault(user_id, []).extend(by_session[session_id])
    return watchers


def digest_sessions(user: User, version: ScheduleVersion) -> list[ChangedSession]:
    """The sessions of `user` that `version` changed, in time order, with what changed."""
    return _grouped(list(_starred_changes(user).filter(version=version)))


def feed_digests(user: User, event: Event) -> list[tuple[ScheduleVersion, list[ChangedSession]]]:
    """The newest digests of `user` for `event`, a version each, whether or not mailed."""
    changes = list(_starred_changes(user).filter(version__event=event))
    by_version: dict[int, list[Change]] = {}
    versions: dict[int, ScheduleVersion] = {}
    for change in changes:
        by_version.setdefault(change.version_id, []).append(change)
        versions[change.version_id] = change.version
    return [(versions[pk], _grouped(rows)) for pk, rows in by_version.items()][:FEED_DIGESTS]


def subscription_for(user: User, event: Event) -> AlertSubscription | None:
    return AlertSubscription.objects.filter(user=user, event=event).first()


def subscription_for_token(event: Event, token: str) -> AlertSubscription | None:
    return (
        AlertSubscription.objects.filter(event=event, unsubscribe_token=token)
        .select_related("user", "event")
        .first()
    )


def links_for_alert_feed(event: Event, token: str) -> AgendaLinks | None:
    """The feed shares the agenda calendar's secret: making a new address resets both."""
    return AgendaLinks.objects.filter(event=event, feed_token=token).select_related("user").first()


# ---- writes ---------------------------------------------------------------------------------


@transaction.atomic
def set_alerts(user: User, event: Event, *, is_on: bool) -> AlertSubscription:
    """Turn email alerts on or off; turned on, they start from the next schedule version."""
    subscription, _ = AlertSubscription.objects.select_for_update().get_or_create(
        user=user, event=event
    )
    if is_on and not subscription.is_on:
        last = ScheduleVersion.objects.filter(event=event).aggregate(models.Max("number"))
        subscription.after_version = last["number__max"] or 0
        # A new subscription, a new link: the unsubscribe links in earlier mails stop working.
        subscription.unsubscribe_token = new_token()
    subscription.is_on = is_on
    subscription.save(update_fields=["is_on", "after_version", "unsubscribe_token", "updated_at"])
    return subscription


def unsubscribe(subscription: AlertSubscription) -> None:
    """What the one-click link does; saying it twice changes nothing."""
    AlertSubscription.objects.filter(pk=subscription.pk).update(is_on=False)


def plan_deliveries() -> int:
    """A delivery row for every digest owed and not yet recorded; returns how many are new.

    Safe to run from two senders at once: the unique (user, version) pair lets one insert win.
    """
    wanted: list[AlertDelivery] = []
    subscriptions = AlertSubscription.objects.filter(is_on=True).exclude(user__email="")
    for subscription in subscriptions.select_related("user"):
        versions = (
            _starred_changes(subscription.user)
            .filter(
                version__event_id=subscription.event_id,
                version__number__gt=subscription.after_version,
            )
            .order_by()
            .values_list("version_id", flat=True)
            .distinct()
        )
        known = set(
            AlertDelivery.objects.filter(
                user=subscription.user, version__event_id=subscription.event_id
            ).values_list("version_id", flat=True)
        )
        wanted += [
            AlertDelivery(user_id=subscription.user_id, version_id=pk)
            for pk in sorted(set(versions) - known)
        ]
    AlertDelivery.objects.bulk_create(wanted, ignore_conflicts=True)
    return len(wanted)


def claim_next(*, now: datetime, skip: set[int]) -> AlertDelivery | None:
    """Take one unsent digest for this sender, or None when none is left (see claims.py)."""
    return claim_row(
        AlertDelivery.objects.filter(sent_at__isnull=True), now=now, skip=skip, order=("pk",)
    )


def _message(
    delivery: AlertDelivery, subscription: AlertSubscription, *, base_url: str, connection: object
) -> EmailMultiAlternatives | None:
    version = delivery.version
    sessions = digest_sessions(subscription.user, version)
    if not sessions:
        return None
    slug = subscription.event.slug
    unsubscribe_url = base_url + reverse(
        "web:alerts_unsubscribe", kwargs={"event": slug, "token": subscription.unsubscribe_token}
    )
    # In the event's default language: a person's own choice lives in their browser's cookie.
    with translation.override(subscription.event.default_language or "en"):
        digest = build_digest(
            event_name=subscription.event.name,
            version_number=version.number,
            sessions=sessions,
            agenda_url=base_url + reverse("web:agenda", kwargs={"event": slug}),
            unsubscribe_url=unsubscribe_url,
        )
    return compose_mail(
        subject=digest.subject,
        body=digest.text,
        html=digest.html,
        to=[subscription.user.email],
        connection=connection,
        headers={
            # RFC 8058: mail clients show an unsubscribe button that POSTs this URL.
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )


def send_alerts(*, base_url: str, progress: Callable[[str], None] | None = None) -> SendReport:
    """Send every digest owed: plan, then claim, send and mark one at a time."""
    base = checked_base_url(base_url)
    queue_version_pushes()
    plan_deliveries()
    report = SendReport()
    skip: set[int] = set()
    connection = get_connection()
    while (delivery := claim_next(now=clock.now(), skip=skip)) is not None:
        skip.add(delivery.pk)
        mine = AlertDelivery.objects.filter(pk=delivery.pk, claim=delivery.claim)
        delivery = AlertDelivery.objects.select_related("version", "user").get(pk=delivery.pk)
        subscription = (
            AlertSubscription.objects.filter(
                user_id=delivery.user_id, event_id=delivery.version.event_id, is_on=True
            )
            .select_related("user", "event")
            .first()
        )
        message = (
            _message(delivery, subscription, base_url=base, connection=connection)
            if subscription is not None and subscription.user.email
            else None
        )
        if message is None:
            # Unsubscribed or unstarred since it was planned: nothing to say, nothing to keep.
            mine.delete()
            report.skipped += 1
            continue
        try:
            message.send()
        except Exception as exc:  # noqa: BLE001 - any failure to send leaves it for next run
            mine.update(claim="", claimed_at=None, last_error=f"{type(exc).__name__}: {exc}")
            report.failed.append(f"{delivery.user.get_username()} v{delivery.version.number}")
            if progress:
                progress(f"failed: {delivery.user.get_username()}: {exc}")
            continue
        mine.update(sent_at=clock.now(), last_error="")
        report.sent += 1
        if progress:
            progress(f"sent: {delivery.user.email} v{delivery.version.number}")
    return report


# ---- the same news on people's devices (Web Push) -------------------------------------------


def queue_version_pushes() -> int:
    """A task for each version not pushed yet, at each event where a device is on, among the
    versions made since the first device there was turned on; returns how many were queued.
    Each run of send-alerts asks (like the digests, nothing is queued by an import itself)."""
    firsts = PushSubscription.objects.values("event_id").annotate(first=models.Min("created_at"))
    count = 0
    for row in firsts.order_by("event_id"):
        versions = (
            ScheduleVersion.objects.filter(event_id=row["event_id"], created_at__gte=row["first"])
            .exclude(pk__in=PushedVersion.objects.values("version_id"))
            .order_by("number")
        )
        for version in versions:
            if push_tasks.claim_version(version):
                push_version.enqueue(version.pk)
                count += 1
    return count


def push_recorded_version(sender: object, *, version: ScheduleVersion, **kwargs: object) -> None:
    """programme's `version_recorded` (once the version has committed): its news queued for the
    devices at once, when a device at its event was on before it; send-alerts queues any that
    this missed (a claim keeps each version to one task)."""
    on = PushSubscription.objects.filter(
        event_id=version.event_id, created_at__lte=version.created_at
    )
    try:
        if on.exists() and push_tasks.claim_version(version):
            push_version.enqueue(version.pk)
    except DatabaseError:  # the change stands; the next send-alerts queues its news
        logger.exception("Web Push: version %s not queued", version.pk)


@task(priority=push_tasks.PUSH_PRIORITY, queue_name=push_tasks.QUEUE)
def push_version(version_id: int) -> dict[str, int]:
    """Tell each device of each person who starred a session `version` changed."""
    version = ScheduleVersion.objects.select_related("event").filter(pk=version_id).first()
    if version is None:
        return {}
    return push_tasks.deliver(version_notices(version))


def version_notices(version: ScheduleVersion) -> Iterator[tuple[Target, Notice]]:
    """A notice per changed starred session, for each device of each person who starred it,
    in the change log's words and the device's language."""
    event = version.event
    watchers = version_watchers(version)
    said: dict[tuple[int, str], list[Notice]] = {}
    for device in push_news.devices(event.pk, watchers):
        key = (device.user_id, push_news.language(device, event))
        if key not in said:
            with translation.override(key[1]):
                said[key] = _change_notices(event, watchers[device.user_id])
        for notice in said[key]:
            yield push_news.target(device), notice


def _change_notices(event: Event, changes: list[Change]) -> list[Notice]:
    notices = []
    for session, changed in session_news(changes):
        session.event = event
        words = "; ".join(changed.changes)
        notices.append(
            Notice(
                title=digest_subject(event_name=event.name, sessions=[changed]),
                body=(words[:1].upper() + words[1:] + ".") if words else "",
                url=push_news.session_path(session),
                tag=f"change-{event.slug}-{session.key}",
                ttl=push_news.DAY,
                urgency=Urgency.HIGH,
            )
        )
    return notices
