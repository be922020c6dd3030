"""The log-in throttle (web/accounts/login_throttle.py): a guesser locks out only themselves,
the venue's shared address is not a weapon, a guesser with many addresses is slowed, and the
owner gets in from elsewhere."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.test import Client, RequestFactory
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from confsched.web.accounts.login_throttle import client_address

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough password 42"
VENUE, HOME, CAFE, TRAIN = "198.51.100.1", "203.0.113.7", "192.0.2.10", "192.0.2.20"
WRONG_LOGIN = "Please enter a correct username and password."


@pytest.fixture(autouse=True)
def _fast_hashes(settings: object) -> None:
    """Every failed log-in hashes the password typed (Argon2: 0.36 s here); these tests make
    hundreds of them, and what they test is the counting."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture
def ada(_fast_hashes: None) -> User:
    return User.objects.create_user("ada", "ada@example.org", PASSWORD)


def _log_in(address: str, username: str, password: str, **meta: str) -> tuple[int, Client]:
    client = Client(REMOTE_ADDR=address, **meta)
    response = client.post("/accounts/login/", {"username": username, "password": password})
    return response.status_code, client


def _signed_in_as(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def test_the_owner_logs_in_from_another_address_after_five_failures_from_one(ada: User) -> None:
    statuses = [_log_in(VENUE, "ada", "wrong")[0] for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert statuses == [200, 200, 200, 200, 429]
    status, client = _log_in(HOME, "ada", PASSWORD)
    assert (status, _signed_in_as(client)) == (302, str(ada.pk))


def test_the_guessing_address_is_refused_that_account_only(ada: User) -> None:
    User.objects.create_user("bo", "bo@example.org", PASSWORD)
    for _ in range(5):
        _log_in(VENUE, "ada", "wrong")
    status, client = _log_in(VENUE, "ada", PASSWORD)
    assert (status, _signed_in_as(client)) == (429, None)
    # Someone else at the same address logs in to their own account.
    status, client = _log_in(VENUE, "bo", PASSWORD)
    assert status == 302


def test_a_hundred_made_up_names_from_the_venue_lock_no_one_there_out(ada: User) -> None:
    statuses = {_log_in(VENUE, f"nobody{n:03}", "guess")[0] for n in range(100)}
    assert statuses == {200}
    status, client = _log_in(VENUE, "ada", PASSWORD)
    assert (status, _signed_in_as(client)) == (302, str(ada.pk))


def test_the_address_limit_locks_the_address_once_reached(ada: User, settings: object) -> None:
    assert settings.CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT == 300  # type: ignore[attr-defined]
    settings.CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT = 30  # type: ignore[attr-defined] - same rule, fewer requests
    statuses = [_log_in(VENUE, f"nobody{n:03}", "guess")[0] for n in range(30)]
    assert statuses == [200] * 29 + [429]
    assert _log_in(VENUE, "ada", PASSWORD)[0] == 429
    assert _log_in(HOME, "ada", PASSWORD)[0] == 302


def test_many_addresses_at_one_account_leave_each_new_address_one_try(
    ada: User, settings: object
) -> None:
    assert settings.CONFSCHED_LOGIN_ACCOUNT_FAILURE_LIMIT == 50  # type: ignore[attr-defined]
    settings.CONFSCHED_LOGIN_ACCOUNT_FAILURE_LIMIT = 10  # type: ignore[attr-defined]
    for address in (VENUE, HOME):
        assert [_log_in(address, "ada", "wrong")[0] for _ in range(5)] == [200] * 4 + [429]
    # Slowed: a third address's first wrong password is its last for the cool-off...
    assert [_log_in(CAFE, "ada", "wrong")[0] for _ in range(2)] == [429, 429]
    # ...and the owner, from an address that has not failed, gets in at once.
    status, client = _log_in(TRAIN, "ada", PASSWORD)
    assert (status, _signed_in_as(client)) == (302, str(ada.pk))


@pytest.mark.parametrize("length", [256, 1000])
def test_a_log_in_name_too_long_to_record_is_a_plain_failed_log_in(ada: User, length: int) -> None:
    client = Client(REMOTE_ADDR=VENUE)
    response = client.post("/accounts/login/", {"username": "x" * length, "password": "guess"})
    assert response.status_code == 200
    assert WRONG_LOGIN in response.content.decode()
    assert list(AccessAttempt.objects.values_list("username", "failures_since_start")) == [
        ("x" * 255, 1)
    ]


def test_a_password_reset_forgets_the_account_s_failures(ada: User) -> None:
    for _ in range(5):
        _log_in(VENUE, "ada", "wrong")
    client = Client(REMOTE_ADDR=VENUE)
    uid = urlsafe_base64_encode(force_bytes(ada.pk))
    token = default_token_generator.make_token(ada)
    form = client.get(f"/accounts/password/reset/{uid}/{token}/")["Location"]
    new = "another long password 7"
    done = client.post(form, {"new_password1": new, "new_password2": new})
    assert (done.status_code, done["Location"]) == (302, "/accounts/password/reset/done/")
    assert AccessAttempt.objects.filter(username="ada").count() == 0
    assert _log_in(VENUE, "ada", new)[0] == 302


def test_behind_a_proxy_each_visitor_is_counted_at_their_own_address(
    ada: User, settings: object
) -> None:
    """The proxy's address is everyone's REMOTE_ADDR; the visitor's is the last hop of
    X-Forwarded-For. What a visitor writes there themselves is not read."""
    settings.CONFSCHED_PROXY_COUNT = 1  # type: ignore[attr-defined]
    for n in range(5):
        _log_in("127.0.0.1", "ada", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, {VENUE}")
    assert _log_in("127.0.0.1", "ada", PASSWORD, HTTP_X_FORWARDED_FOR=VENUE)[0] == 429
    assert _log_in("127.0.0.1", "ada", PASSWORD, HTTP_X_FORWARDED_FOR=HOME)[0] == 302


@pytest.mark.parametrize(
    ("proxies", "remote", "forwarded", "expected"),
    [
        (0, "198.51.100.1", "203.0.113.7", "198.51.100.1"),
        (1, "127.0.0.1", "10.1.1.1, 203.0.113.7", "203.0.113.7"),
        (2, "127.0.0.1", "10.1.1.1, 203.0.113.7, 192.0.2.1", "203.0.113.7"),
        (1, "127.0.0.1", "", "127.0.0.1"),  # no header: a request from the proxy's host itself
        (1, "127.0.0.1", "not an address", None),
        (0, "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "", "2001:db8:1:2::"),
        (0, "::ffff:198.51.100.1", "", "198.51.100.1"),
    ],
)
def test_the_address_counted(
    settings: object, proxies: int, remote: str, forwarded: str, expected: str | None
) -> None:
    settings.CONFSCHED_PROXY_COUNT = proxies  # type: ignore[attr-defined]
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected
