"""Speakers' pictures (or initials), the speaker directory's search, links between speakers and
sessions, and a session's slides and other links, through real requests on the demo event."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Session, SessionLink, Speaker
from confsched.programme.services import create_event, load_programme
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
PICTURE = "https://images.example/avatars/valerian.jpg"


def _get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content[:500]
    return response.content.decode()


def _names(html: str) -> list[str]:
    """The speaker directory's entries, in order."""
    return [
        unescape(name)
        for name in re.findall(r'class="speaker-item-text"><a href="[^"]+">([^<]+)</a>', html)
    ]


def _summary(html: str) -> str:
    match = re.search(r'<p class="summary"[^>]*>(.*?)</p>', html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", match.group(1))).split())


def _add_links(key: str, *links: tuple[str, str, str]) -> None:
    session = Session.objects.get(key=key)
    SessionLink.objects.bulk_create(
        SessionLink(session=session, position=i, kind=kind, title=title, url=url)
        for i, (kind, title, url) in enumerate(links)
    )


# --- pictures -------------------------------------------------------------------------------


def test_a_speaker_page_shows_the_picture_lazily_and_without_a_referrer(
    client: Client, demo_event
) -> None:
    Speaker.objects.filter(key="valerian-rey").update(avatar_url=PICTURE)
    html = _get(client, f"{BASE}speakers/valerian-rey/")
    assert (
        f'<img class="avatar avatar-96" src="{PICTURE}" alt="" width="96" height="96" '
        'loading="lazy" decoding="async" referrerpolicy="no-referrer">'
    ) in html
    assert "<h1>Valérian Rey</h1>" in html


def test_without_a_picture_the_initials_stand_in(client: Client, demo_event) -> None:
    html = _get(client, f"{BASE}speakers/sally-omalley/")
    assert '<span class="avatar avatar-96 avatar-initials" aria-hidden="true">SO</span>' in html
    assert "<img" not in html


def test_the_directory_shows_pictures_and_initials(client: Client, demo_event) -> None:
    Speaker.objects.filter(key="valerian-rey").update(avatar_url=PICTURE)
    html = _get(client, BASE + "speakers/")
    assert html.count('<img class="avatar avatar-40"') == 1
    assert html.count('class="avatar avatar-40 avatar-initials"') == 41
    # Pablo Monteagudo Lago: first and last name, two letters at most.
    assert '<span class="avatar avatar-40 avatar-initials" aria-hidden="true">PL</span>' in html


def test_a_session_page_shows_each_speaker_with_picture_and_link(
    client: Client, demo_event
) -> None:
    Speaker.objects.filter(key="valerian-rey").update(avatar_url=PICTURE)
    html = _get(client, f"{BASE}sessions/{TORCHJD}/")
    people = html[html.index('id="speakers-heading"') :]
    assert re.findall(r'<img class="avatar avatar-56" src="([^"]+)"', people) == [PICTURE]
    assert re.findall(r'avatar-initials" aria-hidden="true">([^<]+)<', people) == ["PQ"]
    assert re.findall(r'<h3><a href="([^"]+)">', people) == [
        f"{BASE}speakers/pierre-quinton/",
        f"{BASE}speakers/valerian-rey/",
    ]


@pytest.mark.parametrize(
    ("name", "initials"),
    [("Ada Lovelace", "AL"), ("Ada", "A"), ("ada  de la lovelace", "AL"), ("(she/her)", "?"),
     ("Émile Zola", "ÉZ"), ("张伟", "张")],
)  # fmt: skip
def test_initials(name: str, initials: str) -> None:
    assert Speaker(name=name).initials == initials


def test_pictures_may_come_from_any_https_site_and_nothing_else_may(
    client: Client, demo_event
) -> None:
    response = client.get(BASE + "speakers/")
    policy = dict(part.split(" ", 1) for part in response["Content-Security-Policy"].split("; "))
    assert (policy["img-src"], policy["default-src"]) == ("'self' https:", "'self'")


# --- links between speakers and sessions ----------------------------------------------------


def test_a_speaker_page_links_to_each_of_their_sessions(client: Client, demo_event) -> None:
    html = _get(client, f"{BASE}speakers/pierre-quinton/")
    assert re.findall(r'class="card-title"><a href="([^"]+)">', html) == [
        f"{BASE}sessions/{TORCHJD}/"
    ]


# --- the directory's search -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "names", "summary"),
    [
        ("red hat", ["Carol Chen", "Greg Pereira", "Sally O'Malley"],
         "3 speakers match “red hat”. Show all speakers"),
        ("VALERIAN", ["Valérian Rey"], "1 speaker matches “VALERIAN”. Show all speakers"),
        ("dan", ["Daniel Galvez", "Daniel Holanda", "Danielle Pintz"],
         "3 speakers match “dan”. Show all speakers"),
        ("  daniel   nvidia ", ["Daniel Galvez"], "1 speaker matches “daniel nvidia”. Show all speakers"),
        ("hat", ["Carol Chen", "Greg Pereira", "Sally O'Malley"],
         "3 speakers match “hat”. Show all speakers"),
        ("at", [], "No speaker matches “at”. Show all speakers"),  # not inside "Red Hat"
        ("teacher", [], "No speaker matches “teacher”. Show all speakers"),  # not the position
        ("", None, "42 speakers."),
    ],
)  # fmt: skip
def test_the_directory_searches_names_and_companies(
    client: Client, demo_event, q: str, names: list[str] | None, summary: str
) -> None:
    html = _get(client, f"{BASE}speakers/?q={q}")
    found = _names(html)
    assert (found if names is not None else len(found), _summary(html)) == (
        names if names is not None else 42,
        summary,
    )


