"""Anonymous pages a shared cache may keep, and no person's page ever kept for another.

A request with none of the site's cookies gets the bytes every such request gets: no
Set-Cookie, no CSRF token, `Cache-Control: public` with a short max-age and
stale-while-revalidate, an ETag that is the same in every process and a 304 for it. A visitor
who starred, or anyone signed in, gets their own page, private as before. Stars still work
without JavaScript and without a token, and a cross-site POST is still refused.
"""

from __future__ import annotations

import gzip
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from confsched.agenda.models import VisitorStar
from confsched.core import clock
from confsched.programme.services import load_programme
from confsched.web.site.stencils import forget_local_stencils
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PUBLIC = "public, max-age=5"
PAGES = [
    "",
    "grid/",
    "?track=training-systems&level=intermediate",
    f"sessions/{TORCHJD}/",
    "speakers/",
    "speakers/valerian-rey/",
]
# Pages rendered per request (not kept as stencils) that are the same for every visitor.
RENDERED = ["changes/", "print/", "v/1/", "now/", "zones/", "search/?q=compilers"]
FILES = ["schedule.xml", "schedule.json", "schedule.ics", f"sessions/{TORCHJD}/calendar.ics"]
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]*)"')


def _get(path: str, client: Client | None = None, **headers: str):  # noqa: ANN202
    return (client or Client()).get(BASE + path, headers={"Accept-Encoding": "gzip", **headers})


@pytest.mark.parametrize("path", PAGES + RENDERED + FILES)
def test_anonymous_requests_get_the_same_bytes_and_no_cookie(demo_event, path: str) -> None:
    first, second = _get(path), _get(path)
    assert (first.status_code, second.status_code) == (200, 200)
    assert (first.cookies, second.cookies) == ({}, {})
    assert first.content == second.content
    assert first["ETag"] == second["ETag"]
    expected = PUBLIC if path in PAGES + RENDERED else "public, max-age=300"
    if path.startswith("schedule.") and not path.endswith(".ics"):
        expected = PUBLIC
    if path == "now/":  # what is on now, kept half a minute
        expected = "public, max-age=30"
    assert first["Cache-Control"] == expected


@pytest.mark.parametrize("path", PAGES)
def test_anonymous_pages_hold_no_token_and_vary_only_on_what_changes_them(
    demo_event, path: str
) -> None:
    response = _get(path)
    body = gzip.decompress(response.content)
    assert set(TOKEN.findall(body)) == {b""}  # the star form's field, empty
    assert b"csrftoken" not in body
    assert response["Vary"] == "Cookie, HX-Request, HX-Target, Accept-Encoding"


@pytest.mark.parametrize("path", RENDERED)
def test_rendered_anonymous_pages_hold_no_token(demo_event, path: str) -> None:
    response = _get(path)
    body = gzip.decompress(response.content)
    assert (TOKEN.findall(body), b"csrftoken" in body) == ([], False)
    assert response["Vary"] == "Cookie, HX-Request, Accept-Encoding"


@pytest.mark.parametrize("path", RENDERED)
def test_a_signed_in_person_s_rendered_page_is_private(demo_event, path: str) -> None:
    client = Client()
    client.force_login(User.objects.create_user("ada"))
    response = _get(path, client)
    assert "public" not in response.get("Cache-Control", "")
    assert len(TOKEN.findall(gzip.decompress(response.content))) >= 1


