"""Accounts: sign-up, log-in, log-out and the password pages.

Each page keeps the frame of the event it was reached from (its `?next=` is an address on that
event's pages): the event's header and navigation and a link back. Reached from nowhere in
particular, it is in the site's own plain frame. Sign-up and log-in carry a visitor's stars
into the account.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from django import forms
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters

from confsched.programme import queries
from confsched.programme.models import Event
from confsched.web.accounts import backends, emails
from confsched.web.accounts.login_throttle import forget_failures, password_is_right
from confsched.web.agenda.stars import adopt_visitor_stars
from confsched.web.site.languages import use_event_language
from confsched.web.site.local_paths import local_path
from confsched.web.site.pages import event_page
from confsched.web.site.private import keep_private

EVENT_FRAME = "registration/_event_frame.html"
SITE_FRAME = "registration/_site_frame.html"
# An account page's ?next= may be another account page with its own ?next= (the log-in a
# password change asks for first); this many of them are followed to find the event.
MAX_NESTED_NEXT = 3


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=True,
        label=gettext_lazy("Email"),
        help_text=gettext_lazy("For resetting your password; never shown."),
        # Browsers and password managers fill it in (WCAG 1.3.5, 3.3.8).
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        """One account per address (trimmed, whatever its case: emails.py), so that a password
        reset reaches one account. The database holds to it too, for two sign-ups at once."""
        email = self.cleaned_data["email"]
        if emails.holders(email).exists():
            raise forms.ValidationError(emails.TAKEN, code="duplicate_email")
        return email


def _next_url(request: HttpRequest) -> str:
    """Where to go after: the request's `next` when it is a path on this site, else home."""
    return local_path(request.POST.get("next") or request.GET.get("next"))


def event_of_address(address: str) -> Event | None:
    """The event whose page `address` is (its first path segment names it), if any.

    An account page's address counts as the event of its own `next`: the log-in in front of a
    password change reached from an event belongs to that event too.
    """
    for _ in range(MAX_NESTED_NEXT + 1):
        parts = urlsplit(address)
        segments = parts.path.split("/")
        if len(segments) < 3 or segments[0] != "":
            return None
        if segments[1] != "accounts":
            return queries.event_for_slug(segments[1])
        address = (parse_qs(parts.query).get("next") or [""])[0]
    return None


def with_next(url: str, request: HttpRequest) -> str:
    """`url` carrying the request's `next` on, so the page after keeps the event's frame."""
    back = _next_url(request)
    return f"{url}?next={quote(back, safe='/')}" if back != "/" else url  # as |urlencode does


def account_page(
    request: HttpRequest, template: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """An account page in the frame of the event its `next` belongs to, else the site's;
    never stored, nor kept in an offline copy (its forms take passwords and addresses).

    `next` (where to go after) and `back` (the link back, empty when that is the home page)
    join the context.
    """
    back = _next_url(request)
    context = {**context, "next": back, "back": "" if back == "/" else back}
    event = event_of_address(back)
    if event is None:
        page = render(request, template, {**context, "account_frame": SITE_FRAME}, status=status)
        return keep_private(page)
    # The corner in the event's language too, as the rest of the page (event_page sets it).
    use_event_language(event)
    corner = render_to_string("registration/_account_corner.html", context, request)
    return keep_private(
        event_page(
            request,
            template,
            event=event,
            status=status,
            account_frame=EVENT_FRAME,
            account_html=corner,
            **context,
        )  # fmt: skip
    )


class InFrame:
    """Mixed into Django's account views: their page is rendered by account_page."""

    request: HttpRequest
    get_template_names: Callable[[], list[str]]  # Django's view's

    def render_to_response(self, context: dict[str, Any], **response_kwargs: Any) -> HttpResponse:
        status = response_kwargs.get("status", 200)
        return account_page(self.request, self.get_template_names()[0], context, status=status)


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            try:
                with transaction.atomic():
                    user = form.save()
            except IntegrityError:
                # Another sign-up took the address or the name between this form's checks and
                # its save (the database refused the second): asked again, the form says
                # which, as it would have a moment later. Anything else is no race of ours.
                form = SignupForm(request.POST)
                if form.is_valid():
                    raise
            else:
                login(request, user, backend=backends.PATH)
                adopt_visitor_stars(request)
                return HttpResponseRedirect(_next_url(request))
    else:
        form = SignupForm()
    return account_page(request, "registration/signup.html", {"form": form})


class LocalNext:
    """Mixed into Django's log-in and log-out: their `next` followed only to a path on this
    site (local_paths.py); Django's own test lets a bare word through."""

    request: HttpRequest
    redirect_field_name: str

    def get_redirect_url(self) -> str:
        name = self.redirect_field_name
        return local_path(self.request.POST.get(name) or self.request.GET.get(name), default="")


class ConfschedLoginView(LocalNext, InFrame, auth_views.LoginView):
    """Django's log-in (throttled by django-axes), then the visitor's stars join the account."""

    form_class = AuthenticationForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        adopt_visitor_stars(self.request)
        return response


class LogoutView(LocalNext, InFrame, auth_views.LogoutView):
    """Log-out is a POST (every page's header has the button). A GET logs nobody out: it
    answers 405, with a page that has the button, for whoever followed a link here."""

    http_method_names = ["get", "post", "options"]
    template_name = "registration/logout.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = self.render_to_response(self.get_context_data(), status=405)
        response["Allow"] = "POST, OPTIONS"
        return response

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        # The browser drops the offline copy (pages with the name and private addresses) and
        # the stars kept for sending: the next person on this device starts with neither.
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's form, with the old password asked as a log-in asks (login_throttle)."""

    request: HttpRequest

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        if not password_is_right(self.request, self.user, old_password):
            wrong = self.error_messages["password_incorrect"]
            raise ValidationError(wrong, code="password_incorrect")
        return old_password


class PasswordChangeView(InFrame, auth_views.PasswordChangeView):
    form_class = ThrottledPasswordChangeForm

    def get_form(self, form_class: Any = None) -> Any:
        form = super().get_form(form_class)
        form.request = self.request
        return form

    def get_success_url(self) -> str:
        return with_next(reverse("password_change_done"), self.request)


class PasswordChangeDoneView(InFrame, auth_views.PasswordChangeDoneView):
    pass


class PasswordResetView(InFrame, auth_views.PasswordResetView):
    """The mail's link carries `next` on, so the new password is chosen in the event's frame."""

    email_template_name = "registration/reset_mail_body.txt"
    subject_template_name = "registration/reset_mail_subject.txt"

    def form_valid(self, form: Any) -> HttpResponse:
        self.extra_email_context = {"next": _next_url(self.request)}
        return super().form_valid(form)

    def get_success_url(self) -> str:
        return with_next(reverse("password_reset_done"), self.request)


class PasswordResetDoneView(InFrame, auth_views.PasswordResetDoneView):
    pass


class PasswordResetConfirmView(InFrame, auth_views.PasswordResetConfirmView):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = super().dispatch(request, *args, **kwargs)
        # Django moves the token from the address into the session with a redirect that
        # drops the query; `next` goes along.
        if kwargs.get("token") != self.reset_url_token and response.status_code == 302:
            response["Location"] = with_next(response["Location"], request)
        return response

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        # The mail's link proved who they are: the failed log-ins that paused their account
        # are forgotten, as the lock-out page's "reset your password" promises.
        forget_failures(form.user.get_username())
        return response

    def get_success_url(self) -> str:
        return with_next(reverse("password_reset_complete"), self.request)


class PasswordResetCompleteView(InFrame, auth_views.PasswordResetCompleteView):
    pass
