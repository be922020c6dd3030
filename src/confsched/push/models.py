"""Web Push's rows: the site's VAPID key pair, each device a person turned notifications on in,
and the reminders already pushed (so that two runs of the reminder sender push one each)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from confsched.programme.models import Event, ScheduleVersion, Session
from confsched.push.messages import shown_device_label


class VapidKey(models.Model):
    """The site's VAPID key pair (RFC 8292), made once and kept in the database so that every
    app host signs with the same key: a browser's subscription is bound to the public key it
    was given, and a new key would silence every device. One row only (pk 1)."""

    private_pem = models.TextField()
    # The application server key: the uncompressed P-256 point, base64url without padding.
    public_key = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(pk=1), name="push_one_vapid_key")]

    def __str__(self) -> str:
        return f"VAPID key {self.public_key[:12]}…"


class PushSubscription(models.Model):
    """One browser or installed app that a person turned notifications on in, for one event
    (the event's service worker received the subscription, so it shows the notifications)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.CharField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=40)  # the 16-byte authentication secret, base64url
    # The Django session it was made in: logging out there turns it off.
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    label = models.CharField(max_length=100)  # "Firefox on Android", from the User-Agent
    language = models.CharField(max_length=10)  # the page's language when it was turned on
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        indexes = [models.Index(fields=["event", "user"])]

    def __str__(self) -> str:
        return f"{self.label} ({self.user_id})"

    @property
    def shown_label(self) -> str:
        """The label in the active language."""
        return shown_device_label(self.label)


class PushedReminder(models.Model):
    """A "starts in N minutes" already pushed to a person for a session at a start time: a
    session moved later is reminded again at its new time."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    starts_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "session", "starts_at"], name="push_reminder_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.session_id} {self.starts_at:%Y-%m-%d %H:%M}"


class PushedVersion(models.Model):
    """A schedule version whose changes were queued for the devices (by send-alerts' run)."""

    version = models.OneToOneField(ScheduleVersion, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"version {self.version_id} pushed"
