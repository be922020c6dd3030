"""Alerts about my sessions: turning them on, the one-click unsubscribe, the private feed."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from confsched.agenda import alerts
from confsched.web.site.feeds import use_feed_language, versions_feed
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.private import keep_private

_CHOICES = {"on": True, "off": False}


@login_required
@require_POST
def alerts_toggle(request: HttpRequest, event: str) -> HttpResponse:
    """The agenda page's opt-in form: alerts=on or alerts=off."""
    event_row = event_or_404(event)
    choice = request.POST.get("alerts", "")
    if choice not in _CHOICES:
        return HttpResponseBadRequest(
            f"The field 'alerts' must be 'on' or 'off' (got {choice!r}).",
            content_type="text/plain; charset=utf-8",
        )
    # login_required above: never anonymous here.
    alerts.set_alerts(cast(User, request.user), event_row, is_on=_CHOICES[choice])
    return redirect(reverse("web:agenda", kwargs={"event": event_row.slug}) + "#alerts")


# No CSRF check: RFC 8058 mail clients POST this URL with no cookie, and the token is the
# credential. A GET only shows the button (mail scanners fetch links they see).
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def alerts_unsubscribe(request: HttpRequest, event: str, token: str) -> HttpResponse:
    event_row = event_or_404(event)
    subscription = alerts.subscription_for_token(event_row, token)
    if subscription is None:
        raise Http404("No such unsubscribe link (it may belong to another event)")
    if request.method == "POST":
        alerts.unsubscribe(subscription)
    response = event_page(
        request, "confsched/alerts_unsubscribe.html", event=event_row,
        is_done=request.method == "POST", is_on=subscription.is_on,
    )  # fmt: skip
    return keep_private(response, is_secret_address=True)


@require_safe
def alerts_feed(request: HttpRequest, event: str, token: str) -> HttpResponse:
    """The same digests as the emails, one entry per version; the token is the credential."""
    event_row = event_or_404(event)
    links = alerts.links_for_alert_feed(event_row, token)
    if links is None:
        raise Http404("No such feed")
    language = use_feed_language(request, event_row)
    agenda_url = request.build_absolute_uri(reverse("web:agenda", kwargs={"event": event_row.slug}))
    response = versions_feed(
        request, event_row, link=agenda_url, language=language,
        title=gettext("%(event)s: changes to my sessions") % {"event": event_row.name},
        description=gettext("Changes to the sessions I starred at %(event)s")
        % {"event": event_row.name},
        entries=(
            (
                version,
                alerts.digest_subject(event_name=event_row.name, sessions=sessions),
                [f"{session.title}: {'; '.join(session.changes)}" for session in sessions],
            )
            for version, sessions in alerts.feed_digests(links.user, event_row)
        ),
        tag=f"alerts:{links.pk}:",
    )  # fmt: skip
    return keep_private(response, is_secret_address=True)
