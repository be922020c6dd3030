"""Who a notification goes to, and the one kind the push app says itself (the team's
announcements); the agenda's kinds (a starred session changed, starts soon, a seat given) are
said in agenda/alerts.py, reminders.py and reservations.py, which send them through here.

Each device's notice is in the language its page was in when notifications were turned on
there (a person's language lives in their browser, and that browser is the device), else the
event's default language."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator

from django.urls import reverse

from confsched.programme.models import Event, Session
from confsched.push.delivery import Target
from confsched.push.messages import Notice, Urgency
from confsched.push.models import PushSubscription

DAY = 24 * 3600
# How many subscriptions are read at once: a batch of ten thousand stays a few MB.
CHUNK = 500


def target(subscription: PushSubscription) -> Target:
    return Target(
        pk=subscription.pk, endpoint=subscription.endpoint, p256dh=subscription.p256dh,
        auth=subscription.auth,
    )  # fmt: skip


def devices(event_id: int, user_ids: Iterable[int] | None = None) -> Iterator[PushSubscription]:
    """The devices on at the event (of these people only), a chunk at a time."""
    rows = PushSubscription.objects.filter(event_id=event_id)
    if user_ids is not None:
        rows = rows.filter(user_id__in=list(user_ids))
    yield from rows.order_by("pk").iterator(chunk_size=CHUNK)


def language(subscription: PushSubscription, event: Event) -> str:
    return subscription.language or event.default_language or "en"


def session_path(session: Session) -> str:
    return reverse("web:session", kwargs={"event": session.event.slug, "key": session.key})


def announcement_notices(
    event: Event, texts: dict[str, str], url: str
) -> Iterator[tuple[Target, Notice]]:
    """The announcement to every device on at `event`, in its language when the team wrote
    one, else in the event's default language, else in the first given."""
    digest = hashlib.sha256(repr((sorted(texts.items()), url)).encode()).hexdigest()[:12]
    fallback = texts.get(event.default_language) or next(iter(texts.values()))
    for subscription in devices(event.pk):
        yield (
            target(subscription),
            Notice(
                title=event.name,
                body=texts.get(subscription.language) or fallback,
                url=url,
                tag=f"announcement-{event.slug}-{digest}",
                ttl=DAY,
                urgency=Urgency.NORMAL,
            ),
        )
