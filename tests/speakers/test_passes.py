"""Speakers' personal links (speakers/passes.py): made once, found only whole and live,
revoked for good, and the account each signs in to (made, or matched only after its owner
logs in); the `speakers link` command."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from confsched.programme.models import Event, Speaker
from confsched.programme.services import create_event
from confsched.speakers import passes
from confsched.speakers.models import SpeakerPass

pytestmark = pytest.mark.django_db
BASE = "https://schedule.example.org"


@pytest.fixture
def speakers() -> dict[str, Speaker]:
    one = create_event(slug="one", name="One", timezone="Europe/Paris")
    two = create_event(slug="two", name="Two", timezone="UTC")
    return {
        "ada": Speaker.objects.create(event=one, key="ada", name="Ada Lovelace"),
        "ada-two": Speaker.objects.create(event=two, key="ada-l", name="Ada Lovelace"),
        "bob": Speaker.objects.create(event=one, key="bob", name="Bob Builder"),
    }


def test_a_pass_is_made_once_and_its_token_is_128_random_bits_and_a_mac(speakers) -> None:  # noqa: ANN001
    first = passes.issue_pass(speakers["ada"], by="olga", email="ada@example.org")
    again = passes.issue_pass(speakers["ada"], by="olga")
    other = passes.issue_pass(speakers["bob"], by="olga")
    assert (again.pk, again.email, SpeakerPass.objects.count()) == (first.pk, "ada@example.org", 2)
    token = passes.token_for(first)
    assert re.fullmatch(r"[0-9a-f]{32}\.[0-9a-f]{32}", token)
    assert token.split(".")[0] == first.nonce != other.nonce
    assert passes.pass_from_token(token).pk == first.pk


@pytest.mark.parametrize(
    "spoil",
    [
        lambda t: t[:-1] + ("0" if t[-1] != "0" else "1"),  # the MAC changed
        lambda t: ("f" if t[0] != "f" else "e") + t[1:],  # the nonce changed
        lambda t: t.split(".")[0],  # no MAC
        lambda t: t.upper(),
        lambda t: "",
    ],
)
def test_a_token_not_exactly_as_made_finds_nothing(speakers, spoil) -> None:  # noqa: ANN001
    token = passes.token_for(passes.issue_pass(speakers["ada"], by="olga"))
    assert passes.pass_from_token(spoil(token)) is None


def test_the_database_alone_makes_no_working_link(speakers) -> None:  # noqa: ANN001
    made = passes.issue_pass(speakers["ada"], by="olga")
    with override_settings(SECRET_KEY="another site's secret key, as long as ours"):
        assert passes.pass_from_token(f"{made.nonce}.{'0' * 32}") is None
        forged = passes.token_for(made)  # what the other key signs
    assert passes.pass_from_token(forged) is None


def test_a_new_address_gets_an_account_without_a_password(speakers) -> None:  # noqa: ANN001
    made = passes.issue_pass(speakers["ada"], by="olga", email="Ada@Example.org")
    entry = passes.use_pass(made)
    user = entry.user
    assert (user.username, user.email, user.has_usable_password()) == (
        "Ada",
        "Ada@example.org",  # the domain in lower case, as Django keeps it
        False,
    )
    made.refresh_from_db()
    assert (made.user_id, made.opened_at is not None) == (user.pk, True)
    # After a log-out the link signs in again, to the same account.
    assert passes.use_pass(passes.pass_from_token(passes.token_for(made))).user.pk == user.pk
    assert User.objects.count() == 1


def test_an_address_with_an_account_is_never_signed_in_to_by_a_link(speakers) -> None:  # noqa: ANN001
    owner = User.objects.create_user("ada.l", "ada@example.org", "a long password 42")
    made = passes.issue_pass(speakers["ada"], by="olga", email="ADA@example.org")
    assert passes.use_pass(made) == passes.Entry(log_in_as="ADA@example.org")
    made.refresh_from_db()
    assert (made.user_id, made.opened_at) == (None, None)
    # Once its owner has logged in, the link joins their account.
    assert passes.use_pass(made, signed_in=owner).user.pk == owner.pk
    made.refresh_from_db()
    assert made.user_id == owner.pk


def test_no_address_anywhere_asks_for_one_and_a_bad_one_is_refused(speakers) -> None:  # noqa: ANN001
    made = passes.issue_pass(speakers["bob"], by="command line")
    assert passes.use_pass(made) == passes.Entry(needs_email=True)
    with pytest.raises(passes.SpeakerPassError, match="^'bob at example' is not an e-mail"):
        passes.use_pass(made, email="bob at example")
    assert passes.use_pass(made, email="bob@example.org").user.email == "bob@example.org"
    with pytest.raises(passes.SpeakerPassError, match="^'nobody' is not an e-mail address.$"):
        passes.issue_pass(speakers["ada"], by="olga", email="nobody")


def test_a_taken_username_gets_the_next_free_one(speakers) -> None:  # noqa: ANN001
    User.objects.create_user("ada", "other@example.org")
    User.objects.create_user("ada-2", "third@example.org")
    made = passes.issue_pass(speakers["ada"], by="olga", email="ada@example.net")
    assert passes.use_pass(made).user.username == "ada-3"


def test_revoked_is_dead_for_everyone_and_renewed_is_a_new_link(speakers) -> None:  # noqa: ANN001
    made = passes.issue_pass(speakers["ada"], by="olga", email="ada@example.org")
    user = passes.use_pass(made).user
    old = passes.token_for(made)
    assert [s.key for s in passes.speakers_of(user)] == ["ada"]
    passes.revoke_pass(speakers["ada"], by="olga")
    assert passes.pass_from_token(old) is None
    assert passes.speakers_of(user) == []
    assert passes.speaker_for(user, "one", "ada") is None
    with pytest.raises(passes.SpeakerPassError, match="revoked"):
        passes.use_pass(made)
    renewed = passes.revoke_pass(speakers["ada"], renew=True, by="olga")
    assert renewed is not None and renewed.email == "ada@example.org"
    assert passes.token_for(renewed) != old
    assert passes.use_pass(renewed).user.pk == user.pk  # the same address's account


def test_a_speaker_at_several_events_sees_them_all_and_only_theirs(speakers) -> None:  # noqa: ANN001
    one = passes.issue_pass(speakers["ada"], by="olga", email="ada@example.org")
    user = passes.use_pass(one).user
    passes.use_pass(passes.issue_pass(speakers["ada-two"], by="tim"), signed_in=user)
    passes.use_pass(passes.issue_pass(speakers["bob"], by="olga", email="bob@example.org"))
    assert [(s.event.slug, s.key) for s in passes.speakers_of(user)] == [
        ("one", "ada"),
        ("two", "ada-l"),
    ]
    assert passes.speaker_for(user, "one", "bob") is None
    assert passes.speaker_for(user, "two", "ada-l").pk == speakers["ada-two"].pk
    assert passes.speakers_of(None) == []


def test_the_command_prints_one_absolute_link_or_all_as_csv(speakers) -> None:  # noqa: ANN001
    out = StringIO()
    with override_settings(CONFSCHED_BASE_URL=BASE):
        call_command(
            "speakers", "link", "--event", "one", "ada", "--email", "ada@x.org", stdout=out
        )
        link = out.getvalue().strip()
        made = SpeakerPass.objects.get(speaker=speakers["ada"])
        assert link == f"{BASE}/speaker/{passes.token_for(made)}/"
        assert made.created_by == "command line"
        out = StringIO()
        call_command("speakers", "link", "--event", "one", "--all", stdout=out)
    bob = SpeakerPass.objects.get(speaker=speakers["bob"])
    assert out.getvalue().splitlines() == [
        "key,name,email,link,opened_at",
        f"ada,Ada Lovelace,ada@x.org,{link},",
        f"bob,Bob Builder,,{BASE}/speaker/{passes.token_for(bob)}/,",
    ]


def test_the_command_refuses_what_it_cannot_do(speakers) -> None:  # noqa: ANN001
    with override_settings(CONFSCHED_BASE_URL=""):
        with pytest.raises(CommandError, match="^Set CONFSCHED_BASE_URL"):
            call_command("speakers", "link", "--event", "one", "--all")
    assert SpeakerPass.objects.count() == 0  # refused before any link was made
    with override_settings(CONFSCHED_BASE_URL=BASE):
        with pytest.raises(CommandError, match="^No event 'nope'$"):
            call_command("speakers", "link", "--event", "nope", "ada")
        with pytest.raises(CommandError, match="^No speaker 'carol' at one$"):
            call_command("speakers", "link", "--event", "one", "carol")
        with pytest.raises(CommandError, match="^Name a speaker by KEY, or give --all$"):
            call_command("speakers", "link", "--event", "one")
        with pytest.raises(CommandError, match="is not an e-mail address"):
            call_command("speakers", "link", "--event", "one", "ada", "--email", "x")
        out = StringIO()
        call_command("speakers", "link", "--event", "one", "ada", stdout=out)
        call_command("speakers", "link", "--event", "one", "ada", "--revoke", stdout=out)
    assert out.getvalue().splitlines()[-1] == "The link of Ada Lovelace is revoked."
    assert SpeakerPass.objects.get().revoked_at is not None


def test_drafts_speakers_are_no_speaker_pages(speakers) -> None:  # noqa: ANN001
    from confsched.programme.services import start_draft

    made = passes.issue_pass(speakers["ada"], by="olga", email="ada@example.org")
    user = passes.use_pass(made).user
    start_draft(Event.objects.get(slug="one"))
    assert [s.key for s in passes.speakers_of(user)] == ["ada"]
