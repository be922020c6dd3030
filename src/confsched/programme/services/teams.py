"""Every write to a team: add, change a role, remove, invite, accept. Each records what it did
and by whom (a username, or "command line") as a TeamChange, in the same transaction.

An event keeps at least one owner: removing or demoting the last one is refused. Invitations
are mailed as a signed link (django.core.signing, salted for this use) naming the invitation;
the link expires after INVITATION_DAYS and works once.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q

from confsched.core import clock
from confsched.core.errors import TeamError
from confsched.programme.access import forget_roles
from confsched.programme.models import Event, Invitation, TeamChange, TeamMember
from confsched.programme.rights import DESCRIPTIONS, Role
from confsched.programme.team_models import COMMAND_LINE

INVITATION_DAYS = 7
_SALT = "confsched.team.invitation"


def actor_name(user: Any) -> str:
    """How the history names who did it: the username, or "command line" for no account."""
    if user is None or not getattr(user, "is_authenticated", False):
        return COMMAND_LINE
    return str(user.get_username())


def find_person(text: str) -> Any:
    """The one account whose username or email is `text` (case-insensitive), else TeamError."""
    text = text.strip()
    users = get_user_model().objects.filter(Q(username__iexact=text) | Q(email__iexact=text))
    matches = list(users[:2])
    if len(matches) != 1:
        how = "No account has" if not matches else "More than one account has"
        raise TeamError(f"{how} the username or email {text!r}.")
    return matches[0]


def _owners(event: Event) -> int:
    return TeamMember.objects.filter(event=event, role=Role.OWNER).count()


def _record(event: Event, by: str, description: str) -> None:
    TeamChange.objects.create(event=event, by=by[:150], description=description[:300])
    Event.objects.filter(pk=event.pk).update(updated_at=clock.now())


@transaction.atomic
def add_member(event: Event, user: Any, role: Role, *, by: str) -> TeamMember:
    """Give `user` `role` on `event` (a new member, or a new role for a member)."""
    role = Role(role)
    locked = Event.objects.select_for_update().get(pk=event.pk)  # one team change at a time
    member = TeamMember.objects.filter(event=locked, user=user).first()
    name = user.get_username()
    if member is None:
        member = TeamMember.objects.create(event=locked, user=user, role=role)
        _record(locked, by, f"{name} joined as {role.label.lower()}")
    elif member.role != role:
        if member.role == Role.OWNER and _owners(locked) == 1:
            raise TeamError(
                f"{name} is the last owner of {event.name}: make someone else owner first."
            )
        before = Role(member.role).label.lower()
        member.role = role
        member.save(update_fields=["role"])
        _record(locked, by, f"{name}: {before} → {role.label.lower()}")
    forget_roles(user)
    return member


@transaction.atomic
def remove_member(event: Event, user: Any, *, by: str) -> None:
    locked = Event.objects.select_for_update().get(pk=event.pk)
    member = TeamMember.objects.filter(event=locked, user=user).first()
    name = user.get_username()
    if member is None:
        raise TeamError(f"{name} is not in the team of {event.name}.")
    if member.role == Role.OWNER and _owners(locked) == 1:
        raise TeamError(f"{name} is the last owner of {event.name}: make someone else owner first.")
    member.delete()
    _record(locked, by, f"{name} left the team ({Role(member.role).label.lower()})")
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
            f"This invitation is more than {INVITATION_DAYS} days old: ask for a new one."
        ) from None
    except signing.BadSignature:
        raise TeamError(
            "This invitation link is not valid: copy the whole link from the mail."
        ) from None
    found = Invitation.objects.select_related("event").filter(pk=data.get("i")).first()
    if found is None or found.email != data.get("e"):
        raise TeamError("This invitation was withdrawn: ask the event's owners for a new one.")
    if found.accepted_at is not None:
        raise TeamError("This invitation was already accepted: it works once.")
    return found


def invitation_text(invitation: Invitation, *, link: str) -> tuple[str, str]:
    """Subject and body of the invitation's mail."""
    event = invitation.event
    role = Role(invitation.role)
    subject = f"{event.name}: join the team as {role.label.lower()}"
    body = (
        f"{invitation.invited_by} invites you to the team of {event.name} as "
        f"{role.label.lower()} ({DESCRIPTIONS[role]}).\n\n"
        f"Accept by following this link, then logging in or signing up:\n{link}\n\n"
        f"The link works once, for {INVITATION_DAYS} days. If you did not expect it, ignore "
        "this mail.\n"
    )
    return subject, body


def invite(event: Event, email: str, role: Role, *, by: str, link_for: Any) -> Invitation:
    """Record an invitation and mail its link; `link_for(token)` makes the absolute address."""
    role = Role(role)
    email = email.strip()
    if "@" not in email or any(c.isspace() for c in email):
        raise TeamError(f"{email!r} is not an email address.")
    with transaction.atomic():
        invitation = Invitation.objects.create(event=event, email=email, role=role, invited_by=by)
        _record(event, by, f"{email} invited as {role.label.lower()}")
    subject, body = invitation_text(invitation, link=link_for(invitation_token(invitation)))
    EmailMessage(subject, body, to=[email]).send()
    return invitation


@transaction.atomic
def withdraw_invitation(invitation: Invitation, *, by: str) -> None:
    invitation.delete()
    _record(invitation.event, by, f"invitation of {invitation.email} withdrawn")


@transaction.atomic
def accept_invitation(invitation: Invitation, user: Any) -> TeamMember:
    """`user` takes the invitation's role (or keeps a higher one they hold already)."""
    used = Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True).update(
        accepted_at=clock.now()
    )
    if not used:
        raise TeamError("This invitation was already accepted: it works once.")
    event = invitation.event
    held = TeamMember.objects.filter(event=event, user=user).first()
    order = list(Role)
    if held is not None and order.index(Role(held.role)) <= order.index(Role(invitation.role)):
        return held  # an owner following an editor's invitation stays owner
    return add_member(event, user, Role(invitation.role), by=user.get_username())
