"""The embeddable schedule: compact, filtered like the schedule, framed only where allowed."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext

from confsched.programme.models import Event, embed_origin_list, validate_embed_origins
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

EMBED = f"/{DEMO_SLUG}/embed/"
TORCHJD = "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"
TORCHJD_URL = (
    f"http://testserver/{DEMO_SLUG}/sessions/lightning-talk-torchjd-jacobian-descent-in-pytorch/"
)


def _policy(response: HttpResponse) -> dict[str, str]:
    parts = response["Content-Security-Policy"].split("; ")
    return dict(part.split(" ", 1) for part in parts)


def _links(response: HttpResponse) -> list[tuple[str, str]]:
    """(href, text) of each session link, in page order."""
    html = response.content.decode()
    return re.findall(
        r'<li[^>]*><a href="([^"]+)" target="_blank" rel="noopener">([^<]+)</a>', html
    )


def _allow(event: Event, origins: str) -> None:
    Event.objects.filter(pk=event.pk).update(embed_origins=origins)


def test_embed_lists_every_session_by_day_opening_in_a_new_tab(client: Client, demo_event) -> None:
    response = client.get(EMBED)
    html = response.content.decode()
    links = _links(response)
    assert response.status_code == 200
    assert len(links) == demo_event.sessions.filter(needs_review=False).count()
    assert (TORCHJD_URL, TORCHJD) in links
    assert re.findall(r'<h2 id="embed-day-[0-9-]+">([^<]+)</h2>', html) == ["Tuesday 7 April 2026"]
    assert "Times in Europe/Paris (CEST, UTC+02:00)" in html
    # No site chrome: no navigation, no forms, no account corner, no scripts.
    for absent in ('class="site-nav"', "<form", 'class="account"', "<script"):
        assert absent not in html


def test_embed_honours_the_schedules_filters(client: Client, demo_event) -> None:
    response = client.get(EMBED, {"q": "TorchJD"})
    assert _links(response) == [(TORCHJD_URL, TORCHJD)]


def test_embed_names_bad_filters(client: Client, demo_event) -> None:
    response = client.get(EMBED, {"date": "7 April", "room": "nowhere"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ignored date &#x27;7 April&#x27;: write dates as YYYY-MM-DD." in html
    assert "This event has no room &#x27;nowhere&#x27;; ignored." in html


def test_embed_with_no_origin_listed_refuses_every_frame(client: Client, demo_event) -> None:
    response = client.get(EMBED)
    assert _policy(response)["frame-ancestors"] == "'none'"
    assert "X-Frame-Options" not in response


def test_embed_allows_exactly_the_listed_origins(client: Client, demo_event) -> None:
    _allow(demo_event, "https://pytorch.example\n\n  http://localhost:8080  \n")
    response = client.get(EMBED)
    assert _policy(response)["frame-ancestors"] == "https://pytorch.example http://localhost:8080"
    assert "X-Frame-Options" not in response
    # The rest of the site keeps refusing frames.
    schedule = client.get(f"/{DEMO_SLUG}/")
    assert _policy(schedule)["frame-ancestors"] == "'none'"
    assert schedule["X-Frame-Options"] == "DENY"


def test_embed_is_kept_per_version_and_address(client: Client, demo_event) -> None:
    first = client.get(EMBED, {"q": "TorchJD"})
    with CaptureQueriesContext(connection) as queries:
        again = client.get(EMBED, {"q": "TorchJD"})
    assert again.content == first.content
    assert len(queries) == 1  # the event row; the page itself is kept
    assert again["Cache-Control"] == "public, max-age=300"
    not_modified = client.get(EMBED, {"q": "TorchJD"}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert not_modified.status_code == 304


def test_embed_of_an_unknown_event_is_404(client: Client, db) -> None:
    assert client.get("/no-such-event/embed/").status_code == 404


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("https://a.example/path", "line 1 ('https://a.example/path'): an origin has no path, "
         "query or fragment (write https://example.org)"),
        ("https://a.example/", "line 1 ('https://a.example/'): an origin has no path, query or "
         "fragment (write https://example.org)"),
        ("https://*.example", "line 1 ('https://*.example'): wildcards are not allowed, list each "
         "site"),
        ("*", "line 1 ('*'): wildcards are not allowed, list each site"),
        ("ftp://a.example", "line 1 ('ftp://a.example'): an origin starts with http:// or "
         "https://"),
        ("a.example", "line 1 ('a.example'): an origin starts with http:// or https://"),
        ("https://a.example:99999", "line 1 ('https://a.example:99999'): the port is not a "
         "number from 0 to 65535"),
        ("https://a.example:", "line 1 ('https://a.example:'): the port is empty"),
        ("https://me@a.example", "line 1 ('https://me@a.example'): an origin has no user name"),
        ("https://a_b.example", "line 1 ('https://a_b.example'): the host is not a host name"),
        ("https://a.example?x=1", "line 1 ('https://a.example?x=1'): an origin has no path, "
         "query or fragment (write https://example.org)"),
        ("https://ok.example\n'self'", "line 2 (\"'self'\"): an origin starts with http:// or "
         "https://"),
    ],
)  # fmt: skip
def test_embed_origins_refuses_what_is_not_an_origin(text: str, message: str) -> None:
    with pytest.raises(ValidationError) as caught:
        validate_embed_origins(text)
    assert caught.value.messages == [message]


def test_embed_origins_accepts_origins_and_lists_them() -> None:
    text = "https://pytorch.example\r\nhttp://127.0.0.1:8000\n\nhttps://Conf.Example:443\n"
    validate_embed_origins(text)
    assert embed_origin_list(text) == [
        "https://pytorch.example",
        "http://127.0.0.1:8000",
        "https://Conf.Example:443",
    ]


def test_admin_event_page_shows_the_snippet_and_refuses_bad_origins(
    client: Client, demo_event
) -> None:
    client.force_login(User.objects.create_superuser("boss", "boss@example.org", "pw-0123456789"))
    url = f"/admin/programme/event/{demo_event.pk}/change/"
    page = client.get(url).content.decode()
    assert (
        "<code>&lt;iframe src=&quot;http://testserver/pytorch-conference-europe-2026/embed/&quot; "
        "title=&quot;PyTorch Conference Europe 2026: schedule&quot; width=&quot;100%&quot; "
        "height=&quot;600&quot; loading=&quot;lazy&quot;&gt;&lt;/iframe&gt;</code>"
    ) in page
    form = {
        "slug": demo_event.slug, "name": demo_event.name, "timezone": "Europe/Paris",
        "location": "", "embed_origins": "https://ok.example\nhttps://bad.example/page",
        "walking_minutes": "0", "attendees_per_star": "1.0", "feedback_days": "7",
        "allow_double_booking": "on", "default_language": "en",
    }  # fmt: skip
    response = client.post(url, form)
    assert response.status_code == 200
    assert (
        "line 2 (&#x27;https://bad.example/page&#x27;): an origin has no path, query or "
        "fragment (write https://example.org)"
    ) in response.content.decode()
    demo_event.refresh_from_db()
    assert demo_event.embed_origins == ""
    form["embed_origins"] = "https://ok.example\r\nhttp://localhost:8080"
    assert client.post(url, form).status_code == 302
    demo_event.refresh_from_db()
    assert demo_event.embed_origins == "https://ok.example\nhttp://localhost:8080"
