"""The teams' screens in the admin: the team's history, read only (who joined, left, changed
role or was invited, and by whom). Members and invitations are managed on the event's team page
(web/staff/team.py), which says what each role may do."""

from __future__ import annotations

from django.contrib import admin

from confsched.admin.scoped import HistoryAdmin
from confsched.teams.models import TeamChange


@admin.register(TeamChange)
class TeamChangeAdmin(HistoryAdmin):
    list_display = ("created_at", "event", "by", "description")
    search_fields = ("description", "by")
