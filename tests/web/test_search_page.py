"""The search-by-meaning page and the "Similar sessions" section of a session page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from confsched.programme.models import Session
from confsched.search import semantic
from tests.search.test_semantic import EDGE, MCU, _require_model, without_model  # noqa: F401

SEARCH = "/pytorch-conference-europe-2026/search/"


def _card_titles(html: str) -> list[str]:
    return re.findall(r'<h3 class="card-title"><a href="[^"]+">([^<]+)</a>', html)


@pytest.fixture
def embedded_event(demo_event):  # noqa: ANN001, ANN201 - pytest fixture
    _require_model()
    semantic.refresh_embeddings(demo_event)
    demo_event.refresh_from_db()
    return demo_event


def test_search_page_by_meaning_lists_executorch_first(client, embedded_event) -> None:
    response = client.get(SEARCH, {"q": "  running   models on phones "})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Closest in meaning to “running models on phones”" in html
    assert _card_titles(html)[:2] == [MCU, EDGE]
    assert 'value="running models on phones"' in html


def test_search_page_without_the_extra_matches_keywords_and_complains_of_nothing(
    client,
    demo_event,
    without_model,  # noqa: F811 - the fixture
) -> None:
    response = client.get(SEARCH, {"q": "ExecuTorch"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Sessions matching “ExecuTorch”" in html
    assert _card_titles(html) == [EDGE, MCU]
    assert "semantic" not in html.lower()
    assert "install" not in html.lower()


def test_search_page_without_a_query_shows_the_form_only(client, demo_event) -> None:
    response = client.get(SEARCH)
    html = response.content.decode()
    assert response.status_code == 200
    assert '<input id="search-q" type="search" name="q" value=""' in html
    assert "search-results-heading" not in html


def test_search_page_with_no_match_says_so(client, demo_event, without_model) -> None:  # noqa: F811
    html = client.get(SEARCH, {"q": "zzzqqq"}).content.decode()
    assert "No session matches “zzzqqq”" in html
    assert _card_titles(html) == []


def test_search_cards_are_the_kept_cards_in_the_viewers_zone(
    client,
    demo_event,
    without_model,  # noqa: F811 - the fixture
    renders,  # noqa: ANN001 - tests/web/conftest.py
) -> None:
    from django.core.cache import cache  # noqa: PLC0415

    from confsched.web.site import stencils  # noqa: PLC0415

    cache.clear()
    stencils.forget_local_stencils()
    first = client.get(SEARCH, {"q": "ExecuTorch", "tz": "Asia/Tokyo"}).content.decode()
    assert renders["confsched/_card.html"] == 2  # one per result
    again = client.get(SEARCH, {"q": "ExecuTorch on phones", "tz": "Asia/Tokyo"}).content.decode()
    assert renders["confsched/_card.html"] == 2  # the same two cards, kept
    card = re.search(r'<article class="card">.*?</article>', first, re.S)
    assert card is not None and card[0] in again
    # Kept per zone: each zone's cards show its own times.
    assert _card_titles(first) == [EDGE, MCU]
    times = re.findall(r'<span class="when"><time datetime="([^"]+)">([^<]+)</time>', first)
    paris = re.findall(
        r'<span class="when"><time datetime="([^"]+)">([^<]+)</time>',
        Client().get(SEARCH, {"q": "ExecuTorch"}).content.decode(),  # a zone is remembered
    )
    assert renders["confsched/_card.html"] == 4
    assert times == [("2026-04-07T20:45:00+09:00", "20:45"), ("2026-04-07T18:15:00+09:00", "18:15")]
    assert paris == [("2026-04-07T13:45:00+02:00", "13:45"), ("2026-04-07T11:15:00+02:00", "11:15")]
    assert times == [("2026-04-07T20:45:00+09:00", "20:45"), ("2026-04-07T18:15:00+09:00", "18:15")]
    assert paris == [("2026-04-07T13:45:00+02:00", "13:45"), ("2026-04-07T11:15:00+02:00", "11:15")]


def test_search_page_of_an_unknown_event_is_404(client, db) -> None:
    assert client.get("/no-such-event/search/", {"q": "phones"}).status_code == 404


def test_search_page_refuses_post(client, demo_event) -> None:
    assert client.post(SEARCH, {"q": "phones"}).status_code == 405


def test_long_query_is_cut_to_200_characters(client, demo_event, without_model) -> None:  # noqa: F811
    html = client.get(SEARCH, {"q": "x" * 500}).content.decode()
    assert f'value="{"x" * 200}"' in html


SIMILAR_TO_MCU = [
    "Helion 1.0: A High-Level DSL for Performance Portable Kernels",
    "Tour De Force: LLM Inference Optimization From Simple To Sophisticated",
    "Optimizing PyTorch on CPU-GPU Coherent Platforms",
    "The Token Slice: Implementing Preemptive Scheduling Via Chunked Decoding",
    "Enabling State-of-the-art Asynchronous Execution in Torch.compile With CUDA Streams",
]


def _similar_section(html: str) -> str:
    section = html[html.index('id="similar-heading"') :]
    return section[: section.index("</section>")]


def test_session_page_shows_similar_sessions_and_links_to_search(client, embedded_event) -> None:
    key = Session.objects.get(title=MCU).key
    html = client.get(f"/pytorch-conference-europe-2026/sessions/{key}/").content.decode()
    section = _similar_section(html)
    assert _card_titles(section) == SIMILAR_TO_MCU
    assert f'href="{SEARCH}"' in section


def test_vectors_stored_later_renew_the_session_page_and_nothing_else(client, demo_event) -> None:
    _require_model()
    page = f"/pytorch-conference-europe-2026/sessions/{Session.objects.get(title=MCU).key}/"
    listing = "/pytorch-conference-europe-2026/"
    before = {url: client.get(url) for url in (page, listing)}
    # No vector yet: the sessions sharing most words with its title.
    assert _card_titles(_similar_section(before[page].content.decode()))[0] == EDGE
    version = demo_event.updated_at
    semantic.refresh_embeddings(demo_event)
    demo_event.refresh_from_db()
    assert (demo_event.updated_at, demo_event.embedded_at is not None) == (version, True)
    after = {url: client.get(url) for url in (page, listing)}
    assert _card_titles(_similar_section(after[page].content.decode())) == SIMILAR_TO_MCU
    assert after[page]["ETag"] != before[page]["ETag"]
    # The schedule is what it was: the list is the kept page, with the same ETag.
    assert (after[listing]["ETag"], after[listing].content) == (
        before[listing]["ETag"],
        before[listing].content,
    )


def test_each_result_says_its_day_above_its_card(client, demo_event, without_model) -> None:  # noqa: F811
    html = client.get(SEARCH, {"q": "ExecuTorch edge"}).content.decode()
    found = re.findall(
        r'<li><p class="search-day"><time datetime="([^"]+)">([^<]+)</time></p>'
        r'<article class="card">\s*<h3 class="card-title"><a href="[^"]+">([^<]+)</a>',
        html,
    )
    assert found == [
        ("2026-04-07T13:45:00+02:00", "Tuesday 7 April", EDGE),
        ("2026-04-07T11:15:00+02:00", "Tuesday 7 April", MCU),
    ]
