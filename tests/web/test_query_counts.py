"""A schedule page costs the same number of queries for 3 sessions and for 300."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.services import create_event, load_programme

pytestmark = pytest.mark.django_db


def _event_with(count: int, slug: str):  # noqa: ANN202
    event = create_event(slug=slug, name=slug, timezone="Europe/Paris")
    load_programme(event, synthetic_programme(count))
    return event


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("page", ["", "grid/", "?q=person&level=advanced", "speakers/"])
def test_pages_cost_the_same_queries_for_3_and_300_sessions(client: Client, page: str) -> None:
    small = _event_with(3, "small")
    large = _event_with(300, "large")
    small_count = _queries(client, f"/{small.slug}/{page}")
    large_count = _queries(client, f"/{large.slug}/{page}")
    assert small_count == large_count
    # event + sessions (rooms, tracks, levels joined) + speaker links with speakers; the list
    # and grid read an outline first (speakers' places, speakers, the rooms, tracks and levels
    # in one, sessions), then whole rows for the cards not kept (all here); and the team's
    # announcements, read once per process and announcements' stamp (none after: see
    # tests/web/test_announcements.py), here the first since the cache was emptied
    expected = 1 + {"speakers/": 2, "?q=person&level=advanced": 3}.get(page, 7)
    assert large_count == expected


def test_the_agenda_reads_only_the_person_s_sessions(client: Client) -> None:
    """Its cost follows the person's picks, not the event's size: every query that reads
    sessions or their speakers names the picked ones (reading all 5,000 to keep 20 cost half
    a second of CPU a page)."""
    from django.contrib.auth.models import User

    from confsched.agenda.services import star_session
    from confsched.programme.models import Session

    large = _event_with(300, "large")
    picked = list(Session.objects.filter(event=large).order_by("key")[:300:100])
    user = User.objects.create_user("ada")
    for session in picked:
        star_session(user, session)
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/{large.slug}/agenda/")
    page = response.content.decode()
    assert [session.title in page for session in picked] == [True, True, True]
    reading = [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].startswith("SELECT")
        and (
            'FROM "programme_session"' in query["sql"] or "programme_sessionspeaker" in query["sql"]
        )
    ]
    names = sorted(str(session.pk) for session in picked)
    assert reading, "the agenda read no session"
    for sql in reading:
        listed = sql.split(" IN (", 1)[1].split(")", 1)[0] if " IN (" in sql else ""
        assert sorted(part.strip() for part in listed.split(",")) == names, sql


@pytest.mark.parametrize("page", ["", "grid/"])
def test_a_programme_without_speakers_is_listed(client: Client, page: str) -> None:
    """No session bills a speaker: the outline's read of speakers asks for none (the storm's
    event on several hosts answered 500 when it asked for an empty list)."""
    from datetime import UTC, datetime, timedelta

    from confsched.programme.models import Room, Session

    event = create_event(slug="quiet", name="Quiet", timezone="Europe/Paris")
    room = Room.objects.create(event=event, name="Hall", slug="hall")
    start = datetime(2030, 4, 7, 9, 0, tzinfo=UTC)
    for number in range(2):
        Session.objects.create(
            event=event, key=f"s{number}", title=f"Talk {number}", room=room,
            starts_at=start + timedelta(hours=number), ends_at=start + timedelta(hours=number, minutes=30),
        )  # fmt: skip
    response = client.get(f"/quiet/{page}")
    assert response.status_code == 200
    html = response.content.decode()
    assert ("Talk 0" in html, "Talk 1" in html) == (True, True)


@pytest.mark.parametrize("page", ["", "grid/"])
def test_after_a_one_session_import_a_page_reads_that_session_not_the_outline(
    client: Client, page: str
) -> None:
    """The journal (queries.outline_after): the page of the version before is the start, and
    only the renamed session is read again, for 3 sessions as for 300; the page is the one a
    process that kept nothing builds."""
    from dataclasses import replace

    from confsched.web.site.stencils import forget_local_stencils

    counts = []
    for count, slug in ((3, "small"), (300, "large")):
        event = _event_with(count, slug)
        _queries(client, f"/{slug}/{page}")  # built once, its outline and frame kept
        base = synthetic_programme(count)
        renamed = [replace(s, title="Renamed") if s.key == "s1" else s for s in base.sessions]
        load_programme(event, replace(base, sessions=renamed))
        with CaptureQueriesContext(connection) as captured:
            spliced = client.get(f"/{slug}/{page}").content
        counts.append(len(captured.captured_queries))
        assert sum('FROM "programme_session"' in q["sql"] for q in captured) == 2, slug
        forget_local_stencils()
        assert client.get(f"/{slug}/{page}").content == spliced
    # the event, the journal's steps, the facets, the renamed session's row, its speakers'
    # places and speakers (it stays where it was: the listed ids are not read in order), then
    # its card's whole row, and its speakers' places with the speakers
    assert counts == [8, 8]
