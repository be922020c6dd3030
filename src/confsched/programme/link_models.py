"""What hangs off a session: its links (slides, recordings) and its speakers in billing order.
Kept apart from models.py, which names them for the app."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.core.validators import URLValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class LinkKind(models.TextChoices):
    SLIDES = "slides", "Slides"
    VIDEO = "video", "Video"
    LINK = "link", "Link"


class SessionLink(models.Model):
    """A page or file about a session, in the source's order: its slides, a recording, ..."""

    session = models.ForeignKey(
        "programme.Session",
        on_delete=models.CASCADE,
        related_name="links",
        verbose_name=_("session"),
    )
    position = models.PositiveIntegerField(default=0, verbose_name=_("position"))
    kind = models.CharField(
        max_length=10, choices=LinkKind.choices, default=LinkKind.LINK, verbose_name=_("kind")
    )
    title = models.CharField(max_length=300, blank=True, verbose_name=_("title"))
    # Pages link to it: only web addresses (never javascript: or data:).
    url = models.URLField(
        max_length=1000, validators=[URLValidator(schemes=["http", "https"])], verbose_name=_("url")
    )
    # Who set it: "" for the organizer's file (an import replaces those), else the speaker's
    # username: an import never removes or changes a link a speaker added (services/held.py).
    held_by = models.CharField(max_length=150, blank=True, verbose_name=_("held by"))

    class Meta:
        verbose_name = _("session link")
        verbose_name_plural = _("session links")
        ordering = ["position", "pk"]

    def __str__(self) -> str:
        return self.title or self.url

    @property
    def label(self) -> str:
        """The link's words on a page: its title, else what it is ("Slides", "Video")."""
        return self.title or LinkKind(self.kind).label

    @property
    def host(self) -> str:
        """Where it leads ("speakerdeck.com"), shown beside it: the address is the source's."""
        try:
            host = urlsplit(self.url).hostname or ""
        except ValueError:  # stored before validation caught it: show no host rather than fail
            host = ""
        return host.removeprefix("www.")


class SessionSpeaker(models.Model):
    """A speaker on a session, in billing order, with the affiliation the session names."""

    session = models.ForeignKey(
        "programme.Session",
        on_delete=models.CASCADE,
        related_name="speaker_links",
        verbose_name=_("session"),
    )
    speaker = models.ForeignKey(
        "programme.Speaker",
        on_delete=models.CASCADE,
        related_name="session_links",
        verbose_name=_("speaker"),
    )
    position = models.PositiveIntegerField(default=0, verbose_name=_("position"))
    affiliation = models.CharField(max_length=200, blank=True, verbose_name=_("affiliation"))

    class Meta:
        verbose_name = _("session speaker")
        verbose_name_plural = _("session speakers")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "speaker"], name="session_speaker_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.speaker} on {self.session}"

    @property
    def company(self) -> str:
        return self.affiliation or self.speaker.company
