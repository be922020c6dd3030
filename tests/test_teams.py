"""Teams' services and the `confsched team` command: adding, changing, removing (never the last
owner), invitations (signed, expiring, once), the history and who did it (docs/teams.md)."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from confsched.core import clock
from confsched.core.errors import TeamError
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Event, ScheduleVersion
from confsched.programme.services import create_event, load_programme
from confsched.teams import access
from confsched.teams.models import Invitation, TeamChange, TeamMember
from confsched.teams.rights import Right, Role, parse_role, role_has
from confsched.teams.services import (
    accept_invitation,
    add_member,
    invitation_from_token,
    invitation_token,
    invite,
    remove_member,
)


@pytest.fixture
def event(db: Any) -> Event:
    return create_event(slug="conf", name="Conf", timezone="Europe/Paris")


def _user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.org", "pw")


def _history(event: Event) -> list[tuple[str, str]]:
    return [(c.by, c.description) for c in TeamChange.objects.filter(event=event).order_by("pk")]


def test_roles_open_the_rights_the_issue_names() -> None:
    table = {role.value: sorted(r.value for r in Right if role_has(role, r)) for role in Role}
    assert table == {
        "owner": ["checkin", "programme", "read", "seats", "team"],
        "editor": ["checkin", "programme", "read", "seats"],
        "viewer": ["read"],
        "checkin": ["checkin"],
    }
    assert role_has(None, Right.READ) is False
    assert role_has("boss", Right.READ) is False
    assert parse_role(" Check-In ") == Role.CHECKIN
    with pytest.raises(
        ValueError, match="Unknown role 'boss': one of owner, editor, viewer, checkin."
    ):
        parse_role("boss")


def test_add_change_remove_and_the_history(event: Event) -> None:
    ada, bob = _user("ada"), _user("bob")
    add_member(event, ada, Role.OWNER, by="command line")
    add_member(event, bob, Role.VIEWER, by="ada")
    add_member(event, bob, Role.EDITOR, by="ada")
    add_member(event, bob, Role.EDITOR, by="ada")  # no change, nothing recorded
    remove_member(event, bob, by="ada")
    assert list(TeamMember.objects.values_list("user__username", "role")) == [("ada", "owner")]
    assert _history(event) == [
        ("command line", "ada joined as owner"),
        ("ada", "bob joined as viewer"),
        ("ada", "bob: viewer → editor"),
        ("ada", "bob left the team (editor)"),
    ]


def test_the_last_owner_stays(event: Event) -> None:
    ada, bob = _user("ada"), _user("bob")
    add_member(event, ada, Role.OWNER, by="command line")
    last = "ada is the last owner of Conf: make someone else owner first."
    with pytest.raises(TeamError, match=last):
        remove_member(event, ada, by="ada")
    with pytest.raises(TeamError, match=last):
        add_member(event, ada, Role.VIEWER, by="ada")
    add_member(event, bob, Role.OWNER, by="ada")
    add_member(event, ada, Role.VIEWER, by="bob")  # two owners: one may step down
    with pytest.raises(TeamError, match="carl is not in the team of Conf."):
        remove_member(event, _user("carl"), by="bob")


def test_rights_follow_the_role_on_that_event_only(event: Event) -> None:
    other = create_event(slug="other", name="Other", timezone="UTC")
    ada = _user("ada")
    add_member(event, ada, Role.VIEWER, by="command line")
    fresh = User.objects.get(pk=ada.pk)  # as a request would load it
    assert access.can(fresh, event, Right.READ) is True
    assert access.can(fresh, event, Right.SEATS) is False
    assert access.can(fresh, other, Right.READ) is False
    assert access.event_ids_with(fresh, Right.READ) == {event.pk}
    User.objects.filter(pk=ada.pk).update(is_active=False)
    assert access.can(User.objects.get(pk=ada.pk), event, Right.READ) is False
    staff = User.objects.create_user("old", is_staff=True)
    assert access.can(staff, event, Right.READ) is False  # is_staff alone opens no event
    root = User.objects.create_superuser("root", "root@example.org", "pw")
    assert access.event_ids_with(root, Right.TEAM) is None  # every event


def _link(token: str) -> str:
    return f"https://site.example/conf/team/join/{token}/"


def test_an_invitation_is_mailed_accepted_once_and_recorded(event: Event) -> None:
    invitation = invite(event, " new@example.org ", "editor", by="ada", link_for=_link)
    [sent] = mail.outbox
    token = invitation_token(invitation)
    assert (sent.to, sent.subject) == (["new@example.org"], "Conf: join the team as editor")
    assert _link(token) in sent.body
    assert "The link works once, for 7 days." in sent.body
    assert invitation_from_token(token) == invitation
    newcomer = _user("newcomer")
    member = accept_invitation(invitation_from_token(token), newcomer)
    assert (member.user, member.role) == (newcomer, "editor")
    with pytest.raises(TeamError, match="This invitation was already accepted: it works once."):
        invitation_from_token(token)
    assert _history(event) == [
        ("ada", "new@example.org invited as editor"),
        ("newcomer", "newcomer joined as editor"),
    ]


def test_an_owner_accepting_a_lower_invitation_stays_owner(event: Event) -> None:
    ada = _user("ada")
    add_member(event, ada, Role.OWNER, by="command line")
    invitation = invite(event, "ada@example.org", Role.VIEWER, by="ada", link_for=_link)
    assert accept_invitation(invitation, ada).role == "owner"


def test_bad_invitations_say_why(event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TeamError, match="'not-an-address' is not an email address."):
        invite(event, "not-an-address", Role.VIEWER, by="ada", link_for=_link)
    invitation = invite(event, "x@example.org", Role.VIEWER, by="ada", link_for=_link)
    token = invitation_token(invitation)
    with pytest.raises(TeamError, match="not valid: copy the whole link from the mail."):
        invitation_from_token(token[:-2])
    later = clock.now() + timedelta(days=8)
    with monkeypatch.context() as patch:
        patch.setattr("time.time", lambda: later.timestamp())
        with pytest.raises(TeamError, match="more than 7 days old: ask for a new one."):
            invitation_from_token(token)
    Invitation.objects.filter(pk=invitation.pk).delete()
    with pytest.raises(TeamError, match="This invitation was withdrawn"):
        invitation_from_token(token)


def test_versions_record_who(event: Event) -> None:
    load_programme(event, synthetic_programme(2), by="ada")
    load_programme(event, synthetic_programme(3), by="command line")
    assert list(ScheduleVersion.objects.order_by("number").values_list("by", flat=True)) == [
        "ada",
        "command line",
    ]


def _team(*args: str) -> str:
    out = StringIO()
    call_command("team", *args, stdout=out)
    return out.getvalue()


def test_the_command_adds_lists_and_removes(event: Event) -> None:
    _user("ada"), _user("bob")
    assert _team("list", "conf") == "conf has no team: only site administrators reach it\n"
    assert _team("add", "conf", "ada@example.org", "owner") == "ada is owner of conf\n"
    assert _team("add", "conf", "BOB", "Viewer") == "bob is viewer of conf\n"  # a username
    assert _team("add", "conf", "bob@example.org", "editor") == "bob is editor of conf\n"
    assert _team("list", "conf") == "editor\tbob <bob@example.org>\nowner\tada <ada@example.org>\n"
    assert _team("remove", "conf", "bob@example.org") == "bob is no longer in conf's team\n"
    assert _team("list", "conf") == "owner\tada <ada@example.org>\n"
    assert [by for by, _ in _history(event)] == ["command line"] * 4


@override_settings(CONFSCHED_BASE_URL="https://schedule.example.org")
def test_the_command_invites_who_has_no_account(event: Event) -> None:
    ada = _user("ada")
    add_member(event, ada, Role.OWNER, by="command line")
    said = _team("add", "conf", "new@example.org", "checkin")
    assert said == (
        "No account has new@example.org: an invitation to be check-in of conf was mailed "
        "(its link works once, for 7 days)\n"
    )
    assert "https://schedule.example.org/conf/team/join/" in mail.outbox[0].body
    day = clock.now().date().isoformat()
    assert _team("list", "conf") == (
        f"owner\tada <ada@example.org>\ninvited\tnew@example.org as checkin by command line on {day}\n"
    )


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("list", "nope"), "no event with the slug 'nope'"),
        (
            ("list", "conf", "ada@example.org"),
            "list takes only the event: confsched team list EVENT",
        ),
        (("add", "conf"), "add needs the person's email: confsched team add conf EMAIL ROLE"),
        (("remove", "conf"), "remove needs the person's email: confsched team remove conf EMAIL"),
        (("add", "conf", "ada@example.org"), "add needs a role (owner, editor, viewer or checkin)"),
        (("add", "conf", "ada@example.org", "boss"), "Unknown role 'boss': one of owner, editor"),
        (("remove", "conf", "ada@example.org", "owner"), "remove takes no role"),
        (("remove", "conf", "nobody@example.org"), "No account has the username or email"),
        (("remove", "conf", "ada@example.org"), "ada is the last owner of Conf"),
        (("add", "conf", "new@example.org", "viewer"), "set CONFSCHED_BASE_URL"),
    ],
)
def test_the_command_refuses_with_a_reason(event: Event, args: tuple[str, ...], error: str) -> None:
    add_member(event, _user("ada"), Role.OWNER, by="command line")
    with (
        override_settings(CONFSCHED_BASE_URL=""),
        pytest.raises(CommandError, match=re.escape(error)),
    ):
        _team(*args)


def test_the_upgrade_makes_staff_owners_of_every_event(event: Event) -> None:
    other = create_event(slug="other", name="Other", timezone="UTC")
    staff = User.objects.create_user("old-staff", is_staff=True)
    User.objects.create_user("gone", is_staff=True, is_active=False)
    User.objects.create_superuser("root", "root@example.org", "pw")
    _user("attendee")
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    # The step runs on the models as they were before the move (TeamMember was programme's).
    node = ("programme", "0020_session_title_2000")
    apps = MigrationLoader(connection).project_state(node).apps
    step = importlib.import_module("confsched.programme.migrations.0012_staff_become_owners")
    step.staff_become_owners(apps, None)
    step.staff_become_owners(apps, None)  # twice: nothing more
    assert sorted(TeamMember.objects.values_list("event__slug", "user__username", "role")) == [
        ("conf", "old-staff", "owner"),
        ("other", "old-staff", "owner"),
    ]
    assert access.can(User.objects.get(pk=staff.pk), other, Right.TEAM) is True
    step.undo(apps, None)
    assert TeamMember.objects.count() == 0


@pytest.mark.django_db
def test_the_team_s_history_is_said_in_the_reader_s_language() -> None:
    from django.utils import translation

    from confsched.programme.actors import by_words
    from confsched.teams.services import change_words

    event = create_event(slug="history", name="History", timezone="Europe/Paris")
    ada = User.objects.create_user("ada", "ada@example.org", "pw")
    add_member(event, ada, Role.EDITOR, by="command line")
    add_member(event, ada, Role.OWNER, by="root")
    lines = list(TeamChange.objects.filter(event=event).order_by("pk"))
    assert [(line.facts, line.description) for line in lines] == [
        ({"what": "joined", "name": "ada", "role": "editor"}, "ada joined as editor"),
        ({"what": "role", "name": "ada", "was": "editor", "role": "owner"}, "ada: editor → owner"),
    ]
    with translation.override("de"):
        said = [(change_words(line), by_words(line.by)) for line in lines]
    assert said == [
        ("ada ist als Bearbeiter:in beigetreten", "Kommandozeile"),
        ("ada: Bearbeiter:in → Eigentümer:in", "root"),
    ]
    older = TeamChange(event=event, by="root", description="bob joined as viewer")
    assert change_words(older) == "bob joined as viewer"
