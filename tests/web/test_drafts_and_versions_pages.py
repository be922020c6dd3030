"""The version pages and their exports, the change log's links, the draft page, and a draft
that attendees reach nowhere."""

from __future__ import annotations

import gzip
import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.interchange.formats import WRITERS
from confsched.programme import queries
from confsched.programme.models import Event, ScheduleVersion, Session, VersionSnapshot
from confsched.programme.services import (
    draft_for,
    load_programme,
    release_draft,
    render_export,
    snapshot,
    start_draft,
)
from tests.conftest import DEMO_SLUG
from tests.teams import on_team
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
SITE = "http://testserver/"


def _staff() -> Client:
    """An editor of the demo event: the draft page needs the programme right."""
    client = Client()
    client.force_login(on_team(User.objects.create_user("boss"), "editor"))
    return client


def _move_in_draft(draft: Event, key: str, minutes: int) -> None:
    programme = snapshot(draft)
    session = programme.session(key)
    moved = replace(
        session,
        starts_at=session.starts_at + timedelta(minutes=minutes),
        ends_at=session.ends_at + timedelta(minutes=minutes),
    )
    programme.sessions = [moved if s.key == key else s for s in programme.sessions]
    load_programme(draft, programme, source="edit by test")


def _second_version(event: Event) -> None:
    draft = start_draft(event)
    _move_in_draft(draft, TORCHJD, 30)
    release_draft(event, name="Spring update")


def test_an_old_version_serves_the_bytes_it_served_when_current(client: Client, demo_event) -> None:
    then = {ext: render_export(demo_event, ext, base_url=SITE) for ext in WRITERS}
    _second_version(demo_event)
    now = {ext: render_export(demo_event, ext, base_url=SITE) for ext in WRITERS}
    assert {ext for ext in WRITERS if now[ext] != then[ext]} == set(WRITERS)
    for extension in WRITERS:
        name = "schedule2.json" if extension == "schedule2" else f"schedule.{extension}"
        response = client.get(f"{BASE}v/1/{name}")
        assert (response.status_code, response.content) == (200, then[extension]), extension
        assert response["Content-Type"] == WRITERS[extension].content_type
        assert response["Cache-Control"] == "public, max-age=86400"
        again = client.get(f"{BASE}v/1/{name}", HTTP_IF_NONE_MATCH=response["ETag"])
        assert again.status_code == 304
        assert client.get(f"{BASE}v/2/{name}").content == now[extension]


def test_an_old_version_serves_the_calendar_the_event_served_then(
    client: Client, demo_event
) -> None:
    served_then = client.get(f"{BASE}schedule.ics").content
    _second_version(demo_event)
    assert client.get(f"{BASE}schedule.ics").content != served_then
    response = client.get(f"{BASE}v/1/schedule.ics")
    assert (response.status_code, response.content) == (200, served_then)
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert client.get(f"{BASE}v/1/schedule.ics").content == served_then  # the same bytes again
    # The calendar as it was: the session at its first time, its SEQUENCE then, its page linked.
    torchjd = Session.objects.get(event=demo_event, key=TORCHJD)
    first_start = torchjd.starts_at.astimezone(demo_event.zone) - timedelta(minutes=30)
    text = served_then.decode().replace("\r\n ", "")
    event = next(e for e in text.split("BEGIN:VEVENT")[1:] if f"UID:{TORCHJD}@" in e)
    assert f"DTSTART;TZID=Europe/Paris:{first_start:%Y%m%dT%H%M%S}" in event
    assert "\r\nSEQUENCE:0\r\n" in event
    assert f"URL:{SITE}{DEMO_SLUG}/sessions/{TORCHJD}/" in event
    now = client.get(f"{BASE}schedule.ics").content
    assert client.get(f"{BASE}v/2/schedule.ics").content == now
    assert f"UID:{TORCHJD}@" in now.decode() and b"\r\nSEQUENCE:1\r\n" in now
    assert f'href="{BASE}v/1/schedule.ics"' in client.get(f"{BASE}v/1/").content.decode()


def test_an_old_version_s_export_is_rendered_once(client: Client, demo_event) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def snapshot_reads(path: str, **headers: str) -> tuple[int, bytes, list[str]]:
        with CaptureQueriesContext(connection) as made:
            response = client.get(path, **headers)
        reads = [q["sql"] for q in made if '"data"' in q["sql"] and "versionsnapshot" in q["sql"]]
        return response.status_code, response.content, reads

    _second_version(demo_event)
    status, plain, reads = snapshot_reads(f"{BASE}v/1/schedule.xml")
    assert (status, len(reads)) == (200, 1)
    status, gzipped, reads = snapshot_reads(f"{BASE}v/1/schedule.xml", HTTP_ACCEPT_ENCODING="gzip")
    assert (status, gzip.decompress(gzipped), reads) == (200, plain, [])
    # Another export of the version reads it once more.
    assert len(snapshot_reads(f"{BASE}v/1/schedule.csv")[2]) == 1


