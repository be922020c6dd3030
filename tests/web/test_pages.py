"""The public pages, through real requests, with the demo event loaded."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.test import Client

from confsched.core.timezones import zone_names
from confsched.programme.models import Session
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def _titles(html: str) -> list[str]:
    return [
        unescape(t) for t in re.findall(r'class="card-title"><a href="[^"]+">([^<]+)</a>', html)
    ]


def _headings(html: str, level: int) -> list[str]:
    found = re.findall(rf"<h{level}[^>]*>(.*?)</h{level}>", html, flags=re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", h)).split()) for h in found]


def _summary(html: str) -> str:
    match = re.search(r'<p class="summary">(.*?)</p>', html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", match.group(1))).split())


def _get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content[:500]
    return response.content.decode()


def test_root_redirects_to_the_only_event(client: Client, demo_event) -> None:
    response = client.get("/")
    assert (response.status_code, response["Location"]) == (302, BASE)


def test_schedule_lists_every_session_by_day_and_slot(client: Client, demo_event) -> None:
    html = _get(client, BASE)
    assert _summary(html) == "Showing 28 of 28 sessions."
    assert _headings(html, 2) == ["Tuesday 7 April 2026 28 sessions"]
    assert _headings(html, 3) == [
        "11:00", "11:15", "11:30", "11:45", "12:00", "12:15", "13:45", "14:15", "14:45",
        "15:00", "15:40", "15:55", "16:10", "16:40",
    ]  # fmt: skip
    titles = _titles(html)
    assert len(titles) == 28
    assert titles[:3] == [
        "Why Your Forecasting Transformer Isn’t Working (And How To Fix It in Python)",
        "Training Embedding Model Resiliently for Multimodal Model Inference Routing",
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels",
    ]
    assert "Untitled session page" not in html  # flagged for review: not public


def test_a_card_shows_kind_time_room_speakers_track_level_and_slides(
    client: Client, demo_event
) -> None:
    html = _get(client, BASE + "?slides=yes")
    card = html[html.index("Bringing Google’s Colossus") - 200 :]
    card = card[: card.index("</article>")]
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", card)).split())
    assert text.endswith(
        "Bringing Google’s Colossus to PyTorch: Rapid Storage via fsspec to Keep GPUs Busy "
        "Lightning Talk 12:00 – 12:10 Master Stage Ankita Luthra , Google ; Trinadh Kotturu , "
        "Google Training Systems Level: Any Slides attached"
    )


def test_the_zone_is_written_on_the_page(client: Client, demo_event) -> None:
    html = _get(client, BASE)
    assert (
        "Times in <strong>Europe/Paris (CEST, UTC+02:00)</strong>, the event's time zone." in html
    )


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("track=training-systems", 6),
        ("track=training-systems&level=intermediate", 4),
        ("track=training-systems&track=frameworks-compilers", 11),
        ("room=master-stage", 9),
        ("level=advanced", 5),
        ("slides=yes", 2),
        ("date=2026-04-07", 28),
        ("date=2026-04-08", 0),
        ("q=nvidia", 4),  # three NVIDIA speakers and one abstract
        ("q=NVIDIA+graphs", 1),
        ("q=red+hat", 3),  # not "that" or "reduce"
        ("room=master-stage&level=advanced&q=flex", 1),
    ],
)
def test_filters_combine(client: Client, demo_event, query: str, count: int) -> None:
    html = _get(client, f"{BASE}?{query}")
    assert len(_titles(html)) == count
    assert _summary(html).startswith(f"Showing {count} of 28 sessions")


def test_search_ignores_accents_and_case(client: Client, demo_event) -> None:
    html = _get(client, BASE + "?q=VALERIAN")
    assert _titles(html) == ["TorchJD: Jacobian Descent in PyTorch"]
    assert _summary(html) == "Showing 1 of 28 sessions matching “VALERIAN”."


def test_each_option_counts_what_choosing_it_would_leave(client: Client, demo_event) -> None:
    html = _get(client, BASE + "?track=training-systems")
    counts = dict(
        re.findall(
            r'name="(?:room|level)" value="([a-z-]+)"[^>]*>\s*<span class="option-label">[^<]+</span>\s*<span class="count"[^>]*>(\d+)<',
            html,
        )
    )
    # Of the 6 Training Systems sessions: rooms and levels among them.
    assert counts == {
        "central-room": "0", "founders-cafe": "2", "junior-stage": "2", "master-stage": "2",
        "advanced": "0", "any": "2", "intermediate": "4",
    }  # fmt: skip
    track_counts = dict(
        re.findall(
            r'name="track" value="([a-z-]+)"[^>]*>\s*<span class="option-label">[^<]+</span>\s*<span class="count"[^>]*>(\d+)<',
            html,
        )
    )
    # The track facet ignores its own selection: each track shows its full size.
    assert track_counts["training-systems"] == "6"
    assert track_counts["frameworks-compilers"] == "5"
    assert 'id="f-track-training-systems" name="track" value="training-systems" checked' in html


def test_the_share_link_is_the_filtered_view(client: Client, demo_event) -> None:
    html = _get(client, BASE + "?track=training-systems&q=rl")
    assert f'value="http://testserver{BASE}?track=training-systems&amp;q=rl"' in html


def test_bad_filter_values_are_named_and_ignored(client: Client, demo_event) -> None:
    html = _get(client, BASE + "?date=tomorrow&room=attic&slides=maybe")
    assert len(_titles(html)) == 28
    assert "Ignored date &#x27;tomorrow&#x27;: write dates as YYYY-MM-DD." in html
    assert "Ignored slides=&#x27;maybe&#x27;: use yes or no." in html
    assert "This event has no room &#x27;attic&#x27;; ignored." in html


def test_another_zone_moves_times_and_days(client: Client, demo_event) -> None:
    # Auckland is at UTC+12 in April 2026: 14:15 CEST is 00:15 the next day there.
    html = _get(client, BASE + "?tz=Pacific/Auckland")
    assert _headings(html, 2) == [
        "Tuesday 7 April 2026 13 sessions",
        "Wednesday 8 April 2026 15 sessions",
    ]
    assert _headings(html, 3)[0] == "21:00"
    assert (
        "Times in <strong>Pacific/Auckland (NZST, UTC+12:00)</strong>. The event is in Europe/Paris (CEST, UTC+02:00)."
        in html
    )
    wednesday = _get(client, BASE + "?tz=Pacific/Auckland&date=2026-04-08")
    assert (
        _titles(wednesday)[0]
        == "The Token Slice: Implementing Preemptive Scheduling Via Chunked Decoding"
    )


def test_a_session_ending_after_midnight_says_so(client: Client, demo_event) -> None:
    html = _get(client, BASE + "?tz=Asia/Tokyo&q=coherent")
    assert (
        '<time datetime="2026-04-07T23:40:00+09:00">23:40</time>–<time datetime="2026-04-08T00:05:00+09:00">00:05</time> <span class="next-day">(next day)</span>'
        in html
    )


def test_the_chosen_zone_is_kept_across_pages(client: Client, demo_event) -> None:
    response = client.get(BASE + "?tz=Asia/Tokyo")
    assert response.cookies["confsched_tz"].value == "Asia/Tokyo"
    html = _get(client, f"{BASE}sessions/{TORCHJD}/")
    assert (
        'Tuesday 7 April 2026, 18:45</time>–<time datetime="2026-04-07T18:55:00+09:00">18:55</time> <span class="zone-note">Asia/Tokyo (JST, UTC+09:00)</span>'
        in html
    )
    grid = _get(client, BASE + "grid/")
    assert "Times in <strong>Asia/Tokyo (JST, UTC+09:00)</strong>" in grid
    back = client.get(BASE + "?tz=Europe/Paris")
    assert back.cookies["confsched_tz"].value == "Europe/Paris"


def test_an_unknown_zone_is_refused_on_the_page(client: Client, demo_event) -> None:
    # Not silently shown in another zone: a page saying what was wrong (more in test_viewer_zone).
    html = _get(client, BASE + "?tz=Mars/Olympus_Mons", status=400)
    assert (
        '<p class="notice" role="alert">Unknown time zone &#x27;Mars/Olympus_Mons&#x27;: give an IANA name such as Europe/Paris.</p>'
        in html
    )
    assert len(_titles(html)) == 0


def test_grid_places_sessions_in_room_columns_with_spans(client: Client, demo_event) -> None:
    html = _get(client, BASE + "grid/")
    header = re.search(r"<thead><tr>(.*?)</tr></thead>", html).group(1)
    assert re.findall(r">([^<]+)</th>", header) == [
        "Time",
        "Central Room",
        "Founders Cafe",
        "Junior Stage",
        "Master Stage",
    ]
    # The first row, 10 minutes, is two five-minute steps tall: to scale, not grown for its cards.
    first_row = re.search(r'<tbody>\s*<tr class="steps-2"[^>]*>(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r'<td class="(grid-[a-z]+)"(?: rowspan="(\d+)")?', first_row)
    # 11:00: Central Room 11:00-11:10 (1 row), Founders Cafe free, Junior Stage 11:00-11:10,
    # Master Stage 11:00-11:25 (rows 11:00, 11:10, 11:15 = 3).
    assert cells == [("grid-busy", "1"), ("grid-free", ""), ("grid-busy", "1"), ("grid-busy", "3")]
    assert len(_titles(html)) == 28


def test_session_page(client: Client, demo_event) -> None:
    html = _get(client, f"{BASE}sessions/{TORCHJD}/")
    assert "<h1>TorchJD: Jacobian Descent in PyTorch</h1>" in html
    assert '<p class="kind">Lightning Talk</p>' in html
    assert _headings(html, 3)[:2] == ["Pierre Quinton", "Valérian Rey"]
    assert '<p class="person-role">Teacher, EPFL</p>' in html
    assert (
        '<a href="https://github.com/TorchJD/torchjd" rel="nofollow">https://github.com/TorchJD/torchjd</a>'
        in html
    )
    assert f'<a href="{BASE}?track=training-systems">Training Systems</a>' in html
    # More in the same track: the other five Training Systems sessions, in time order.
    related = html[html.index('id="related-heading"') :]
    assert _titles(related) == [
        "Training Embedding Model Resiliently for Multimodal Model Inference Routing",
        "Bringing Google’s Colossus to PyTorch: Rapid Storage via fsspec to Keep GPUs Busy",
        "Jigsaw: Domain and Tensor Parallelism for High-Resolution Input Training",
        "Optimizing Reinforcement Learning at Trillion-Parameter Scale",
        "TorchStore: What We Learned Building Distributed Storage Solutions for AysncRL",
    ]


def test_session_page_carries_schema_org_event_data(client: Client, demo_event) -> None:
    html = _get(client, f"{BASE}sessions/{TORCHJD}/")
    raw = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, flags=re.S).group(
        1
    )
    data = json.loads(raw)
    assert {
        k: data[k] for k in ("@type", "name", "startDate", "endDate", "location", "superEvent")
    } == {
        "@type": "Event",
        "name": "Lightning Talk: TorchJD: Jacobian Descent in PyTorch",
        "startDate": "2026-04-07T11:45:00+02:00",
        "endDate": "2026-04-07T11:55:00+02:00",
        "location": {"@type": "Place", "name": "Founders Cafe", "address": "Paris, France"},
        "superEvent": {"@type": "Event", "name": "PyTorch Conference Europe 2026"},
    }
    assert data["performer"] == [
        {
            "@type": "Person",
            "name": "Pierre Quinton",
            "affiliation": {"@type": "Organization", "name": "EPFL"},
            "jobTitle": "Teacher",
        },
        {
            "@type": "Person",
            "name": "Valérian Rey",
            "affiliation": {"@type": "Organization", "name": "Simplex Lab"},
            "jobTitle": "Research Engineer",
        },
    ]
    assert data["url"] == f"http://testserver{BASE}sessions/{TORCHJD}/"


def test_speaker_directory_and_page(client: Client, demo_event) -> None:
    html = _get(client, BASE + "speakers/")
    assert _summary(html) == "42 speakers."
    assert _headings(html, 2)[:3] == ["A", "C", "D"]
    page = _get(client, f"{BASE}speakers/valerian-rey/")
    assert "<h1>Valérian Rey</h1>" in page
    assert '<p class="person-role">Research Engineer, Simplex Lab</p>' in page
    assert _titles(page) == ["TorchJD: Jacobian Descent in PyTorch"]


@pytest.mark.parametrize(
    "url",
    ["/no-such-event/", f"{BASE}sessions/no-such-session/", f"{BASE}speakers/nobody/"],
)
def test_unknown_pages_are_404(client: Client, demo_event, url: str) -> None:
    assert client.get(url).status_code == 404


def test_flagged_sessions_have_no_public_page(client: Client, demo_event) -> None:
    flagged = Session.objects.get(needs_review=True)
    assert client.get(f"{BASE}sessions/{flagged.key}/").status_code == 404


def test_htmx_request_gets_results_and_facets_only(client: Client, demo_event) -> None:
    response = client.get(
        BASE + "?track=training-systems", headers={"HX-Request": "true", "HX-Target": "results"}
    )
    html = response.content.decode()
    assert not html.lstrip().startswith("<!doctype")
    assert len(_titles(html)) == 6
    assert '<div id="facets" class="facets" data-hx-swap-oob="true">' in html
    assert response["Vary"] == "Cookie, HX-Request, HX-Target, Accept-Encoding"


def test_imported_text_is_escaped(client: Client, demo_event) -> None:
    Session.objects.filter(key=TORCHJD).update(
        title='<script>alert("x")</script>', abstract='<img src=x onerror="alert(1)">'
    )
    html = _get(client, f"{BASE}sessions/{TORCHJD}/")
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    raw = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, flags=re.S).group(
        1
    )
    assert "</script" not in raw
    assert json.loads(raw)["name"] == 'Lightning Talk: <script>alert("x")</script>'


def test_pages_work_without_javascript_and_label_every_control(client: Client, demo_event) -> None:
    html = _get(client, BASE)
    assert f'<form id="filters" class="filters" method="get" action="{BASE}"' in html
    assert '<button type="submit">Apply filters</button>' in html
    ids = set(re.findall(r'<(?:input|select)[^>]* id="([^"]+)"', html))
    labelled = set(re.findall(r'<label[^>]* for="([^"]+)"', html))
    assert ids - labelled == set()
    assert len(ids) == 19  # search, zone, share link, 16 facet options


def test_an_unchanged_page_answers_304_to_its_etag(client: Client, demo_event) -> None:
    # Pages with star forms carry a per-request CSRF mask, so their ETag changes on every
    # request; pages without forms, such as the speaker directory, can answer 304.
    first = client.get(BASE + "speakers/")
    etag = first["ETag"]
    again = client.get(BASE + "speakers/", headers={"If-None-Match": etag})
    assert (again.status_code, again.content) == (304, b"")
    other = client.get(BASE + "speakers/valerian-rey/", headers={"If-None-Match": etag})
    assert other.status_code == 200


def test_home_lists_events_when_there_are_several(client: Client, demo_event) -> None:
    from confsched.programme.services import create_event

    create_event(slug="pycon-2027", name="PyCon 2027", timezone="America/New_York")
    html = _get(client, "/")
    # Upcoming first (PyCon 2027 has no dates yet, so it is not past), then past events.
    assert re.findall(r'<h3 class="event-card-title"><a href="(/[^"]+/)">([^<]+)</a>', html) == [
        ("/pycon-2027/", "PyCon 2027"),
        (BASE, "PyTorch Conference Europe 2026"),
    ]


def test_the_zone_picker_holds_the_common_zones_and_links_to_every_zone(
    client: Client, demo_event
) -> None:
    html = _get(client, BASE + "?track=training-systems")
    picker = html[html.index('<select id="tz"') : html.index("</select>")]
    assert picker.count("<option") == 53  # the event's zone and 52 common ones
    assert (
        f'<a class="other-zones" href="/{DEMO_SLUG}/zones/?next=/{DEMO_SLUG}/%3Ftrack%3Dtraining-systems">'
        in html
    )
    chosen = _get(client, BASE + "?tz=America/Bogota")
    picker = chosen[chosen.index('<select id="tz"') : chosen.index("</select>")]
    assert "<option selected>America/Bogota</option>" in picker


def test_the_zones_page_links_back_to_the_same_view_in_each_zone(
    client: Client, demo_event
) -> None:
    html = _get(client, f"{BASE}zones/?next={BASE}%3Ftrack%3Dtraining-systems%26tz%3DUTC")
    assert (
        f'<a href="{BASE}?track=training-systems&amp;tz=America%2FBogota">America/Bogota</a>'
        in html
    )
    assert html.count(f'<li><a href="{BASE}?track=training-systems&amp;tz=') == len(zone_names())
    elsewhere = _get(client, f"{BASE}zones/?next=https://evil.example/")
    assert f'<a href="{BASE}?tz=Asia%2FTokyo">Asia/Tokyo</a>' in elsewhere
