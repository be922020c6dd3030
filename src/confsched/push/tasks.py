"""Web Push's sending on the task queue's general queue ("default"), which `confsched worker`
runs: one task per notification batch (the agenda's own tasks call `deliver`), queued once
what it tells is committed, never sent inside a request.

A task names rows by id and reads them again when it runs (a seat given up since, a device
turned off since, is not told). After sending: a subscription answered 404 or 410 is deleted
(RFC 8030 section 7.3); 429, 5xx and no answer at all are tried again by one later task
holding those notices, after Retry-After when the service said it, else after a growing
back-off, at most MAX_ATTEMPTS times and never past a notice's TTL; any other answer is
logged on the subscription and kept (the next notice may go).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django_tasks import DEFAULT_TASK_QUEUE_NAME, task

from confsched.core import clock
from confsched.programme.models import Event, ScheduleVersion, Session
from confsched.push import news
from confsched.push.delivery import Answer, Sender, Target
from confsched.push.keys import signer
from confsched.push.messages import Notice, Urgency
from confsched.push.models import PushedReminder, PushedVersion, PushSubscription

log = logging.getLogger(__name__)

# Before the speakers' mails (10): a "starts in 5 minutes" is worth nothing late.
PUSH_PRIORITY = 20
QUEUE = DEFAULT_TASK_QUEUE_NAME
MAX_ATTEMPTS = 5
FIRST_DELAY = 30  # seconds; doubled at each attempt
LONGEST_DELAY = 3600
# A notice waiting to be tried again, as the queue keeps it (JSON).
Waiting = list[Any]


@task(priority=PUSH_PRIORITY, queue_name=QUEUE)
def notify_announcement(event_id: int, texts: dict[str, str], url: str) -> dict[str, int]:
    """Send the team's announcement to every device turned on at the event."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not texts:
        return {}
    return deliver(news.announcement_notices(event, texts, url))


@task(priority=PUSH_PRIORITY, queue_name=QUEUE)
def retry_notices(waiting: list[Waiting], attempt: int) -> dict[str, int]:
    """Try again the notices a push service could not take (attempt 2, 3, ...)."""
    live = PushSubscription.objects.in_bulk([row[0] for row in waiting])
    items = [(news.target(live[row[0]]), _notice(row)) for row in waiting if row[0] in live]
    return deliver(items, attempt=attempt)


def deliver(items: Iterable[tuple[Target, Notice]], *, attempt: int = 1) -> dict[str, int]:
    """Send each notice, then keep what came of it; returns the counts of each outcome."""
    sender = Sender(signer())
    counts = {"delivered": 0, "gone": 0, "retried": 0, "failed": 0}
    delivered: list[int] = []
    retries: list[tuple[Waiting, int | None]] = []
    for target, notice, answer in _answers(sender, items):
        if answer.is_delivered:
            delivered.append(target.pk)
            counts["delivered"] += 1
        elif answer.is_gone:
            PushSubscription.objects.filter(pk=target.pk).delete()
            counts["gone"] += 1
        else:
            _note_failure(target, answer)
            if answer.is_retried and attempt < MAX_ATTEMPTS:
                retries.append((_waiting(target, notice), answer.retry_after))
                counts["retried"] += 1
            else:
                counts["failed"] += 1
        if len(delivered) >= news.CHUNK:
            _note_success(delivered)
    _note_success(delivered)
    _queue_retries(retries, attempt=attempt)
    return counts


def _answers(
    sender: Sender, items: Iterable[tuple[Target, Notice]]
) -> Iterator[tuple[Target, Notice, Answer]]:
    # pool.map reads its input to the end before the first answer: a chunk at a time keeps a
    # batch of ten thousand from holding every notice at once.
    chunk: list[tuple[Target, Notice]] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == news.CHUNK:
            yield from _sent(sender, chunk)
            chunk = []
    yield from _sent(sender, chunk)


def _sent(
    sender: Sender, chunk: list[tuple[Target, Notice]]
) -> Iterator[tuple[Target, Notice, Answer]]:
    for (target, answer), (_, notice) in zip(sender.send_all(chunk), chunk, strict=True):
        yield target, notice, answer


def _note_success(delivered: list[int]) -> None:
    if delivered:
        PushSubscription.objects.filter(pk__in=delivered).update(
            last_success_at=clock.now(), failures=0, last_error=""
        )
        delivered.clear()


def _note_failure(target: Target, answer: Answer) -> None:
    log.warning("push to subscription %s: %s", target.pk, answer.error or answer.status)
    PushSubscription.objects.filter(pk=target.pk).update(
        failures=F("failures") + 1, last_error=(answer.error or str(answer.status))[:300]
    )


def _queue_retries(retries: list[tuple[Waiting, int | None]], *, attempt: int) -> None:
    """One later task for every notice to try again, after the longest wait asked for."""
    if not retries:
        return
    backoff = min(FIRST_DELAY * 2 ** (attempt - 1), LONGEST_DELAY)
    delay = max([backoff, *(after for _, after in retries if after is not None)])
    delay = min(delay, 24 * 3600)
    # A notice that would outlive its TTL by then is dropped: the service would drop it too.
    waiting = [[*row[:5], row[5] - delay, row[6]] for row, _ in retries if row[5] > delay]
    if waiting:
        # The queue's own clock, which its worker compares run_after with.
        run_after = timezone.now() + timedelta(seconds=delay)
        retry_notices.using(run_after=run_after).enqueue(waiting, attempt + 1)


def _waiting(target: Target, notice: Notice) -> Waiting:
    return [target.pk, notice.title, notice.body, notice.url, notice.tag, notice.ttl,
            notice.urgency.value]  # fmt: skip


def _notice(row: Waiting) -> Notice:
    _, title, body, url, tag, ttl, urgency = row
    return Notice(title=title, body=body, url=url, tag=tag, ttl=ttl, urgency=Urgency(urgency))


def claim_reminder(user_id: int, session: Session) -> bool:
    """True for the one run that gets to push this (person, session, start) reminder."""
    if session.starts_at is None:  # chosen for starting soon: never None
        return False
    try:
        with transaction.atomic():
            PushedReminder.objects.create(
                user_id=user_id, session=session, starts_at=session.starts_at
            )
    except IntegrityError:
        return False
    return True


def claim_version(version: ScheduleVersion) -> bool:
    """True for the one run that gets to push this version's changes."""
    try:
        with transaction.atomic():
            PushedVersion.objects.create(version=version)
    except IntegrityError:
        return False
    return True
