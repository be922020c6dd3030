"""Every page kind is valid HTML to the W3C Nu checker (the npm registry's vnu-jar, installed by
`make vnu`), and no page holds an id twice.

Each page is rendered with Django's test client and written to a folder; the checker runs once
over all of them (one JVM start, about a second).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda import services as agenda_services
from confsched.interchange.frab import read as frab_xml
from confsched.programme.models import Event, Session
from confsched.programme.services import create_event, load_programme
from confsched.web.site.languages import language_tag
from tests.conftest import DEMO_SLUG, ROOT, unavailable

pytestmark = pytest.mark.django_db

VNU = ROOT / "var" / "npm" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"

# What anyone sees, by page kind; each answers 200.
VISITOR_PAGES = {
    "home": "/",
    "about": "/about/",
    "list": BASE,
    "grid": BASE + "grid/",
    "filtered list": BASE + "?track=training-systems&q=torch",
    "filtered grid": BASE + "grid/?date=2026-04-08&tz=Asia/Tokyo",
    "no match": BASE + "?q=nothing-matches-this",
    "session": f"{BASE}sessions/{TORCHJD}/",
    "session, other zone": f"{BASE}sessions/{HELION}/?tz=America/New_York",
    "speaker": BASE + "speakers/valerian-rey/",
    "speakers": BASE + "speakers/",
    "visitor agenda": BASE + "agenda/",
    "now": BASE + "now/",
    "plan": BASE + "plan/",
    "search": BASE + "search/?q=torch",
    "search, empty": BASE + "search/",
    "changes": BASE + "changes/",
    "zones": BASE + "zones/",
    "favourites": BASE + "agenda/favourites/",
    "print index": BASE + "print/",
    "print day": BASE + "print/2026-04-07/",
    "embed": BASE + "embed/",
    "login": "/accounts/login/",
    "login, event frame": f"/accounts/login/?next={BASE}agenda/",
    "signup": "/accounts/signup/",
    "password reset": "/accounts/password/reset/",
    "password reset sent": "/accounts/password/reset/sent/",
    "password reset complete": "/accounts/password/reset/done/",
    "api docs": "/api/v1/docs",
}
SIGNED_IN_PAGES = {
    "agenda with stars": BASE + "agenda/",
    "favourites, signed in": BASE + "agenda/favourites/",
    "grid with stars": BASE + "grid/",
    "session starred": f"{BASE}sessions/{TORCHJD}/",
    "plan, signed in": BASE + "plan/",
    "notifications' devices": BASE + "agenda/devices/",
    "password change": "/accounts/password/change/",
    "password change done": "/accounts/password/change/done/",
}
ERROR_PAGES = {
    "404": (BASE + "sessions/no-such-session/", 404),
    "unknown zone": (BASE + "?tz=Nowhere/Atlantis", 400),
}


def _checker() -> list[str]:
    java = shutil.which("java")
    if java is None:
        unavailable(
            "java is not installed (the Nu HTML checker needs it)", "CONFSCHED_REQUIRE_BROWSER"
        )
    if not VNU.exists():
        unavailable(
            f"the Nu HTML checker is not at {VNU} (run: make vnu)", "CONFSCHED_REQUIRE_BROWSER"
        )
    return [java, "-jar", str(VNU), "--format", "json", "--stdout"]


def _get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.content.decode()


def _errors(pages: dict[str, str], folder: Path) -> list[str]:
    """The checker's errors, each as 'page kind:line: message'."""
    command = _checker()
    names = {}
    for index, (kind, html) in enumerate(pages.items()):
        path = folder / f"page-{index}.html"
        path.write_text(html)
        names[path.name] = kind
    result = subprocess.run(  # noqa: S603 - our own arguments
        [*command, *(str(folder / name) for name in names)],
        capture_output=True,
        check=False,
        timeout=300,
    )
    messages = json.loads(result.stdout)["messages"]
    return [
        f"{names[m['url'].rsplit('/', 1)[-1]]}:{m.get('lastLine')}: {m['message']}"
        for m in messages
        if m["type"] == "error" or m.get("subType") == "fatal"
    ]