def test_the_search_box_is_a_get_form_that_keeps_the_words(client: Client, demo_event) -> None:
    html = _get(client, BASE + "speakers/?q=red+hat")
    assert (
        f'<form class="speaker-search" method="get" action="{BASE}speakers/" role="search">' in html
    )
    assert '<label for="speaker-q">Search speakers by name or company</label>' in html
    assert (
        '<input id="speaker-q" type="search" name="q" value="red hat" maxlength="200" '
        'autocomplete="off">'
    ) in html
    assert f'<a href="{BASE}speakers/">Show all speakers</a>' in html
    assert [h for h in re.findall(r'<h2 id="letter-([^"]+)"', html)] == ["C", "G", "S"]


def test_the_search_words_are_escaped(client: Client, demo_event) -> None:
    html = _get(client, BASE + "speakers/?q=%3Cscript%3Ealert(1)%3C/script%3E")
    assert "<script>alert(1)" not in html
    assert 'value="&lt;script&gt;alert(1)&lt;/script&gt;"' in html
    assert _summary(html) == "No speaker matches “<script>alert(1)</script>”. Show all speakers"


def test_the_search_keeps_the_viewers_zone(client: Client, demo_event) -> None:
    html = _get(client, BASE + "speakers/?q=ada&tz=Asia/Tokyo")
    assert '<input type="hidden" name="tz" value="Asia/Tokyo">' in html
    assert f'<a href="{BASE}speakers/?tz=Asia/Tokyo">Show all speakers</a>' in html


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_a_search_costs_the_same_queries_for_3_and_300_sessions(client: Client) -> None:
    small = create_event(slug="small", name="small", timezone="Europe/Paris")
    load_programme(small, synthetic_programme(3))
    large = create_event(slug="large", name="large", timezone="Europe/Paris")
    load_programme(large, synthetic_programme(300))
    counts = [_queries(client, f"/{slug}/speakers/?q=person+1") for slug in ("small", "large")]
    # The event, the speakers, and the event's announcements (read once a process, then kept).
    assert counts == [3, 3]


# --- slides and links -----------------------------------------------------------------------


