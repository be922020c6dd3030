"""Imported text is text everywhere: no page, feed or export lets a title or a bio run as markup.

One programme carries markup, event handlers and javascript: URLs in every text field; every
HTML page is parsed for elements and attributes that could run, and every feed and export is
parsed with its own reader and its values compared exactly.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from html import escape
from html.parser import HTMLParser

import icalendar
import pytest
from defusedxml import ElementTree
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.models import AgendaLinks
from confsched.agenda.services import agenda_links, set_sharing, star_session
from confsched.interchange import programme as pm
from confsched.programme.models import Session
from confsched.programme.services import create_event, load_programme

pytestmark = pytest.mark.django_db

SLUG = "hostile"
BASE = f"/{SLUG}/"
# Markup that runs if a page or a feed reader treats it as HTML, and a URL that runs if it
# lands in an href or src.
MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">j</a>'
JS_URL = "javascript:alert(4)"


def _hostile(field: str) -> str:
    return f"{field} {MARKUP} {JS_URL}"


TALK, GONE, PERSON = "talk", "gone", "person"
TITLE_1, TITLE_2 = _hostile("title one"), _hostile("title two")
# The type and language columns are short: markup that fits them.
KIND = "<svg onload=alert(6)> javascript:alert(7)"
LANGUAGE = "<b onclick=alert(8)>en"
ROOM_1, ROOM_2 = _hostile("room one"), _hostile("room two")


def _programme(*, title: str, room: str, with_gone: bool) -> pm.Programme:
    talk = pm.Session(
        key=TALK,
        title=title,
        kind=KIND,
        abstract=_hostile("abstract") + "\nhttps://example.org/slides",
        starts_at=datetime(2026, 4, 7, 9, 0, tzinfo=UTC),
        ends_at=datetime(2026, 4, 7, 9, 30, tzinfo=UTC),
        room=room,
        track=_hostile("track"),
        level=_hostile("level"),
        language=LANGUAGE,
        speakers=(pm.SessionSpeaker(PERSON, affiliation=_hostile("affiliation")),),
    )
    gone = pm.Session(
        key=GONE,
        title=_hostile("gone"),
        starts_at=datetime(2026, 4, 7, 9, 15, tzinfo=UTC),
        ends_at=datetime(2026, 4, 7, 10, 0, tzinfo=UTC),
        room=room,
    )
    # Timed: the change log orders untimed sessions differently on SQLite and PostgreSQL.
    flagged = pm.Session(
        key="flagged", title=_hostile("flagged"), needs_review=True,
        review_note=_hostile("review note"),
        starts_at=datetime(2026, 4, 7, 8, 0, tzinfo=UTC),
        ends_at=datetime(2026, 4, 7, 8, 30, tzinfo=UTC),
    )  # fmt: skip
    speaker = pm.Speaker(
        key=PERSON,
        name=_hostile("name"),
        company=_hostile("company"),
        position=_hostile("position"),
        bio=_hostile("bio"),
        avatar_url="javascript:alert(5)",
    )
    return pm.Programme(
        name=_hostile("event"),
        timezone="Europe/Paris",
        location=_hostile("location"),
        rooms=[room],
        sessions=[talk, flagged, *([gone] if with_gone else [])],
        speakers=[speaker],
    )


@pytest.fixture
def hostile(db):  # noqa: ANN001, ANN201 - pytest fixture
    """Version 1 adds everything; the reader stars the talk; version 2 retitles and moves it
    and drops the other session, so that change descriptions quote hostile text too."""
    event = create_event(slug=SLUG, name=_hostile("event"), timezone="Europe/Paris")
    load_programme(event, _programme(title=TITLE_1, room=ROOM_1, with_gone=True))
    reader = User.objects.create_user("reader", "r@example.org", "a long enough password 42")
    star_session(reader, Session.objects.get(key=TALK))
    star_session(reader, Session.objects.get(key=GONE))
    load_programme(event, _programme(title=TITLE_2, room=ROOM_2, with_gone=False))
    set_sharing(reader, event, is_on=True)
    return reader


class _Markup(HTMLParser):
    """Every element and attribute of a page, as a browser's parser would see them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.script_bodies: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))
        self._in_script = tag == "script"

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.script_bodies.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


_URL_ATTRIBUTES = {
    "href",
    "src",
    "action",
    "formaction",
    "data-hx-get",
    "data-hx-post",
    "xlink:href",
}


def _assert_nothing_runs(html: str, page: str) -> None:
    parser = _Markup()
    parser.feed(html)
    tags = parser.tags
    assert [t for t, _ in tags if t in {"img", "svg", "iframe", "object", "embed"}] == [], page
    scripts = [attrs for tag, attrs in tags if tag == "script"]
    assert [
        a for a in scripts
        if not a.get("src", "").startswith("/static/") and a.get("type") != "application/ld+json"
    ] == [], page  # fmt: skip
    handlers = [(t, n) for t, attrs in tags for n in attrs if n.startswith("on")]
    assert handlers == [], page
    urls = [(t, n, v) for t, attrs in tags for n, v in attrs.items() if n in _URL_ATTRIBUTES]
    assert [u for u in urls if "javascript:" in u[2].replace(" ", "").lower()] == [], page
    for body in parser.script_bodies:
        assert "<" not in body, page  # JSON-LD escapes "<", so no element can start in it


