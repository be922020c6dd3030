"""Reminders before my sessions: the agenda page's panel and the form that saves it."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from confsched.agenda import reminders
from confsched.agenda.models import ReminderMinutes, ReminderSetting
from confsched.core.numbers import parse_count
from confsched.core.text import shortened
from confsched.programme.models import Event
from confsched.web.site.pages import event_or_404

PANEL = "confsched/_reminders.html"
_MAIL_CHOICES = {"on": True, "off": False}


def panel_context(
    user: User, event: Event, *, is_saved: bool = False, setting: ReminderSetting | None = None
) -> dict[str, Any]:
    """What the panel shows: the person's setting (`setting` when read already; the default
    when never chosen)."""
    if setting is None:
        setting = reminders.reminder_setting(user, event)
    return {
        "event": event,
        "reminder": setting,
        "reminder_choices": ReminderMinutes.choices,
        "reminder_label": ReminderMinutes(setting.minutes).label,
        "has_email": bool(user.email),
        "is_saved": is_saved,
    }


def _bad_request(message: str) -> HttpResponse:
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


@login_required
@require_POST
def reminders_save(request: HttpRequest, event: str) -> HttpResponse:
    """The panel's form: minutes=0|5|10|15|30 and by_mail=on (absent: off)."""
    event_row = event_or_404(event)
    user = cast(User, request.user)  # login_required above: never anonymous here
    raw_minutes = request.POST.get("minutes", "")
    raw_mail = request.POST.get("by_mail", "off")
    minutes = parse_count(raw_minutes, most=max(ReminderMinutes.values))
    if minutes is None:
        offered = ", ".join(str(value) for value in ReminderMinutes.values)
        return _bad_request(
            f"The field 'minutes' must be one of {offered} (got {shortened(raw_minutes)!r})."
        )
    if raw_mail not in _MAIL_CHOICES:
        return _bad_request(
            f"The field 'by_mail' must be 'on' or left out (got {shortened(raw_mail)!r})."
        )
    try:
        reminders.set_reminders(user, event_row, minutes=minutes, by_mail=_MAIL_CHOICES[raw_mail])
    except reminders.InvalidReminderError as error:
        return _bad_request(str(error))
    if request.htmx:
        return render(request, PANEL, panel_context(user, event_row, is_saved=True))
    return redirect(reverse("web:agenda", kwargs={"event": event_row.slug}) + "#reminders")
