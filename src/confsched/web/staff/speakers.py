"""The team's speakers page (Right.PROGRAMME): each speaker's personal link, whether it was
mailed and opened, their address, what their profile is missing; give an address, mail the
link, copy it, end it or replace it, remind a speaker what is missing, or mail every link and
remind every incomplete profile at once. Mails are queued for the worker
(speakers/mailing.py), never sent in the request; the page shows each one waiting, sent or
failed. The speakers' own edits go live at once; what each changed is in the change log."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from confsched.core.errors import ConfschedError
from confsched.programme.actors import actor_name
from confsched.programme.models import Event, Speaker
from confsched.speakers import mailing, passes
from confsched.speakers.completeness import with_waiting_edits
from confsched.speakers.mail import address_of
from confsched.speakers.models import SpeakerPass
from confsched.teams.rights import Right
from confsched.web.site.doors import acted, event_for
from confsched.web.site.pages import event_page, site_address
from confsched.web.site.private import keep_private

# Actions on one speaker (the form names them by `key`), and on all of them.
ACTIONS = ("link", "mail", "revoke", "renew", "remind")
ALL_ACTIONS = ("mail_all", "remind_all")


@dataclass(frozen=True)
class Row:
    speaker: Speaker
    current: SpeakerPass | None  # the live link
    link: str
    missing: str  # what the profile lacks, in words; "" when complete
    mailed: mailing.MailState  # the link's mails
    reminded: mailing.MailState


def absolute_link(request: HttpRequest, token: str) -> str:
    path = reverse("web:speaker_pass", kwargs={"token": token})
    return site_address(request) + path


@require_http_methods(["GET", "HEAD", "POST"])
def speakers_staff(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.PROGRAMME)
    if isinstance(found, HttpResponse):
        return found
    outcome = acted(request, found, act=_act, url_name="web:speakers_staff")
    if isinstance(outcome, HttpResponse):
        return outcome
    message, status = outcome
    rows = _rows(request, found)
    unopened = sum(1 for row in rows if row.current is None or row.current.opened_at is None)
    incomplete = sum(1 for row in rows if row.missing)
    page = event_page(
        request, "confsched/speakers_staff.html", event=found, rows=rows, message=message,
        unopened=unopened, incomplete=incomplete, status=status,
    )  # fmt: skip
    return keep_private(page, is_secret_address=True)


def _rows(request: HttpRequest, event: Event) -> list[Row]:
    live = SpeakerPass.objects.filter(revoked_at__isnull=True)
    people = list(
        with_waiting_edits(Speaker.objects.filter(event=event))
        .select_related("event")
        .prefetch_related(Prefetch("passes", live.select_related("user"), "live"))
    )
    states = mailing.mail_states(event, [p for speaker in people for p in speaker.live])
    rows = []
    for speaker in people:
        current = speaker.live[0] if speaker.live else None
        link = absolute_link(request, passes.token_for(current)) if current else ""
        mailed, reminded = (
            (states[current.pk, mailing.LINK], states[current.pk, mailing.REMINDER])
            if current
            else (mailing.MailState(), mailing.MailState())
        )
        missing = mailing.missing_text(speaker)
        rows.append(Row(speaker, current, link, missing, mailed, reminded))
    return rows


def _act(request: HttpRequest, event: Event) -> str:
    action = request.POST.get("action", "")
    if action in ALL_ACTIONS:
        return _act_on_all(request, event, action)
    if action not in ACTIONS:
        raise ConfschedError(
            gettext("'%(action)s' is not something this page does: choose a button.")
            % {"action": action[:40]}
        )
    key = request.POST.get("key", "")
    speaker = Speaker.objects.filter(event=event, key=key).first()
    if speaker is None:
        raise ConfschedError(
            gettext("No speaker of this event has the key '%(key)s'.") % {"key": key[:80]}
        )
    by, site = actor_name(request.user), site_address(request)
    if action == "revoke":
        passes.revoke_pass(speaker, by=by)
        return gettext("The link of %(name)s is ended.") % {"name": speaker.name}
    if action == "remind":
        return _remind(speaker, site=site)
    if action == "renew":
        made = passes.revoke_pass(speaker, renew=True, by=by)
    else:
        made = passes.issue_pass(speaker, by=by, email=request.POST.get("email", "").strip())
    assert made is not None
    if action == "mail":
        mailing.queue_link(made, site=site)
        return gettext("The link of %(name)s is queued to be mailed to %(email)s.") % {
            "name": speaker.name, "email": address_of(made),
        }  # fmt: skip
    return gettext("The link of %(name)s is ready.") % {"name": speaker.name}


def _remind(speaker: Speaker, *, site: str) -> str:
    current = passes.live_pass(speaker)
    if current is None:
        raise ConfschedError(
            gettext("%(name)s has no link yet: make one and give their address first.")
            % {"name": speaker.name}
        )
    mailing.queue_reminder(current, site=site)
    return gettext("A reminder to %(name)s is queued (missing: %(missing)s).") % {
        "name": speaker.name, "missing": mailing.missing_text(speaker),
    }  # fmt: skip


def _act_on_all(request: HttpRequest, event: Event, action: str) -> str:
    site = site_address(request)
    if action == "mail_all":
        batch = mailing.queue_all_links(event, site=site)
        said = [
            ngettext(
                "%(count)s link is queued to be mailed.",
                "%(count)s links are queued to be mailed.",
                batch.queued,
            )
            % {"count": batch.queued}
        ]
        if batch.opened:
            said.append(
                ngettext(
                    "%(count)s speaker has opened their link already and was skipped.",
                    "%(count)s speakers have opened their link already and were skipped.",
                    batch.opened,
                )
                % {"count": batch.opened}
            )
    else:
        batch = mailing.queue_all_reminders(event, site=site)
        said = [
            ngettext(
                "%(count)s reminder is queued.", "%(count)s reminders are queued.", batch.queued
            )
            % {"count": batch.queued}
        ]
    if batch.without_address:
        said.append(
            ngettext(
                "%(count)s speaker has no address and was skipped.",
                "%(count)s speakers have no address and were skipped.",
                batch.without_address,
            )
            % {"count": batch.without_address}
        )
    return " ".join(said)