def _pages(reader: User) -> dict[str, str]:
    client = Client()
    client.force_login(reader)
    token = AgendaLinks.objects.get(user=reader).share_token
    paths = {
        "list": "", "grid": "grid/", "search": "?q=title", "session": f"sessions/{TALK}/",
        "speaker": f"speakers/{PERSON}/", "speakers": "speakers/", "agenda": "agenda/",
        "shared agenda": f"agenda/shared/{token}/", "changes": "changes/",
        "bad zone": "?tz=%3Cscript%3Ealert(1)%3C/script%3E",
    }  # fmt: skip
    pages = {}
    for name, path in paths.items():
        response = client.get(BASE + path)
        assert response.status_code == (400 if name == "bad zone" else 200), name
        pages[name] = response.content.decode()
    fragment = client.get(BASE + "?q=title", headers={"HX-Request": "true", "HX-Target": "results"})
    pages["htmx results"] = fragment.content.decode()
    return pages


def test_no_page_lets_imported_markup_run(hostile) -> None:
    for name, html in _pages(hostile).items():
        _assert_nothing_runs(html, name)


@pytest.mark.parametrize(
    ("page", "shown"),
    [
        ("list", [TITLE_2, KIND, ROOM_2, _hostile("name"), _hostile("track")]),
        ("grid", [TITLE_2, ROOM_2, _hostile("level")]),
        ("session", [TITLE_2, _hostile("position"), _hostile("company"), _hostile("affiliation")]),
        ("speaker", [_hostile("name"), TITLE_2]),
        ("speakers", [_hostile("name"), _hostile("company")]),
        ("agenda", [TITLE_2, _hostile("gone")]),
        ("changes", [f"{KIND}: {TITLE_2}", f"moved from {ROOM_1} to {ROOM_2}"]),
        ("bad zone", ["Unknown time zone '<script>alert(1)</script>'"]),
    ],
)
def test_imported_text_is_shown_as_text(hostile, page: str, shown: list[str]) -> None:
    html = _pages(hostile)[page]
    for text in shown:
        assert escape(text) in html, text


def test_abstract_and_bio_link_only_web_addresses(hostile) -> None:
    pages = _pages(hostile)
    session = pages["session"]
    # Markdown renders raw HTML as text; nh3 writes quotes in text as they are.
    assert (
        "<p>abstract &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
        '&lt;a href="javascript:alert(3)"&gt;j&lt;/a&gt; javascript:alert(4)<br>\n'
        '<a href="https://example.org/slides" rel="nofollow">'
        "https://example.org/slides</a></p>"
    ) in session
    assert (
        "<p>bio &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
        '&lt;a href="javascript:alert(3)"&gt;j&lt;/a&gt; javascript:alert(4)</p>'
    ) in pages["speaker"]


ATOM = "{http://www.w3.org/2005/Atom}"
FULL_2 = f"{KIND}: {TITLE_2}"


def test_the_atom_feed_carries_text_summaries(hostile) -> None:
    response = Client().get(BASE + "changes.atom")
    feed = ElementTree.fromstring(response.content)
    entries = [
        (
            entry.findtext(f"{ATOM}title"),
            entry.find(f"{ATOM}summary").get("type"),
            entry.findtext(f"{ATOM}summary"),
        )
        for entry in feed.iter(f"{ATOM}entry")
    ]
    assert entries == [
        (
            "Version 2: 1 cancelled, 1 new room, 1 new title",
            "text",
            f"{FULL_2}: moved from {ROOM_1} to {ROOM_2}\n"
            f"{FULL_2}: retitled from “{TITLE_1}” to “{TITLE_2}”\n"
            f"{_hostile('gone')}: cancelled",
        ),
        (
            # Not the flagged session; the talk under the title it was added with.
            "Version 1: 2 added",
            "text",
            f"{KIND}: {TITLE_1}: added\n{_hostile('gone')}: added",
        ),
    ]
    assert feed.findtext(f"{ATOM}title") == f"{_hostile('event')}: schedule changes"
    # No element anywhere asks the reader to render markup.
    assert {element.get("type") for element in feed.iter() if element.get("type")} == {"text"}


def _calendars(reader: User) -> dict[str, bytes]:
    feed_token = agenda_links(reader, Session.objects.get(key=TALK).event).feed_token
    paths = {
        "event": "schedule.ics", "filtered": "schedule.ics?q=title", "session":
        f"sessions/{TALK}/calendar.ics", "agenda": f"agenda/{feed_token}.ics",
    }  # fmt: skip
    return {name: Client().get(BASE + path).content for name, path in paths.items()}


