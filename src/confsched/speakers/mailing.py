"""The team's mails to speakers: queued for the worker (speakers/tasks.py sends them), one
speaker's or all of them, and how each speaker's last mail of each kind stands (waiting, being
sent, failed and why). Nothing here sends: a request only queues.

Queueing is at most one waiting mail per speaker and kind: a second click while the first waits
adds nothing (the waiting one reads the address and the profile as they are when it runs).
"Mail all links" mails every speaker with an address who has not opened their link yet (those
who have are in: another mail brings them nothing); "remind all" mails every incomplete profile
(speakers/completeness.py) with an address. Both say how many they skipped, and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from django_tasks import TaskResultStatus

from confsched.programme.models import Event, Speaker
from confsched.speakers.completeness import missing_items, missing_words, with_waiting_edits
from confsched.speakers.mail import LinkNotMailed, address_of, require_address
from confsched.speakers.models import SpeakerPass
from confsched.speakers.tasks import send_link, send_reminder

LINK, REMINDER = "link", "reminder"
_TASKS = {LINK: send_link, REMINDER: send_reminder}
_KINDS = {task.module_path: kind for kind, task in _TASKS.items()}
_WAITING = (TaskResultStatus.READY, TaskResultStatus.RUNNING)


@dataclass(frozen=True)
class Batch:
    """What "mail all" or "remind all" came to: mails queued (or waiting already), and the
    speakers skipped for having no address (no live link, or none given) or, for links, for
    having opened theirs."""

    queued: int
    without_address: int
    opened: int = 0


@dataclass(frozen=True)
class MailState:
    """A speaker's mails of one kind: when the last went out, whether one waits (or is being
    sent), and why the last one queued failed when none went out after it."""

    sent_at: datetime | None = None
    queued_at: datetime | None = None
    is_sending: bool = False
    failed: str = ""


def queue_link(speaker_pass: SpeakerPass, *, site: str) -> bool:
    """Queue the mail of the speaker's link; False when one waits already. `site` is the
    site's address the link starts with."""
    require_address(speaker_pass)
    event = speaker_pass.speaker.event
    return _queue(LINK, speaker_pass, event_id=event.pk, site=site, waiting=_waiting(LINK, event))


def queue_reminder(speaker_pass: SpeakerPass, *, site: str) -> bool:
    """Queue a reminder of what the speaker's profile is missing; False when one waits
    already. A complete profile, or a speaker without an address, is refused (LinkNotMailed)."""
    speaker = speaker_pass.speaker
    if not missing_items(speaker):
        raise LinkNotMailed(
            gettext("The profile of %(name)s is complete: there is nothing to remind them of.")
            % {"name": speaker.name}
        )
    require_address(speaker_pass)
    waiting = _waiting(REMINDER, speaker.event)
    return _queue(REMINDER, speaker_pass, event_id=speaker.event_id, site=site, waiting=waiting)


@transaction.atomic
def queue_all_links(event: Event, *, site: str) -> Batch:
    """Queue the link's mail to every speaker of the event with an address who has not opened
    their link yet."""
    live = _live_passes(event)
    waiting = _waiting(LINK, event)
    queued = without_address = opened = 0
    for speaker in Speaker.objects.filter(event=event).order_by("name", "pk"):
        speaker_pass = live.get(speaker.pk)
        if speaker_pass is not None and speaker_pass.opened_at is not None:
            opened += 1
        elif speaker_pass is None or not address_of(speaker_pass):
            without_address += 1
        else:
            _queue(LINK, speaker_pass, event_id=event.pk, site=site, waiting=waiting)
            queued += 1
    return Batch(queued=queued, without_address=without_address, opened=opened)


@transaction.atomic
def queue_all_reminders(event: Event, *, site: str) -> Batch:
    """Queue a reminder to every speaker of the event whose profile is incomplete and who has
    an address."""
    live = _live_passes(event)
    waiting = _waiting(REMINDER, event)
    queued = without_address = 0
    for speaker in with_waiting_edits(Speaker.objects.filter(event=event)).order_by("name", "pk"):
        if not missing_items(speaker):
            continue
        speaker_pass = live.get(speaker.pk)
        if speaker_pass is None or not address_of(speaker_pass):
            without_address += 1
        else:
            _queue(REMINDER, speaker_pass, event_id=event.pk, site=site, waiting=waiting)
            queued += 1
    return Batch(queued=queued, without_address=without_address)


