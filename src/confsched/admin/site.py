"""The admin site with teams: who may enter, and the log-in form that lets them.

A person enters the admin when they are a site administrator, `is_staff` (for Django's own
screens, by Django's permissions: users and groups), or hold Right.READ on at least one event
(owners, editors and viewers; check-in alone opens only the check-in pages). What each screen
shows is decided by the event-scoped ModelAdmins (admin/scoped.py), not here.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from confsched.teams.access import holds_anywhere
from confsched.teams.rights import Right


def may_enter(user: Any) -> bool:
    if user is None or not user.is_active:
        return False
    return bool(user.is_staff or user.is_superuser or holds_anywhere(user, Right.READ))


class TeamAuthenticationForm(AdminAuthenticationForm):
    """Django's admin log-in, which asks `is_staff`, asking `may_enter` instead."""

    def confirm_login_allowed(self, user: Any) -> None:
        if not may_enter(user):
            raise ValidationError(
                self.error_messages["invalid_login"],
                code="invalid_login",
                params={"username": self.username_field.verbose_name},
            )


class TeamAdminSite(admin.AdminSite):
    login_form = TeamAuthenticationForm

    def has_permission(self, request: HttpRequest) -> bool:
        return may_enter(request.user)
