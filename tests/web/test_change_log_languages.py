"""The change log's summaries and its Atom feed in the reader's language (issue 29, item 7):
each kind counted as a whole phrase with its plural, said from the changes when shown."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

import pytest
from defusedxml import ElementTree
from django.test import Client
from django.utils import translation

from confsched.interchange.programme import Programme
from confsched.programme.models import Event, ScheduleVersion, Session
from confsched.programme.services import load_programme, record_edit, session_facts
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
ATOM = "{http://www.w3.org/2005/Atom}"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"
COOKIE = "confsched_language"

# Version 2 cancels one session, gives one a new time and two a new room; version 1 added 28.
SUMMARIES = {
    "en": ["1 cancelled, 1 new time, 2 new rooms", "28 added"],
    "fr": ["1 session annulée, 1 nouvel horaire, 2 nouvelles salles", "28 sessions ajoutées"],
    "de": ["1 abgesagte Session, 1 neue Zeit, 2 neue Räume", "28 neue Sessions"],
}


@pytest.fixture
def two_versions(demo_event: Event, demo_programme: Programme) -> Event:
    demo_event.languages = "en, fr, de"
    demo_event.save()
    sessions = []
    for s in demo_programme.sessions:
        if s.key == HELION:
            continue
        if s.key in (TORCHJD, JIGSAW):
            s = replace(s, room="Master Stage")
        elif s.starts_at and not sessions:
            s = replace(s, starts_at=s.starts_at + timedelta(hours=1),
                        ends_at=s.ends_at + timedelta(hours=1))  # fmt: skip
        sessions.append(s)
    load_programme(demo_event, replace(demo_programme, sessions=sessions))
    return demo_event


def _summaries(html: str) -> list[str]:
    return re.findall(r'<p class="version-meta">.*?</p>\s*<p>([^<]*)\.</p>', html, re.S)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_change_log_counts_in_the_pages_language(
    client: Client, two_versions: Event, language: str
) -> None:
    client.cookies[COOKIE] = language
    html = client.get(f"{BASE}changes/").content.decode()
    assert _summaries(html) == [
        summary[:1].upper() + summary[1:] for summary in SUMMARIES[language]
    ]


def test_the_stored_summary_stays_english_whoever_edits(two_versions: Event) -> None:
    """ScheduleVersion.summary is the admin's and the command line's record: an edit made with
    French active still records English, and the pages say it from the changes."""
    session = Session.objects.get(event=two_versions, key=TORCHJD)
    before = session_facts(session)
    session.starts_at += timedelta(hours=2)
    session.ends_at += timedelta(hours=2)
    session.save()
    with translation.override("fr"):
        version = record_edit(session, before, editor="olga")
    assert version is not None
    assert list(ScheduleVersion.objects.values_list("number", "summary")) == [
        (3, "1 new time"), (2, "1 cancelled, 1 new time, 2 new rooms"), (1, "29 added"),
    ]  # fmt: skip


def _feed(response) -> tuple[str, str, list[str]]:  # noqa: ANN001
    root = ElementTree.fromstring(response.content)
    titles = [entry.findtext(f"{ATOM}title") for entry in root.findall(f"{ATOM}entry")]
    return (
        root.get("{http://www.w3.org/XML/1998/namespace}lang"),
        root.findtext(f"{ATOM}title"),
        titles,
    )


def test_the_feed_is_in_the_language_its_address_names(client: Client, two_versions: Event) -> None:
    fr = _feed(client.get(f"{BASE}changes.atom?lang=fr"))
    assert fr == (
        "fr",
        "PyTorch Conference Europe 2026 : changements du programme",
        [f"Version 2 : {SUMMARIES['fr'][0]}", f"Version 1 : {SUMMARIES['fr'][1]}"],
    )
    # Without ?lang, what the reader's Accept-Language asks among the event's languages.
    de = _feed(client.get(f"{BASE}changes.atom", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9"))
    assert de == (
        "de",
        "PyTorch Conference Europe 2026: Programmänderungen",
        [f"Version 2: {SUMMARIES['de'][0]}", f"Version 1: {SUMMARIES['de'][1]}"],
    )
    # A language the event does not offer is not taken.
    assert _feed(client.get(f"{BASE}changes.atom?lang=xx"))[:2] == (
        "en", "PyTorch Conference Europe 2026: schedule changes",
    )  # fmt: skip


def test_each_language_of_the_feed_has_its_own_etag(client: Client, two_versions: Event) -> None:
    tags = {lang: client.get(f"{BASE}changes.atom?lang={lang}")["ETag"] for lang in SUMMARIES}
    assert len(set(tags.values())) == 3


def test_the_change_log_links_its_feed_in_its_language(client: Client, two_versions: Event) -> None:
    client.cookies[COOKIE] = "de"
    html = client.get(f"{BASE}changes/").content.decode()
    assert html.count(f'href="{BASE}changes.atom?lang=de"') == 2  # the <link> and the link


def test_an_english_only_event_links_its_feed_as_before(client: Client, demo_event: Event) -> None:
    html = client.get(f"{BASE}changes/").content.decode()
    assert html.count(f'href="{BASE}changes.atom"') == 2