def _duplicate_ids(html: str) -> list[str]:
    ids = re.findall(r'\sid="([^"]+)"', html)
    return sorted({i for i in ids if ids.count(i) > 1})


@pytest.fixture
def signed_in(demo_event: Event) -> Client:
    user = User.objects.create_user("ada", "ada@example.org", "a fine password 7")
    client = Client()
    client.force_login(user)
    for key in (TORCHJD, HELION):
        client.post(f"{BASE}sessions/{key}/star", {"starred": "1", "next": BASE})
    agenda_services.set_sharing(user, demo_event, is_on=True)
    return client


def test_every_page_kind_is_valid_html(
    client: Client, signed_in: Client, demo_event: Event, tmp_path: Path
) -> None:
    _checker()
    create_event(slug="pycon-2027", name="PyCon 2027", timezone="Europe/Berlin")  # a home page
    pages = {kind: _get(client, url) for kind, url in VISITOR_PAGES.items()}
    pages |= {kind: _get(signed_in, url) for kind, url in SIGNED_IN_PAGES.items()}
    pages |= {kind: _get(client, url, status) for kind, (url, status) in ERROR_PAGES.items()}
    share = re.search(
        r'id="agenda-share-url" type="url" readonly value="http://testserver([^"]+)"',
        pages["agenda with stars"],
    )
    assert share is not None
    pages["shared agenda"] = _get(client, share.group(1))
    # A German session: its title and abstract say so, the page stays English.
    Session.objects.filter(event=demo_event, key=HELION).update(language="German")
    demo_event.save()  # a new version: cached cards and pages are retired
    pages["session in German"] = _get(client, f"{BASE}sessions/{HELION}/")
    pages["list with a German session"] = _get(client, BASE)
    duplicates = {kind: _duplicate_ids(html) for kind, html in pages.items()}
    assert {kind: found for kind, found in duplicates.items() if found} == {}
    assert _errors(pages, tmp_path) == []


def test_a_session_in_another_language_marks_its_title_and_abstract(
    client: Client, demo_event: Event
) -> None:
    Session.objects.filter(event=demo_event, key=HELION).update(language="de, en")
    Session.objects.filter(event=demo_event, key=TORCHJD).update(language="English")
    demo_event.save()
    page = _get(client, f"{BASE}sessions/{HELION}/")
    assert re.findall(r'<h1 lang="de">|<div class="abstract-text" lang="de">', page) == [
        '<h1 lang="de">',
        '<div class="abstract-text" lang="de">',
    ]
    assert page.startswith('<!doctype html>\n<html lang="en">')
    titles = re.findall(
        r'<h4 class="card-title"( lang="[^"]+")?><a href="[^"]+/sessions/([^/]+)/"',
        _get(client, BASE),
    )
    assert [(lang, key) for lang, key in titles if lang] == [(' lang="de"', HELION)]
    english = _get(client, f"{BASE}sessions/{TORCHJD}/")
    main = english.split('<main id="main"', 1)[1]
    assert (re.findall(r"<h1[^>]*>", main), "lang=" in main) == (["<h1>"], False)


@pytest.mark.parametrize(
    ("name", "tag"),
    [("English", "en"), ("German", "de"), ("Deutsch", "de"), ("de, en", "de"), ("de", "de"),
     ("pt_br", "pt-BR"), ("en-US", "en-US"), ("Klingon", ""), ("", ""), ("?", "")],
)  # fmt: skip
def test_language_names_become_bcp47_tags(name: str, tag: str) -> None:
    assert language_tag(name) == tag


def test_the_38c3_grid_in_tokyo_time_holds_each_id_once(client: Client, shared_dir: Path) -> None:
    sample = shared_dir / "formats/samples/frab-xml/eventfahrplan_schedule-38c3-20251206.xml"
    event = create_event(slug="38c3", name="38C3", timezone="Europe/Berlin")
    load_programme(event, frab_xml.parse(sample.read_bytes(), source=sample.name))
    html = _get(client, "/38c3/grid/?tz=Asia/Tokyo")
    assert (html.count('<th scope="row" class="grid-time"'), _duplicate_ids(html)) == (
        html.count("<tr class="),
        [],
    )
