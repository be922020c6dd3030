"""Live venue state: whether a room is full now. No part of the programme: a change here moves
no schedule version (Event.updated_at), no change log, no export."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from confsched.programme.models import Event, Room, Session


class How(models.TextChoices):
    HAND = "hand", _("by hand")
    CHECKINS = "checkins", _("by check-ins")


class RoomStatus(models.Model):
    """A room's last word: full or open, said by hand or by the check-ins of one session.

    A room without a row is open. Full by check-ins lasts until the session that filled it
    ends (`until`); full by hand until someone opens it again.
    """

    room = models.OneToOneField(
        Room, on_delete=models.CASCADE, primary_key=True, related_name="live_status",
        verbose_name=_("room"),
    )  # fmt: skip
    is_full = models.BooleanField(default=False, verbose_name=_("full"))
    how = models.CharField(max_length=10, choices=How.choices, verbose_name=_("how"))
    # The session whose check-ins filled the room (by check-ins), or whose filling was
    # overruled (opened by hand while it ran): its check-ins do not fill the room again.
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("session"),
    )  # fmt: skip
    until = models.DateTimeField(null=True, blank=True, verbose_name=_("full until"))
    changed_at = models.DateTimeField(verbose_name=_("changed at"))
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("changed by"),
    )  # fmt: skip

    class Meta:
        verbose_name = _("room status")
        verbose_name_plural = _("room statuses")

    def __str__(self) -> str:
        return f"{self.room_id}: {'full' if self.is_full else 'open'} ({self.how})"

    def is_full_at(self, moment: datetime) -> bool:
        """Full at `moment`: said full, and the session that filled it (if any) not over."""
        return is_full_at(self.is_full, self.until, moment)


def is_full_at(is_full: bool | None, until: datetime | None, moment: datetime) -> bool:
    """The rule on a row's two columns (read as None without a row: open)."""
    return bool(is_full) and (until is None or moment < until)


class Announcement(models.Model):
    """A word from the event's team to everyone at it: a text per offered language, an
    optional link, shown from `created_at` until `ends_at` (never, when None)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="announcements", verbose_name=_("event"),
    )  # fmt: skip
    # {language code: text}; always one in the event's default language (services.announce).
    texts = models.JSONField(default=dict, verbose_name=_("texts"))
    link = models.CharField(max_length=500, blank=True, verbose_name=_("link"))
    created_at = models.DateTimeField(verbose_name=_("created at"))
    ends_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ends at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("created by"),
    )  # fmt: skip
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("ended by"),
    )  # fmt: skip

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        indexes = [models.Index(fields=["event", "ends_at"], name="live_announcement_current")]

    def __str__(self) -> str:
        return f"{self.event_id}: {next(iter(self.texts.values()), '')[:40]}"

    def is_current_at(self, moment: datetime) -> bool:
        return self.created_at <= moment and (self.ends_at is None or moment < self.ends_at)

    def text_in(self, language: str, *, default: str) -> str:
        """The text in `language`, else in the event's `default` language."""
        return self.texts.get(language) or self.texts.get(default) or ""
