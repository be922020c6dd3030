"""One account per e-mail address (web/accounts/emails.py): the database's unique index, the
forms that answer a duplicate with a clear error, and an upgrade of a database that already
holds an address twice (it migrates, says what to merge, and the index follows once merged).

Eight sign-ups at the same moment: tests/web/test_served_accounts.py.
"""

from __future__ import annotations

import logging
import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from confsched.web.accounts import checks, emails

PASSWORD = "a long enough password 42"
TAKEN = (
    "An account with this e-mail address exists already: log in, or reset its password if you "
    "forgot it."
)


def _errors(html: str) -> dict[str, str]:
    found = re.findall(r'<ul class="field-errors" id="id_(\w+)-errors"><li>(.*?)</li>', html)
    return {name: unescape(text) for name, text in found}


@pytest.mark.django_db
@pytest.mark.parametrize("email", ["  Ada@Example.org  ", "ADA@EXAMPLE.ORG"])
def test_sign_up_refuses_the_address_in_any_case_or_spacing(client: Client, email: str) -> None:
    User.objects.create_user("ada", "ada@example.org", PASSWORD)
    response = client.post("/accounts/signup/", {
        "username": "bob", "email": email, "password1": PASSWORD, "password2": PASSWORD,
    })  # fmt: skip
    assert (response.status_code, _errors(response.content.decode())) == (200, {"email": TAKEN})
    assert list(User.objects.values_list("username", flat=True)) == ["ada"]


@pytest.mark.django_db
@pytest.mark.parametrize("email", ["ADA@example.org", " ada@example.org"])
def test_the_database_refuses_a_second_account_with_the_address(email: str) -> None:
    User.objects.create_user("ada", "ada@example.org")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("bob", email)
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_any_number_of_accounts_may_have_no_address() -> None:
    for name in ("ada", "bob", "cy"):
        User.objects.create_user(name, "")
    assert User.objects.filter(email="").count() == 3


@pytest.mark.django_db
def test_the_admin_refuses_an_address_another_account_has(client: Client) -> None:
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    User.objects.create_user("ada", "ada@example.org")
    bob = User.objects.create_user("bob", "bob@example.org")
    client.force_login(root)
    data = {
        "username": "bob", "email": "Ada@Example.org", "is_active": "on",
        "date_joined_0": "2026-04-07", "date_joined_1": "10:00:00",
    }  # fmt: skip
    response = client.post(f"/admin/auth/user/{bob.pk}/change/", data)
    html = response.content.decode()
    assert response.status_code == 200
    assert re.findall(r'<ul class="errorlist" id="id_email_error"><li>(.*?)</li>', html) == [
        "The account ada has this e-mail address already."
    ]
    assert User.objects.get(pk=bob.pk).email == "bob@example.org"
    # Its own address, in another case, is no conflict.
    response = client.post(
        f"/admin/auth/user/{bob.pk}/change/", {**data, "email": "BOB@example.org"}
    )
    assert response.status_code == 302
    assert User.objects.get(pk=bob.pk).email == "BOB@example.org"


def _migrate(target: str | None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("web_accounts", target)])


@pytest.mark.django_db(transaction=True)
def test_a_database_holding_an_address_twice_migrates_and_says_what_to_merge(
    caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    _migrate(None)  # the database as it was before this migration: no index
    try:
        ada = User.objects.create_user("ada", "ada@example.org")
        ada2 = User.objects.create_user("ada2", "ADA@example.org ")
        bob = User.objects.create_user("bob", "bob@example.org")
        bob2 = User.objects.create_user("Bob", "Bob@Example.org")
        User.objects.create_user("cy", "cy@example.org")
        User.objects.create_user("nobody1", "")
        User.objects.create_user("nobody2", "")
        advice = (
            "2 e-mail address(es) belong to more than one account, so one account per address "
            "is not enforced yet:\n"
            f"  ada@example.org: ada (id {ada.pk}), ada2 (id {ada2.pk})\n"
            f"  bob@example.org: bob (id {bob.pk}), Bob (id {bob2.pk})\n"
            "Keep one account per address (in the admin, change the address of the others or "
            "delete them), then run `confsched unique-emails`."
        )
        with caplog.at_level(logging.WARNING, logger="confsched.web.accounts.emails"):
            _migrate("0001_unique_email")
        assert caplog.messages == [advice]
        assert emails.has_unique_index() is False
        # Until the index is there, `confsched check --database default` says the same.
        warnings = checks.unique_emails(None, databases=["default"])
        assert [(w.id, w.msg) for w in warnings] == [("web_accounts.W001", advice)]
        with pytest.raises(CommandError) as refused:
            call_command("unique-emails")
        assert str(refused.value) == advice

        # The operator merges: one address changed, one account deleted.
        User.objects.filter(pk=ada2.pk).update(email="ada.work@example.org")
        bob2.delete()
        call_command("unique-emails")
        assert capsys.readouterr().out == (
            "One account per e-mail address: the database enforces it now.\n"
        )
        assert emails.has_unique_index() is True
        assert checks.unique_emails(None, databases=["default"]) == []
        call_command("unique-emails")
        assert capsys.readouterr().out == (
            "One account per e-mail address: the database enforces it already.\n"
        )
    finally:
        User.objects.all().delete()
        emails.make_unique_index()
    assert emails.has_unique_index() is True


@pytest.mark.django_db(transaction=True)
def test_migrating_back_drops_the_index_and_forward_makes_it() -> None:
    try:
        _migrate(None)
        assert emails.has_unique_index() is False
        assert checks.unique_emails(None, databases=["default"]) == []  # not migrated: no warning
    finally:
        _migrate("0001_unique_email")
    assert emails.has_unique_index() is True