@pytest.mark.parametrize("path", PAGES + RENDERED + FILES)
def test_an_anonymous_if_none_match_gets_a_304(
    demo_event, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001 - a pytest fixture
    # One moment for both requests: the now page says its moment to the second (its <time
    # datetime>), and on a loaded machine two requests fell either side of one.
    moment = clock.now()
    monkeypatch.setattr(clock, "now", lambda: moment)
    etag = _get(path)["ETag"]
    again = _get(path, **{"If-None-Match": etag})
    assert (again.status_code, again.content, again["ETag"], again.cookies) == (304, b"", etag, {})


def test_the_etag_is_the_same_in_another_process(demo_event) -> None:
    """What a second app process would compute: nothing kept from the first."""
    before = {path: _get(path)["ETag"] for path in PAGES}
    forget_local_stencils()
    assert {path: _get(path)["ETag"] for path in PAGES} == before


@pytest.mark.parametrize("path", RENDERED + FILES)
def test_the_gzipped_bytes_are_the_same_in_another_process(
    demo_event, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001 - a pytest fixture
    """No random BREACH padding in what a cache shares: every process sends the same bytes."""
    moment = clock.now()  # the now page says its moment to the second (<time datetime>)
    monkeypatch.setattr(clock, "now", lambda: moment)
    before = _get(path)
    forget_local_stencils()
    after = _get(path)
    assert (after["Content-Encoding"], after.content) == ("gzip", before.content)


def test_a_new_schedule_version_changes_the_bytes_and_the_etag(demo_event, demo_programme) -> None:
    first = _get("")
    sessions = [
        s.__class__(**{**s.__dict__, "title": "Jacobians, renamed"}) if s.key == TORCHJD else s
        for s in demo_programme.sessions
    ]
    load_programme(demo_event, demo_programme.__class__(**{**demo_programme.__dict__,
                                                           "sessions": sessions}))  # fmt: skip
    second = _get("", **{"If-None-Match": first["ETag"]})
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    assert b"Jacobians, renamed" in gzip.decompress(second.content)


@override_settings(CONFSCHED_PUBLIC_MAX_AGE=5, CONFSCHED_PUBLIC_STALE=10)
def test_the_max_age_is_a_setting(demo_event) -> None:
    assert _get("")["Cache-Control"] == "public, max-age=5, stale-while-revalidate=10"


@pytest.mark.parametrize("path", ["", "grid/", f"sessions/{TORCHJD}/"])
def test_a_signed_in_person_s_page_is_private(demo_event, path: str) -> None:
    ada = User.objects.create_user("ada", password="x" * 20)
    client = Client()
    client.force_login(ada)
    mine = _get(path, client)
    public = _get(path)
    # Theirs: no cache may store it, but their own offline copy (web/site/private.py).
    assert (mine["Cache-Control"], mine["X-Confsched-Offline"]) == ("private, no-store", "account")
    assert b'<span class="who">ada</span>' in gzip.decompress(mine.content)
    assert b"ada" not in gzip.decompress(public.content).split(b"<main")[0]
    assert mine["ETag"] != public["ETag"]
    # Their own If-None-Match never turns the public page into a 304 for them, nor theirs
    # for a visitor.
    assert _get(path, client, **{"If-None-Match": public["ETag"]}).status_code == 200
    assert _get(path, **{"If-None-Match": mine["ETag"]}).status_code == 200


@pytest.mark.parametrize("cookie", ["sessionid", "csrftoken", "confsched_language", "confsched_tz"])
def test_any_cookie_of_the_site_makes_the_page_private(demo_event, cookie: str) -> None:
    client = Client()
    client.cookies[cookie] = {"confsched_language": "en", "confsched_tz": "Asia/Tokyo"}.get(
        cookie, "x" * 32
    )
    # A session (a visitor's stars) is a person's; a language, zone or token is not.
    expected = "private, no-store" if cookie == "sessionid" else "private, no-cache"
    assert _get("", client)["Cache-Control"] == expected


def test_a_chosen_zone_is_remembered_and_private(demo_event) -> None:
    response = _get("?tz=Asia/Tokyo")
    assert (response["Cache-Control"], response.cookies["confsched_tz"].value) == (
        "private, no-cache", "Asia/Tokyo",
    )  # fmt: skip


def test_a_visitor_stars_without_javascript_from_a_public_page(demo_event) -> None:
    """The star form as the cached page has it (an empty token field), sent by a browser."""
    visitor = Client(enforce_csrf_checks=True)
    page = _get("", visitor)
    assert page.cookies == {}
    star = f"{BASE}sessions/{TORCHJD}/star"
    assert f'formaction="{star}"'.encode() in gzip.decompress(page.content)
    sent = visitor.post(
        star, {"csrfmiddlewaretoken": "", "starred": "1", "next": BASE},
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )  # fmt: skip
    assert (sent.status_code, sent["Location"]) == (302, f"{BASE}#s-{_torchjd_pk()}")
    assert VisitorStar.objects.count() == 1
    # From now on their pages are their own: private, with their star and a token.
    mine = _get("", visitor)
    body = gzip.decompress(mine.content) if mine.get("Content-Encoding") else mine.content
    assert mine["Cache-Control"] == "private, no-store"
    assert body.count(b'aria-pressed="true"') == 1
    assert TOKEN.search(body).group(1) != b""


def test_a_visitor_stars_with_htmx_and_only_the_origin_header(demo_event) -> None:
    sent = Client(enforce_csrf_checks=True).post(
        f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"},
        headers={"Origin": "http://testserver", "HX-Request": "true"},
    )  # fmt: skip
    assert (sent.status_code, b'aria-pressed="true"' in sent.content) == (200, True)


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Origin": "https://testserver"},  # the right host, another scheme
        {},  # neither header: the token is needed, and there is none
    ],
)
def test_a_cross_site_star_is_refused(demo_event, headers: dict[str, str]) -> None:
    sent = Client(enforce_csrf_checks=True).post(
        f"{BASE}sessions/{TORCHJD}/star", {"starred": "1"}, headers=headers
    )
    assert sent.status_code == 403
    assert VisitorStar.objects.count() == 0
    if headers:
        assert sent.content.decode().startswith("Refused: this form was sent from another site")


def test_a_browser_without_the_headers_stars_with_the_token(demo_event) -> None:
    """A visitor whose page is private (they have a CSRF cookie) and an old browser."""
    client = Client(enforce_csrf_checks=True)
    client.cookies["confsched_language"] = "en"
    page = _get("", client)
    body = gzip.decompress(page.content)
    token = TOKEN.search(body).group(1).decode()
    sent = client.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1",
                                                          "csrfmiddlewaretoken": token})  # fmt: skip
    assert sent.status_code == 302
    assert VisitorStar.objects.count() == 1


def _torchjd_pk() -> int:
    from confsched.programme.models import Session

    return Session.objects.get(key=TORCHJD).pk
