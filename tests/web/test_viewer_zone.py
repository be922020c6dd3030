"""A zone name from the address or a cookie never reaches the tz database unless it is one.

A bad ?tz= is what the visitor asked for: every page that reads it answers 400 with the event's
page saying so. A bad cookie was not asked for on this request: it is ignored and deleted.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
import vobject
from django.contrib.auth.models import User
from django.test import Client, override_settings

from confsched.agenda.services import set_sharing
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"

# What each bad name is called in the message: long ones are cut at 64 characters.
BAD_ZONES = {
    "Europe": "'Europe'",  # a folder of the tz database
    "Etc": "'Etc'",
    "A" * 300: "'" + "A" * 64 + "…'",  # longer than a file name may be
    "a/" * 300 + "b": "'" + "a/" * 32 + "…'",  # deeper than paths may nest
    "../etc/passwd": "'../etc/passwd'",
    "/usr/share/zoneinfo/UTC": "'/usr/share/zoneinfo/UTC'",
    "<b>Mars</b>": "'<b>Mars</b>'",
}
PAGES = {
    "list": "",
    "grid": "grid/",
    "session": f"sessions/{TORCHJD}/",
    "speakers": "speakers/",
    "speaker": "speakers/valerian-rey/",
    "agenda": "agenda/",
    "shared agenda": "agenda/shared/{token}/",
    "changes": "changes/",
}
# The pages that show times, and so the zone they are read in (the speaker directory shows none).
TIMED_PAGES = [page for page in PAGES if page != "speakers"]
CALENDARS = {"calendar": "schedule.ics", "filtered calendar": "schedule.ics?level=advanced"}


@pytest.fixture
def share_token(demo_event) -> str:  # noqa: ANN001
    ada = User.objects.create_user("ada", "ada@example.org", "a long enough password 42")
    return set_sharing(ada, demo_event, is_on=True).share_token


def _url(page: str, token: str, **params: str) -> str:
    path = BASE + {**PAGES, **CALENDARS}[page].format(token=token)
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return path + ("&" if "?" in path else "?") + query if query else path


def _alert(html: str) -> str:
    (text,) = re.findall(r'<p class="notice" role="alert">(.*?)</p>', html, flags=re.S)
    return unescape(text)


@pytest.mark.parametrize("page", [*PAGES, *CALENDARS])
def test_a_bad_zone_in_the_address_is_refused_with_the_events_page(
    client: Client, share_token: str, page: str
) -> None:
    for asked, shown in BAD_ZONES.items():
        response = client.get(_url(page, share_token), {"tz": asked})
        html = response.content.decode()
        assert (response.status_code, response["Content-Type"]) == (
            400,
            "text/html; charset=utf-8",
        ), asked
        assert _alert(html) == (
            f"Unknown time zone {shown}: give an IANA name such as Europe/Paris."
        ), asked
        assert "<h1>Time zone not recognised</h1>" in html
        assert '<p class="event-name"><a href="/pytorch-conference-europe-2026/">' in html
        assert "confsched_tz" not in response.cookies


def test_the_refusal_offers_the_picker_and_the_event_zone_keeping_the_view(
    client: Client, demo_event
) -> None:
    response = client.get(BASE + "grid/?track=training-systems&tz=Europe&q=rl")
    html = response.content.decode()
    assert response.status_code == 400
    assert re.findall(r'<a href="([^"]+)">Show this page in the event.s time zone', html) == [
        f"{BASE}grid/?track=training-systems&amp;q=rl"
    ]
    # The zone form resubmits the view's other parameters with the zone chosen in it.
    form = html[html.index('<form class="wrap zone-form"') :]
    form = form[: form.index("</form>")]
    assert re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form) == [
        ("track", "training-systems"),
        ("q", "rl"),
    ]
    assert 'id="tz" name="tz"' in form


def test_a_zone_with_a_nul_is_refused_before_any_page_says_where(
    client: Client, demo_event
) -> None:
    """No text the site reads may hold a NUL (web/site/middleware.py): the address's zone and a
    saved zone alike get the guard's 400, which names the place."""
    asked = client.get(BASE, {"tz": "Europe/Paris\x00"})
    client.cookies["confsched_tz"] = "Europe/Paris\x00"
    saved = client.get(BASE)
    assert [(r.status_code, r.content.decode()) for r in (asked, saved)] == [
        (400, "The request holds a NUL character (U+0000) in the query parameter 'tz': no text "
              "here may.\n"),
        (400, "The request holds a NUL character (U+0000) in the cookie 'confsched_tz': no text "
              "here may.\n"),
    ]  # fmt: skip


