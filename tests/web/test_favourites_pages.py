"""The favourites pages: export my stars, import them on another browser or account."""

from __future__ import annotations

import base64
import json
import re
import uuid
import zlib

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from confsched.agenda import queries as agenda_queries
from confsched.agenda.favourites import parse_giggity_link
from confsched.programme.models import Session
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db
AGENDA = f"/{DEMO_SLUG}/agenda/"


def guid(key: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"confsched:{DEMO_SLUG}:{key}"))


def two_sessions(event) -> list[Session]:  # noqa: ANN001 - the demo event
    return list(Session.objects.filter(event=event).published().order_by("starts_at", "key")[:2])


def star(client: Client, session: Session) -> None:
    response = client.post(f"/{DEMO_SLUG}/sessions/{session.key}/star", {"starred": "1"})
    assert response.status_code == 302


def starred_keys(client: Client, event) -> set[str]:  # noqa: ANN001
    from confsched.web.agenda import stars

    request = client.get(AGENDA).wsgi_request
    ids = stars.starred_ids(request, event)
    return set(Session.objects.filter(pk__in=ids).values_list("key", flat=True))


def test_agenda_links_to_the_favourites_page(client: Client, demo_event) -> None:  # noqa: ANN001
    assert (
        b'href="/pytorch-conference-europe-2026/agenda/favourites/"' in client.get(AGENDA).content
    )


def test_export_then_import_as_another_visitor(client: Client, demo_event) -> None:  # noqa: ANN001
    chosen = two_sessions(demo_event)
    for session in chosen:
        star(client, session)
    download = client.get(f"/{DEMO_SLUG}/agenda/favourites.json")
    assert download["Content-Disposition"] == f'attachment; filename="{DEMO_SLUG}-favourites.json"'
    document = json.loads(download.content)
    assert document == {
        "format": "confsched-favourites",
        "version": 1,
        "schedule": f"http://testserver/{DEMO_SLUG}/schedule.json",
        "event": DEMO_SLUG,
        "favourites": sorted(guid(s.key) for s in chosen),
    }
    other = Client()
    page = other.post(f"/{DEMO_SLUG}/agenda/import", {"text": download.content.decode()})
    assert page.status_code == 200
    assert re.findall(rb'name="key" value="([^"]+)"', page.content) == [
        s.key.encode() for s in chosen
    ]
    assert starred_keys(other, demo_event) == set()  # nothing before "Star these"
    done = other.post(f"/{DEMO_SLUG}/agenda/import/star", {"key": [s.key for s in chosen]})
    assert (done.status_code, done["Location"]) == (302, AGENDA)
    assert starred_keys(other, demo_event) == {s.key for s in chosen}


def test_qr_code_encodes_the_import_address_which_imports(client: Client, demo_event) -> None:  # noqa: ANN001
    chosen = two_sessions(demo_event)
    for session in chosen:
        star(client, session)
    page = client.get(f"/{DEMO_SLUG}/agenda/favourites/")
    compact = "-".join(sorted(guid(s.key)[:8] for s in chosen))
    address = f"http://testserver/{DEMO_SLUG}/agenda/import?f={compact}"
    assert page.context["import_url"] == address
    assert b"<svg" in page.content
    assert page.content.count(b"<script") == page.content.count(b"<script src=")  # none inline
    confirm = Client().get(address.removeprefix("http://testserver"))
    assert [s.key for s in confirm.context["found"]] == [s.key for s in chosen]
    assert confirm.context["missing"] == []
    links = parse_giggity_link(page.context["giggity_url"])
    assert links == sorted(guid(s.key) for s in chosen)


def test_giggity_link_imports(client: Client, demo_event) -> None:  # noqa: ANN001
    chosen = two_sessions(demo_event)
    for session in chosen:
        star(client, session)
    link = client.get(f"/{DEMO_SLUG}/agenda/favourites/").context["giggity_url"]
    page = Client().post(f"/{DEMO_SLUG}/agenda/import", {"text": link})
    assert [s.key for s in page.context["found"]] == [s.key for s in chosen]


def test_unknown_guids_are_reported_not_fatal(client: Client, demo_event) -> None:  # noqa: ANN001
    session = two_sessions(demo_event)[0]
    unknown = "00000000-0000-4000-8000-000000000000"
    body = json.dumps({"format": "confsched-favourites", "version": 1, "schedule": "x",
                       "event": DEMO_SLUG, "favourites": [guid(session.key), unknown]})  # fmt: skip
    page = client.post(f"/{DEMO_SLUG}/agenda/import", {"text": body})
    assert [s.key for s in page.context["found"]] == [session.key]
    assert page.context["missing"] == [unknown]
    assert unknown.encode() in page.content


