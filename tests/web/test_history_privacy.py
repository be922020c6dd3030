"""The public history names only what was public at each version, on every surface (the change
log, its feed, the version pages, the API, the alerts); the event's team reads all of it, on
pages no cache keeps and kept apart from everyone else's. Real imports: a Sessionize export
with a waitlisted session, a CSV with a row without a time."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.programme.models import Change
from tests.conftest import DEMO_SLUG
from tests.web.history import (
    ACCEPTED_TITLE,
    CSVCONF,
    EMBARGOED_TITLE,
    GRACE_BIO,
    OPENING,
    OPENING_TITLE,
    PANEL,
    PANEL_RETITLED,
    PANEL_TITLE,
    SUMMIT,
    WAITLISTED,
    WITHDRAWN_TITLE,
    change_log,
    csv_rows,
    csvconf,
    leaks,
    load_csv,
    load_sessionize,
    sessionize_export,
    summit,
    surfaces,
    team_client,
    version_lines,
)

pytestmark = pytest.mark.django_db


def test_a_waitlisted_session_is_in_no_public_line_until_accepted(client: Client) -> None:
    event = summit()
    bodies = surfaces(client, SUMMIT, 1)
    hidden = (EMBARGOED_TITLE, "Initech", WAITLISTED, "Grace Hopper", GRACE_BIO, "review")
    assert leaks(bodies, hidden) == []
    assert change_log(bodies[f"/{SUMMIT}/changes/"]) == {1: [f"Added {OPENING_TITLE}: added"]}
    # Accepted under another title: added under that one, the embargoed one never said.
    load_sessionize(event, sessionize_export(waitlisted=(ACCEPTED_TITLE, "Accepted")))
    # Waitlisted again and retitled: withdrawn under the title attendees knew.
    load_sessionize(event, sessionize_export(waitlisted=(WITHDRAWN_TITLE, "Waitlisted")))
    bodies = surfaces(client, SUMMIT, 3)
    assert leaks(bodies, (EMBARGOED_TITLE, "Initech", GRACE_BIO, "review")) == []
    assert change_log(bodies[f"/{SUMMIT}/changes/"]) == {
        3: [f"Withdrawn {ACCEPTED_TITLE}: withdrawn from the programme"],
        2: [f"Added {ACCEPTED_TITLE}: added"],
        1: [f"Added {OPENING_TITLE}: added"],
    }
    assert version_lines(bodies[f"/{SUMMIT}/v/3/"]) == (
        "1 withdrawn (imported from sessionize.com).",
        [f"Withdrawn {ACCEPTED_TITLE}: withdrawn from the programme"],
    )
    # Only a session with a page now is linked: not the withdrawn one.
    assert f'href="/{SUMMIT}/sessions/{WAITLISTED}/"' not in bodies[f"/{SUMMIT}/changes/"]
    assert f'href="/{SUMMIT}/sessions/{OPENING}/"' in bodies[f"/{SUMMIT}/changes/"]


def test_the_api_and_the_feed_list_what_was_public_at_each_version(client: Client) -> None:
    event = summit()
    load_sessionize(event, sessionize_export(waitlisted=(ACCEPTED_TITLE, "Accepted")))
    load_sessionize(event, sessionize_export(waitlisted=(WITHDRAWN_TITLE, "Waitlisted")))
    versions = client.get(f"/api/v1/events/{SUMMIT}/versions").json()["items"]
    assert [(v["number"], v["source"], v["summary"]) for v in versions] == [
        (3, "imported from sessionize.com", "1 withdrawn"),
        (2, "imported from sessionize.com", "1 added"),
        (1, "imported from sessionize.com", "1 added"),
    ]
    changes = client.get(f"/api/v1/events/{SUMMIT}/changes").json()
    assert changes["count"] == 3
    assert [
        (c["version"], c["session_key"], c["session_title"], c["kind"], c["description"])
        for c in changes["items"]
    ] == [
        (3, WAITLISTED, ACCEPTED_TITLE, "withdrawn", "withdrawn from the programme"),
        (2, WAITLISTED, ACCEPTED_TITLE, "added", "added"),
        (1, OPENING, OPENING_TITLE, "added", "added"),
    ]
    feed = client.get(f"/{SUMMIT}/changes.atom").content.decode()
    entries = re.findall(r"<entry><title>(.*?)</title>.*?<summary [^>]*>(.*?)</summary>", feed)
    assert entries == [
        ("Version 3: 1 withdrawn", f"{ACCEPTED_TITLE}: withdrawn from the programme"),
        ("Version 2: 1 added", f"{ACCEPTED_TITLE}: added"),
        ("Version 1: 1 added", f"{OPENING_TITLE}: added"),
    ]


def test_the_team_reads_every_line_marked_and_no_cache_keeps_it() -> None:
    event = summit()
    load_sessionize(event, sessionize_export(waitlisted=(ACCEPTED_TITLE, "Accepted")))
    team = team_client(SUMMIT)
    response = team.get(f"/{SUMMIT}/changes/")
    assert response["Cache-Control"] == "private, no-store"
    # The team's lines name sessions as they are now, and say which attendees do not read.
    assert change_log(response.content.decode()) == {
        2: [
            f"New title {ACCEPTED_TITLE}: retitled from “{EMBARGOED_TITLE}” to “{ACCEPTED_TITLE}”",
            f"New description {ACCEPTED_TITLE}: description changed",
            f"Details changed {ACCEPTED_TITLE}: reviewed",
        ],
        1: [f"Added {OPENING_TITLE}: added", f"Added {ACCEPTED_TITLE}: added not public"],
    }
    page = team.get(f"/{SUMMIT}/v/2/")
    assert page["Cache-Control"] == "private, no-store"
    assert version_lines(page.content.decode())[0] == (
        "1 new title, 1 new description, 1 details changed (imported from sessionize.com)."
    )
    # A check-in role reads no more than any visitor.
    door = team_client(SUMMIT, "checkin").get(f"/{SUMMIT}/changes/").content.decode()
    assert change_log(door)[1] == [f"Added {OPENING_TITLE}: added"]


def test_a_version_page_is_kept_apart_for_the_team_and_for_everyone(client: Client) -> None:
    summit()
    public = [f"Added {OPENING_TITLE}: added"]
    team = [*public, f"Added {EMBARGOED_TITLE}: added not public"]
    assert version_lines(client.get(f"/{SUMMIT}/v/1/").content.decode())[1] == public
    assert version_lines(team_client(SUMMIT).get(f"/{SUMMIT}/v/1/").content.decode())[1] == team
    response = Client().get(f"/{SUMMIT}/v/1/")
    assert version_lines(response.content.decode()) == (
        "1 added (imported from sessionize.com).",
        public,
    )
    assert response["Cache-Control"].startswith("public, max-age=")


def test_an_unscheduled_csv_row_is_in_no_public_line_nor_the_file_s_name(client: Client) -> None:
    event = csvconf()
    load_csv(event, csv_rows(keynote="2026-04-07 11:00", panel_title=PANEL_RETITLED, room="Hall B"))
    load_csv(event, csv_rows(keynote="", panel_title=PANEL_RETITLED, room="Hall B"))
    bodies = surfaces(client, CSVCONF, 3)
    hidden = (PANEL, PANEL_TITLE, PANEL_RETITLED, "Linus Quiet", "000_1139db4cf8be8007", "/home/")
    assert leaks(bodies, hidden) == []
    assert change_log(bodies[f"/{CSVCONF}/changes/"]) == {
        3: ["Withdrawn Keynote: Opening keynote: withdrawn from the programme"],
        2: ["New room Keynote: Opening keynote: moved from Main Hall to Hall B"],
        1: ["Added Keynote: Opening keynote: added"],
    }
    assert (
        re.findall(r'<p class="version-meta">.*?· (.*?)</p>', bodies[f"/{CSVCONF}/changes/"])
        == ["imported"] * 3
    )
    html = team_client(CSVCONF, "owner").get(f"/{CSVCONF}/changes/").content.decode()
    assert (
        re.findall(r'<p class="version-meta">.*?· (.*?)</p>', html)
        == ["imported from 000_1139db4cf8be8007.csv"] * 3
    )
    assert change_log(html)[2] == [
        "New room Keynote: Opening keynote: moved from Main Hall to Hall B",
        f"New title Panel: {PANEL_RETITLED}: retitled from “{PANEL_TITLE}” to “{PANEL_RETITLED}” "
        "not public",
    ]


def test_alerts_tell_a_withdrawn_session_under_the_title_its_starrers_knew() -> None:
    from confsched.agenda.alerts import digest_sessions
    from confsched.agenda.services import star_session
    from confsched.programme.models import ScheduleVersion, Session

    event = summit()
    load_sessionize(event, sessionize_export(waitlisted=(ACCEPTED_TITLE, "Accepted")))
    person = User.objects.create_user("fan")
    star_session(person, Session.objects.get(event=event, key=WAITLISTED))
    load_sessionize(event, sessionize_export(waitlisted=(WITHDRAWN_TITLE, "Waitlisted")))
    version = ScheduleVersion.objects.get(event=event, number=3)
    assert [(s.title, s.changes) for s in digest_sessions(person, version)] == [
        (ACCEPTED_TITLE, ("withdrawn from the programme",))
    ]


def test_changes_recorded_before_their_public_facts_show_only_sessions_published_now(
    client: Client, demo_event
) -> None:
    """Older changes keep no "public" fact: a session is judged as it is now."""
    for change in Change.objects.filter(version__event=demo_event):
        change.facts.pop("public")
        change.save(update_fields=["facts"])
    html = client.get(f"/{DEMO_SLUG}/changes/").content.decode()
    lines = change_log(html)[1]
    assert (len(lines), [line for line in lines if "Untitled" in line]) == (28, [])
    assert "004_8d12cb28771c542b.txt" not in html