def test_an_htmx_request_with_a_bad_zone_is_refused_too(client: Client, demo_event) -> None:
    response = client.get(BASE + "?tz=Etc", headers={"HX-Request": "true", "HX-Target": "results"})
    assert response.status_code == 400
    assert _alert(response.content.decode()) == (
        "Unknown time zone 'Etc': give an IANA name such as Europe/Paris."
    )


@pytest.mark.parametrize("page", TIMED_PAGES)
def test_an_empty_zone_means_the_events_zone(client: Client, share_token: str, page: str) -> None:
    response = client.get(_url(page, share_token, tz=""))
    assert response.status_code == 200
    assert "Times in <strong>Europe/Paris (CEST, UTC+02:00)</strong>" in response.content.decode()
    assert "confsched_tz" not in response.cookies


@pytest.mark.parametrize("page", TIMED_PAGES)
def test_a_valid_zone_is_shown_and_saved(client: Client, share_token: str, page: str) -> None:
    response = client.get(_url(page, share_token, tz="Asia/Tokyo"))
    assert response.status_code == 200
    assert "Times in <strong>Asia/Tokyo (JST, UTC+09:00)</strong>" in response.content.decode()
    assert response.cookies["confsched_tz"].value == "Asia/Tokyo"


@pytest.mark.parametrize("page", TIMED_PAGES)
def test_a_bad_saved_zone_is_ignored_and_deleted(
    client: Client, share_token: str, page: str
) -> None:
    for saved in BAD_ZONES:
        client.cookies["confsched_tz"] = saved
        response = client.get(_url(page, share_token))
        assert response.status_code == 200, saved
        assert (
            "Times in <strong>Europe/Paris (CEST, UTC+02:00)</strong>, the event's time zone."
            in response.content.decode()
        )
        deleted = response.cookies["confsched_tz"]
        assert (deleted.value, deleted["max-age"], deleted["path"]) == ("", 0, "/"), saved


def test_a_good_saved_zone_is_used_and_left_alone(client: Client, demo_event) -> None:
    client.cookies["confsched_tz"] = "Asia/Tokyo"
    response = client.get(BASE)
    assert "Times in <strong>Asia/Tokyo (JST, UTC+09:00)</strong>" in response.content.decode()
    assert "confsched_tz" not in response.cookies


@pytest.mark.parametrize("page", CALENDARS)
def test_calendars_take_the_zone_from_the_address_only(
    client: Client, demo_event, page: str
) -> None:
    client.cookies["confsched_tz"] = "Europe"
    response = client.get(_url(page, ""))
    assert (response.status_code, response["Content-Type"]) == (200, "text/calendar; charset=utf-8")
    assert "confsched_tz" not in response.cookies


def test_a_filtered_calendar_names_the_zone_its_days_were_read_in(
    client: Client, demo_event
) -> None:
    # Auckland's 8 April holds 15 sessions; the event's own 8 April none. A calendar app
    # fetching the link has no cookie, so the page writes the zone into it.
    client.cookies["confsched_tz"] = "Pacific/Auckland"
    html = client.get(BASE + "?date=2026-04-08").content.decode()
    link = f"{BASE}schedule.ics?date=2026-04-08&amp;tz=Pacific%2FAuckland"
    assert f'<a href="{link}">Calendar of this view (.ics)</a>' in html
    ics = Client().get(unescape(link)).content.decode()
    assert len(vobject.readOne(ics).vevent_list) == 15
    cookie_only = client.get(BASE + "schedule.ics?date=2026-04-08").content.decode()
    assert len(vobject.readOne(cookie_only).contents.get("vevent", [])) == 0


@pytest.mark.parametrize(("secure", "flag"), [(True, True), (False, "")])
def test_the_zone_cookie_is_secure_when_the_session_cookie_is(
    client: Client, demo_event, secure: bool, flag: object
) -> None:
    with override_settings(SESSION_COOKIE_SECURE=secure):
        cookie = client.get(BASE + "?tz=Asia/Tokyo").cookies["confsched_tz"]
    assert (cookie.value, cookie["secure"], cookie["httponly"], cookie["samesite"]) == (
        "Asia/Tokyo",
        flag,
        True,
        "Lax",
    )
