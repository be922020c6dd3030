"""A speaker as stored: the organizer's file fills it, and the speaker may hold fields of it
(`held`): what a speaker set themselves is kept by later imports until the organizer releases
it (services/held.py). Kept apart from models.py, which names it for the app."""

from __future__ import annotations

from django.core.validators import URLValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

# The fields a speaker may set and hold, in the order the change log and the admin name them.
HOLDABLE = ("name", "company", "position", "bio", "avatar_url", "homepage", "links")


class Speaker(models.Model):
    event = models.ForeignKey(
        "programme.Event", on_delete=models.CASCADE, related_name="speakers",
        verbose_name=_("event"),
    )  # fmt: skip
    key = models.CharField(
        max_length=200,
        help_text=_("Stable identity in the source"),
        verbose_name=_("key"),
    )
    name = models.CharField(max_length=200, verbose_name=_("name"))
    company = models.CharField(max_length=200, blank=True, verbose_name=_("company"))
    position = models.CharField(max_length=200, blank=True, verbose_name=_("position"))
    bio = models.TextField(blank=True, verbose_name=_("bio"))
    avatar_url = models.URLField(max_length=500, blank=True, verbose_name=_("avatar url"))
    homepage = models.URLField(
        max_length=500, blank=True, validators=[URLValidator(schemes=["http", "https"])],
        verbose_name=_("homepage"),
    )  # fmt: skip
    # Social and other pages, in the speaker's order: [{"url", "title", "kind"}] (the hub's
    # SessionLink). A list on the row, not a table: it is always read with the speaker, and an
    # import or an export reads every speaker of an event in one query either way.
    links = models.JSONField(default=list, blank=True, verbose_name=_("links"))
    # The fields the speaker holds: name -> {"by": username, "at": ISO time}. An import keeps
    # a held field's value (its report names a file that says otherwise).
    held = models.JSONField(default=dict, blank=True, verbose_name=_("held by the speaker"))

    class Meta:
        verbose_name = _("speaker")
        verbose_name_plural = _("speakers")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="speaker_unique_key"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("web:speaker", kwargs={"event": self.event.slug, "key": self.key})

    @property
    def initials(self) -> str:
        """What stands in for a missing picture: "AL" for Ada Lovelace, "?" for no letters."""
        words = [word for word in self.name.split() if word[:1].isalnum()]
        if not words:
            return "?"
        first, last = words[0], words[-1]
        return (first[0] + (last[0] if len(words) > 1 else "")).upper()
