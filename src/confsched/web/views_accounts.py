"""Accounts: sign-up and log-in that carry a visitor's stars into the account."""

from __future__ import annotations

from django import forms
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters

from confsched.web.stars import adopt_visitor_stars


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=True, help_text="For resetting your password; never shown.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            adopt_visitor_stars(request)
            return redirect(_next_url(request))
    else:
        form = SignupForm()
    return render(request, "registration/signup.html", {"form": form, "next": _next_url(request)})


class ConfschedLoginView(LoginView):
    """Django's log-in (throttled by django-axes), then the visitor's stars join the account."""

    form_class = AuthenticationForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        adopt_visitor_stars(self.request)
        return response
