"""A person's own data: all of it as a JSON download, and deleting the account with it."""

from __future__ import annotations

import json
from typing import cast

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_safe

from confsched.agenda import people
from confsched.agenda.models import AgendaItem, Feedback, Reservation
from confsched.core.errors import TeamError
from confsched.speakers.data import speaker_data
from confsched.web.accounts.login_throttle import password_is_right
from confsched.web.accounts.views import account_page
from confsched.web.site.pages import site_address
from confsched.web.site.private import keep_private

DELETED_MESSAGE = gettext_lazy(
    "Your account is deleted, with everything in it; your reserved seats went to the next on "
    "each waitlist."
)


@login_required
@require_safe
def data_download(request: HttpRequest) -> HttpResponse:
    """Everything about the signed-in person, as a file to keep."""
    user = cast(User, request.user)  # login_required: never anonymous here
    data = people.export_data(user)
    data["speaker_pages"] = speaker_data(user, base=site_address(request))  # and each upload
    body = json.dumps(data, ensure_ascii=False, indent=2)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="confsched-data-{user.get_username()}.json"'
    )
    response["Cache-Control"] = "private, no-store"
    patch_vary_headers(response, ("Cookie",))
    return response


class DeleteForm(forms.Form):
    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=gettext_lazy(
            "Typed again, so that no one else at this device can delete your account."
        ),
    )

    def __init__(self, request: HttpRequest, user: User, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.request = request
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not password_is_right(self.request, self.user, password):
            raise forms.ValidationError(
                gettext("That is not your password: nothing was deleted."), code="wrong_password"
            )
        return password

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        alone = people.events_owned_alone(self.user)
        if alone:
            raise forms.ValidationError(people.last_owner_message(alone), code="last_owner")
        return cleaned


def _forget_log_ins(username: str) -> None:
    """django-axes's records of the name's log-ins and failures (addresses, browsers) go too:
    they are the person's, and a new account of the same name starts with none."""
    rows: tuple[type[Model], ...] = (AccessAttempt, AccessFailureLog, AccessLog)
    for model in rows:
        model._default_manager.filter(username=username).delete()


@login_required
@sensitive_post_parameters("password")
@require_http_methods(["GET", "HEAD", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """GET: what goes, and the form; POST with the password: everything goes, then home."""
    user = cast(User, request.user)  # login_required: never anonymous here
    form = DeleteForm(request, user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        username = user.get_username()
        try:
            with transaction.atomic():
                people.delete_account(user)
                _forget_log_ins(username)
        except TeamError as exc:  # made the last owner since the form was checked
            form.add_error(None, str(exc))
            return _delete_page(request, user, form)
        logout(request)
        messages.success(request, DELETED_MESSAGE)
        done: HttpResponse = redirect("web:home")
        # As at log-out: the browser drops the offline copy and the stars kept for sending.
        done["Clear-Site-Data"] = '"cache", "storage"'
        return done
    return _delete_page(request, user, form)


def _delete_page(request: HttpRequest, user: User, form: DeleteForm) -> HttpResponse:
    counts = {
        "stars": AgendaItem.objects.filter(user=user).count(),
        "reservations": Reservation.objects.filter(user=user).count(),
        "feedback": Feedback.objects.filter(user=user).count(),
    }
    alone = people.events_owned_alone(user)
    response = account_page(
        request, "registration/account_delete.html",
        {"form": form, **counts,
         "last_owner": people.last_owner_message(alone) if alone and not form.errors else ""},
        status=400 if request.method == "POST" else 200,
    )  # fmt: skip
    return keep_private(response)
