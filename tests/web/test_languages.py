"""The pages' language: the person's choice, else the browser's among the event's languages,
else the event's default; dates and times follow it; kept pages are one build per language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from confsched.programme.models import Event, Session
from confsched.web.site import stencils
from confsched.web.site.languages import SESSION_KEY, pick_language
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
COOKIE = "confsched_language"


@pytest.fixture
def multilingual(demo_event: Event) -> Event:
    demo_event.languages = "en, fr, de"
    demo_event.save()
    return demo_event


def _lang(html: bytes) -> str:
    found = re.search(rb'<html lang="([^"]+)">', html)
    assert found is not None
    return found.group(1).decode()


def _h1(html: bytes) -> str:
    found = re.search(rb"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert found is not None
    return found.group(1).decode()


def test_pick_language_prefers_the_choice_then_the_browser_then_the_default() -> None:
    offered = ["fr", "en", "de"]
    assert pick_language(chosen="de", browser=["en"], offered=offered, default="fr") == "de"
    assert pick_language(chosen="es", browser=["it", "en"], offered=offered, default="fr") == "en"
    assert pick_language(chosen="", browser=["es"], offered=offered, default="fr") == "fr"
    assert pick_language(chosen="fr", browser=[], offered=["en"], default="en") == "en"


def test_an_english_only_event_answers_as_before(client: Client, demo_event: Event) -> None:
    response = client.get(BASE, HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert (_lang(response.content), _h1(response.content)) == ("en", "Schedule")
    assert response["Vary"] == "Cookie, HX-Request, HX-Target, Accept-Encoding"
    assert "Content-Language" not in response
    assert b"language-form" not in response.content
    assert b"data-strings" not in response.content


def test_the_browser_language_among_the_events(client: Client, multilingual: Event) -> None:
    response = client.get(BASE, HTTP_ACCEPT_LANGUAGE="de-CH, fr;q=0.8, en;q=0.5")
    assert (_lang(response.content), _h1(response.content)) == ("de", "Programm")
    assert response["Content-Language"] == "de"
    assert set(response["Vary"].replace(" ", "").split(",")) == {
        "Cookie", "HX-Request", "HX-Target", "Accept-Encoding", "Accept-Language",
    }  # fmt: skip
    french = client.get(BASE, HTTP_ACCEPT_LANGUAGE="fr")
    assert (_lang(french.content), _h1(french.content)) == ("fr", "Programme")


def test_a_browser_language_not_offered_gets_the_events_default(
    client: Client, multilingual: Event
) -> None:
    multilingual.default_language = "fr"
    multilingual.save()
    response = client.get(BASE, HTTP_ACCEPT_LANGUAGE="es-ES, it;q=0.5")
    assert _lang(response.content) == "fr"
    assert _lang(client.get(BASE).content) == "fr"


def test_the_choice_is_kept_in_a_cookie_and_the_session(
    client: Client, multilingual: Event
) -> None:
    response = client.get("/language/", {"language": "fr", "next": BASE + "grid/"})
    assert (response.status_code, response["Location"]) == (302, BASE + "grid/")
    assert response.cookies[COOKIE].value == "fr"
    assert response.cookies[COOKIE]["httponly"] is True
    assert client.session[SESSION_KEY] == "fr"
    # The choice beats the browser's language, on every page after.
    page = client.get(BASE + "speakers/", HTTP_ACCEPT_LANGUAGE="de")
    assert (_lang(page.content), _h1(page.content)) == ("fr", "Intervenants")
    # Without the cookie, the session still remembers it.
    del client.cookies[COOKIE]
    assert _lang(client.get(BASE, HTTP_ACCEPT_LANGUAGE="de").content) == "fr"


def test_the_picker_is_a_row_of_links_back_to_the_page(client: Client, multilingual: Event) -> None:
    page = client.get(BASE + "?q=torch").content.decode()
    links = re.search(r'<nav class="language-links"[^>]*>.*?</nav>', page, re.S)
    assert links is not None
    back = "next=%2Fpytorch-conference-europe-2026%2F%3Fq%3Dtorch"
    assert re.findall(r'<a href="([^"]+)" lang="(\w+)" hreflang="\w+"( aria-current="true")?>([^<]+)<', links.group(0)) == [
        (f"/language/?language=en&amp;{back}", "en", ' aria-current="true"', "English"),
        (f"/language/?language=fr&amp;{back}", "fr", "", "Français"),
        (f"/language/?language=de&amp;{back}", "de", "", "Deutsch"),
    ]  # fmt: skip
    chosen = client.get(f"/language/?language=fr&{back}")
    assert (chosen.status_code, chosen["Location"], chosen.cookies[COOKIE].value) == (
        302, BASE + "?q=torch", "fr",
    )  # fmt: skip
    # A form posting the same (an older page, or another site's widget) still works.
    response = client.post("/language/", {"language": "de", "next": BASE})
    assert (response.status_code, response.cookies[COOKIE].value) == (302, "de")


def test_a_choice_the_event_does_not_offer_is_not_used(client: Client, demo_event: Event) -> None:
    client.get("/language/", {"language": "de", "next": BASE})
    assert _lang(client.get(BASE).content) == "en"
    # The site's own pages offer every language the site has.
    assert _lang(client.get("/about/").content) == "de"


def test_the_language_form_never_leads_off_the_site(client: Client) -> None:
    for target in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        response = client.get("/language/", {"language": "fr", "next": target})
        assert response["Location"] == "/"
    unknown = client.get("/language/", {"language": "xx", "next": "/about/"})
    assert (unknown["Location"], COOKIE in unknown.cookies) == ("/about/", False)


def test_times_are_24_hour_and_days_in_the_language(client: Client, multilingual: Event) -> None:
    french = client.get(BASE, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "mardi 7 avril 2026" in french
    german = client.get(BASE, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dienstag, 7. April 2026" in german
    session = client.get(f"{BASE}sessions/{TORCHJD}/", HTTP_ACCEPT_LANGUAGE="de").content
    when = re.search(rb"<dt>Wann</dt><dd><time[^>]*>([^<]+)</time>", session)
    assert when is not None
    assert re.fullmatch(r"\w+, \d+\. \w+ 2026, [0-2]\d:[0-5]\d", when.group(1).decode())
    assert not re.search(r"\d ?(AM|PM|a\.m\.|p\.m\.)", french + german)


def test_a_session_in_another_language_than_the_page_marks_its_own(
    client: Client, multilingual: Event
) -> None:
    Session.objects.filter(event=multilingual, key=HELION).update(language="German")
    Session.objects.filter(event=multilingual, key=TORCHJD).update(language="English")
    multilingual.save()
    german = client.get(f"{BASE}sessions/{HELION}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    english = client.get(f"{BASE}sessions/{HELION}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The session is in German: marked on an English page, not on a German one.
    assert re.findall(r"<h1[^>]*>", english) == ['<h1 lang="de">']
    assert re.findall(r"<h1[^>]*>", german) == ["<h1>"]
    # And an English session on a French page (its card in the list too).
    french = client.get(BASE, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert re.findall(r'<h4 class="card-title" lang="(\w+)"><a href="[^"]+/sessions/([^/]+)/"', french) == [
        ("de", HELION), ("en", TORCHJD),
    ]  # fmt: skip


def test_kept_pages_are_one_build_per_language(
    client: Client, multilingual: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[str] = []
    build = stencils.Stencil.__init__

    def counting(self: stencils.Stencil, *args: object, **kwargs: object) -> None:
        built.append("stencil")
        build(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(stencils.Stencil, "__init__", counting)
    pages = {}
    for language in ("en", "fr", "de", "en", "fr", "de"):
        response = client.get(BASE, HTTP_ACCEPT_LANGUAGE=language)
        pages.setdefault(language, set()).add((_h1(response.content), response["ETag"]))
    assert len(built) == 3
    assert pages == {
        "en": {("Schedule", pages["en"].copy().pop()[1])},
        "fr": {("Programme", pages["fr"].copy().pop()[1])},
        "de": {("Programm", pages["de"].copy().pop()[1])},
    }
    assert len({etag for found in pages.values() for _, etag in found}) == 3
    # A person's choice never serves another person's language from the kept page.
    client.get("/language/", {"language": "de", "next": BASE})
    assert _h1(client.get(BASE, HTTP_ACCEPT_LANGUAGE="fr").content) == "Programm"
    assert _h1(Client().get(BASE, HTTP_ACCEPT_LANGUAGE="fr").content) == "Programme"
    assert len(built) == 3


def test_cards_and_zone_options_are_kept_per_language(client: Client, multilingual: Event) -> None:
    client.get(BASE, HTTP_ACCEPT_LANGUAGE="en")
    french = client.get(BASE + "?q=torch", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Event time (" not in french
    assert "Heure de l’événement (Europe/Paris)" in french
    english = client.get(BASE + "?q=torch", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Event time (Europe/Paris)" in english


def test_scripts_get_their_words_in_the_language(client: Client, multilingual: Event) -> None:
    french = client.get(BASE, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    strings = re.search(r'<body data-strings="([^"]+)">', french)
    assert strings is not None
    assert "Lien copié." in strings.group(1)
    worker = client.get(BASE + "sw.js", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '"Offline copy from {time}. It refreshes when you are back online.": "Offline-Kopie' in (
        worker
    )
    assert '"strings"' not in client.get(BASE + "sw.js").content.decode()


def test_event_languages_must_have_translations(demo_event: Event) -> None:
    demo_event.languages = "en, fr, xx"
    with pytest.raises(ValidationError, match="No translation for xx"):
        demo_event.full_clean()
    demo_event.languages = "fr de"
    demo_event.default_language = "fr"
    demo_event.full_clean()
    assert demo_event.offered_languages == ["fr", "de"]


def test_pages_in_french_and_german_are_valid_html(
    client: Client, multilingual: Event, tmp_path: Path
) -> None:
    """The W3C checker on the pages with the language picker, in each language."""
    from tests.web.test_html_valid import _errors

    pages = {}
    for language in ("fr", "de"):
        for kind, url in {
            "list": BASE, "grid": BASE + "grid/", "session": f"{BASE}sessions/{TORCHJD}/",
            "speakers": BASE + "speakers/", "now": BASE + "now/", "agenda": BASE + "agenda/",
            "print day": BASE + "print/2026-04-07/", "embed": BASE + "embed/",
            "about": "/about/", "login": f"/accounts/login/?next={BASE}",
        }.items():  # fmt: skip
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, url
            pages[f"{kind} ({language})"] = response.content.decode()
    assert _errors(pages, tmp_path) == []