def test_account_imports_into_the_account(demo_event) -> None:  # noqa: ANN001
    session = two_sessions(demo_event)[0]
    user = get_user_model().objects.create_user("ada", password="x-long-password-1")
    client = Client()
    client.force_login(user)
    client.post(f"/{DEMO_SLUG}/agenda/import/star", {"key": [session.key]})
    assert agenda_queries.starred_ids(user, demo_event) == {session.pk}


DEEP_SEE = base64.urlsafe_b64encode(zlib.compress(b"[" * 60_000)).decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": "not json"}, "favourites, line 1: not valid JSON: Expecting value (column 1)"),
        ({"text": "[" * 60_000}, "not a favourites document: its JSON is nested too deeply"),
        ({"text": "9" * 5_000}, "not a favourites document: a number in it is too long"),
        (
            {"text": "https://ggt.gaa.st/#url=x&see=" + DEEP_SEE},
            'the Giggity link\'s "see=": not a list of event ids: its JSON is nested too deeply',
        ),
        (
            {"text": "https://[host/#see=x"},
            "the Giggity link: is not a https://ggt.gaa.st/#… share link",
        ),
        ({"text": ""}, "the form: is empty"),
        ({"text": json.dumps({"format": "other"})}, 'has "format" "other"'),
        (
            {"text": json.dumps({"format": "confsched-favourites", "version": 1, "event": "x"})},
            'is for the event "x", not "pytorch-conference-europe-2026"',
        ),
    ],
)
def test_bad_input_gets_an_error_page(client: Client, demo_event, data, message) -> None:  # noqa: ANN001
    response = client.post(f"/{DEMO_SLUG}/agenda/import", data)
    assert response.status_code == 400
    assert message in response.context["error"]
    assert starred_keys(client, demo_event) == set()


def test_bad_import_address_and_too_big_file(client: Client, demo_event) -> None:  # noqa: ANN001
    response = client.get(f"/{DEMO_SLUG}/agenda/import?f=xyz")
    assert response.status_code == 400
    assert response.context["error"] == 'f: item 1 is "xyz"; expected 8 hexadecimal digits'
    from django.core.files.uploadedfile import SimpleUploadedFile

    big = SimpleUploadedFile("big.json", b" " * 70_000, content_type="application/json")
    response = client.post(f"/{DEMO_SLUG}/agenda/import", {"file": big})
    assert response.status_code == 400
    assert response.context["error"] == (
        "big.json: is 70,000 bytes; a favourites file is at most 65,536"
    )


@pytest.mark.parametrize(
    ("language", "sent", "message"),
    [
        ("fr", {"text": ""}, "le formulaire : est vide : collez un document de favoris"),
        ("de", {"text": ""}, "das Formular: ist leer: Fügen Sie ein Favoritendokument"),
        (
            "fr",
            {"text": json.dumps({"format": "confsched-favourites", "version": 1, "event": "x"})},
            'favourites : concerne l’événement "x", pas "pytorch-conference-europe-2026"',
        ),
        (
            "de",
            {"text": "https://[host/#see=x"},
            "der Giggity-Link: ist kein Freigabelink der Form https://ggt.gaa.st/#…",
        ),
    ],
)
def test_import_errors_speak_the_page_s_language(demo_event, language, sent, message) -> None:  # noqa: ANN001
    demo_event.languages = "en, fr, de"
    demo_event.save()
    response = Client().post(f"/{DEMO_SLUG}/agenda/import", sent, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert response.context["error"].startswith(message)


def test_a_too_big_file_is_counted_in_the_page_s_language(demo_event) -> None:  # noqa: ANN001
    from django.core.files.uploadedfile import SimpleUploadedFile

    demo_event.languages = "en, fr"
    demo_event.save()
    big = SimpleUploadedFile("big.json", b" " * 70_000, content_type="application/json")
    response = Client().post(
        f"/{DEMO_SLUG}/agenda/import", {"file": big}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert response.context["error"] == (
        "big.json : fait 70\xa0000 octets ; un fichier de favoris fait au plus 65\xa0536"
    )
