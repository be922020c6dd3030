"""Account pages look like ours, in the frame of the event they were reached from."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils.http import urlsafe_base64_encode

from confsched.web.accounts.views import event_of_address
from confsched.web.site.templatetags.site_chrome import duration
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

EVENT = "PyTorch Conference Europe 2026"
AGENDA = f"/{DEMO_SLUG}/agenda/"
PASSWORD = "a long enough password 42"
EVENT_HEADER = f'<p class="event-name"><a href="/{DEMO_SLUG}/">{EVENT}</a></p>'
SITE_HEADER = '<header class="site-header site-header-plain">'
ADMIN_MARKS = ("Django administration", "/static/admin/")

ANONYMOUS_PAGES = [
    ("/accounts/login/", "Log in", "Log in"),
    ("/accounts/signup/", "Sign up", "Create an account"),
    ("/accounts/password/reset/", "Reset your password", "Reset your password"),
    ("/accounts/password/reset/sent/", "Check your mail", "Check your mail"),
    ("/accounts/password/reset/MQ/not-a-token/", "Choose a new password", "Choose a new password"),
    ("/accounts/password/reset/done/", "Password set", "Password set"),
]
SIGNED_IN_PAGES = [
    ("/accounts/password/change/", "Change your password", "Change your password"),
    ("/accounts/password/change/done/", "Password changed", "Password changed"),
]


def _title(html: str) -> str:
    return unescape(re.search(r"<title>(.*?)</title>", html, flags=re.S).group(1))


def _h1(html: str) -> str:
    return unescape(re.search(r"<h1>(.*?)</h1>", html, flags=re.S).group(1))


def _back(html: str) -> list[str]:
    return [
        unescape(href)
        for href in re.findall(r'<nav class="crumbs" aria-label="Back"><a href="([^"]*)">', html)
    ]


def _hidden_next(html: str) -> list[str]:
    """The `next` the page's own forms send on (the header's forms left out)."""
    main = html.split('<main id="main"', 1)[1]
    return [
        unescape(v) for v in re.findall(r'<input type="hidden" name="next" value="([^"]*)">', main)
    ]


def _get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content[:300]
    return response.content.decode()


@pytest.fixture
def ada(db) -> User:  # noqa: ANN001 - pytest fixture
    return User.objects.create_user("ada", "ada@example.org", PASSWORD)


@pytest.fixture
def signed_in(ada: User) -> Client:
    client = Client()
    client.force_login(ada)
    return client


@pytest.mark.parametrize(("url", "title", "heading"), ANONYMOUS_PAGES)
def test_each_page_reached_from_nowhere_is_in_the_site_frame(
    client: Client, demo_event, url: str, title: str, heading: str
) -> None:
    html = _get(client, url)
    assert (_title(html), _h1(html), _back(html)) == (f"{title} · confsched", heading, [])
    assert SITE_HEADER in html and EVENT_HEADER not in html
    assert [mark for mark in ADMIN_MARKS if mark in html] == []


@pytest.mark.parametrize(("url", "title", "heading"), ANONYMOUS_PAGES)
def test_each_page_reached_from_an_event_keeps_its_header_and_a_way_back(
    client: Client, demo_event, url: str, title: str, heading: str
) -> None:
    html = _get(client, f"{url}?next={quote(AGENDA)}")
    assert (_title(html), _h1(html), _back(html)) == (
        f"{title} · {EVENT} · confsched",
        heading,
        [AGENDA],
    )
    assert EVENT_HEADER in html and SITE_HEADER not in html
    assert [mark for mark in ADMIN_MARKS if mark in html] == []


@pytest.mark.parametrize(("url", "title", "heading"), SIGNED_IN_PAGES)
def test_the_signed_in_pages_keep_the_frame_too(
    signed_in: Client, demo_event, url: str, title: str, heading: str
) -> None:
    plain = _get(signed_in, url)
    assert (_title(plain), _h1(plain), SITE_HEADER in plain) == (
        f"{title} · confsched",
        heading,
        True,
    )
    framed = _get(signed_in, f"{url}?next={quote(AGENDA)}")
    assert (_title(framed), _h1(framed), _back(framed), EVENT_HEADER in framed) == (
        f"{title} · {EVENT} · confsched",
        heading,
        [AGENDA],
        True,
    )


def test_the_event_frame_links_log_in_and_sign_up_back_to_the_event_page(
    client: Client, demo_event
) -> None:
    html = _get(client, f"/accounts/login/?next={quote(AGENDA)}")
    corner = re.search(r'<div class="account">(.*?)</div>', html, flags=re.S).group(1)
    assert re.findall(r'href="([^"]+)"', corner) == [
        "/accounts/login/?next=/pytorch-conference-europe-2026/agenda/",
        "/accounts/signup/?next=/pytorch-conference-europe-2026/agenda/",
    ]
    assert _hidden_next(html) == [AGENDA]
    links = re.search(r'<p class="account-links">(.*?)</p>', html, flags=re.S).group(1)
    assert re.findall(r'href="([^"]+)"', links) == [
        "/accounts/signup/?next=/pytorch-conference-europe-2026/agenda/",
        "/accounts/password/reset/?next=/pytorch-conference-europe-2026/agenda/",
    ]


@pytest.mark.parametrize(
    ("next_url", "hidden"),
    [
        ("/no-such-event/", "/no-such-event/"),
        ("https://elsewhere.example/pytorch-conference-europe-2026/", "/"),
        ("//elsewhere.example/pytorch-conference-europe-2026/", "/"),
        ("/", "/"),
    ],
    ids=["unknown-event", "other-site", "scheme-relative", "home"],
)
def test_a_next_that_is_no_event_page_of_this_site_gets_the_site_frame(
    client: Client, demo_event, next_url: str, hidden: str
) -> None:
    html = _get(client, f"/accounts/login/?next={quote(next_url, safe='')}")
    assert (SITE_HEADER in html, EVENT_HEADER in html, _hidden_next(html)) == (
        True,
        False,
        [hidden],
    )
    assert _back(html) == ([] if hidden == "/" else [hidden])


@pytest.mark.parametrize(
    ("address", "slug"),
    [
        (f"/{DEMO_SLUG}/sessions/x/?tz=UTC", DEMO_SLUG),
        (f"http://testserver/{DEMO_SLUG}/", DEMO_SLUG),
        (f"/accounts/password/change/?next=/{DEMO_SLUG}/agenda/", DEMO_SLUG),
        (f"/accounts/login/?next=/accounts/password/change/%3Fnext%3D/{DEMO_SLUG}/", DEMO_SLUG),
        ("/accounts/login/?next=/accounts/login/?next=/accounts/login/?next=/accounts/x/", None),
        ("/", None),
        ("", None),
        ("relative/path/", None),
        (f"/{DEMO_SLUG}", None),
        ("/no-such-event/", None),
    ],
)
def test_the_event_of_an_address(demo_event, address: str, slug: str | None) -> None:
    event = event_of_address(address)
    assert (event.slug if event else None) == slug


def test_the_log_in_a_password_change_asks_for_keeps_the_event(client: Client, demo_event) -> None:
    response = client.get(f"/accounts/password/change/?next={quote(AGENDA)}")
    assert response.status_code == 302
    html = _get(client, response["Location"])
    assert (_h1(html), EVENT_HEADER in html) == ("Log in", True)


def test_log_in_goes_back_to_the_event_page(client: Client, demo_event, ada: User) -> None:
    response = client.post(
        "/accounts/login/", {"username": "ada", "password": PASSWORD, "next": AGENDA}
    )
    assert (response.status_code, response["Location"]) == (302, AGENDA)


def test_a_wrong_password_is_refused_in_the_event_frame(
    client: Client, demo_event, ada: User
) -> None:
    response = client.post(
        f"/accounts/login/?next={quote(AGENDA)}",
        {"username": "ada", "password": "wrong", "next": AGENDA},
    )
    html = response.content.decode()
    assert (response.status_code, EVENT_HEADER in html, _hidden_next(html)) == (200, True, [AGENDA])
    assert (
        '<div class="notice" role="alert"><p>Please enter a correct username and password. '
        "Note that both fields may be case-sensitive.</p></div>"
    ) in html


def test_sign_up_errors_are_named_in_the_event_frame(client: Client, demo_event) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bob", "email": "not an address", "password1": PASSWORD,
            "password2": PASSWORD + "x", "next": AGENDA,
        },
    )  # fmt: skip
    html = response.content.decode()
    errors = dict(re.findall(r'<ul class="field-errors" id="id_(\w+)-errors"><li>(.*?)</li>', html))
    assert (response.status_code, EVENT_HEADER in html) == (200, True)
    assert {name: unescape(text) for name, text in errors.items()} == {
        "email": "Enter a valid email address.",
        "password2": "The two password fields didn’t match.",
    }
    assert User.objects.filter(username="bob").exists() is False


@pytest.mark.parametrize("email", ["ada@example.org", "ADA@Example.ORG"])
def test_one_account_per_email_address(client: Client, demo_event, ada: User, email: str) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bob", "email": email, "password1": PASSWORD,
            "password2": PASSWORD, "next": AGENDA,
        },
    )  # fmt: skip
    html = response.content.decode()
    errors = dict(re.findall(r'<ul class="field-errors" id="id_(\w+)-errors"><li>(.*?)</li>', html))
    assert (response.status_code, {k: unescape(v) for k, v in errors.items()}) == (
        200,
        {
            "email": "An account with this e-mail address exists already: log in, or reset its "
            "password if you forgot it."
        },
    )
    assert User.objects.filter(username="bob").exists() is False


def test_sign_up_goes_back_to_the_event_page(client: Client, demo_event) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bob", "email": "bob@example.org", "password1": PASSWORD,
            "password2": PASSWORD, "next": AGENDA,
        },
    )  # fmt: skip
    assert (response.status_code, response["Location"]) == (302, AGENDA)


def test_log_out_by_get_logs_nobody_out_and_offers_the_button(
    signed_in: Client, demo_event
) -> None:
    response = signed_in.get(f"/accounts/logout/?next={quote(AGENDA)}")
    html = response.content.decode()
    assert (response.status_code, response["Allow"], _title(html), _h1(html)) == (
        405,
        "POST, OPTIONS",
        f"Log out · {EVENT} · confsched",
        "Log out",
    )
    assert (
        '<form method="post" action="/accounts/logout/" class="account-form">' in html,
        _hidden_next(html),
        "_auth_user_id" in signed_in.session,
    ) == (True, [AGENDA], True)
    response = signed_in.post("/accounts/logout/", {"next": AGENDA})
    assert (response.status_code, response["Location"]) == (302, AGENDA)
    assert "_auth_user_id" not in signed_in.session
    again = signed_in.get("/accounts/logout/")
    assert (again.status_code, _h1(again.content.decode())) == (405, "You are logged out")


def _reset_link(mailoutbox) -> str:  # noqa: ANN001 - pytest-django fixture
    body = mailoutbox[0].body
    return re.search(r"http://testserver(/accounts/password/reset/\S+)", body).group(1)


def test_the_reset_mail_and_its_pages_keep_the_event(
    client: Client, demo_event, ada: User, mailoutbox
) -> None:
    response = client.post(
        f"/accounts/password/reset/?next={quote(AGENDA)}", {"email": "ada@example.org"}
    )
    assert response["Location"] == f"/accounts/password/reset/sent/?next={AGENDA}"
    assert EVENT_HEADER in _get(client, response["Location"])
    assert (len(mailoutbox), mailoutbox[0].to, mailoutbox[0].subject) == (
        1,
        ["ada@example.org"],
        "Reset your password on testserver",
    )
    link = _reset_link(mailoutbox)
    assert link.endswith(f"/?next={AGENDA}")
    assert mailoutbox[0].body == (
        'Someone asked to reset the password of the account "ada" on testserver. If it was you, '
        f"choose a new password here:\n\nhttp://testserver{link}\n\nThe link works once. If it "
        "was not you, ignore this mail: your password stays as it is.\n"
    )

    moved = client.get(link)  # Django moves the token into the session
    assert moved["Location"].endswith(f"/set-password/?next={AGENDA}")
    form = _get(client, moved["Location"])
    assert (_h1(form), EVENT_HEADER in form, _back(form)) == (
        "Choose a new password",
        True,
        [AGENDA],
    )

    done = client.post(
        moved["Location"],
        {"new_password1": "another fine password 7", "new_password2": "another fine password 7"},
    )
    assert done["Location"] == f"/accounts/password/reset/done/?next={AGENDA}"
    complete = _get(client, done["Location"])
    assert (_h1(complete), EVENT_HEADER in complete) == ("Password set", True)
    assert f'<a href="/accounts/login/?next={AGENDA}">Log in</a>' in complete
    logged_in = client.post(
        "/accounts/login/",
        {"username": "ada", "password": "another fine password 7", "next": AGENDA},
    )
    assert (logged_in.status_code, logged_in["Location"]) == (302, AGENDA)


def test_the_reset_mail_from_nowhere_links_without_next(
    client: Client, demo_event, ada: User, mailoutbox
) -> None:
    client.post("/accounts/password/reset/", {"email": "ada@example.org"})
    link = _reset_link(mailoutbox)
    uid = urlsafe_base64_encode(str(ada.pk).encode())
    assert re.fullmatch(rf"/accounts/password/reset/{uid}/[0-9a-z]+-[0-9a-f]+/", link), link
    moved = client.get(link)
    assert moved["Location"] == f"/accounts/password/reset/{uid}/set-password/"


def test_an_unknown_address_gets_the_same_answer_and_no_mail(
    client: Client, demo_event, ada: User, mailoutbox
) -> None:
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert (response.status_code, response["Location"], len(mailoutbox)) == (
        302,
        "/accounts/password/reset/sent/",
        0,
    )


def test_a_bad_reset_link_says_so_and_offers_a_new_one(client: Client, demo_event) -> None:
    html = _get(client, f"/accounts/password/reset/MQ/not-a-token/?next={quote(AGENDA)}")
    assert (
        '<p class="notice" role="alert">This link is used up or no longer valid. '
        f'<a href="/accounts/password/reset/?next={AGENDA}">Ask for a new one</a>.</p>'
    ) in html
    assert '<form method="post"' not in html.split('<main id="main"')[1]


def test_a_password_change_goes_on_to_done_in_the_event_frame(
    signed_in: Client, demo_event
) -> None:
    response = signed_in.post(
        f"/accounts/password/change/?next={quote(AGENDA)}",
        {
            "old_password": PASSWORD,
            "new_password1": "another fine password 7",
            "new_password2": "another fine password 7",
        },
    )
    assert response["Location"] == f"/accounts/password/change/done/?next={AGENDA}"
    assert User.objects.get(username="ada").check_password("another fine password 7")


def test_a_wrong_old_password_is_named(signed_in: Client, demo_event) -> None:
    response = signed_in.post(
        "/accounts/password/change/",
        {"old_password": "wrong", "new_password1": "x" * 20, "new_password2": "x" * 20},
    )
    html = response.content.decode()
    assert re.findall(r'id="id_(\w+)-errors"><li>(.*?)</li>', html) == [
        ("old_password", "Your old password was entered incorrectly. Please enter it again.")
    ]
    assert User.objects.get(username="ada").check_password(PASSWORD)


def test_too_many_failed_log_ins_answer_429_in_the_event_frame(
    client: Client, demo_event, ada: User
) -> None:
    statuses = [
        client.post(
            f"/accounts/login/?next={quote(AGENDA)}",
            {"username": "ada", "password": "wrong", "next": AGENDA},
        ).status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert statuses == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    response = client.post(
        "/accounts/login/", {"username": "ada", "password": PASSWORD, "next": AGENDA}
    )
    html = response.content.decode()
    assert (response.status_code, _title(html), _back(html), EVENT_HEADER in html) == (
        429,
        f"Too many attempts · {EVENT} · confsched",
        [AGENDA],
        True,
    )
    assert (
        "Try again in 15 minutes, or "
        f'<a href="/accounts/password/reset/?next={AGENDA}">reset your password</a>.'
    ) in html


@pytest.mark.parametrize(
    ("wait", "words"),
    [
        (timedelta(minutes=15), "15 minutes"),
        (timedelta(hours=1), "1 hour"),
        (timedelta(hours=2, minutes=1), "2 hours 1 minute"),
        (timedelta(seconds=20), "1 minute"),
        (timedelta(0), "1 minute"),
        (timedelta(days=1), "24 hours"),
    ],
)
def test_a_wait_in_words(wait: timedelta, words: str) -> None:
    assert duration(wait) == words


def test_the_admin_keeps_its_own_pages_and_its_password_change_works(
    client: Client, demo_event
) -> None:
    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    client.force_login(User.objects.get(username="root"))
    assert "Django administration" in _get(client, "/admin/")
    html = _get(client, "/admin/password_change/")
    assert (_h1(html), SITE_HEADER in html) == ("Change your password", True)


@pytest.mark.parametrize(
    ("url", "field"),
    [("/accounts/delete/", "password"), ("/accounts/password/change/", "old_password")],
)
def test_forms_that_ask_the_password_again_are_throttled_like_the_log_in(
    client: Client, ada: User, url: str, field: str
) -> None:
    """A device left signed in is no way to guess the password: wrong passwords typed into the
    account-deletion or the password-change form count towards the log-in's lockout, and a
    locked account is refused (429) even with the right one; nothing is deleted or changed."""
    client.force_login(ada)
    data = {
        field: "wrong",
        "new_password1": "An0ther-long-one!",
        "new_password2": "An0ther-long-one!",
    }
    statuses = [client.post(url, data).status_code for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert statuses == [400 if field == "password" else 200] * (settings.AXES_FAILURE_LIMIT - 1) + [
        429
    ]
    assert client.post(url, {**data, field: PASSWORD}).status_code == 429
    assert User.objects.get(username="ada").check_password(PASSWORD)


def _language_links(html: str) -> list[str]:
    return re.findall(r'hreflang="([a-z-]+)"', html)


def _nav(html: str) -> list[str]:
    nav = re.search(r'<nav class="site-nav".*?</nav>', html, flags=re.S).group(0)
    return re.findall(r'<a href="([^"]+)"', nav)


@pytest.mark.parametrize(
    "url", ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
)
def test_reached_from_an_event_in_french_an_account_page_is_its_page_in_french(
    client: Client, demo_event, url: str
) -> None:
    # Issue 29, item 3: the event's header, navigation, language links in its order, and the
    # whole page (its corner included) in the event's language, as the page it came from.
    demo_event.default_language, demo_event.languages = "fr", "fr,de,en"
    demo_event.save()
    event_html = _get(client, AGENDA, 200)
    html = _get(client, f"{url}?next={quote(AGENDA)}")
    assert EVENT_HEADER in html
    assert _language_links(event_html) == ["fr", "de", "en"]
    assert (_language_links(html), _nav(html)) == (["fr", "de", "en"], _nav(event_html))
    assert '<html lang="fr">' in html
    account = re.search(r'<div class="account">(.*?)\n    </div>', html, flags=re.S).group(1)
    assert ">Se connecter</a>" in account and ">Log in</a>" not in account
