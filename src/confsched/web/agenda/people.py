"""People at an event: the attendee directory, my profile, and who is going to a session.

Only profiles their people opted into are shown, never a username or an e-mail address. The
pages are rendered per request and kept by no cache (a person who opts out disappears at once,
and the header names whoever is signed in); the session page itself, kept the same for
everyone, holds only a link here, which htmx turns into the list in place.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from confsched.agenda import people
from confsched.programme.models import Session
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.private import keep_private


class ProfileForm(forms.Form):
    """The form's fields as typed; agenda/people.save_profile judges them."""

    is_public = forms.BooleanField(
        required=False, label=gettext_lazy("Show me in the attendee directory")
    )
    display_name = forms.CharField(
        required=False, label=gettext_lazy("Display name"), max_length=2000,
        help_text=gettext_lazy("The name others see, such as “Ada L.”."),
    )  # fmt: skip
    company = forms.CharField(required=False, label=gettext_lazy("Company"), max_length=2000)
    role = forms.CharField(required=False, label=gettext_lazy("Role"), max_length=2000)
    links = forms.CharField(
        required=False, label=gettext_lazy("Links"), max_length=4000,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocapitalize": "off"}),
        help_text=format_lazy(
            gettext_lazy("Up to {count} web addresses (https://…), one a line."),
            count=people.MAX_LINKS,
        ),
    )  # fmt: skip


@require_safe
def directory(request: HttpRequest, event: str) -> HttpResponse:
    """The attendees who chose to be listed, searchable by name, role and company."""
    event_row = event_or_404(event)
    q = " ".join(request.GET.get("q", "").split())[: people.MAX_QUERY]
    listed = people.directory(event_row, q=q)
    response = event_page(
        request, "confsched/people.html", event=event_row, people=listed, q=q, nav="people"
    )
    return keep_private(response)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest, event: str) -> HttpResponse:
    """My profile at the event: off the directory unless I tick the box."""
    event_row = event_or_404(event)
    user = cast(User, request.user)  # login_required: never anonymous here
    current = people.profile_for(user, event_row)
    status = 200
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid():
            try:
                people.save_profile(user, event_row, **form.cleaned_data)
            except people.ProfileError as error:
                for field, messages in error.errors.items():
                    for message in messages:
                        form.add_error(field, message)
            else:
                url = reverse("web:profile", kwargs={"event": event_row.slug})
                return redirect(f"{url}?saved=1")
        status = 400
    else:
        form = ProfileForm(
            initial={
                "is_public": current.is_public, "display_name": current.display_name,
                "company": current.company, "role": current.role, "links": current.links,
            }
            if current is not None
            else {}
        )  # fmt: skip
    response = event_page(
        request, "confsched/profile.html", event=event_row, form=form, status=status,
        is_saved=request.method != "POST" and request.GET.get("saved") == "1",
        is_listed=current is not None and current.is_public,
    )  # fmt: skip
    return keep_private(response)


@require_safe
def going(request: HttpRequest, event: str, key: str) -> HttpResponse:
    """Who starred or reserved the session: opted-in names, a count for the rest. Asked by
    htmx (from the session page), just the list."""
    event_row = event_or_404(event)
    session = Session.objects.filter(event=event_row, key=key).published().first()
    if session is None:
        raise Http404(f"No session {key!r}")
    shown, others = people.going(session)
    if getattr(request, "htmx", False):
        response = render(
            request, "confsched/_going.html",
            {"event": event_row, "session": session, "going": shown, "others": others},
        )  # fmt: skip
    else:
        response = event_page(
            request, "confsched/going.html", event=event_row, session=session, going=shown,
            others=others,
        )  # fmt: skip
    response["Vary"] = "Cookie, HX-Request"
    return keep_private(response)
