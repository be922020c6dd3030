"""What attendees make: starred sessions, and the private and shared links to their agenda."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from confsched.programme.models import Event, Session


def new_token() -> str:
    """256 random bits, URL-safe: unguessable, so a feed URL can be its own credential."""
    return secrets.token_urlsafe(32)


class AgendaItem(models.Model):
    """A session an attendee starred, with what it looked like when they did."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agenda_items"
    )
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="agenda_items")
    created_at = models.DateTimeField(auto_now_add=True)
    # The session's time, room and title when starred, to tell the attendee what moved since.
    seen = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "session"], name="agenda_item_unique"),
        ]
        indexes = [models.Index(fields=["session"])]

    def __str__(self) -> str:
        return f"{self.user} ★ {self.session}"


class AgendaLinks(models.Model):
    """Per attendee and event: the secret feed URL, and the public read-only link when on."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agenda_links"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    feed_token = models.CharField(max_length=64, unique=True, default=new_token)
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)

    class Meta:
        verbose_name_plural = "agenda links"
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="agenda_links_unique"),
        ]

    def __str__(self) -> str:
        return f"agenda links of {self.user} for {self.event}"


class VisitorStar(models.Model):
    """A session starred by a visitor without an account, under the random id their browser
    session holds. A row per star, not a list in the session: two stars sent at once (two taps
    before the first answer, two tabs) are two inserts, where two saves of one session would
    keep only the last. Moved to the account at log-in or sign-up."""

    visitor = models.CharField(max_length=64, db_index=True)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["visitor", "session"], name="visitor_star_unique"),
        ]

    def __str__(self) -> str:
        return f"visitor ★ {self.session}"


class AlertSubscription(models.Model):
    """Per attendee and event: whether they want an email when sessions they starred change.

    Only versions numbered above `after_version` are alerted: turning alerts on does not mail
    the programme's history.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="alert_subscriptions"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    is_on = models.BooleanField(default=False)
    # The one-click unsubscribe link's only credential: mail clients POST it without a cookie.
    unsubscribe_token = models.CharField(max_length=64, unique=True, default=new_token)
    after_version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="alert_subscription_unique"),
        ]

    def __str__(self) -> str:
        return f"alerts of {self.user} for {self.event}: {'on' if self.is_on else 'off'}"


class AlertDelivery(models.Model):
    """One digest, one attendee, one schedule version: claimed before it is sent, marked once
    sent. The unique pair is what keeps two senders from mailing the same change twice."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey(
        "programme.ScheduleVersion", on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Who holds it (a random id per claim) and since when; a claim older than the lease is
    # taken over, so a sender that died mid-run does not lose the digest.
    claim = models.CharField(max_length=32, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "alert deliveries"
        constraints = [
            models.UniqueConstraint(fields=["user", "version"], name="alert_delivery_unique"),
        ]
        indexes = [models.Index(fields=["sent_at"])]

    def __str__(self) -> str:
        return f"alert for {self.user} about {self.version}"
