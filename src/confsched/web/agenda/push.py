"""Web Push on the agenda: the page of a person's devices with notifications on, the JSON the
browser posts to turn them on (push.js), and the button that turns one off without script."""

from __future__ import annotations

import json
from typing import cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from confsched.push import keys, queries, services
from confsched.push.checks import InvalidSubscriptionError
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.private import keep_private

# A browser's subscription is a few hundred bytes; anything much larger is not one.
MAX_BODY = 4096


@login_required
@require_safe
def devices(request: HttpRequest, event: str) -> HttpResponse:
    """The person's devices with notifications on at the event, each with its off button, and
    the button that turns them on here (shown by push.js where the browser can)."""
    event_row = event_or_404(event)
    user = cast(User, request.user)  # login_required above: never anonymous here
    page = event_page(
        request, "confsched/push_devices.html", event=event_row,
        devices=list(queries.devices_for(user, event_row)), vapid_key=keys.public_key(),
        is_turned_off=request.GET.get("off") == "1",
    )  # fmt: skip
    return keep_private(page)


@login_required
@require_POST
def subscribe(request: HttpRequest, event: str) -> HttpResponse:
    """The browser's PushSubscription.toJSON(), as JSON: 201 with the device's id and name, or
    400 saying what is wrong (nothing kept then)."""
    event_row = event_or_404(event)
    if len(request.body) > MAX_BODY:
        return _bad_request(f"The subscription is over {MAX_BODY} bytes: it cannot be one.")
    try:
        data = json.loads(request.body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return _bad_request(f"The subscription is not JSON ({exc}).")
    try:
        subscription = services.subscribe(
            cast(User, request.user), event_row, data,
            session_key=request.session.session_key or "",
            user_agent=request.headers.get("User-Agent", ""),
            language=getattr(request, "LANGUAGE_CODE", ""),
        )  # fmt: skip
    except InvalidSubscriptionError as error:
        return _bad_request(str(error))
    answer = JsonResponse({"id": subscription.pk, "label": subscription.shown_label}, status=201)
    return keep_private(answer)


@login_required
@require_POST
def turn_off(request: HttpRequest, event: str, pk: int) -> HttpResponse:
    """One device's off button: back to the list, which no longer shows it."""
    event_row = event_or_404(event)
    try:
        services.turn_off(cast(User, request.user), pk)
    except services.DeviceNotFoundError as error:
        return keep_private(
            HttpResponse(str(error), status=404, content_type="text/plain; charset=utf-8")
        )
    return redirect(reverse("web:push_devices", kwargs={"event": event_row.slug}) + "?off=1")


def _bad_request(message: str) -> HttpResponse:
    return keep_private(HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8"))
