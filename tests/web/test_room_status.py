"""Rooms that are full on the web (web/venue/rooms.py): FOSDEM's listrooms, the buttons that
mark a room, the now page and the check-in pages saying it, and the cached pages unchanged."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.core import clock
from confsched.live.models import RoomStatus
from confsched.live.services import mark_room
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import create_event
from tests.conftest import DEMO_SLUG
from tests.teams import on_team

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
LISTROOMS = f"{BASE}roomstatus/v1/listrooms"
MARK = f"{BASE}rooms/master-stage/status/"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # Master, 11:00-11:25
ELEVEN_FIVE = datetime(2026, 4, 7, 9, 5, tzinfo=UTC)  # in Paris
FULL_SLOT = (
    '<span class="room-full" data-room-full="Master Stage" data-from="{starts}" '
    'data-until="{ends}" hidden></span>'
)
# A card's slot is bare: rooms.js reads the card's room and times.
CARD_SLOT = (
    '<span class="room">Master Stage</span><span class="room-full" data-room-full hidden></span>'
)


@pytest.fixture(autouse=True)
def eleven(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "now", lambda: ELEVEN_FIVE)


@pytest.fixture
def master(demo_event: Event) -> Room:
    return Room.objects.get(event=demo_event, slug="master-stage")


@pytest.fixture
def door(client: Client, demo_event: Event) -> Client:
    client.force_login(on_team(User.objects.create_user("door"), "checkin"))
    return client


def _rooms(client: Client) -> list[dict[str, str]]:
    return json.loads(client.get(LISTROOMS).content)


# FOSDEM's shape ---------------------------------------------------------------------------------


def test_listrooms_is_fosdems_shape_in_room_order(client: Client, master: Room) -> None:
    response = client.get(LISTROOMS)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Cache-Control"] == "public, max-age=5"
    assert json.loads(response.content) == [
        {"roomname": "Central Room", "state": "0"},
        {"roomname": "Founders Cafe", "state": "0"},
        {"roomname": "Junior Stage", "state": "0"},
        {"roomname": "Master Stage", "state": "0"},
    ]
    mark_room(master, is_full=True)
    assert _rooms(client)[3] == {"roomname": "Master Stage", "state": "1"}
    assert [room["state"] for room in _rooms(client)] == ["0", "0", "0", "1"]


def test_listrooms_is_the_same_for_people_signed_in(door: Client, master: Room) -> None:
    mark_room(master, is_full=True)
    response = door.get(LISTROOMS)
    assert (response["Cache-Control"], _rooms(door)[3]["state"]) == ("public, max-age=5", "1")


def test_listrooms_of_an_unknown_event_is_404_and_post_405(client: Client, demo_event) -> None:  # noqa: ANN001
    assert client.get("/no-such-event/roomstatus/v1/listrooms").status_code == 404
    assert client.post(LISTROOMS).status_code == 405


def test_listrooms_of_an_event_without_rooms_is_an_empty_array(client: Client, db) -> None:  # noqa: ANN001
    create_event(slug="empty", name="Empty", timezone="Europe/Paris")
    assert client.get("/empty/roomstatus/v1/listrooms").content == b"[]"


# Marking a room ---------------------------------------------------------------------------------


def test_the_door_marks_a_room_full_and_open_again(door: Client, master: Room) -> None:
    event = Event.objects.get(pk=master.event_id)
    response = door.post(MARK, {"state": "full", "next": f"{BASE}now/"})
    assert (response.status_code, response["Location"]) == (302, f"{BASE}now/")
    row = RoomStatus.objects.get(room=master)
    assert (row.is_full, row.how, row.changed_by.username) == (True, "hand", "door")
    assert _rooms(door)[3]["state"] == "1"
    response = door.post(MARK, {"state": "open"})
    assert (response.status_code, response["Location"]) == (302, f"{BASE}checkin/")
    assert _rooms(door)[3]["state"] == "0"
    assert Event.objects.get(pk=event.pk).updated_at == event.updated_at  # no new version


def test_the_team_may_mark_rooms_too(client: Client, master: Room) -> None:
    client.force_login(on_team(User.objects.create_user("editor"), "editor"))
    assert client.post(MARK, {"state": "full"}).status_code == 302
    assert RoomStatus.objects.get(room=master).is_full is True


def test_a_visitor_goes_to_login_and_nothing_is_written(client: Client, master: Room) -> None:
    response = client.post(MARK, {"state": "full"})
    assert (response.status_code, response["Location"]) == (302, f"/accounts/login/?next={MARK}")
    assert RoomStatus.objects.count() == 0


@pytest.mark.parametrize("role", [None, "viewer"])
def test_a_stranger_or_a_viewer_is_refused(client: Client, master: Room, role: str | None) -> None:
    user = User.objects.create_user("fan")
    client.force_login(on_team(user, role) if role else user)
    assert client.post(MARK, {"state": "full"}).status_code == 404
    assert RoomStatus.objects.count() == 0


def test_get_on_the_mark_address_is_405(door: Client, master: Room) -> None:
    assert door.get(MARK).status_code == 405
    assert RoomStatus.objects.count() == 0


def test_an_unknown_room_is_404(door: Client, master: Room) -> None:
    assert door.post(f"{BASE}rooms/no-such-room/status/", {"state": "full"}).status_code == 404
    assert RoomStatus.objects.count() == 0


def test_a_room_of_another_event_is_404(door: Client, master: Room) -> None:
    other = create_event(slug="other", name="Other", timezone="Europe/Paris")
    Room.objects.create(event=other, name="Attic", slug="attic")
    assert door.post(f"{BASE}rooms/attic/status/", {"state": "full"}).status_code == 404
    assert (
        door.post("/other/rooms/attic/status/", {"state": "full"}).status_code == 404
    )  # not theirs
    assert RoomStatus.objects.count() == 0


@pytest.mark.parametrize("state", ["", "closed", "1"])
def test_a_bad_state_is_400_and_says_what(door: Client, master: Room, state: str) -> None:
    response = door.post(MARK, {"state": state})
    assert response.status_code == 400
    assert response.content.decode() == f"“state” must be “full” or “open”, not “{state}”."
    assert RoomStatus.objects.count() == 0


def test_next_off_the_site_goes_to_the_checkin_page(door: Client, master: Room) -> None:
    response = door.post(MARK, {"state": "full", "next": "https://evil.example/"})
    assert response["Location"] == f"{BASE}checkin/"


# The pages --------------------------------------------------------------------------------------


def _slot(html: str, room: str = "Master Stage") -> list[str]:
    return re.findall(rf'<span class="room-full" data-room-full="{room}"[^>]*>[^<]*</span>', html)


@pytest.mark.parametrize("page", ["", "grid/", f"sessions/{HELION}/"])
def test_cached_pages_stay_the_same_bytes_when_a_room_turns_full(
    client: Client,
    master: Room,
    page: str,
    django_capture_on_commit_callbacks,  # noqa: ANN001
) -> None:
    before = client.get(BASE + page)
    assert before["Cache-Control"] == "public, max-age=5"
    with django_capture_on_commit_callbacks(execute=True):
        mark_room(master, is_full=True)
    after = client.get(BASE + page)
    assert after.content == before.content
    assert after["ETag"] == before["ETag"]


def test_cards_and_the_session_page_hold_a_hidden_slot_that_rooms_js_fills(
    client: Client, master: Room
) -> None:
    mark_room(master, is_full=True)
    slot = FULL_SLOT.format(starts="2026-04-07T11:00:00+02:00", ends="2026-04-07T11:25:00+02:00")
    schedule = client.get(BASE).content.decode()
    sessions = Session.objects.published().filter(room=master, is_cancelled=False).count()
    assert schedule.count(CARD_SLOT) == sessions == 9  # each Master Stage session's card, hidden
    session = client.get(f"{BASE}sessions/{HELION}/").content.decode()
    assert f"Master Stage</a> {slot}, Paris, France</dd>" in session
    script = (
        f'<script src="/static/confsched/rooms.js" data-rooms="{LISTROOMS}" '
        'data-full="Room full" data-open="Room open again" defer></script>'
    )
    assert script in schedule and script in session


def test_the_now_page_says_a_room_is_full_without_javascript(
    client: Client,
    master: Room,
    django_capture_on_commit_callbacks,  # noqa: ANN001
) -> None:
    hidden = '<h2>Master Stage <span class="room-full" data-room-full="Master Stage" hidden></span>'
    assert hidden in client.get(f"{BASE}now/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        mark_room(master, is_full=True)
    html = client.get(f"{BASE}now/").content.decode()  # the same minute: a new board
    assert (
        '<h2>Master Stage <span class="room-full" data-room-full="Master Stage">Room full</span></h2>'
        in html
    )
    assert _slot(html, "Central Room") == [
        '<span class="room-full" data-room-full="Central Room" hidden></span>'
    ]
    assert "room-mark" not in html  # no buttons for visitors


def test_the_now_page_gives_the_door_its_buttons(
    door: Client,
    master: Room,
    django_capture_on_commit_callbacks,  # noqa: ANN001
) -> None:
    html = door.get(f"{BASE}now/").content.decode()
    buttons = re.findall(
        r'<form class="room-mark" method="post" action="([^"]+)">.*?<button[^>]*value="(\w+)">([^<]+)<',
        html,
    )
    assert buttons == [
        (f"{BASE}rooms/{slug}/status/", "full", "Mark full")
        for slug in ("central-room", "founders-cafe", "junior-stage", "master-stage")
    ]
    assert 'name="csrfmiddlewaretoken"' in html and f'name="next" value="{BASE}now/"' in html
    with django_capture_on_commit_callbacks(execute=True):
        response = door.post(MARK, {"state": "full", "next": f"{BASE}now/"})
    html = door.get(response["Location"]).content.decode()
    assert f'action="{MARK}">' in html
    assert re.findall(
        r'value="(\w+)">([^<]+)<span class="visually-hidden">: Master Stage', html
    ) == [("open", "Open again")]


def test_the_checkin_page_lists_the_rooms_with_their_buttons(door: Client, master: Room) -> None:
    mark_room(master, is_full=True)
    html = door.get(f"{BASE}checkin/").content.decode()
    rows = [
        " ".join(re.sub(r"<[^>]+>", " ", row).split())
        for row in re.findall(r'<li class="room-state">(.*?)</li>', html, re.S)
    ]
    assert rows == [
        "Central Room Open Mark full : Central Room",
        "Founders Cafe Open Mark full : Founders Cafe",
        "Junior Stage Open Mark full : Junior Stage",
        "Master Stage Room full marked by hand Open again : Master Stage",
    ]
    assert f'<input type="hidden" name="next" value="{BASE}checkin/">' in html


def test_the_door_page_shows_its_room_full_by_check_ins(door: Client, master: Room) -> None:
    master.capacity = 1
    master.save(update_fields=["capacity"])
    page = f"{BASE}sessions/{HELION}/checkin/"
    response = door.post(page, {"walk_in": "1"}, follow=True)
    html = response.content.decode()
    row = re.search(r'<li class="room-state">(.*?)</li>', html, re.S)
    assert row is not None
    assert " ".join(re.sub(r"<[^>]+>", " ", row.group(1)).split()) == (
        "Master Stage Room full by check-ins Open again : Master Stage"
    )
    assert f'<input type="hidden" name="next" value="{page}">' in html
    # With htmx, the counts come back with the room's state.
    master.live_status.delete()
    fragment = door.post(page, {"walk_in": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'Master Stage</span> <span class="room-state-is">Open</span>' in fragment
