"""Announcements on the web (live/, web/venue/news.py, web/staff/announcements.py): the banner
in every page's "news" hole, the JSON for news.js, the Atom feed, the team's page."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext

from confsched.core import clock
from confsched.live import services
from confsched.live.models import Announcement
from confsched.programme.models import Event
from tests.conftest import DEMO_SLUG
from tests.teams import on_team

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 4, 7, 10, 0, tzinfo=UTC)  # 12:00 in Paris
LIST = f"/{DEMO_SLUG}/"
STAFF = f"/{DEMO_SLUG}/team/announcements/"
BANNER = re.compile(r'<section class="news".*?</section>', re.S)


@pytest.fixture(autouse=True)
def noon(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "now", lambda: NOON)
    monkeypatch.setattr(services, "notify_announcement", lambda *args: None)


@pytest.fixture
def event(demo_event: Event) -> Event:
    demo_event.languages = "en, fr"
    demo_event.save(update_fields=["languages"])
    return demo_event


def _announce(event: Event, **kwargs) -> Announcement:  # noqa: ANN003
    with TestCase.captureOnCommitCallbacks(execute=True):
        return services.announce(event, **kwargs)


def _banner(response) -> str:  # noqa: ANN001
    found = BANNER.search(response.content.decode())
    return " ".join(found.group(0).split()) if found else ""


def _expected(pk: int, text: str, *, link: str = "", lang: str = "", title: str = "From the organizers", more: str = "Read more") -> str:  # fmt: skip
    shown_lang = f' lang="{lang}"' if lang else ""
    anchor = f' <a href="{link}" aria-describedby="news-{pk}">{more}</a>' if link else ""
    return (
        '<section class="news" aria-labelledby="news-title" data-news-banner> <div class="wrap"> '
        f'<h2 class="news-title" id="news-title">{title}</h2> <ul class="news-list"> '
        f'<li data-news-id="{pk}"><p id="news-{pk}"{shown_lang}>{text}</p>{anchor}</li> </ul> '
        "</div> </section>"
    )


def test_a_kept_page_shows_an_announcement_at_once_and_a_new_etag(
    client: Client, event: Event
) -> None:  # noqa: E501
    first = client.get(LIST)
    assert _banner(first) == ""
    row = _announce(event, texts={"en": "Doors open <at> 9", "fr": "Portes à 9 h"}, link="/x/")
    second = client.get(LIST)
    assert _banner(second) == _expected(row.pk, "Doors open &lt;at&gt; 9", link="/x/")
    assert second["ETag"] != first["ETag"]
    assert client.get(LIST, HTTP_IF_NONE_MATCH=second["ETag"]).status_code == 304
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.end_announcement(row)
    third = client.get(LIST)
    assert (_banner(third), third["ETag"]) == ("", first["ETag"])


def test_the_banner_is_in_the_page_s_language_else_the_default(
    client: Client, event: Event
) -> None:
    both = _announce(event, texts={"en": "Lunch", "fr": "Déjeuner"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    assert f'<li data-news-id="{both.pk}"><p id="news-{both.pk}">Déjeuner</p></li>' in _banner(
        client.get(LIST)
    )
    Announcement.objects.all().delete()
    only_en = _announce(event, texts={"en": "Wifi"})
    assert f'<p id="news-{only_en.pk}" lang="en">Wifi</p>' in _banner(client.get(LIST))


def test_pages_rendered_whole_show_it_too(client: Client, event: Event) -> None:
    row = _announce(event, texts={"en": "Keynote in Hall A"}, link="https://example.org/a")
    expected = _expected(row.pk, "Keynote in Hall A", link="https://example.org/a")
    for path in ("now/", "changes/", "elsewhere/"):
        assert _banner(client.get(f"/{DEMO_SLUG}/{path}")) == expected, path
    user = User.objects.create_user("ada")
    client.force_login(user)
    agenda = f"/{DEMO_SLUG}/agenda/"
    assert _banner(client.get(agenda)) == expected
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.end_announcement(row)
    assert _banner(client.get(agenda)) == ""  # the kept agenda page is not shown again


def test_an_announcement_costs_no_query_once_read(client: Client, event: Event) -> None:
    _announce(event, texts={"en": "Hello"})
    client.get(LIST)
    with CaptureQueriesContext(connection) as captured:
        page = client.get(LIST)
    assert "Hello" in _banner(page)
    assert [q["sql"] for q in captured.captured_queries if "live_announcement" in q["sql"]] == []


def test_an_ended_time_takes_it_off_without_a_write(
    client: Client, event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: E501
    _announce(event, texts={"en": "Coffee"}, ends_at=datetime(2026, 4, 7, 10, 30, tzinfo=UTC))
    assert "Coffee" in _banner(client.get(LIST))
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 7, 10, 30, tzinfo=UTC))
    assert _banner(client.get(LIST)) == ""


def test_the_json_lists_the_current_ones_for_news_js(client: Client, event: Event) -> None:
    empty = client.get(f"/{DEMO_SLUG}/announcements.json")
    assert json.loads(empty.content) == {"language": "en", "announcements": []}
    assert empty["Cache-Control"] == "public, max-age=5"
    row = _announce(event, texts={"en": "Hi", "fr": "Salut"}, link="/x/",
                    ends_at=datetime(2026, 4, 7, 12, 0, tzinfo=UTC))  # fmt: skip
    assert json.loads(client.get(f"/{DEMO_SLUG}/announcements.json").content) == {
        "language": "en",
        "announcements": [{"id": row.pk, "texts": {"en": "Hi", "fr": "Salut"}, "link": "/x/",
                           "ends_at": "2026-04-07T12:00:00+00:00"}],
    }  # fmt: skip
    assert client.get("/nope/announcements.json").status_code == 404
    assert client.post(f"/{DEMO_SLUG}/announcements.json").status_code == 405


def test_the_feed_has_an_entry_per_announcement_in_the_asked_language(
    client: Client, event: Event
) -> None:  # noqa: E501
    _announce(event, texts={"en": "Lunch", "fr": "Déjeuner"}, link="/x/")
    _announce(event, texts={"en": "Wifi"})
    response = client.get(f"/{DEMO_SLUG}/announcements.atom?lang=fr")
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    body = response.content.decode()
    assert re.findall(r"<entry><title>(.*?)</title><link href=\"(.*?)\"", body) == [
        ("Wifi", f"http://testserver/{DEMO_SLUG}/now/"),
        ("Déjeuner", "http://testserver/x/"),
    ]
    assert '<summary type="text">Déjeuner</summary>' in body


def test_the_now_page_links_the_feed(client: Client, event: Event) -> None:
    for path in ("now/",):  # the "Calendar & apps" page is not this slice's file
        assert (
            f'href="/{DEMO_SLUG}/announcements.atom'
            in client.get(f"/{DEMO_SLUG}/{path}").content.decode()
        ), path  # noqa: E501


# The team's page -------------------------------------------------------------------------------


@pytest.fixture
def editor(client: Client, event: Event) -> Client:
    client.force_login(on_team(User.objects.create_user("eve"), "editor"))
    return client


def test_an_editor_announces_and_ends_one(editor: Client, event: Event) -> None:
    response = editor.post(STAFF, {
        "action": "announce", "text_en": "Doors open", "text_fr": "", "link": "",
        "ends_at": "2026-04-07T18:00",
    })  # fmt: skip
    assert (response.status_code, response["Location"]) == (302, STAFF)
    row = Announcement.objects.get()
    assert (row.texts, row.ends_at, row.created_by.username) == (
        {"en": "Doors open"}, datetime(2026, 4, 7, 16, 0, tzinfo=UTC), "eve",
    )  # fmt: skip
    page = editor.get(STAFF).content.decode()
    assert "Announced: it shows on every page of the event and is pushed." in page
    assert 'name="action" value="end"' in page
    assert editor.post(STAFF, {"action": "end", "announcement": str(row.pk)}).status_code == 302
    row.refresh_from_db()
    assert (row.ends_at, row.ended_by.username) == (NOON, "eve")


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"text_en": "", "text_fr": "Salut"}, "An announcement needs a text in the event&#x27;s default language (“en”)."),
        ({"text_en": "Hi", "link": "http://x.org"}, "The link must be an https:// address or a path on this site starting with “/” (at most 500 characters), not “http://x.org”."),
        ({"text_en": "Hi", "ends_at": "2026-04-07T11:00"}, "The end time 2026-04-07 11:00 CEST has passed: give a time in the future, or none."),
        ({"text_en": "Hi", "ends_at": "soon"}, "“soon” is not a time: write it as YYYY-MM-DD HH:MM, in the event&#x27;s zone."),
    ],
)  # fmt: skip
def test_a_refused_announcement_says_why_and_writes_nothing(
    editor: Client, form: dict[str, str], message: str
) -> None:  # noqa: E501
    response = editor.post(STAFF, {"action": "announce", **form})
    page = response.content.decode()
    assert (response.status_code, message in page) == (400, True)
    assert Announcement.objects.count() == 0
    assert f">{form['text_en']}</textarea>" in page  # the form as typed


def test_ending_an_unknown_or_ended_one_is_refused(editor: Client, event: Event) -> None:
    assert editor.post(STAFF, {"action": "end", "announcement": "999"}).status_code == 400
    row = _announce(event, texts={"en": "Hi"})
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.end_announcement(row)
    response = editor.post(STAFF, {"action": "end", "announcement": str(row.pk)})
    assert (
        response.status_code,
        "This announcement has ended already." in response.content.decode(),
    ) == (400, True)  # noqa: E501


def test_a_visitor_goes_to_login_and_others_are_refused(client: Client, event: Event) -> None:
    response = client.post(STAFF, {"action": "announce", "text_en": "Hi"})
    assert (response.status_code, response["Location"]) == (302, f"/accounts/login/?next={STAFF}")
    for role in ("viewer", "checkin"):
        client.force_login(on_team(User.objects.create_user(role), role))
        assert client.post(STAFF, {"action": "announce", "text_en": "Hi"}).status_code == 404
    assert Announcement.objects.count() == 0


def test_the_staff_menu_links_the_page_for_editors(editor: Client) -> None:
    assert f'<a href="{STAFF}">Announcements</a>' in editor.get(LIST).content.decode()
