"""`confsched send-alerts`, the spelling the docs and cron lines use: the same command."""

from confsched.agenda.management.commands.send_alerts import Command

__all__ = ["Command"]