def mail_states(event: Event, live: list[SpeakerPass]) -> dict[tuple[int, str], MailState]:
    """{(pass id, LINK or REMINDER): its state} for the event's live passes `live`, in one
    query of the queue's table (the mails waiting, being sent or failed)."""
    from django_tasks_db.models import DBTaskResult  # noqa: PLC0415 - its app must be ready

    sent = {
        (p.pk, kind): p.mailed_at if kind == LINK else p.reminded_at
        for p in live
        for kind in (LINK, REMINDER)
    }
    found: dict[tuple[int, str], MailState] = {
        key: MailState(sent_at=sent_at) for key, sent_at in sent.items()
    }
    results = (
        DBTaskResult.objects.filter(
            task_path__in=list(_KINDS),
            args_kwargs__args__0=event.pk,
            status__in=[*_WAITING, TaskResultStatus.FAILED],
        )
        .order_by("enqueued_at")
        .values_list(
            "task_path", "status", "args_kwargs", "enqueued_at", "exception_class_path",
            "traceback",
        )
    )  # fmt: skip
    for path, status, args_kwargs, enqueued_at, error_class, traceback in results:
        key = (args_kwargs["args"][1], _KINDS[path])
        state = found.get(key)
        if state is None:  # a pass revoked since
            continue
        if status in _WAITING:
            found[key] = MailState(
                sent_at=state.sent_at, queued_at=enqueued_at,
                is_sending=status == TaskResultStatus.RUNNING, failed=state.failed,
            )  # fmt: skip
        elif state.sent_at is None or enqueued_at > state.sent_at:
            found[key] = MailState(
                sent_at=state.sent_at, queued_at=state.queued_at,
                failed=failure_reason(error_class, traceback),
            )  # fmt: skip
    return found


def failure_reason(error_class: str, traceback: str) -> str:
    """Why a mail task failed, for the team: the refusal's own words (LinkNotMailed, in the
    event's language), else the kind of error only (the traceback stays in the queue's table)."""
    ours = f"{LinkNotMailed.__module__}.{LinkNotMailed.__qualname__}"
    if error_class == ours and f"{ours}: " in traceback:
        return traceback.rsplit(f"{ours}: ", 1)[1].strip()
    return gettext("an unexpected error (%(kind)s)") % {"kind": error_class.rsplit(".", 1)[-1]}


def missing_text(speaker: Speaker) -> str:
    """What the speaker's profile is missing, in the active language; "" when complete."""
    return missing_words(missing_items(speaker))


def _live_passes(event: Event) -> dict[int, SpeakerPass]:
    live = SpeakerPass.objects.filter(speaker__event=event, revoked_at__isnull=True).select_related(
        "user"
    )
    return {speaker_pass.speaker_id: speaker_pass for speaker_pass in live}


def _waiting(kind: str, event: Event) -> set[int]:
    """The passes with a mail of this kind waiting to be sent (not yet started)."""
    from django_tasks_db.models import DBTaskResult  # noqa: PLC0415 - its app must be ready

    found = DBTaskResult.objects.filter(
        task_path=_TASKS[kind].module_path,
        args_kwargs__args__0=event.pk,
        status=TaskResultStatus.READY,
    ).values_list("args_kwargs", flat=True)
    return {args_kwargs["args"][1] for args_kwargs in found}


def _queue(
    kind: str, speaker_pass: SpeakerPass, *, event_id: int, site: str, waiting: set[int]
) -> bool:
    if speaker_pass.pk in waiting:
        return False
    task: Any = _TASKS[kind]  # a Task whose context argument the queue supplies
    task.enqueue(event_id, speaker_pass.pk, site)
    waiting.add(speaker_pass.pk)
    return True
