"""The team page (owners: Right.TEAM): who holds which role, invitations out, what changed;
inviting by email, changing a role, removing a member, withdrawing an invitation. And the
page an invitation's link opens, where the invited person accepts after logging in or
signing up (the link is the `next` of both, so it survives the round trip).

Every write is teams/services.py's; a refused change comes back as the page with
the reason (400), a done one as a redirect with one line saying what happened.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from confsched.core.errors import TeamError
from confsched.core.numbers import BIG_INTEGER_MAX, parse_count
from confsched.programme.actors import actor_name, by_words
from confsched.programme.models import Event
from confsched.teams.models import Invitation, TeamChange, TeamMember
from confsched.teams.rights import DESCRIPTIONS, Right, Role, parse_role
from confsched.teams.services import (
    InvitationNotMailed,
    accept_invitation,
    add_member,
    change_words,
    invitation_from_token,
    invite,
    remove_member,
    role_word,
    withdraw_invitation,
)
from confsched.web.site.doors import event_for
from confsched.web.site.pages import event_or_404, event_page
from confsched.web.site.private import keep_private

HISTORY_SHOWN = 20


@require_http_methods(["GET", "HEAD", "POST"])
def team(request: HttpRequest, event: str) -> HttpResponse:
    found = event_for(request, event, need=Right.TEAM)
    if isinstance(found, HttpResponse):
        return found
    message, status, link = "", 200, ""
    if request.method == "POST":
        try:
            message = _change(request, found)
        except InvitationNotMailed as exc:
            # The invitation is kept: the owner passes its link on by hand.
            request.session["team_message"] = str(exc)
            request.session["team_link"] = [exc.invitation.email, exc.link]
            return redirect(reverse("web:team", kwargs={"event": found.slug}))
        except TeamError as exc:
            message, status = str(exc), 400
        if status == 200:
            request.session["team_message"] = message
            return redirect(reverse("web:team", kwargs={"event": found.slug}))
    else:
        message = request.session.pop("team_message", "")
        link = request.session.pop("team_link", "")
    members = list(
        TeamMember.objects.filter(event=found).select_related("user").order_by("user__username")
    )
    response = event_page(
        request, "confsched/team.html", event=found, status=status, members=members,
        invitations=Invitation.objects.filter(event=found, accepted_at__isnull=True),
        changes=[
            (change, change_words(change), by_words(change.by))
            for change in TeamChange.objects.filter(event=found)[:HISTORY_SHOWN]
        ],
        roles=[(role.value, role.label, DESCRIPTIONS[role]) for role in Role],
        message=message, is_error=status != 200 or bool(link), typed=request.POST.get("email", ""),
        unsent=link,
        typed_role=request.POST.get("role", Role.VIEWER.value),
    )  # fmt: skip
    return keep_private(response)


def _role(request: HttpRequest) -> Role:
    try:
        return parse_role(request.POST.get("role", ""))
    except ValueError as exc:
        raise TeamError(str(exc)) from None


def _member(request: HttpRequest, event: Event) -> TeamMember:
    number = parse_count(request.POST.get("member", ""), most=BIG_INTEGER_MAX)
    member = (
        TeamMember.objects.filter(event=event, pk=number).select_related("user").first()
        if number is not None
        else None
    )
    if member is None:
        raise TeamError(gettext("That person is no longer in the team."))
    return member


def _change(request: HttpRequest, event: Event) -> str:
    """Carry out the owner's form; the sentence that says what happened."""
    action = request.POST.get("action", "")
    by = actor_name(request.user)
    if action == "invite":
        role = _role(request)
        email = request.POST.get("email", "").strip()
        invite(event, email, role, by=by, link_for=lambda token: _join_url(request, event, token))
        return gettext("Invitation mailed to %(email)s (%(role)s); the link works for 7 days.") % {
            "email": email,
            "role": role_word(role),
        }
    if action == "role":
        member, role = _member(request, event), _role(request)
        add_member(event, member.user, role, by=by)
        return gettext("%(name)s is now %(role)s.") % {
            "name": member.user.get_username(), "role": role_word(role),
        }  # fmt: skip
    if action == "remove":
        member = _member(request, event)
        remove_member(event, member.user, by=by)
        return gettext("%(name)s is no longer in the team.") % {"name": member.user.get_username()}
    if action == "withdraw":
        number = parse_count(request.POST.get("invitation", ""), most=BIG_INTEGER_MAX)
        invitation = (
            Invitation.objects.filter(event=event, accepted_at__isnull=True, pk=number).first()
            if number is not None
            else None
        )
        if invitation is None:
            raise TeamError(gettext("That invitation was already accepted or withdrawn."))
        withdraw_invitation(invitation, by=by)
        return gettext("The invitation of %(email)s is withdrawn; its link no longer works.") % {
            "email": invitation.email
        }
    raise TeamError(gettext("Unknown change '%s'.") % action)


def _join_url(request: HttpRequest, event: Event, token: str) -> str:
    return request.build_absolute_uri(
        reverse("web:team_join", kwargs={"event": event.slug, "token": token})
    )


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, event: str, token: str) -> HttpResponse:
    """An invitation's link: log in or sign up first (the link is their `next`), then accept."""
    found = event_or_404(event)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        invitation = invitation_from_token(token)
        if invitation.event_id != found.pk:
            raise TeamError(gettext("This invitation is for another event."))
    except TeamError as exc:
        page = event_page(request, "confsched/team_join.html", event=found, error=str(exc),
                          status=400)  # fmt: skip
        return keep_private(page)
    if request.method == "POST":
        try:
            member = accept_invitation(invitation, request.user)
        except TeamError as exc:
            page = event_page(request, "confsched/team_join.html", event=found, error=str(exc),
                              status=400)  # fmt: skip
            return keep_private(page)
        role = Role(member.role)
        target = "web:checkin" if role == Role.CHECKIN else "web:schedule"
        return redirect(reverse(target, kwargs={"event": found.slug}))
    role = Role(invitation.role)
    page = event_page(
        request, "confsched/team_join.html", event=found, invitation=invitation,
        role_label=role_word(role), role_description=DESCRIPTIONS[role],
    )  # fmt: skip
    return keep_private(page)
