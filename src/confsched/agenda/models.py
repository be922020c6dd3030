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