def test_an_old_version_s_programme_is_read_back_once_per_language(
    client: Client, demo_event
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def page(language: str) -> tuple[str, int]:
        with CaptureQueriesContext(connection) as made:
            html = client.get(f"{BASE}v/1/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        programme = html[html.index('id="programme-heading"') :]
        reads = [q for q in made if '"data"' in q["sql"] and "versionsnapshot" in q["sql"]]
        return programme[: programme.index("</section>")], len(reads)

    demo_event.languages = "en, fr"
    demo_event.save()
    _second_version(demo_event)
    english, reads = page("en")
    assert reads == 1
    assert "<h3>Tuesday 7 April 2026</h3>" in english
    assert page("en") == (english, 0)
    french, reads = page("fr")
    assert (reads, "<h3>mardi 7 avril 2026</h3>" in french) == (1, True)
    assert page("fr")[1] == 0


def test_an_old_version_s_changes_are_read_once_and_name_sessions_as_attendees_saw_them(
    client: Client, demo_event
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def changes(number: int) -> tuple[list[str], int]:
        with CaptureQueriesContext(connection) as made:
            html = client.get(f"{BASE}v/{number}/").content.decode()
        lines = html[html.index('<ul class="change-list">') :]
        reads = [q for q in made if 'FROM "programme_change"' in q["sql"]]
        titles = re.findall(r">([^<]*TorchJD[^<]*)</a>:", lines[: lines.index("</ul>")])
        return titles, len(reads)

    old_title = "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"
    assert changes(1) == ([old_title], 1)
    assert changes(1) == ([old_title], 0)
    programme = snapshot(demo_event)
    renamed = replace(programme.session(TORCHJD), title="TorchJD, renamed")
    programme.sessions = [renamed if s.key == TORCHJD else s for s in programme.sessions]
    load_programme(demo_event, programme, source="edit by test")
    # Version 1 added it under its first title: a later title is version 2's news.
    assert changes(1) == ([old_title], 1)
    assert changes(2) == (["Lightning Talk: TorchJD, renamed"], 1)


def test_the_version_page_shows_its_programme_banner_and_neighbours(
    client: Client, demo_event
) -> None:
    _second_version(demo_event)
    first = client.get(f"{BASE}v/1/").content.decode()
    assert "Version 1 of <time" in first
    assert f'<a href="{BASE}">The current programme is here</a>' in first
    assert f'<a href="{BASE}v/2/" rel="next">Version 2</a>' in first
    assert 'rel="prev"' not in first
    # 28 of the 29 sessions: the untitled session page waits for review.
    assert "<p>28 added (imported).</p>" in first
    second = client.get(f"{BASE}v/2/").content.decode()
    assert "<h1>Version 2: Spring update</h1>" in second
    assert f'<a href="{BASE}v/1/" rel="prev">Version 1</a>' in second
    assert "<p>1 new time (released by the organizers).</p>" in second
    assert f'href="{BASE}v/2/schedule2.json"' in second
    assert f'href="{BASE}v/2/schedule.xml"' in second
    torchjd = Session.objects.get(event=demo_event, key=TORCHJD)
    start = torchjd.starts_at.astimezone(demo_event.zone)
    assert f">{start:%H:%M}</time>" in second
    assert f">{(start - timedelta(minutes=30)):%H:%M}</time>" in first


def test_an_unknown_version_is_404_with_a_clear_message(client: Client, demo_event) -> None:
    page = client.get(f"{BASE}v/7/")
    assert page.status_code == 404
    assert (
        "PyTorch Conference Europe 2026 has no version 7: its versions are 1 to 1."
        in page.content.decode()
    )
    export = client.get(f"{BASE}v/7/schedule.xml")
    assert (export.status_code, export.content.decode()) == (
        404, "PyTorch Conference Europe 2026 has no version 7: its versions are 1 to 1.\n",
    )  # fmt: skip
    assert client.get(f"{BASE}v/1/schedule.pdf").status_code == 404
    assert client.get(f"{BASE}v/x/").status_code == 404


def test_a_version_recorded_before_programmes_were_kept_says_so(client: Client, demo_event) -> None:
    VersionSnapshot.objects.all().delete()
    page = client.get(f"{BASE}v/1/")
    assert page.status_code == 200
    assert "This version was recorded before versions kept their programme" in page.content.decode()
    export = client.get(f"{BASE}v/1/schedule.json")
    assert export.status_code == 404
    assert export.content.decode().startswith(
        "Version 1 of PyTorch Conference Europe 2026 was recorded before versions kept"
    )


def test_the_change_log_links_each_version_with_its_name(client: Client, demo_event) -> None:
    _second_version(demo_event)
    page = client.get(f"{BASE}changes/").content.decode()
    assert f'<a href="{BASE}v/2/">Version 2</a>: Spring update</h2>' in page
    assert f'<a href="{BASE}v/1/">Version 1</a></h2>' in page


def test_a_draft_is_reachable_nowhere_publicly(client: Client, demo_event) -> None:
    draft = start_draft(demo_event)
    Session.objects.filter(event=draft, key=TORCHJD).update(title="SECRET DRAFT TITLE")
    assert queries.event_for_slug(draft.slug) is None
    assert queries.events_listed() == [demo_event]
    assert list(Event.objects.all()) == [demo_event]
    assert Event.with_drafts.count() == 2
    for path in (
        "",
        BASE,
        f"{BASE}grid/",
        f"{BASE}schedule.json",
        f"{BASE}changes/",
        "/api/v1/events",
        f"/api/v1/events/{DEMO_SLUG}/sessions",
    ):
        assert "SECRET DRAFT TITLE" not in client.get(path).content.decode(), path
    assert client.get(f"/{draft.slug}/").status_code == 404
    assert client.get(f"/api/v1/events/{draft.slug}").status_code == 404
    assert [e["slug"] for e in client.get("/api/v1/events").json()["items"]] == [DEMO_SLUG]
    # Nor in the admin's lists of sessions.
    admin = Client()
    admin.force_login(User.objects.create_superuser("root"))
    listing = admin.get("/admin/programme/session/?all=").content.decode()
    assert "SECRET DRAFT TITLE" not in listing


def test_the_draft_page_is_for_editors_only(client: Client, demo_event) -> None:
    assert client.get(f"{BASE}draft/").status_code == 302
    someone = Client()
    someone.force_login(User.objects.create_user("ada"))
    assert someone.get(f"{BASE}draft/").status_code == 404
    assert someone.post(f"{BASE}draft/", {"action": "start"}).status_code == 404
    assert draft_for(demo_event) is None


def test_start_release_and_discard_from_the_draft_page(demo_event) -> None:
    boss = _staff()
    page = boss.get(f"{BASE}draft/").content.decode()
    assert "<h2>No draft</h2>" in page
    started = boss.post(f"{BASE}draft/", {"action": "start"})
    assert (started.status_code, started["Location"]) == (302, f"{BASE}draft/?done=started")
    draft = draft_for(demo_event)
    _move_in_draft(draft, TORCHJD, 30)
    page = boss.get(f"{BASE}draft/").content.decode()
    assert "1 change, as the change log will say it:" in page
    assert '<span class="change-kind">New time</span>' in page
    refused = boss.post(f"{BASE}draft/", {"action": "release", "name": " "})
    assert refused.status_code == 400
    assert (
        "Not done: a release needs a name (for example “Final programme”)."
        in refused.content.decode()
    )
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 1
    released = boss.post(f"{BASE}draft/", {"action": "release", "name": "Final"})
    assert released["Location"] == f"{BASE}draft/?released=2"
    assert ScheduleVersion.objects.get(event=demo_event, number=2).name == "Final"
    page = boss.get(released["Location"]).content.decode()
    assert f'Released as <a href="{BASE}v/2/">version 2</a>' in page
    assert "Nothing: the draft shows attendees what they see now." in page
    again = boss.post(f"{BASE}draft/", {"action": "release", "name": "Again"})
    assert again.status_code == 400
    assert "Not done: nothing to release" in again.content.decode()
    discarded = boss.post(f"{BASE}draft/", {"action": "discard"})
    assert discarded["Location"] == f"{BASE}draft/?done=discarded"
    assert draft_for(demo_event) is None
    twice = boss.post(f"{BASE}draft/", {"action": "discard"})
    assert twice.status_code == 400
    assert f"Not done: {DEMO_SLUG} has no draft to discard." in twice.content.decode()
    odd = boss.post(f"{BASE}draft/", {"action": "publish"})
    assert (
        "Not done: no action &#x27;publish&#x27;: start, discard or release."
        in odd.content.decode()
    )


def test_the_new_pages_are_valid_html(client: Client, demo_event, tmp_path: Path) -> None:
    _checker()
    boss = _staff()
    pages = {"draft page, none": boss.get(f"{BASE}draft/")}
    draft = start_draft(demo_event)
    _move_in_draft(draft, TORCHJD, 30)
    Session.objects.filter(event=draft, key=TORCHJD).update(starts_at=None, ends_at=None)
    pages["draft page, with changes"] = boss.get(f"{BASE}draft/")
    pages["draft page, refused"] = boss.post(f"{BASE}draft/", {"action": "release", "name": ""})
    behind = snapshot(demo_event)
    behind.sessions = [
        replace(s, title="Renamed") if s.key == TORCHJD else s for s in behind.sessions
    ]
    load_programme(demo_event, behind, source="import: late.xml")
    pages["draft page, public changed since"] = boss.get(f"{BASE}draft/")
    release_draft(demo_event, name="Cut")
    pages["version 1"] = client.get(f"{BASE}v/1/")
    pages["version 3"] = client.get(f"{BASE}v/3/")
    pages["unknown version"] = client.get(f"{BASE}v/9/")
    pages["change log"] = client.get(f"{BASE}changes/")
    # The team's, with the lines attendees do not read (the untitled session page's).
    pages["version 1, the team's"] = boss.get(f"{BASE}v/1/")
    pages["change log, the team's"] = boss.get(f"{BASE}changes/")
    assert "not public" in pages["change log, the team's"].content.decode()
    assert {k: r.status_code for k, r in pages.items()} == dict.fromkeys(pages, 200) | {
        "draft page, refused": 400, "unknown version": 404,
    }  # fmt: skip
    html = {kind: response.content.decode() for kind, response in pages.items()}
    assert {kind: found for kind, page in html.items() if (found := _duplicate_ids(page))} == {}
    assert _errors(html, tmp_path) == []


def test_the_draft_page_warns_when_attendees_programme_changed_behind_it(demo_event) -> None:
    boss = _staff()
    draft = start_draft(demo_event)
    _move_in_draft(draft, "helion-1-0-a-high-level-dsl-for-performance-portable-kernels", 30)
    title = Session.objects.get(event=demo_event, key=TORCHJD).title
    assert "draft-since" not in boss.get(f"{BASE}draft/").content.decode()
    public = snapshot(demo_event)
    public.sessions = [
        replace(s, title="TorchJD, renamed") if s.key == TORCHJD else s for s in public.sessions
    ]
    load_programme(demo_event, public, source="import: late.xml")
    page = boss.get(f"{BASE}draft/").content.decode()
    assert "Attendees' programme changed since the draft</h2>" in page
    assert (
        f'<li><a href="{BASE}v/2/">Version 2</a> (imported from late.xml, <time datetime="' in page
    )
    assert "Releasing the draft would undo some of it, in this session; check before" in page
    assert (
        f"<strong>Lightning Talk: {title}</strong>. Attendees got: retitled from “{title}” to "
        "“TorchJD, renamed” (version 2). The release would say: "
        f'<span class="change-kind">New title</span> retitled from “TorchJD, renamed” to “{title}”'
    ) in page
    assert '<input type="hidden" name="seen" value="2">' in page
    stale = boss.post(f"{BASE}draft/", {"action": "release", "name": "Late", "seen": "1"})
    assert stale.status_code == 400
    assert "Not done: attendees&#x27; programme changed since you looked" in stale.content.decode()
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 2
    released = boss.post(f"{BASE}draft/", {"action": "release", "name": "Late", "seen": "2"})
    assert released["Location"] == f"{BASE}draft/?released=3"
    assert "draft-since" not in boss.get(f"{BASE}draft/").content.decode()


def test_the_draft_page_speaks_french_and_german(demo_event) -> None:
    demo_event.languages = "en, fr, de"
    demo_event.save(update_fields=["languages"])
    boss = _staff()
    none = boss.get(f"{BASE}draft/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "<h1>Brouillon et publications</h1>" in none
    assert '<button type="submit">Commencer un brouillon</button>' in none
    draft = start_draft(demo_event)
    _move_in_draft(draft, TORCHJD, 30)
    public = snapshot(demo_event)
    public.sessions = [
        replace(s, title="Renamed") if s.key == TORCHJD else s for s in public.sessions
    ]
    load_programme(demo_event, public, source="import: late.xml")
    german = boss.get(f"{BASE}draft/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<title>Entwurf · PyTorch Conference Europe 2026" in german
    assert "<p>2 Änderungen, wie das Änderungsprotokoll sie nennen wird:</p>" in german
    assert "Das Programm der Teilnehmenden hat sich seit dem Entwurf geändert</h2>" in german
    assert "würde davon etwas rückgängig machen, in dieser Session;" in german
    assert '<button type="submit">Entwurf veröffentlichen</button>' in german
    french = boss.get(f"{BASE}draft/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Publier le brouillon en déferait une partie, dans cette session" in french
    done = boss.get(f"{BASE}draft/?done=started", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le brouillon est commencé : une copie de ce que voient" in done
