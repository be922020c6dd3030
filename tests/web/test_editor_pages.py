"""The schedule editor's page (/<event>/draft/edit/): the draft as a grid, the sessions waiting
for a slot, the no-JavaScript forms (check, save after the warnings, unschedule, add), the
check fragment that drag and drop asks for, every refusal of bad input, and valid HTML."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from confsched.programme.clashes import ROOM_CLASH, SPEAKER_CLASH
from confsched.programme.models import Event, Session
from confsched.programme.services import draft_for, release_draft, start_draft
from confsched.programme.services.editing import placement_problems, unschedule
from tests.conftest import DEMO_SLUG
from tests.teams import on_team
from tests.web.test_html_valid import _checker, _duplicate_ids, _errors

pytestmark = pytest.mark.django_db

EDITOR = f"/{DEMO_SLUG}/draft/edit/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
PARIS = ZoneInfo("Europe/Paris")
# HELION runs in the Master Stage on Tuesday 7 April, 11:00–11:25 (Paris); TORCHJD in the
# Founders Cafe at 11:45–11:55. Nothing runs anywhere at 08:00.
ONTO_HELION = {"key": TORCHJD, "day": "2026-04-07", "start": "11:00", "end": "11:10",
               "room": "Master Stage"}  # fmt: skip
FREE = {"key": TORCHJD, "day": "2026-04-07", "start": "08:00", "minutes": "20",
        "room": "Founders Cafe"}  # fmt: skip


@pytest.fixture
def staff(demo_event: Event) -> Client:
    client = Client()
    client.force_login(on_team(User.objects.create_user("boss"), "editor"))
    return client


@pytest.fixture
def draft(demo_event: Event) -> Event:
    return start_draft(demo_event)


def _where(event: Event, key: str) -> tuple[str, str, str]:
    row = Session.objects.select_related("room").get(event=event, key=key)
    if row.starts_at is None:
        return ("", "", row.room.name if row.room else "")
    start, end = row.starts_at.astimezone(PARIS), row.ends_at.astimezone(PARIS)
    return (f"{start:%Y-%m-%d %H:%M}", f"{end:%H:%M}", row.room.name if row.room else "")


def test_without_a_draft_the_editor_offers_to_start_one(staff: Client) -> None:
    page = staff.get(EDITOR)
    assert page.status_code == 200
    html = page.content.decode()
    assert "<h2>No draft</h2>" in html
    assert f'<form method="post" action="/{DEMO_SLUG}/draft/">' in html
    assert '<input type="hidden" name="action" value="start">' in html
    refused = staff.post(EDITOR, FREE | {"action": "save"})
    assert refused.status_code == 400
    assert "Not done: There is no draft to edit: start one first." in refused.content.decode()


def test_the_draft_page_links_the_editor(staff: Client, draft: Event) -> None:
    assert f'href="{EDITOR}"' in staff.get(f"/{DEMO_SLUG}/draft/").content.decode()


def test_the_grid_shows_the_draft_and_the_waiting_list(staff: Client, draft: Event) -> None:
    unschedule(draft, HELION)
    html = staff.get(EDITOR).content.decode()
    # HELION waits for a slot, no longer on the grid; TORCHJD is a card to drag.
    assert f'<li><a href="{EDITOR}?session={HELION}#edit">' in html
    assert f'data-key="{HELION}"' not in html
    assert f'id="s-{TORCHJD}" draggable="true" data-key="{TORCHJD}" data-minutes="10"' in html
    # Every room is a column to drop into, and each row says its day and time.
    assert html.count('<h2 id="day-2026-04-0') == html.count('<th scope="col">Founders Cafe</th>')
    assert '<tr class="steps-1" data-day="2026-04-07" data-start="08:00">' not in html
    assert 'data-day="2026-04-07" data-start="11:45">' in html


def test_check_then_save_anyway_changes_the_draft_not_the_public_programme(
    staff: Client, draft: Event, demo_event: Event
) -> None:
    before = _where(draft, TORCHJD)
    problems = placement_problems(
        draft, TORCHJD, room="Master Stage", starts_at=datetime(2026, 4, 7, 11, tzinfo=PARIS),
        ends_at=datetime(2026, 4, 7, 11, 10, tzinfo=PARIS),
    )  # fmt: skip
    assert [(p.kind, p.keys) for p in problems] == [(ROOM_CLASH, (HELION,))]
    checked = staff.post(EDITOR, ONTO_HELION | {"action": "check"})
    assert checked.status_code == 200
    html = checked.content.decode()
    assert escape(problems[0].message) in html
    assert "Save anyway" in html
    assert _where(draft, TORCHJD) == before  # a check saves nothing
    # "Save" shows the problems first and asks again; nothing saved yet.
    warned = staff.post(EDITOR, ONTO_HELION | {"action": "save"})
    assert warned.status_code == 200
    assert escape(problems[0].message) in warned.content.decode()
    assert '<input type="hidden" name="confirm" value="yes">' in warned.content.decode()
    assert _where(draft, TORCHJD) == before
    saved = staff.post(EDITOR, ONTO_HELION | {"action": "save", "confirm": "yes"})
    assert saved.status_code == 302
    assert saved["Location"] == f"{EDITOR}?done=saved&session={TORCHJD}"
    assert _where(draft, TORCHJD) == ("2026-04-07 11:00", "11:10", "Master Stage")
    # The editor says where it is now, and what is wrong there.
    page = staff.get(saved["Location"]).content.decode()
    assert "Saved in the draft." in page
    assert "Now: Tuesday 7 April, 11:00–11:10, Master Stage." in page
    assert escape(problems[0].message) in page
    # Attendees see the release until the draft is released.
    assert _where(demo_event, TORCHJD) == before
    assert "11:45" in Client().get(f"/{DEMO_SLUG}/sessions/{TORCHJD}/").content.decode()
    release_draft(demo_event, name="TorchJD on the Master Stage")
    assert _where(demo_event, TORCHJD) == ("2026-04-07 11:00", "11:10", "Master Stage")


def test_a_move_without_problems_is_saved_at_once(staff: Client, draft: Event) -> None:
    saved = staff.post(EDITOR, FREE | {"action": "save"})
    assert saved.status_code == 302
    assert _where(draft, TORCHJD) == ("2026-04-07 08:00", "08:20", "Founders Cafe")


def test_a_speaker_in_two_places_is_said(staff: Client, draft: Event) -> None:
    # Valerian Rey speaks in TORCHJD: a copy of it at the same time elsewhere clashes.
    other = Session.objects.get(event=draft, key=HELION)
    other.speakers.add(*Session.objects.get(event=draft, key=TORCHJD).speakers.all())
    page = staff.post(EDITOR, ONTO_HELION | {"action": "check", "room": "Founders Cafe"})
    problems = placement_problems(
        draft, TORCHJD, room="Founders Cafe", starts_at=datetime(2026, 4, 7, 11, tzinfo=PARIS),
        ends_at=datetime(2026, 4, 7, 11, 10, tzinfo=PARIS),
    )  # fmt: skip
    assert [p.kind for p in problems] == [SPEAKER_CLASH]
    assert escape(problems[0].message) in page.content.decode()


def test_unschedule_and_add(staff: Client, draft: Event) -> None:
    off = staff.post(EDITOR, {"action": "unschedule", "key": TORCHJD})
    assert (off.status_code, off["Location"]) == (
        302,
        f"{EDITOR}?done=unscheduled&session={TORCHJD}",
    )
    assert _where(draft, TORCHJD) == ("", "", "")
    added = staff.post(EDITOR, {"action": "add", "title": "  A new   talk ", "kind": "Talk"})
    assert added["Location"] == f"{EDITOR}?done=added&session=a-new-talk"
    row = Session.objects.get(event=draft, key="a-new-talk")
    assert (row.title, row.kind, row.starts_at) == ("A new talk", "Talk", None)
    again = staff.post(EDITOR, {"action": "add", "title": "A new talk", "day": "2026-04-08",
                                "start": "08:00", "end": "08:30", "room": "Central Room"})  # fmt: skip
    assert again["Location"] == f"{EDITOR}?done=added&session=a-new-talk-2"
    assert _where(draft, "a-new-talk-2") == ("2026-04-08 08:00", "08:30", "Central Room")
    html = staff.get(EDITOR).content.decode()
    assert f'<li><a href="{EDITOR}?session={TORCHJD}#edit">' in html
    assert f'<li><a href="{EDITOR}?session=a-new-talk#edit">A new talk</a> · Talk</li>' in html


BAD = [
    ("ends before it starts", ONTO_HELION | {"action": "save", "end": "10:50"},
     "It would end (10:50) before it starts (11:00): give an end after the start, or a length."),
    ("unknown room", FREE | {"action": "save", "room": "Attic"},
     "There is no room “Attic” in this event: choose one of the list."),
    ("unknown session", FREE | {"action": "save", "key": "nope"},
     "The draft has no session “nope”: it may have been removed; reload the editor."),
    ("unknown session, unschedule", {"action": "unschedule", "key": "nope"},
     "The draft has no session “nope”: it may have been removed; reload the editor."),
    ("start not a time", FREE | {"action": "check", "start": "8h"},
     "The start time “8h” is not a time (hours:minutes, such as 09:30)."),
    ("end not a time", ONTO_HELION | {"action": "check", "end": "25:00"},
     "The end time “25:00” is not a time (hours:minutes, such as 09:30)."),
    ("day not a date", FREE | {"action": "save", "day": "7/4/2026"},
     "The day “7/4/2026” is not a date (year-month-day, such as 2026-04-07)."),
    ("no day", FREE | {"action": "save", "day": ""}, "Give a day and a start time."),
    ("no end nor length", FREE | {"action": "save", "minutes": ""},
     "Give an end time or a length."),
    ("length not minutes", FREE | {"action": "save", "minutes": "-5"},
     "The length “-5” is not a number of minutes from 0 to 1440."),
    ("length in other digits", FREE | {"action": "save", "minutes": "²"},
     "The length “²” is not a number of minutes from 0 to 1440."),
    ("length of 5,000 digits", FREE | {"action": "save", "minutes": "9" * 5000},
     f"The length “{'9' * 40}…” is not a number of minutes from 0 to 1440."),
    ("unknown action", FREE | {"action": "x"},
     "No action “x”: check, save, unschedule or add."),
    ("add without title", {"action": "add", "title": "  "}, "A new session needs a title."),
    ("add, bad time", {"action": "add", "title": "T", "day": "2026-04-08", "start": "noon",
                       "minutes": "30"},
     "The start time “noon” is not a time (hours:minutes, such as 09:30)."),
    ("add, unknown room", {"action": "add", "title": "T", "room": "Attic"},
     "There is no room “Attic” in this event: choose one of the list."),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_a_400_that_says_what_and_writes_nothing(
    staff: Client, draft: Event, data: dict[str, str], message: str
) -> None:
    versions = draft.versions.count()
    keys = set(Session.objects.filter(event=draft).values_list("key", flat=True))
    before = _where(draft, TORCHJD)
    answer = staff.post(EDITOR, data)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert (
        f'<p class="notice" role="alert" id="editor-problem">Not done: {escape(message)}</p>'
        in html
    )
    assert (draft.versions.count(), _where(draft, TORCHJD)) == (versions, before)
    assert set(Session.objects.filter(event=draft).values_list("key", flat=True)) == keys


def test_an_unknown_session_in_the_address_is_a_400(staff: Client, draft: Event) -> None:
    answer = staff.get(EDITOR + "?session=nope")
    assert answer.status_code == 400
    assert "The draft has no session “nope”" in answer.content.decode()


def test_the_drop_check_answers_a_fragment(staff: Client, draft: Event) -> None:
    headers = {"HX-Request": "true"}
    answer = staff.post(EDITOR, ONTO_HELION | {"action": "check"}, headers=headers)
    html = answer.content.decode()
    assert answer.status_code == 200
    assert html.startswith('<div class="editor-check" data-editor-check>')
    assert "<html" not in html
    assert "1 problem there:" in html
    assert "Tuesday 7 April, 11:00–11:10, Master Stage" in html
    assert '<button type="submit">Save anyway</button>' in html
    free = staff.post(EDITOR, FREE | {"action": "check"}, headers=headers).content.decode()
    assert "No problem there" in free
    assert '<button type="submit">Save</button>' in free
    bad = staff.post(EDITOR, FREE | {"action": "check", "room": "Attic"}, headers=headers)
    assert bad.status_code == 400
    assert "Not done: There is no room “Attic” in this event" in bad.content.decode()
    assert draft_for(draft.draft_of) == draft


def test_the_editor_pages_are_valid_html(staff: Client, draft: Event, tmp_path: Path) -> None:
    _checker()
    pages = {
        "editor": staff.get(EDITOR),
        "a session": staff.get(f"{EDITOR}?session={TORCHJD}"),
        "checked": staff.post(EDITOR, ONTO_HELION | {"action": "check"}),
        "refused": staff.post(EDITOR, FREE | {"action": "save", "room": "Attic"}),
        "add refused": staff.post(EDITOR, {"action": "add", "title": "T", "start": "x"}),
    }
    html = {kind: page.content.decode() for kind, page in pages.items()}
    draft.delete()
    html["no draft"] = staff.get(EDITOR).content.decode()
    assert {kind: found for kind, page in html.items() if (found := _duplicate_ids(page))} == {}
    assert _errors(html, tmp_path) == []


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_editor_speaks_french_and_german(
    staff: Client, draft: Event, demo_event: Event, language: str
) -> None:
    from tests.web.test_translations import SAME_IN, _event_data, _leftover, _texts

    demo_event.languages = "en, fr, de"
    demo_event.save()
    data = _event_data(demo_event)
    same = {word.lower() for word in SAME_IN[language]}
    left = {}
    # The header's organizer menu (staff links, the account's name) is the site's, not the
    # editor's: left out.
    menu = re.compile(
        r'<details class="staff-menu">.*?</details>\s*<span class="who">[^<]*</span>', re.S
    )
    for url in (EDITOR, f"{EDITOR}?session={TORCHJD}"):
        english = menu.sub("", staff.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        translated = menu.sub("", staff.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        assert f'<html lang="{language}">' in translated
        shared = _texts(english) & _texts(translated)
        left[url] = sorted(text for text in shared if _leftover(text, data, same))
    assert left == {EDITOR: [], f"{EDITOR}?session={TORCHJD}": []}


def test_seats_above_capacity_and_days_outside_the_event_are_said(
    staff: Client, draft: Event
) -> None:
    from confsched.programme.models import Room

    Session.objects.filter(event=draft, key=TORCHJD).update(seats=80)
    Room.objects.filter(event=draft, name="Founders Cafe").update(capacity=30)
    page = staff.post(EDITOR, FREE | {"action": "check", "day": "2026-04-10"}).content.decode()
    assert "2 problems there:" in page
    assert (
        '<li class="problem problem-days">Fri 10 Apr 08:00–08:20 is outside the event&#x27;s '
        "days (2026-04-07 to 2026-04-08)</li>"
    ) in page
    assert (
        '<li class="problem problem-capacity">80 seats to reserve but Founders Cafe has 30</li>'
        in page
    )
