"""Every write to a team: add, change a role, remove, invite, accept. Each records what it did
and by whom (a username, or "command line") as a TeamChange, in the same transaction.

An event keeps at least one owner: removing or demoting the last one is refused. Invitations
are mailed as a signed link (django.core.signing, salted for this use) naming the invitation;
the link expires after INVITATION_DAYS and works once.
"""

from __future__ import annotations

import smtplib
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext, pgettext_lazy

from confsched.core import clock
from confsched.core.errors import TeamError
from confsched.core.mail import compose_mail
from confsched.core.text import one_line, shortened
from confsched.programme.models import Event
from confsched.teams.access import forget_roles
from confsched.teams.models import Invitation, TeamChange, TeamMember
from confsched.teams.rights import DESCRIPTIONS, Role

INVITATION_DAYS = 7
_SALT = "confsched.team.invitation"


class InvitationNotMailed(TeamError):
    """The invitation is recorded but its mail could not be sent: `link` is to pass on by
    hand."""

    def __init__(self, invitation: Invitation, link: str, reason: str) -> None:
        self.invitation, self.link, self.reason = invitation, link, reason
        super().__init__(
            gettext(
                "The invitation of %(email)s is kept, but its mail could not be sent "
                "(%(reason)s). Pass the link on by hand: it works once, for %(days)s days."
            )
            % {"email": invitation.email, "reason": reason, "days": INVITATION_DAYS}
        )


# Each role as a word inside a sentence ("… is now editor"): lower case in English and French,
# a noun in German.
ROLE_WORDS = {
    Role.OWNER: pgettext_lazy("role in a sentence", "owner"),
    Role.EDITOR: pgettext_lazy("role in a sentence", "editor"),
    Role.VIEWER: pgettext_lazy("role in a sentence", "viewer"),
    Role.CHECKIN: pgettext_lazy("role in a sentence", "check-in"),
}


def role_word(role: Role) -> str:
    """The role in the language of the page or mail, as a word in a sentence."""
    return str(ROLE_WORDS[Role(role)])


def find_person(text: str) -> Any:
    """The one account whose username or email is `text` (case-insensitive), else TeamError."""
    text = text.strip()
    users = get_user_model().objects.filter(Q(username__iexact=text) | Q(email__iexact=text))
    matches = list(users[:2])
    if len(matches) != 1:
        if not matches:
            raise TeamError(gettext("No account has the username or email '%s'.") % text)
        raise TeamError(gettext("More than one account has the username or email '%s'.") % text)
    return matches[0]


def _last_owner(name: str, event: Event) -> str:
    return gettext("%(name)s is the last owner of %(event)s: make someone else owner first.") % {
        "name": name, "event": event.name,
    }  # fmt: skip


def _owners(event: Event) -> int:
    return TeamMember.objects.filter(event=event, role=Role.OWNER).count()


def _record(event: Event, by: str, facts: dict[str, str]) -> None:
    """A line of the team's history: its facts, said in each reader's language (`team_words`),
    and its words in English (the admin's, and all that lines recorded before facts have)."""
    with translation.override("en"):
        description = team_words(facts)
    TeamChange.objects.create(event=event, by=by[:150], facts=facts, description=description[:300])
    Event.objects.filter(pk=event.pk).update(updated_at=clock.now())


def team_words(facts: dict[str, str]) -> str:
    """A line of the team's history in the active language: "ada joined as editor"."""
    what = facts["what"]
    words = {key: role_word(Role(value)) if key in ("role", "was") else value
             for key, value in facts.items()}  # fmt: skip
    if what == "joined":
        return gettext("%(name)s joined as %(role)s") % words
    if what == "role":
        return gettext("%(name)s: %(was)s → %(role)s") % words
    if what == "left":
        return gettext("%(name)s left the team (%(role)s)") % words
    if what == "invited":
        return gettext("%(email)s invited as %(role)s") % words
    if what == "withdrawn":
        return gettext("invitation of %(email)s withdrawn") % words
    raise ValueError(f"no words for a team change {what!r}")


def change_words(change: TeamChange) -> str:
    """A TeamChange in the active language; older lines, without facts, as they were stored."""
    return team_words(change.facts) if change.facts else change.description


@transaction.atomic
def add_member(event: Event, user: Any, role: Role, *, by: str) -> TeamMember:
    """Give `user` `role` on `event` (a new member, or a new role for a member)."""
    role = Role(role)
    locked = Event.objects.select_for_update().get(pk=event.pk)  # one team change at a time
    member = TeamMember.objects.filter(event=locked, user=user).first()
    name = user.get_username()
    if member is None:
        member = TeamMember.objects.create(event=locked, user=user, role=role)
        _record(locked, by, {"what": "joined", "name": name, "role": role.value})
    elif member.role != role:
        if member.role == Role.OWNER and _owners(locked) == 1:
            raise TeamError(_last_owner(name, event))
        before = member.role
        member.role = role
        member.save(update_fields=["role"])
        _record(locked, by, {"what": "role", "name": name, "was": before, "role": role.value})
    forget_roles(user)
    return member


