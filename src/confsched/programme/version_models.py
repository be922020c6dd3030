"""The programme's history: each version an import, an edit or a release made, what changed in
it, and the programme it left (kept so that old versions stay readable). Imported by models.py,
whose models these point at by name."""

from __future__ import annotations

import zoneinfo

from django.db import models
from django.utils.translation import gettext_lazy as _

from confsched.programme.changes import FIXED_WORDS, say


class ScheduleVersion(models.Model):
    """One published state of the programme: what an import or an edit changed."""

    event = models.ForeignKey(
        "programme.Event",
        on_delete=models.CASCADE,
        related_name="versions",
        verbose_name=_("event"),
    )
    number = models.PositiveIntegerField(verbose_name=_("number"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    source = models.CharField(
        max_length=300,
        help_text=_("What made it: a file, a URL, an editor"),
        verbose_name=_("source"),
    )
    summary = models.CharField(max_length=300, verbose_name=_("summary"))
    # Who: the account's username, or "command line"; empty for versions older than teams.
    by = models.CharField(max_length=150, blank=True, verbose_name=_("by"))
    # A release's name, given by the editor who released a draft; "" for other versions.
    name = models.CharField(max_length=200, blank=True, verbose_name=_("name"))

    class Meta:
        verbose_name = _("schedule version")
        verbose_name_plural = _("schedule versions")
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="version_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.event.slug} v{self.number}"


class VersionSnapshot(models.Model):
    """The programme as a version left it (interchange/programme_json.py, zlib-compressed), so
    that /<event>/v/<number>/ and its exports stay readable after later versions."""

    version = models.OneToOneField(
        ScheduleVersion,
        on_delete=models.CASCADE,
        related_name="snapshot",
        verbose_name=_("version"),
    )
    data = models.BinaryField(verbose_name=_("data"))

    class Meta:
        verbose_name = _("version snapshot")
        verbose_name_plural = _("version snapshots")

    def __str__(self) -> str:
        return f"{self.version} programme"


class ChangeKind(models.TextChoices):
    ADDED = "added", _("Added")
    CANCELLED = "cancelled", _("Cancelled")
    RESTORED = "restored", _("Back in the programme")
    RETIMED = "retimed", _("New time")
    MOVED = "moved", _("New room")
    RETITLED = "retitled", _("New title")
    REDESCRIBED = "redescribed", _("New description")
    SPEAKERS = "speakers", _("Speakers changed")
    DETAILS = "details", _("Details changed")


class Change(models.Model):
    """One thing that happened to one session in one version, said in words."""

    version = models.ForeignKey(
        ScheduleVersion, on_delete=models.CASCADE, related_name="changes", verbose_name=_("version")
    )
    session = models.ForeignKey(
        "programme.Session",
        on_delete=models.CASCADE,
        related_name="changes",
        verbose_name=_("session"),
    )
    kind = models.CharField(max_length=20, choices=ChangeKind.choices, verbose_name=_("kind"))
    # What changed, as facts (changes.change_facts), said in the reader's language by `words`;
    # empty for changes recorded before facts were kept, which have only `description`.
    facts = models.JSONField(default=dict, blank=True, verbose_name=_("facts"))
    description = models.TextField(verbose_name=_("description"))  # in English

    class Meta:
        verbose_name = _("change")
        verbose_name_plural = _("changes")
        ordering = ["version", "pk"]
        indexes = [models.Index(fields=["session", "version"])]

    def __str__(self) -> str:
        return self.description

    @property
    def words(self) -> str:
        """What changed, in the active language (English words kept for older changes)."""
        return self.words_in(None)

    def words_in(self, zone: zoneinfo.ZoneInfo | None) -> str:
        """`words` with its times in `zone` (the reader's), else in the zone it was recorded in."""
        if self.facts or self.kind in FIXED_WORDS:
            return say(self.kind, self.facts, zone=zone)
        return self.description


class OutlineStep(models.Model):
    """One move of an event's `updated_at` (the version every kept page and outline is named
    by) and the sessions it touched: every session whose published outline row (its columns,
    room, track, level, or speakers' billing) may differ after it, and every session it added,
    unpublished or deleted. A process holding the outline at `since` reads only those sessions
    to have the outline at `until` (programme/queries.outline_after).

    Written only by the writers that know what they touched (programme/services/journal.py);
    any other write moves `updated_at` without a step, which breaks the chain and makes the next
    reader read the outline whole. So a step can be missing, never wrong."""

    event = models.ForeignKey(
        "programme.Event", on_delete=models.CASCADE, related_name="+", verbose_name=_("event")
    )
    since = models.DateTimeField(verbose_name=_("since"))
    until = models.DateTimeField(verbose_name=_("until"))
    sessions = models.JSONField(default=list, verbose_name=_("sessions"))

    class Meta:
        verbose_name = _("outline step")
        verbose_name_plural = _("outline steps")

    def __str__(self) -> str:
        return f"{self.event_id}: {self.since.isoformat()} → {self.until.isoformat()}"
