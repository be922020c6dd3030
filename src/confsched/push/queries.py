"""Web Push's reads."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from confsched.programme.models import Event
from confsched.push.models import PushSubscription


def devices_for(user: User, event: Event) -> QuerySet[PushSubscription]:
    """The person's devices with notifications on at `event`, newest first."""
    return PushSubscription.objects.filter(user=user, event=event).order_by("-created_at", "-pk")
