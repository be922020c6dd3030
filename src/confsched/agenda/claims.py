"""Mails that must go out exactly once however many senders run: a row per mail, claimed
before it is sent (alerts.py's digests, reminders.py's slots)."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, TypeVar

from django.db import models, transaction

if TYPE_CHECKING:
    from confsched.agenda.models import ClaimedDelivery

# A claim older than this belongs to a sender that died: another run takes the mail over.
CLAIM_LEASE = timedelta(minutes=15)

RowT = TypeVar("RowT", bound="ClaimedDelivery")


def claim_row(
    owed: models.QuerySet[RowT], *, now: datetime, skip: set[int], order: tuple[str, ...]
) -> RowT | None:
    """Take one row of `owed` (unsent ones, in `order`) for this sender, or None when none is
    left.

    On PostgreSQL the row is locked with SKIP LOCKED, so a second sender passes over it
    instead of waiting; everywhere, the claim is an UPDATE that only succeeds while the row is
    unsent and its claim unchanged (or stale), so exactly one sender gets each row.
    """
    stale = now - CLAIM_LEASE
    while True:
        with transaction.atomic():
            row = (
                owed.select_for_update(skip_locked=True)
                .filter(models.Q(claimed_at__isnull=True) | models.Q(claimed_at__lt=stale))
                .exclude(pk__in=skip)
                .order_by(*order)
                .first()
            )
            if row is None:
                return None
            claim = secrets.token_hex(16)
            taken = owed.model._default_manager.filter(
                pk=row.pk, sent_at__isnull=True, claim=row.claim, claimed_at=row.claimed_at
            ).update(claim=claim, claimed_at=now, attempts=models.F("attempts") + 1)
        if taken:
            row.claim, row.claimed_at = claim, now
            return row
        skip.add(row.pk)  # another sender took it between our read and our update