_URL_PROPERTIES = {"URL", "ATTACH", "TZURL", "SOURCE", "IMAGE", "CONFERENCE"}


@pytest.mark.parametrize("calendar", ["event", "filtered", "session", "agenda"])
def test_calendars_carry_plain_text_and_only_our_addresses(hostile, calendar: str) -> None:
    parsed = icalendar.Calendar.from_ical(_calendars(hostile)[calendar])
    events = {str(e["UID"]): e for e in parsed.walk("VEVENT")}
    talk = events[f"{TALK}@{SLUG}.confsched"]
    assert str(talk["SUMMARY"]) == FULL_2
    assert str(talk["DESCRIPTION"]) == (
        f"Speakers: {_hostile('name')} ({_hostile('affiliation')})\n\n"
        f"{_hostile('abstract')}\nhttps://example.org/slides"
    )
    urls = {
        (str(e.get("UID", e.name)), name, str(value))
        for e in parsed.walk()
        for name, value in e.property_items()
        if name in _URL_PROPERTIES
    }
    assert {u for u in urls if not u[2].startswith(f"http://testserver{BASE}")} == set()
    names = {name for e in parsed.walk() for name, _ in e.property_items()}
    assert "X-ALT-DESC" not in names  # the HTML description calendar apps would render


XCAL = "{urn:ietf:params:xml:ns:icalendar-2.0}"


def test_xcal_carries_text_and_only_our_addresses(hostile) -> None:
    root = ElementTree.fromstring(Client().get(BASE + "schedule.rfc6321.xcal").content)
    summaries = [e.findtext(f"{XCAL}text") for e in root.iter(f"{XCAL}summary")]
    assert summaries == [FULL_2, "Cancelled: " + _hostile("gone")]  # read as cancelled anywhere
    assert [e.text for e in root.iter(f"{XCAL}uri")] == [
        f"http://testserver{BASE}sessions/{TALK}/",
        f"http://testserver{BASE}sessions/{GONE}/",
    ]


def test_the_xcal_dialect_carries_text_and_only_our_addresses(hostile) -> None:
    root = ElementTree.fromstring(Client().get(BASE + "schedule.xcal").content)
    assert [e.text for e in root.iter("summary")] == [FULL_2, "Cancelled: " + _hostile("gone")]
    assert [e.text for e in root.iter("location")] == [ROOM_2, ROOM_1]
    assert [e.text for e in root.iter("url")] == [
        f"http://testserver{BASE}sessions/{TALK}/",
        f"http://testserver{BASE}sessions/{GONE}/",
    ]


def test_frab_xml_carries_text_and_only_web_addresses(hostile) -> None:
    root = ElementTree.fromstring(Client().get(BASE + "schedule.xml").content)
    event = root.find(".//event")
    assert (event.findtext("title"), event.findtext("type"), event.findtext("language")) == (
        TITLE_2, KIND, LANGUAGE,
    )  # fmt: skip
    assert [p.text for p in event.iter("person")] == [_hostile("name")]
    addresses = [e.text for e in root.iter() if e.tag in {"url", "base_url"}] + [
        value for e in root.iter() for name, value in e.attrib.items() if name == "href"
    ]
    assert [a for a in addresses if not a.startswith("http://testserver/")] == []


def _strings_under(data: object, path: str = "") -> list[tuple[str, str]]:
    if isinstance(data, dict):
        return [pair for key, value in data.items() for pair in _strings_under(value, key)]
    if isinstance(data, list):
        return [pair for value in data for pair in _strings_under(value, path)]
    return [(path, data)] if isinstance(data, str) else []


def test_c3voc_json_carries_text(hostile) -> None:
    data = json.loads(Client().get(BASE + "schedule.json").content)
    (talk,) = [
        event
        for room in data["schedule"]["conference"]["days"][0]["rooms"].values()
        for event in room
    ]
    assert (talk["title"], talk["type"], talk["abstract"]) == (
        TITLE_2, KIND, _hostile("abstract") + "\nhttps://example.org/slides",
    )  # fmt: skip
    assert [(p["name"], p["biography"]) for p in talk["persons"]] == [
        (_hostile("name"), _hostile("bio"))
    ]


def test_c3voc_json_carries_only_web_addresses(hostile) -> None:
    data = json.loads(Client().get(BASE + "schedule.json").content)
    addresses = [
        (key, value)
        for key, value in _strings_under(data)
        if key in {"url", "base_url", "avatar", "href", "link", "uri"}
    ]
    assert [a for a in addresses if not a[1].startswith("http://testserver/")] == []


def test_csv_carries_text(hostile) -> None:
    text = Client().get(BASE + "schedule.csv").content.decode("utf-8-sig")
    (row,) = csv.DictReader(io.StringIO(text))
    assert (row["title"], row["kind"], row["room"], row["language"]) == (
        TITLE_2, KIND, ROOM_2, LANGUAGE,
    )  # fmt: skip
