"""The team's speakers page (Right.PROGRAMME): each speaker's personal link, whether it was
mailed and opened, their address; give an address, mail the link, copy it, end it or replace
it. The speakers' own edits go live at once; what each changed is in the change log."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from confsched.core.errors import ConfschedError
from confsched.programme.actors import actor_name
from confsched.programme.models import Event, Speaker
from confsched.speakers import passes
from confsched.speakers.mail import mail_link
from confsched.speakers.models import SpeakerPass
from confsched.teams.rights import Right
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_page, site_address
from confsched.web.site.private import keep_private

ACTIONS = ("link", "mail", "revoke", "renew")


def absolute_link(request: HttpRequest, token: str) -> str:
    path = reverse("web:speaker_pass", kwargs={"token": token})
    return site_address(request) + path


@require_http_methods(["GET", "HEAD", "POST"])
def speakers_staff(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.PROGRAMME)
    if isinstance(found, HttpResponse):
        return found
    message, status = "", 200
    if request.method == "POST":
        try:
            message = _act(request, found)
        except ConfschedError as error:
            message, status = str(error), 400
        else:
            request.session["speakers_message"] = message
            return redirect(reverse("web:speakers_staff", kwargs={"event": found.slug}))
    else:
        message = request.session.pop("speakers_message", "")
    live = SpeakerPass.objects.filter(revoked_at__isnull=True)
    people = list(
        Speaker.objects.filter(event=found).prefetch_related(Prefetch("passes", live, "live"))
    )
    rows = []
    for speaker in people:
        current = speaker.live[0] if speaker.live else None
        link = absolute_link(request, passes.token_for(current)) if current else ""
        rows.append((speaker, current, link))
    unopened = sum(1 for _, current, _ in rows if current is None or current.opened_at is None)
    page = event_page(
        request, "confsched/speakers_staff.html", event=found, rows=rows, message=message,
        unopened=unopened, status=status,
    )  # fmt: skip
    return keep_private(page, is_secret_address=True)


def _act(request: HttpRequest, event: Event) -> str:
    action = request.POST.get("action", "")
    speaker = Speaker.objects.filter(event=event, key=request.POST.get("key", "")).first()
    if action not in ACTIONS or speaker is None:
        raise ConfschedError(gettext("Choose a speaker and what to do."))
    by = actor_name(request.user)
    if action == "revoke":
        passes.revoke_pass(speaker, by=by)
        return gettext("The link of %(name)s is ended.") % {"name": speaker.name}
    if action == "renew":
        made = passes.revoke_pass(speaker, renew=True, by=by)
    else:
        made = passes.issue_pass(speaker, by=by, email=request.POST.get("email", "").strip())
    assert made is not None
    if action == "mail":
        mail_link(made, link=absolute_link(request, passes.token_for(made)))
        return gettext("The link of %(name)s was mailed to %(email)s.") % {
            "name": speaker.name, "email": made.email,
        }  # fmt: skip
    return gettext("The link of %(name)s is ready.") % {"name": speaker.name}
