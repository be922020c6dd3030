"""The team page (owners) and an invitation's link: inviting, changing a role, removing,
withdrawing, each refusal with its reason; the link surviving the log-in and sign-up round
trips; both pages valid HTML (docs/teams.md)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client

from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Event
from confsched.programme.services import create_event, load_programme
from confsched.teams.models import Invitation, TeamChange, TeamMember
from confsched.teams.rights import Role
from confsched.teams.services import add_member, invitation_from_token, invitation_token, invite
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors

TEAM = "/conf/team/"
PASSWORD = "a fine password 7"


@pytest.fixture
def event(db: Any) -> Event:
    event = create_event(slug="conf", name="Conf", timezone="Europe/Paris")
    load_programme(event, synthetic_programme(2), by="command line")
    return event


def _signed_in(name: str, event: Event | None = None, role: str = "") -> tuple[User, Client]:
    user = User.objects.create_user(name, f"{name}@example.org", PASSWORD)
    if event is not None and role:
        add_member(event, user, Role(role), by="command line")
    client = Client()
    client.force_login(user)
    return user, client


def _note(html: str) -> str:
    found = re.search(r'<p class="seat-note[^"]*" role="\w+">(.*?)</p>', html, re.S)
    return unescape(found.group(1)) if found else ""


def _members(event: Event) -> list[tuple[str, str]]:
    rows = TeamMember.objects.filter(event=event).order_by("user__username")
    return list(rows.values_list("user__username", "role"))


def test_an_owner_invites_changes_and_removes(event: Event) -> None:
    ada, owner = _signed_in("ada", event, "owner")
    bob, _ = _signed_in("bob", event, "viewer")
    page = owner.get(TEAM)
    assert page.status_code == 200
    assert page["Cache-Control"] == "private, no-store"
    html = page.content.decode()
    assert "<strong>bob</strong> · bob@example.org · Viewer" in html
    done = owner.post(TEAM, {"action": "invite", "email": "new@example.org", "role": "checkin"})
    assert (done.status_code, done["Location"]) == (302, TEAM)
    assert _note(owner.get(TEAM).content.decode()) == (
        "Invitation mailed to new@example.org (check-in); the link works for 7 days."
    )
    [sent] = mail.outbox
    assert re.search(r"http://testserver/conf/team/join/[^/\s]+/", sent.body)
    member = TeamMember.objects.get(event=event, user=bob)
    assert (
        owner.post(TEAM, {"action": "role", "member": member.pk, "role": "editor"}).status_code
        == 302
    )
    assert _members(event) == [("ada", "owner"), ("bob", "editor")]
    assert owner.post(TEAM, {"action": "remove", "member": member.pk}).status_code == 302
    assert _note(owner.get(TEAM).content.decode()) == "bob is no longer in the team."
    invitation = Invitation.objects.get()
    assert owner.post(TEAM, {"action": "withdraw", "invitation": invitation.pk}).status_code == 302
    assert Invitation.objects.count() == 0
    assert list(TeamChange.objects.order_by("pk").values_list("by", "description")) == [
        ("command line", "ada joined as owner"),
        ("command line", "bob joined as viewer"),
        ("ada", "new@example.org invited as check-in"),
        ("ada", "bob: viewer → editor"),
        ("ada", "bob left the team (editor)"),
        ("ada", "invitation of new@example.org withdrawn"),
    ]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"action": "invite", "email": "nope", "role": "viewer"}, "'nope' is not an email address."),
        ({"action": "invite", "email": "x@example.org", "role": "boss"},
         "Unknown role 'boss': one of owner, editor, viewer, checkin."),
        ({"action": "role", "member": "999", "role": "viewer"}, "That person is no longer in the team."),
        ({"action": "remove", "member": "x"}, "That person is no longer in the team."),
        ({"action": "remove", "member": "OWNER"}, "ada is the last owner of Conf: make someone else owner first."),
        ({"action": "role", "member": "OWNER", "role": "viewer"},
         "ada is the last owner of Conf: make someone else owner first."),
        ({"action": "withdraw", "invitation": "12"}, "That invitation was already accepted or withdrawn."),
        ({"action": "withdraw", "invitation": "²"}, "That invitation was already accepted or withdrawn."),
        ({"action": "withdraw", "invitation": "9" * 5000},
         "That invitation was already accepted or withdrawn."),
        ({"action": "remove", "member": "²"}, "That person is no longer in the team."),
        ({"action": "remove", "member": "9" * 5000}, "That person is no longer in the team."),
        ({"action": "invite", "email": "a" * 300 + "@example.org", "role": "viewer"},
         f"'{'a' * 40}…' is not an email address."),
        ({"action": "promote"}, "Unknown change 'promote'."),
    ],
)  # fmt: skip
def test_refused_changes_say_why(event: Event, data: dict[str, str], reason: str) -> None:
    ada, owner = _signed_in("ada", event, "owner")
    if data.get("member") == "OWNER":
        data = {**data, "member": str(TeamMember.objects.get(user=ada).pk)}
    before = _members(event)
    response = owner.post(TEAM, data)
    assert (response.status_code, _note(response.content.decode())) == (400, reason)
    assert _members(event) == before
    assert mail.outbox == []


class RefusingMailServer(BaseEmailBackend):
    """A mail server that is down."""

    def send_messages(self, email_messages: Any) -> int:
        raise ConnectionRefusedError(111, "Connection refused")


UNSENT_BACKEND = f"{__name__}.RefusingMailServer"


def test_an_invitation_whose_mail_fails_is_kept_with_its_link_to_pass_on(
    event: Event, settings: Any
) -> None:
    settings.EMAIL_BACKEND = UNSENT_BACKEND
    _, owner = _signed_in("ada", event, "owner")
    done = owner.post(TEAM, {"action": "invite", "email": "new@example.org", "role": "viewer"})
    assert (done.status_code, done["Location"]) == (302, TEAM)
    html = owner.get(TEAM).content.decode()
    assert _note(html) == (
        "The invitation of new@example.org is kept, but its mail could not be sent ([Errno 111] "
        "Connection refused). Pass the link on by hand: it works once, for 7 days."
    )
    invitation = Invitation.objects.get()
    [link] = re.findall(
        r'<input id="unsent-link" type="url" readonly value="(http://testserver/conf/team/join/'
        r'[^"/]+/)">',
        html,
    )
    assert invitation_from_token(link.split("/")[-2]) == invitation
    assert (invitation.email, invitation.role) == ("new@example.org", "viewer")
    # The link is shown once; the link works.
    assert "unsent-link" not in owner.get(TEAM).content.decode()
    _, newcomer = _signed_in("new")
    assert newcomer.post(link.removeprefix("http://testserver"))["Location"] == "/conf/"
    assert _members(event) == [("ada", "owner"), ("new", "viewer")]


def _invited(event: Event, role: Role = Role.EDITOR) -> str:
    invitation = invite(event, "new@example.org", role, by="ada", link_for=str)
    return f"/conf/team/join/{invitation_token(invitation)}/"


def test_the_link_survives_logging_in(event: Event) -> None:
    link = _invited(event)
    User.objects.create_user("new", "new@example.org", PASSWORD)
    client = Client()
    refused = client.get(link)
    assert refused["Location"] == f"/accounts/login/?next={quote(link)}"
    logged = client.post(refused["Location"], {"username": "new", "password": PASSWORD})
    assert (logged.status_code, logged["Location"]) == (302, link)
    page = client.get(link).content.decode()
    assert "ada invites you as <strong>editor</strong>" in page
    joined = client.post(link)
    assert (joined.status_code, joined["Location"]) == (302, "/conf/")
    assert _members(event) == [("new", "editor")]
    again = client.post(link)
    assert (again.status_code, _note(again.content.decode())) == (
        400,
        "This invitation was already accepted: it works once.",
    )


def test_the_link_survives_signing_up(event: Event) -> None:
    link = _invited(event, Role.CHECKIN)
    client = Client()
    signup = f"/accounts/signup/?next={quote(link)}"
    # The log-in page the link leads to offers signing up, carrying the link on.
    login_page = unescape(client.get(client.get(link)["Location"]).content.decode())
    assert f'href="/accounts/signup/?next={quote(link, safe="/")}"' in login_page
    made = client.post(
        signup,
        {"username": "fresh", "email": "fresh@example.org", "password1": PASSWORD,
         "password2": PASSWORD, "next": link},
    )  # fmt: skip
    assert (made.status_code, made["Location"]) == (302, link)
    joined = client.post(link)
    assert (joined.status_code, joined["Location"]) == (302, "/conf/checkin/")
    assert _members(event) == [("fresh", "checkin")]


def test_bad_links_say_why(event: Event) -> None:
    other = create_event(slug="other", name="Other", timezone="UTC")
    _, client = _signed_in("new")
    link = _invited(event)
    cases = {
        "/conf/team/join/garbage/": "This invitation link is not valid: copy the whole link from the mail.",
        link.replace("/conf/", "/other/"): "This invitation is for another event.",
        "/nope/team/join/garbage/": "",
    }  # fmt: skip
    got = {}
    for url, _ in cases.items():
        response = client.get(url)
        got[url] = (response.status_code, _note(response.content.decode()))
    assert got == {url: (404, "") if not reason else (400, reason) for url, reason in cases.items()}
    assert other.team.count() == 0
    assert _members(event) == []


def test_team_pages_are_valid_html(event: Event, tmp_path: Path, settings: Any) -> None:
    _checker()
    _, owner = _signed_in("ada", event, "owner")
    _signed_in("bob", event, "viewer")
    owner.post(TEAM, {"action": "invite", "email": "new@example.org", "role": "viewer"})
    link = _invited(event)
    _, newcomer = _signed_in("new")
    pages = {
        "team": owner.get(TEAM),
        "refused": owner.post(TEAM, {"action": "invite", "email": "<b>", "role": "viewer"}),
        "join": newcomer.get(link),
        "bad link": newcomer.get("/conf/team/join/garbage/"),
    }
    settings.EMAIL_BACKEND = UNSENT_BACKEND
    owner.post(TEAM, {"action": "invite", "email": "other@example.org", "role": "viewer"})
    pages["mail not sent"] = owner.get(TEAM)
    assert {kind: r.status_code for kind, r in pages.items()} == {
        "team": 200, "refused": 400, "join": 200, "bad link": 400, "mail not sent": 200,
    }  # fmt: skip
    html = {kind: response.content.decode() for kind, response in pages.items()}
    assert {kind: found for kind, page in html.items() if (found := _duplicate_ids(page))} == {}
    assert _errors(html, tmp_path) == []
