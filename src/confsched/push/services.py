"""Web Push's writes: a device turned on and off, a log-out's devices forgotten, and the
notifications queued (never sent here: the task queue's worker sends them, tasks.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from confsched.core.errors import ConfschedError
from confsched.programme.models import Event
from confsched.push import tasks
from confsched.push.checks import checked_subscription
from confsched.push.messages import device_label
from confsched.push.models import PushSubscription

MAX_LANGUAGE = 10


class DeviceNotFoundError(ConfschedError):
    """No such device among the person's: turned off already, or someone else's."""


@transaction.atomic
def subscribe(
    user: User, event: Event, data: object, *, session_key: str, user_agent: str, language: str
) -> PushSubscription:
    """Keep the browser's subscription (PushSubscription.toJSON()) for `user` at `event`;
    InvalidSubscriptionError says what is wrong with it, and nothing is written then. The same
    endpoint again (the browser renewed its keys, or another person signed in on the device)
    becomes this person's, with the keys it has now."""
    checked = checked_subscription(data)
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=checked.endpoint,
        defaults={
            "user": user, "event": event, "p256dh": checked.p256dh, "auth": checked.auth,
            "session_key": session_key, "label": device_label(user_agent)[:100],
            "language": language[:MAX_LANGUAGE], "failures": 0, "last_error": "",
        },
    )  # fmt: skip
    return subscription


def turn_off(user: User, pk: int) -> None:
    """Delete one of the person's devices; DeviceNotFoundError when it is not theirs (or gone)."""
    deleted, _ = PushSubscription.objects.filter(user=user, pk=pk).delete()
    if not deleted:
        raise DeviceNotFoundError(
            gettext("That device is not among yours: notifications are off there already.")
        )


def forget_session(session_key: str) -> int:
    """At log-out: the devices turned on in that browser session stop getting notifications."""
    if not session_key:
        return 0
    deleted, _ = PushSubscription.objects.filter(session_key=session_key).delete()
    return deleted


def notify_announcement(event: Event, texts_by_language: dict[str, str], url: str) -> None:
    """Queue the team's announcement for every device turned on at `event`: `texts_by_language`
    maps language codes to the text ({"en": ..., "fr": ...}); `url` is the page it opens (a
    path on the site). Queued once the caller's transaction commits."""
    if not texts_by_language or not all(
        isinstance(text, str) and text for text in texts_by_language.values()
    ):
        raise ConfschedError("An announcement needs a text in at least one language.")
    if not url.startswith("/") or url.startswith("//"):
        raise ConfschedError(f"An announcement opens a page of the site, a path: not {url!r}.")
    texts = dict(texts_by_language)
    transaction.on_commit(lambda: tasks.notify_announcement.enqueue(event.pk, texts, url))


def forget_at_logout(sender: Any, request: Any, user: Any, **_: Any) -> None:
    """user_logged_out: the devices turned on in the session being closed."""
    session = getattr(request, "session", None)
    forget_session(getattr(session, "session_key", None) or "")
