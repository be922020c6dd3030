from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    """Who may do what on which event: roles, invitations and the team's history."""

    name = "confsched.teams"
    label = "teams"
    verbose_name = _("Teams")