def test_a_session_page_lists_its_slides_and_other_links(client: Client, demo_event) -> None:
    _add_links(
        TORCHJD,
        ("video", "Recording", "https://www.youtube.com/watch?v=jd"),
        ("slides", "Deck (PDF)", "https://torchjd.org/deck.pdf"),
        ("slides", "", "https://speakerdeck.com/torchjd/jd"),
        ("link", "", "https://github.com/TorchJD/torchjd"),
    )
    html = _get(client, f"{BASE}sessions/{TORCHJD}/")
    assert '<dt>Slides</dt><dd><a href="#slides-heading">2 links below</a></dd>' in html
    slides = html[html.index('id="slides-heading"') : html.index('id="links-heading"')]
    assert re.findall(r'<li><a href="([^"]+)" rel="noopener">([^<]+)</a> ', slides) == [
        ("https://torchjd.org/deck.pdf", "Deck (PDF)"),
        ("https://speakerdeck.com/torchjd/jd", "Slides"),  # no title: what it is
    ]
    assert re.findall(r'<span class="link-host">([^<]+)</span>', slides) == [
        "torchjd.org",
        "speakerdeck.com",
    ]
    others = html[html.index('id="links-heading"') : html.index('id="speakers-heading"')]
    assert others.startswith('id="links-heading">Recordings and links</h2>')
    assert re.findall(r'<li><a href="([^"]+)" rel="noopener">([^<]+)</a> ', others) == [
        ("https://www.youtube.com/watch?v=jd", "Recording"),
        ("https://github.com/TorchJD/torchjd", "Link"),
    ]


def test_a_session_sched_says_has_slides_says_no_link_was_published(
    client: Client, demo_event
) -> None:
    html = _get(client, f"{BASE}sessions/{JIGSAW}/")
    assert "<dt>Slides</dt><dd>Listed as having slides, but no link was published</dd>" in html
    assert 'id="slides-heading"' not in html and 'id="links-heading"' not in html
    assert "<dt>Slides</dt><dd>Not attached</dd>" in _get(client, f"{BASE}sessions/{TORCHJD}/")


def test_link_titles_from_a_source_are_escaped(client: Client, demo_event) -> None:
    _add_links(TORCHJD, ("slides", '<img src=x onerror="alert(1)">', "https://x.org/?a=1&b=2"))
    html = _get(client, f"{BASE}sessions/{TORCHJD}/")
    assert (
        '<a href="https://x.org/?a=1&amp;b=2" rel="noopener">'
        "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</a>"
    ) in html


def test_the_slides_filter_counts_sessions_with_a_slides_link(client: Client, demo_event) -> None:
    Session.objects.filter(key=TORCHJD).update(has_slides=True)  # what load_programme sets
    _add_links(TORCHJD, ("slides", "Deck", "https://x.org/deck.pdf"))
    html = _get(client, BASE + "?slides=yes")
    assert _summary(html) == "Showing 3 of 28 sessions."


def test_a_session_page_costs_the_same_queries_with_1_and_20_links(
    client: Client, demo_event
) -> None:
    _add_links(TORCHJD, ("slides", "Deck", "https://x.org/deck.pdf"))
    _add_links(JIGSAW, *[("link", f"Part {i}", f"https://x.org/{i}") for i in range(20)])
    # A first page of this version loads what every page then shares (the event's vectors for
    # "similar sessions"), so both measured pages start equal.
    _queries(client, f"{BASE}sessions/{HELION}/")
    assert _queries(client, f"{BASE}sessions/{TORCHJD}/") == _queries(
        client, f"{BASE}sessions/{JIGSAW}/"
    )


# --- the API --------------------------------------------------------------------------------


def test_the_api_gives_each_sessions_links(client: Client, demo_event) -> None:
    _add_links(
        TORCHJD,
        ("slides", "Deck", "https://x.org/deck.pdf"),
        ("video", "", "https://youtu.be/jd"),
    )
    api = f"/api/v1/events/{DEMO_SLUG}"
    expected = [
        {"kind": "slides", "title": "Deck", "url": "https://x.org/deck.pdf"},
        {"kind": "video", "title": "", "url": "https://youtu.be/jd"},
    ]
    assert client.get(f"{api}/sessions/{TORCHJD}").json()["links"] == expected
    listed = {s["key"]: s["links"] for s in client.get(f"{api}/sessions?q=torchjd").json()["items"]}
    assert listed == {TORCHJD: expected}


def test_the_api_searches_speakers_as_the_page_does(client: Client, demo_event) -> None:
    response = client.get(f"/api/v1/events/{DEMO_SLUG}/speakers?q=red+hat")
    assert [s["name"] for s in response.json()["items"]] == [
        "Carol Chen",
        "Greg Pereira",
        "Sally O'Malley",
    ]
