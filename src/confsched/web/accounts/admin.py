"""The admin's user screens (Django's own), with one account per e-mail address asked of the
address field (emails.py): a clear form error, not the database's refusal as a 500."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.contrib.auth.models import User
from django.utils.translation import gettext

from confsched.web.accounts import emails


class AccountChangeForm(UserChangeForm):
    def clean_email(self) -> str:
        email = self.cleaned_data.get("email") or ""
        other = emails.holders(email).exclude(pk=self.instance.pk).first()
        if other is not None:
            raise forms.ValidationError(
                gettext("The account %(username)s has this e-mail address already.")
                % {"username": other.get_username()},
                code="duplicate_email",
            )
        return email


class AccountAdmin(UserAdmin):
    form = AccountChangeForm


admin.site.unregister(User)
admin.site.register(User, AccountAdmin)
