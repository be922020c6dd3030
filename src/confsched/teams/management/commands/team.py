"""confsched team add|remove|list EVENT [EMAIL ROLE]: an event's team from the command line.

`add` gives the account with that email (or username) the role; when no account has it, an
invitation is mailed instead (its link is built on CONFSCHED_BASE_URL). `remove` takes the
person off the team (never the last owner). `list` prints the members and the invitations not
yet accepted. The history records each change as made by "command line".
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from confsched.core.errors import ConfschedError, TeamError
from confsched.programme.actors import COMMAND_LINE
from confsched.programme.models import Event
from confsched.teams.models import Invitation, TeamMember
from confsched.teams.rights import parse_role
from confsched.teams.services import (
    InvitationNotMailed,
    add_member,
    find_person,
    invite,
    remove_member,
)


class Command(BaseCommand):
    help = "List an event's team, add a person with a role (or mail an invitation), remove one."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["add", "remove", "list"])
        parser.add_argument("event", metavar="EVENT", help="the event's slug")
        parser.add_argument("email", nargs="?", default="", metavar="EMAIL",
                            help="the person's email (or username); add and remove")  # fmt: skip
        parser.add_argument("role", nargs="?", default="", metavar="ROLE",
                            help="owner, editor, viewer or checkin; add only")  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["event"]).first()
        if event is None:
            raise CommandError(f"no event with the slug {options['event']!r}")
        action, email, role = options["action"], options["email"], options["role"]
        if action == "list":
            if email or role:
                raise CommandError("list takes only the event: confsched team list EVENT")
            self._list(event)
            return
        if not email:
            usage = f"confsched team {action} {event.slug} EMAIL" + (" ROLE" * (action == "add"))
            raise CommandError(f"{action} needs the person's email: {usage}")
        try:
            if action == "remove":
                if role:
                    raise CommandError("remove takes no role: confsched team remove EVENT EMAIL")
                person = find_person(email)
                remove_member(event, person, by=COMMAND_LINE)
                self.stdout.write(f"{person.get_username()} is no longer in {event.slug}'s team")
                return
            self._add(event, email, role)
        except ConfschedError as exc:
            raise CommandError(str(exc)) from None

    def _add(self, event: Event, email: str, role_name: str) -> None:
        if not role_name:
            raise CommandError(
                f"add needs a role (owner, editor, viewer or checkin): confsched team add "
                f"{event.slug} {email} ROLE"
            )
        try:
            role = parse_role(role_name)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        try:
            person = find_person(email)
        except TeamError:
            person = None
        if person is not None:
            add_member(event, person, role, by=COMMAND_LINE)
            self.stdout.write(f"{person.get_username()} is {role.label.lower()} of {event.slug}")
            return
        base = settings.CONFSCHED_BASE_URL
        if not base:
            raise CommandError(
                f"No account has the email {email!r}, so an invitation would be mailed; set "
                "CONFSCHED_BASE_URL (the site's address, e.g. https://schedule.example.org) so "
                "that its link leads to this site."
            )

        def link_for(token: str) -> str:
            return base + reverse("web:team_join", kwargs={"event": event.slug, "token": token})

        try:
            invite(event, email, role, by=COMMAND_LINE, link_for=link_for)
        except InvitationNotMailed as exc:
            raise CommandError(f"{exc}\n{exc.link}") from None
        self.stdout.write(
            f"No account has {email}: an invitation to be {role.label.lower()} of {event.slug} "
            "was mailed (its link works once, for 7 days)"
        )

    def _list(self, event: Event) -> None:
        members = TeamMember.objects.filter(event=event).select_related("user")
        for member in members.order_by("role", "user__username"):
            user = member.user
            email = f" <{user.email}>" if user.email else ""
            self.stdout.write(f"{member.role}\t{user.get_username()}{email}")
        invitations = Invitation.objects.filter(event=event, accepted_at__isnull=True)
        for invitation in invitations.order_by("created_at", "pk"):
            self.stdout.write(
                f"invited\t{invitation.email} as {invitation.role} by {invitation.invited_by} "
                f"on {invitation.created_at:%Y-%m-%d}"
            )
        if not members.exists() and not invitations.exists():
            self.stdout.write(f"{event.slug} has no team: only site administrators reach it")
