"""The team's review of speakers' edits (Right.PROGRAMME): the event's rules (edits live at once
or after review, editing closing at a date) and the queue of edits waiting, each shown as the
difference it would make, to approve or reject with a reason the speaker reads."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from confsched.core.errors import ConfschedError
from confsched.core.numbers import parse_count
from confsched.programme.actors import actor_name
from confsched.programme.models import Event
from confsched.speakers import review, writing
from confsched.speakers.differences import differences
from confsched.speakers.models import EditingRules
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_page, site_address
from confsched.web.site.private import keep_private

LOCAL_MINUTE = "%Y-%m-%dT%H:%M"


class RulesForm(forms.Form):
    review = forms.TypedChoiceField(
        label=gettext_lazy("Speakers' changes"), coerce=lambda value: value == "review",
        choices=[
            ("live", gettext_lazy("go live at once")),
            ("review", gettext_lazy("wait for the team's review")),
        ],
        widget=forms.RadioSelect,
    )  # fmt: skip
    closes_at = forms.DateTimeField(
        label=gettext_lazy("Editing closes at"), required=False, input_formats=[LOCAL_MINUTE],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_MINUTE),
        help_text=gettext_lazy("In the event's time zone. Empty: speakers may always edit."),
    )  # fmt: skip


@require_http_methods(["GET", "HEAD", "POST"])
def speakers_review(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.PROGRAMME)
    if isinstance(found, HttpResponse):
        return found
    rules = review.rules_for(found)
    # The form shows the event's wall-clock time (naive: not turned into the viewer's zone).
    local = (
        timezone.localtime(rules.closes_at, found.zone).replace(tzinfo=None)
        if rules.closes_at
        else None
    )
    form = RulesForm(initial={"review": "review" if rules.review else "live", "closes_at": local})
    message, status = request.session.pop("review_message", ""), 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "rules":
                form = RulesForm(request.POST)
                with timezone.override(found.zone):  # the date typed is the event's local time
                    valid = form.is_valid()
                if not valid:
                    raise ConfschedError(
                        gettext("Nothing was saved: please correct what is marked below.")
                    )
                message = _save_rules(found, form.cleaned_data, by=actor_name(request.user))
            else:
                message = _decide(request, found, action)
        except ConfschedError as refused:
            message, status = str(refused), 400
        else:
            request.session["review_message"] = message
            return redirect(reverse("web:speakers_review", kwargs={"event": found.slug}))
    waiting = [
        (
            change,
            differences(change, writing.public_values(change.kind, change.speaker, change.session)),
        )
        for change in review.queue(found)
    ]
    page = event_page(
        request, "confsched/speakers_review.html", event=found, form=form, waiting=waiting,
        decided=review.decided(found), rules=rules, message=message, status=status,
        closes_value=_local_minute(form["closes_at"].value()),
        closed=_closed(found, rules),
    )  # fmt: skip
    return keep_private(page)


def _closed(event: Event, rules: EditingRules) -> str:
    when = review.closed_since(event, rules)
    return review.closed_message(event, when) if when else ""


def _local_minute(value: object) -> str:
    """The date field's value as a datetime-local input takes it (what was typed, if refused)."""
    if isinstance(value, datetime):
        return value.strftime(LOCAL_MINUTE)
    return "" if value is None else str(value)


def _save_rules(event: Event, values: dict[str, Any], *, by: str) -> str:
    review.set_rules(event, review=values["review"], closes_at=values["closes_at"], by=by)
    if values["review"]:
        return gettext("Speakers' changes now wait for review.")
    return gettext("Speakers' changes now go live at once.")


def _decide(request: HttpRequest, event: Event, action: str) -> str:
    pk = parse_count(request.POST.get("change", ""), most=2**63 - 1)
    if action not in ("approve", "reject") or pk is None:
        raise ConfschedError(gettext("Choose a change and approve or reject it."))
    by = actor_name(request.user)
    if action == "approve":
        decision = review.approve(event, pk, by=by, base=site_address(request))
        if decision.published:
            return gettext("Approved: attendees see the change of %(name)s now.") % {
                "name": decision.change.speaker.name
            }
        return gettext("Approved; it changed nothing attendees see.")
    decision = review.reject(event, pk, by=by, reason=request.POST.get("reason", ""))
    return gettext("Rejected: %(name)s sees your reason on their page.") % {
        "name": decision.change.speaker.name
    }
