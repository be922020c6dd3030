"""The speakers' mails as tasks of the task queue's general queue ("default"), which
`confsched worker` always runs (`confsched serve` starts one on the embedded default); the
team's page queues them (speakers/mailing.py), never sends them itself.

A task names the event and the pass by their ids, never the link: its token is made here from
the site's secret key, so the queue's table, like the rest of the database, holds no working
link. A task is idempotent-ish: it sends nothing for a pass that was revoked since, nor when a
mail of its kind went out after it was queued (a second click, two of the team at once), and
it notes when it sent (`mailed_at`, `reminded_at`). The send and that note are not one
transaction (a transaction holds SQLite's write lock, and a mail server may take seconds), so a
worker killed between them leaves a task that sent once and says it failed; the worker never
runs a task twice by itself. A mail that cannot be sent fails the task with the reason
(LinkNotMailed), which the team's page shows.
"""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse
from django.utils import translation
from django_tasks import DEFAULT_TASK_QUEUE_NAME, TaskContext, task

from confsched.speakers import passes
from confsched.speakers.completeness import missing_items
from confsched.speakers.mail import mail_link, mail_reminder
from confsched.speakers.models import SpeakerPass

# Mails go before waiting embeddings (priority 0): a person waits for a mail, while search
# finds sessions by their words until they are embedded.
MAIL_PRIORITY = 10
QUEUE = DEFAULT_TASK_QUEUE_NAME

# What a task returns (kept as its result in the queue's table).
SENT, REVOKED, SENT_SINCE, COMPLETE = "sent", "revoked", "sent since it was queued", "complete"


def absolute_link(speaker_pass: SpeakerPass, *, site: str) -> str:
    """The speaker's link under the site's address (no trailing slash)."""
    token = passes.token_for(speaker_pass)
    return site + reverse("web:speaker_pass", kwargs={"token": token})


@task(priority=MAIL_PRIORITY, queue_name=QUEUE, takes_context=True)
def send_link(context: TaskContext, event_id: int, pass_id: int, site: str) -> str:
    """Mail the speaker their link; "sent", or why nothing was."""
    speaker_pass = _live_pass(event_id, pass_id)
    if speaker_pass is None:
        return REVOKED
    if _is_after(speaker_pass.mailed_at, context.task_result.enqueued_at):
        return SENT_SINCE
    with translation.override(speaker_pass.speaker.event.default_language or "en"):
        mail_link(speaker_pass, link=absolute_link(speaker_pass, site=site))
    return SENT


@task(priority=MAIL_PRIORITY, queue_name=QUEUE, takes_context=True)
def send_reminder(context: TaskContext, event_id: int, pass_id: int, site: str) -> str:
    """Mail the speaker what their profile is missing, with their link; "sent", or why
    nothing was (the profile may have been completed since it was queued)."""
    speaker_pass = _live_pass(event_id, pass_id)
    if speaker_pass is None:
        return REVOKED
    if _is_after(speaker_pass.reminded_at, context.task_result.enqueued_at):
        return SENT_SINCE
    missing = missing_items(speaker_pass.speaker)
    if not missing:
        return COMPLETE
    with translation.override(speaker_pass.speaker.event.default_language or "en"):
        link = absolute_link(speaker_pass, site=site)
        mail_reminder(speaker_pass, link=link, missing=missing)
    return SENT


def _live_pass(event_id: int, pass_id: int) -> SpeakerPass | None:
    return (
        SpeakerPass.objects.select_related("speaker__event", "user")
        .filter(pk=pass_id, speaker__event_id=event_id, revoked_at__isnull=True)
        .first()
    )


def _is_after(sent_at: datetime | None, queued_at: datetime | None) -> bool:
    return sent_at is not None and queued_at is not None and sent_at > queued_at
