"""A NUL character anywhere in a request is a 400 that says where, before any view or query
sees it (PostgreSQL's text cannot hold one: psycopg refused it, a 500)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from confsched.agenda.models import Feedback
from confsched.web.site.middleware import NulCharacterMiddleware
from tests.conftest import DEMO_SLUG

SAID = "The request holds a NUL character (U+0000) in {}: no text here may."


def _answer(request: HttpRequest) -> HttpResponse:
    return NulCharacterMiddleware(lambda request: HttpResponse("passed"))(request)


def _text(response: HttpResponse) -> tuple[int, str]:
    return response.status_code, response.content.decode()


factory = RequestFactory()


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        (factory.get("/conf/sessions/a%00b/"), "the address"),
        (factory.get("/conf/people/?q=a%00b"), "the query parameter 'q'"),
        (factory.get("/conf/people/?a%00b=1"), "a query parameter's name"),
        (factory.post("/conf/agenda/share", {"display_name": "a\x00b"}), "the form field 'display_name'"),
        (factory.post("/conf/agenda/share", {"a\x00b": "1"}), "a form field's name"),
        (
            factory.post("/conf/agenda/share", "key=a%00b", content_type="application/x-www-form-urlencoded"),
            "the form field 'key'",
        ),
        (factory.get("/conf/", HTTP_COOKIE='sessionid="a\\000b"'), "the cookie 'sessionid'"),
        (factory.get("/conf/", HTTP_USER_AGENT="a\x00b"), "the header 'User-Agent'"),
        (factory.post("/conf/x", b'{"a": "b\x00"}', content_type="application/json"), "the body"),
        (factory.post("/conf/x", b'{"a": ["\\u0000"]}', content_type="application/json"), "the JSON body"),
        (factory.post("/conf/x", b'{"\\u0000": 1}', content_type="application/json"), "the JSON body"),
    ],
)  # fmt: skip
def test_a_nul_is_refused_saying_where(request_: HttpRequest, where: str) -> None:
    assert _text(_answer(request_)) == (400, SAID.format(where) + "\n")


def test_a_multipart_field_is_read_too() -> None:
    request = factory.post("/conf/agenda/import", {"text": "a\x00b", "file": b""})
    assert _text(_answer(request)) == (400, SAID.format("the form field 'text'") + "\n")


def test_a_100_kb_name_is_not_sent_back_whole() -> None:
    request = factory.get("/conf/people/", {"x" * 100_000: "a\x00b"})
    response = _answer(request)
    said = SAID.format(f"the query parameter {'x' * 64 + '…'!r}")
    assert _text(response) == (400, said + "\n")


def test_the_api_answers_in_its_own_shape() -> None:
    response = _answer(factory.get("/api/v1/events/conf/agenda/a%00b"))
    assert (response.status_code, response["Content-Type"], json.loads(response.content)) == (
        400,
        "application/json",
        {"detail": SAID.format("the address")},
    )


@pytest.mark.parametrize(
    "request_",
    [
        factory.get("/conf/people/?q=%2500"),  # "%00" typed: text, not a NUL
        factory.post("/conf/x", b'{"a": "\\\\u0000"}', content_type="application/json"),  # a backslash, then "u0000"
        factory.post("/conf/x", b'{"a": "\\u0000', content_type="application/json"),  # no JSON: its reader's to refuse
        factory.post("/conf/agenda/import", {"file": b"\x00\x01 a file's bytes are no text"}),
        factory.get("/conf/", {"q": "ordinary"}),
    ],
)  # fmt: skip
def test_what_holds_no_nul_passes(request_: HttpRequest) -> None:
    assert _text(_answer(request_)) == (200, "passed")


def test_it_reads_the_body_after_the_size_limit_and_before_the_session() -> None:
    middleware = settings.MIDDLEWARE
    limit = middleware.index("confsched.web.site.middleware.RequestBodyLimitMiddleware")
    guard = middleware.index("confsched.web.site.middleware.NulCharacterMiddleware")
    language = middleware.index("confsched.web.site.languages.LanguageMiddleware")
    assert (guard - limit, guard < language) == (1, True)


@pytest.mark.django_db
def test_a_nul_session_cookie_is_a_400_not_a_500(client: Client) -> None:
    # The language middleware reads the session the cookie names: on PostgreSQL a NUL in the
    # key was a 500 before any view ran.
    client.cookies[settings.SESSION_COOKIE_NAME] = "abcdefgh\x00"
    response = client.get("/about/")
    assert _text(response) == (
        400,
        SAID.format(f"the cookie '{settings.SESSION_COOKIE_NAME}'") + "\n",
    )


def test_a_nul_comment_writes_nothing(demo_event, client: Client) -> None:  # noqa: ANN001
    client.force_login(User.objects.create_user("ada", "ada@example.org", "a fine password 7"))
    key = demo_event.sessions.order_by("starts_at").first().key
    response = client.post(
        f"/{DEMO_SLUG}/sessions/{key}/feedback/", {"rating": "4", "comment": "fine\x00"}
    )
    assert _text(response) == (400, SAID.format("the form field 'comment'") + "\n")
    assert Feedback.objects.count() == 0
