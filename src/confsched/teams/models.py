"""Teams as stored: who holds which role on which event, invitations out, and the team's
history (who changed what, by whom).

The tables keep the names they had when these models lived in programme/ (migration teams 0001
took them over without touching the database)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from confsched.teams.rights import Role


class TeamMember(models.Model):
    """One person's role on one event (one role per person and event)."""

    event = models.ForeignKey(
        "programme.Event", on_delete=models.CASCADE, related_name="team", verbose_name=_("event")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="team_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(max_length=20, choices=Role.choices, verbose_name=_("role"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        db_table = "programme_teammember"
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["event", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="team_one_role_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) on {self.event_id}"


class Invitation(models.Model):
    """An invitation mailed to `email` for `role`; the mail's signed link names its pk."""

    event = models.ForeignKey(
        "programme.Event",
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("event"),
    )
    email = models.EmailField(verbose_name=_("email"))
    role = models.CharField(max_length=20, choices=Role.choices, verbose_name=_("role"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    invited_by = models.CharField(
        max_length=150,
        help_text=gettext_lazy("A username, or 'command line'"),
        verbose_name=_("invited by"),
    )
    accepted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("accepted at"))

    class Meta:
        db_table = "programme_invitation"
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.email} ({self.role})"


class TeamChange(models.Model):
    """One change to a team, for the history: what, to whom, by whom."""

    event = models.ForeignKey(
        "programme.Event",
        on_delete=models.CASCADE,
        related_name="team_changes",
        verbose_name=_("event"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    by = models.CharField(
        max_length=150,
        help_text=gettext_lazy("A username, or 'command line'"),
        verbose_name=_("by"),
    )
    # What happened (services/teams.team_words says it in the reader's language); empty for
    # lines recorded before facts were kept, which have only `description`.
    facts = models.JSONField(default=dict, blank=True, verbose_name=_("facts"))
    description = models.CharField(max_length=300, verbose_name=_("description"))  # in English

    class Meta:
        db_table = "programme_teamchange"
        verbose_name = _("team change")
        verbose_name_plural = _("team changes")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.description
