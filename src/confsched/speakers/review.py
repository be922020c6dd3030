"""The team's say over speakers' edits: per event, edits go live at once or wait in a queue
for review, and editing may close at a date.

`take` is where every speaker's edit arrives once its files are stored and its text checked:
live, it is written at once (speakers/writing.py); under review, it is kept as a
ProposedChange (a newer proposal of the same thing replaces a pending one) until the team
approves it, which writes it as if it had gone live then, named in the change log as the
speaker's edit approved by the team member, or rejects it with a reason the speaker sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext

from confsched.core import clock
from confsched.core.errors import ConfschedError
from confsched.programme.models import Event, Session, Speaker
from confsched.speakers import writing
from confsched.speakers.models import EditingRules, ProposedChange

Status = ProposedChange.Status

LIVE = "live"
WAITING = "waiting"
UNCHANGED = "unchanged"
# Taken by the request and handed to the worker, which makes its files and then takes it here
# (a speaker's photo: speakers/photo_uploads.py).
PREPARING = "preparing"


class EditingClosed(ConfschedError):
    """Speakers' editing of the event closed at the team's date."""


def rules_for(event: Event) -> EditingRules:
    """The event's rules; the default (live at once, never closing) when the team set none."""
    return EditingRules.objects.filter(event=event).first() or EditingRules(event=event)


def set_rules(event: Event, *, review: bool, closes_at: datetime | None, by: str) -> EditingRules:
    rules, _ = EditingRules.objects.update_or_create(
        event=event, defaults={"review": review, "closes_at": closes_at, "updated_by": by[:150]}
    )
    return rules


def closed_since(event: Event, rules: EditingRules | None = None) -> datetime | None:
    """When editing closed, or None while speakers may edit."""
    rules = rules or rules_for(event)
    if rules.closes_at is not None and clock.now() >= rules.closes_at:
        return rules.closes_at
    return None


def closed_message(event: Event, when: datetime) -> str:
    local = timezone.localtime(when, event.zone)
    return gettext(
        "Editing closed on %(when)s (%(zone)s): write to the organizers for a change."
    ) % {"when": formats.date_format(local, "DATETIME_FORMAT"), "zone": event.zone.key}


def check_open(event: Event) -> EditingRules:
    """The event's rules, or EditingClosed (nothing is written) once editing has closed."""
    rules = rules_for(event)
    if (when := closed_since(event, rules)) is not None:
        raise EditingClosed(closed_message(event, when))
    return rules


def take(
    kind: str, speaker: Speaker, values: dict[str, Any], *, session: Session | None = None,
    by: str, base: str,
) -> str:  # fmt: skip
    """A speaker's checked edit: LIVE (written now), WAITING (queued for review) or UNCHANGED
    (it asks for what is public and nothing waits)."""
    rules = check_open(speaker.event)
    if not rules.review:
        return (
            LIVE if writing.write(kind, speaker, session, values, by=by, base=base) else UNCHANGED
        )
    before = writing.public_values(kind, speaker, session)
    if kind == ProposedChange.Kind.PROFILE:  # what the speaker changed, not all they sent
        values = {field: value for field, value in values.items() if before.get(field) != value}
    with transaction.atomic():
        waiting = _pending(speaker, kind, session).select_for_update()
        waiting.update(status=Status.REPLACED, decided_at=clock.now(), decided_by=by[:150])
        if _asks_for_public(kind, values, before):
            return UNCHANGED
        try:
            with transaction.atomic():
                ProposedChange.objects.create(
                    speaker=speaker, session=session, kind=kind, values=values, before=before,
                    proposed_by=by[:150],
                )  # fmt: skip
        except IntegrityError:  # the same speaker proposed the same thing a moment before
            raise ConfschedError(
                gettext("Another change of this was just saved: try again.")
            ) from None
    return WAITING


def _asks_for_public(kind: str, values: dict[str, Any], before: dict[str, Any]) -> bool:
    if values.get(writing.REMOVE):
        return not before
    return all(before.get(field) == value for field, value in values.items())


def _pending(speaker: Speaker, kind: str, session: Session | None) -> Any:  # noqa: ANN401
    return ProposedChange.objects.filter(
        speaker=speaker, kind=kind, session=session, status=Status.PENDING
    )


def waiting_for(speaker: Speaker, session: Session | None = None) -> dict[str, ProposedChange]:
    """The speaker's pending proposals of their profile and photo (or of `session`), by kind."""
    found = ProposedChange.objects.filter(speaker=speaker, status=Status.PENDING, session=session)
    return {change.kind: change for change in found}


def last_refusals(speaker: Speaker, session: Session | None = None) -> list[ProposedChange]:
    """Rejected proposals the speaker has not followed with a newer one of the same thing."""
    latest: dict[str, ProposedChange] = {}
    for change in ProposedChange.objects.filter(speaker=speaker, session=session):
        latest[change.kind] = change  # ordered by time: the last one stays
    return [change for change in latest.values() if change.status == Status.REJECTED]


def queue(event: Event) -> list[ProposedChange]:
    return list(
        ProposedChange.objects.filter(speaker__event=event, status=Status.PENDING)
        .select_related("speaker", "session")
        .order_by("proposed_at", "pk")
    )


def decided(event: Event, *, most: int = 20) -> list[ProposedChange]:
    return list(
        ProposedChange.objects.filter(speaker__event=event)
        .filter(Q(status=Status.APPROVED) | Q(status=Status.REJECTED))
        .select_related("speaker", "session")
        .order_by("-decided_at", "-pk")[:most]
    )


@dataclass(frozen=True)
class Decision:
    change: ProposedChange
    published: bool  # approving it changed something public


def approve(event: Event, pk: int, *, by: str, base: str) -> Decision:
    """Write the proposal as the speaker asked, named in the change log as their edit approved
    by `by`. ConfschedError when it is not (or no longer) waiting."""
    with transaction.atomic():
        change = _waiting(event, pk)
        published = writing.write(
            change.kind, change.speaker, change.session, change.values,
            by=f"{change.proposed_by} (approved by {by})", base=base,
        )  # fmt: skip
        _decide(change, Status.APPROVED, by=by)
    return Decision(change, published)


def reject(event: Event, pk: int, *, by: str, reason: str) -> Decision:
    with transaction.atomic():
        change = _waiting(event, pk)
        change.reason = reason.strip()[:2000]
        _decide(change, Status.REJECTED, by=by)
    return Decision(change, published=False)


def _waiting(event: Event, pk: int) -> ProposedChange:
    change = (
        # Only the proposal's row is locked: its session is a nullable (outer) join, which
        # PostgreSQL will not lock.
        ProposedChange.objects.select_for_update(of=("self",))
        .select_related("speaker__event", "session__event")
        .filter(pk=pk, speaker__event=event)
        .first()
    )
    if change is None:
        raise ConfschedError(gettext("No such change to review."))
    if change.status != Status.PENDING:
        raise ConfschedError(
            gettext("This change was already decided: %(status)s.")
            % {"status": change.get_status_display()}
        )
    return change


def _decide(change: ProposedChange, status: str, *, by: str) -> None:
    change.status = status
    change.decided_at = clock.now()
    change.decided_by = by[:150]
    change.save(update_fields=["status", "decided_at", "decided_by", "reason"])
