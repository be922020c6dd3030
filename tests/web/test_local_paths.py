"""A form's `next` is followed only to a path on this site (web/site/local_paths.py): a bare
word such as "agenda" was read by `redirect()` as a view's name and answered 500 (at sign-up
after the account was made); another host, a protocol-relative address or one with a control
character goes home or to the form's own default instead."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.models import AgendaItem
from confsched.programme.models import Session
from confsched.web.site.local_paths import local_path
from tests.conftest import DEMO_SLUG

PASSWORD = "a long enough password 42"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
BAD_NEXT = ["agenda", "web:agenda", "//evil.example/", "/\\evil.example", "https://evil.example/",
            "/\t/evil.example", "/agenda/\n", " /agenda/", "/" + "a" * 2000]  # fmt: skip


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/", "/"),
        (f"/{DEMO_SLUG}/agenda/", f"/{DEMO_SLUG}/agenda/"),
        (f"/{DEMO_SLUG}/?track=x&day=2#s-4", f"/{DEMO_SLUG}/?track=x&day=2#s-4"),
        ("/%C3%A9v%C3%A9nement/", "/%C3%A9v%C3%A9nement/"),
        (None, "/"),
        ("", "/"),
        ("/\x00/", "/"),  # (a request carrying it is refused before any view)
        *[(bad, "/") for bad in BAD_NEXT],
    ],
)
def test_only_a_path_on_this_site_is_followed(target: str | None, expected: str) -> None:
    assert local_path(target) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("target", BAD_NEXT)
def test_sign_up_with_a_next_of_no_path_makes_the_account_and_goes_home(
    client: Client, target: str
) -> None:
    response = client.post("/accounts/signup/", {
        "username": "bob", "email": "bob@example.org", "password1": PASSWORD,
        "password2": PASSWORD, "next": target,
    })  # fmt: skip
    assert (response.status_code, response["Location"]) == (302, "/")
    assert list(User.objects.values_list("username", flat=True)) == ["bob"]
    assert client.session["_auth_user_id"] == str(User.objects.get().pk)


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["agenda", "//evil.example/"])
def test_log_in_and_log_out_with_a_next_of_no_path_go_home(client: Client, target: str) -> None:
    User.objects.create_user("ada", "ada@example.org", PASSWORD)
    logged_in = client.post(
        "/accounts/login/", {"username": "ada", "password": PASSWORD, "next": target}
    )
    assert (logged_in.status_code, logged_in["Location"]) == (302, "/")
    logged_out = client.post("/accounts/logout/", {"next": target})
    assert (logged_out.status_code, logged_out["Location"]) == (302, "/")


@pytest.mark.django_db
def test_the_language_picker_with_a_bare_word_goes_home(client: Client) -> None:
    response = client.post("/language/", {"language": "en", "next": "agenda"})
    assert (response.status_code, response["Location"]) == (302, "/")


@pytest.mark.django_db
def test_a_star_with_a_bare_word_goes_back_to_the_session(client: Client, demo_event) -> None:  # noqa: ANN001
    url = f"/{DEMO_SLUG}/sessions/{TORCHJD}/"
    response = client.post(f"{url}star", {"starred": "1", "next": "agenda"})
    pk = Session.objects.get(key=TORCHJD).pk
    assert (response.status_code, response["Location"]) == (302, f"{url}#s-{pk}")


@pytest.mark.django_db
def test_the_planner_s_take_with_a_bare_word_goes_back_to_the_plan(
    client: Client,
    demo_event,  # noqa: ANN001
) -> None:
    client.force_login(User.objects.create_user("ada", "ada@example.org", PASSWORD))
    plan = f"/{DEMO_SLUG}/plan/"
    response = client.post(plan, {"session": [TORCHJD], "next": "agenda"})
    assert (response.status_code, response["Location"]) == (302, plan)
    assert list(AgendaItem.objects.values_list("session__key", flat=True)) == [TORCHJD]


@pytest.mark.django_db
def test_a_reservation_form_with_a_bare_word_links_back_to_the_session(
    client: Client,
    demo_event,  # noqa: ANN001
) -> None:
    session = Session.objects.get(key=TORCHJD)
    client.force_login(User.objects.create_user("ada", "ada@example.org", PASSWORD))
    client.post(f"/{DEMO_SLUG}/sessions/{TORCHJD}/reserve", {"action": "reserve", "next": "agenda"})
    assert client.session["seat_note"]["back"] == session.get_absolute_url()