@transaction.atomic
def remove_member(event: Event, user: Any, *, by: str) -> None:
    locked = Event.objects.select_for_update().get(pk=event.pk)
    member = TeamMember.objects.filter(event=locked, user=user).first()
    name = user.get_username()
    if member is None:
        raise TeamError(
            gettext("%(name)s is not in the team of %(event)s.")
            % {"name": name, "event": event.name}
        )
    if member.role == Role.OWNER and _owners(locked) == 1:
        raise TeamError(_last_owner(name, event))
    member.delete()
    _record(locked, by, {"what": "left", "name": name, "role": member.role})
    forget_roles(user)


def invitation_token(invitation: Invitation) -> str:
    return signing.TimestampSigner(salt=_SALT).sign_object(
        {"i": invitation.pk, "e": invitation.email}
    )


def invitation_from_token(token: str) -> Invitation:
    """The invitation a link names, if it is signed, not expired, not used and not withdrawn."""
    try:
        data = signing.TimestampSigner(salt=_SALT).unsign_object(
            token, max_age=timedelta(days=INVITATION_DAYS)
        )
    except signing.SignatureExpired:
        raise TeamError(
            gettext("This invitation is more than %(days)s days old: ask for a new one.")
            % {"days": INVITATION_DAYS}
        ) from None
    except signing.BadSignature:
        raise TeamError(
            gettext("This invitation link is not valid: copy the whole link from the mail.")
        ) from None
    found = Invitation.objects.select_related("event").filter(pk=data.get("i")).first()
    if found is None or found.email != data.get("e"):
        raise TeamError(
            gettext("This invitation was withdrawn: ask the event's owners for a new one.")
        )
    if found.accepted_at is not None:
        raise TeamError(_already_accepted())
    return found


def _already_accepted() -> str:
    return gettext("This invitation was already accepted: it works once.")


def invitation_text(invitation: Invitation, *, link: str) -> tuple[str, str]:
    """Subject and body of the invitation's mail, in the event's default language (the person
    invited may have no account yet, so no language of their own)."""
    event = invitation.event
    role = Role(invitation.role)
    words = {
        "event": event.name, "by": invitation.invited_by, "link": link,
        "days": INVITATION_DAYS,
    }  # fmt: skip
    with translation.override(event.default_language or "en"):
        words |= {"role": role_word(role), "description": str(DESCRIPTIONS[role])}
        subject = gettext("%(event)s: join the team as %(role)s") % words
        body = (
            gettext(
                "%(by)s invites you to the team of %(event)s as %(role)s (%(description)s).\n\n"
                "Accept by following this link, then logging in or signing up:\n%(link)s\n\n"
                "The link works once, for %(days)s days. If you did not expect it, ignore this "
                "mail.\n"
            )
            % words
        )
    return one_line(subject), body


def invite(event: Event, email: str, role: Role, *, by: str, link_for: Any) -> Invitation:
    """Record an invitation and mail its link; `link_for(token)` makes the absolute address."""
    role = Role(role)
    email = email.strip()
    longest = Invitation._meta.get_field("email").max_length or 254
    if "@" not in email or any(c.isspace() for c in email) or len(email) > longest:
        raise TeamError(gettext("'%s' is not an email address.") % shortened(email))
    with transaction.atomic():
        invitation = Invitation.objects.create(event=event, email=email, role=role, invited_by=by)
        _record(event, by, {"what": "invited", "email": email, "role": role.value})
    link = link_for(invitation_token(invitation))
    subject, body = invitation_text(invitation, link=link)
    try:
        compose_mail(subject=subject, body=body, to=[email]).send()
    except (OSError, smtplib.SMTPException) as exc:  # the invitation stays: its link still works
        raise InvitationNotMailed(invitation, link, str(exc) or type(exc).__name__) from exc
    return invitation


@transaction.atomic
def withdraw_invitation(invitation: Invitation, *, by: str) -> None:
    invitation.delete()
    _record(invitation.event, by, {"what": "withdrawn", "email": invitation.email})


@transaction.atomic
def accept_invitation(invitation: Invitation, user: Any) -> TeamMember:
    """`user` takes the invitation's role (or keeps a higher one they hold already)."""
    used = Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True).update(
        accepted_at=clock.now()
    )
    if not used:
        raise TeamError(_already_accepted())
    event = invitation.event
    held = TeamMember.objects.filter(event=event, user=user).first()
    order = list(Role)
    if held is not None and order.index(Role(held.role)) <= order.index(Role(invitation.role)):
        return held  # an owner following an editor's invitation stays owner
    return add_member(event, user, Role(invitation.role), by=user.get_username())
