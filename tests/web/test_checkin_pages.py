"""The door pages (web/staff/checkin.py): staff only, a plain form that answers in the page,
htmx swapping only the answer and the counts, nothing kept by a cache."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.models import Reservation
from confsched.agenda.reservations import reserve, set_seats
from confsched.core import clock
from confsched.programme.models import Event, Session
from tests.conftest import DEMO_SLUG
from tests.teams import on_team

pytestmark = pytest.mark.django_db

HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # Master Stage, 11:00
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"  # Master, 11:30
INDEX = f"/{DEMO_SLUG}/checkin/"
DOOR = f"/{DEMO_SLUG}/sessions/{HELION}/checkin/"
TUESDAY_MORNING = datetime(2026, 4, 7, 8, 52, tzinfo=UTC)  # 10:52 in Paris


@pytest.fixture(autouse=True)
def morning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "now", lambda: TUESDAY_MORNING)


@pytest.fixture
def helion(demo_event: Event) -> Session:
    session = Session.objects.get(event=demo_event, key=HELION)
    set_seats(session, 2)
    return session


@pytest.fixture
def staff(client: Client, demo_event: Event) -> Client:
    client.force_login(on_team(User.objects.create_user("door", password="pw"), "checkin"))
    return client


def _ada(session: Session) -> str:
    return reserve(
        User.objects.create_user("ada", password="pw", first_name="Ada"), session
    ).reservation.code


def _text(html: str, css_class: str) -> str:
    found = re.search(rf'<(\w+) class="{css_class}"[^>]*>(.*?)</\1>', html, flags=re.S)
    assert found is not None, css_class
    return re.sub(r"<[^>]+>", "", found.group(2)).strip()


def _figures(html: str) -> list[tuple[str, str]]:
    return re.findall(r"<div><dt>([^<]+)</dt><dd>([^<]+)</dd></div>", html)


@pytest.mark.parametrize("url", [INDEX, DOOR])
def test_visitor_goes_to_login(client: Client, helion: Session, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={url}"


def test_visitor_cannot_post(client: Client, helion: Session) -> None:
    response = client.post(DOOR, {"walk_in": "1"})
    assert (response.status_code, response["Location"]) == (302, f"/accounts/login/?next={DOOR}")
    assert Reservation.objects.count() == 0


@pytest.mark.parametrize("url", [INDEX, DOOR])
def test_attendee_is_refused_like_insight(client: Client, helion: Session, url: str) -> None:
    client.force_login(User.objects.create_user("fan", password="pw"))
    assert client.get(url).status_code == 404


def test_attendee_cannot_post(client: Client, helion: Session) -> None:
    code = _ada(helion)
    client.force_login(User.objects.create_user("fan", password="pw"))
    assert client.post(DOOR, {"walk_in": "1"}).status_code == 404
    assert client.post(DOOR, {"code": code}).status_code == 404
    assert list(Reservation.objects.values_list("is_walk_in", "checked_in_at")) == [(False, None)]


def test_unknown_session_or_event_is_404(staff: Client, helion: Session) -> None:
    assert staff.get(f"/{DEMO_SLUG}/sessions/no-such-session/checkin/").status_code == 404
    assert staff.get("/no-such-event/checkin/").status_code == 404


def test_index_lists_sessions_with_seats_and_counts(staff: Client, helion: Session) -> None:
    tour = Session.objects.get(event=helion.event, key=TOUR)
    set_seats(tour, 30)
    code = _ada(helion)
    staff.post(DOOR, {"code": code}, follow=True)
    response = staff.get(INDEX)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    html = response.content.decode()
    assert [(s.key, seats.confirmed, seats.checked_in) for s, seats in response.context["rows"]] \
        == [(HELION, 1, 1), (TOUR, 0, 0)]  # fmt: skip
    assert f'<a class="checkin-session" href="{DOOR}">' in html
    assert "1 checked in · 1 of 2 seats taken" in html
    assert "0 checked in · 0 of 30 seats taken" in html
    # Today's open-entry sessions (the demo is one day): a head count only, no counts shown.
    open_entry = response.context["open_entry"]
    assert (len(open_entry), f"{open_entry[0].starts_at.astimezone(helion.event.zone):%H:%M}") == (
        26,
        "11:00",
    )
    assert html.count('<a class="checkin-session"') == 28


def test_index_leaves_out_days_gone_by(staff: Client, helion: Session, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(clock, "now", lambda: datetime(2026, 4, 9, 8, 0, tzinfo=UTC))
    response = staff.get(INDEX)
    assert (response.context["rows"], response.context["open_entry"]) == ([], [])
    assert "No session from today on takes reservations." in response.content.decode()


def test_door_page_shows_the_form_and_counts(staff: Client, helion: Session) -> None:
    _ada(helion)
    response = staff.get(DOOR)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    html = response.content.decode()
    assert (
        '<input id="checkin-code" name="code" type="text" inputmode="text" autocomplete="off" '
        'autocapitalize="characters" spellcheck="false" enterkeyhint="go" maxlength="40" '
        'required autofocus aria-describedby="checkin-code-help">'
    ) in html
    assert _figures(html) == [("Seats", "2"), ("Confirmed", "1"), ("Checked in", "0"),
                              ("Free", "1")]  # fmt: skip
    assert '<button type="submit" name="walk_in" value="1">Walk-in</button>' in html
    assert '<div id="checkin-result" class="checkin-result" role="status">' in html
    assert _text(html, "checkin-waiting") == "Waiting for a code."
    assert re.findall(r'<script src="([^"]+)"', html)[-1] == "/static/confsched/checkin.js"
    assert "<script>" not in html and "style=" not in html


def test_post_code_answers_in_the_page(staff: Client, helion: Session) -> None:
    code = _ada(helion)
    html = staff.post(DOOR, {"code": code.lower()}, follow=True).content.decode()
    assert '<div class="checkin-outcome checkin-welcome">' in html
    assert _text(html, "checkin-headline") == "✓ Welcome, Ada"
    assert _text(html, "checkin-detail") == "Checked in at 10:52."
    assert ("Checked in", "1") in _figures(html)
    html = staff.post(DOOR, {"code": code}, follow=True).content.decode()
    assert '<div class="checkin-outcome checkin-already">' in html
    assert (_text(html, "checkin-headline"), _text(html, "checkin-detail")) == (
        "! Already checked in", "Ada checked in at 10:52.",
    )  # fmt: skip
    html = staff.post(DOOR, {"code": "7KQ2MXR9VB"}, follow=True).content.decode()
    assert '<div class="checkin-outcome checkin-not-on-list">' in html
    assert (_text(html, "checkin-headline"), _text(html, "checkin-detail")) == (
        "✕ Not on the list", "No reservation has the code 7KQ2MXR9VB.",
    )  # fmt: skip
    # The input is empty again and focused, for the next person.
    assert (
        'name="code" type="text"' in html and 'value="' not in html.split("checkin-code")[1][:200]
    )


def test_post_text_is_escaped(staff: Client, helion: Session) -> None:
    html = staff.post(DOOR, {"code": "<b>x</b>"}, follow=True).content.decode()
    assert "“&lt;b&gt;x&lt;/b&gt;” is not a check-in code" in html


def test_walk_in_then_full(staff: Client, helion: Session) -> None:
    _ada(helion)
    html = staff.post(DOOR, {"walk_in": "1"}, follow=True).content.decode()
    assert (_text(html, "checkin-headline"), _text(html, "checkin-detail")) == (
        "✓ Walk-in admitted", "Seat given: 2 of 2 taken, 0 free.",
    )  # fmt: skip
    assert _figures(html) == [("Seats", "2"), ("Confirmed", "2"), ("Checked in", "1"),
                              ("Free", "0")]  # fmt: skip
    assert "Walk-in</button>" not in html
    assert _text(html, "checkin-full") == "No seat free for walk-ins."
    html = staff.post(DOOR, {"walk_in": "1"}, follow=True).content.decode()  # a replayed form
    assert _text(html, "checkin-detail") == "No seat free: 2 of 2 taken."
    assert Reservation.objects.filter(is_walk_in=True).count() == 1


def test_open_entry_door_counts_heads(staff: Client, demo_event: Event) -> None:
    url = f"/{DEMO_SLUG}/sessions/{TOUR}/checkin/"
    assert _figures(staff.get(url).content.decode()) == [("Entry", "Open"), ("Counted in", "0")]
    html = staff.post(url, {"walk_in": "1"}, follow=True).content.decode()
    assert _text(html, "checkin-detail") == "Counted in: 1 at the door so far (open entry)."
    assert _figures(html) == [("Entry", "Open"), ("Counted in", "1")]
    assert "Count one person in." in html


def test_reloading_after_a_walk_in_admits_nobody_twice(staff: Client, demo_event: Event) -> None:
    """The plain form is answered by a redirect to the door page, which shows the answer once:
    a reload asks for the page again, not for another walk-in."""
    url = f"/{DEMO_SLUG}/sessions/{TOUR}/checkin/"
    response = staff.post(url, {"walk_in": "1"})
    assert (response.status_code, response["Location"]) == (302, url)
    shown = staff.get(url).content.decode()
    assert _text(shown, "checkin-headline") == "✓ Walk-in admitted"
    reloaded = staff.get(url).content.decode()
    assert 'class="checkin-headline"' not in reloaded
    assert _figures(reloaded) == [("Entry", "Open"), ("Counted in", "1")]
    assert Reservation.objects.filter(is_walk_in=True).count() == 1


def test_htmx_gets_the_answer_and_the_counts_only(staff: Client, helion: Session) -> None:
    code = _ada(helion)
    response = staff.post(DOOR, {"code": code}, headers={"HX-Request": "true"})
    assert response["Cache-Control"] == "private, no-store"
    assert response["Vary"].startswith("Cookie, HX-Request")
    html = response.content.decode()
    assert html.startswith(
        '<div class="checkin-outcome checkin-welcome"><p class="checkin-headline">'
    )
    assert "<html" not in html and '<form class="checkin-form"' not in html
    assert '<div id="checkin-counts" class="checkin-counts" data-hx-swap-oob="true">' in html
    assert ("Checked in", "1") in _figures(html)
    walk_in = staff.post(DOOR, {"walk_in": "1"}, headers={"HX-Request": "true"}).content.decode()
    assert _text(walk_in, "checkin-headline") == "✓ Walk-in admitted"
    assert _figures(walk_in)[-1] == ("Free", "0")


def test_door_refuses_other_methods(staff: Client, helion: Session) -> None:
    assert staff.put(DOOR).status_code == 405
    assert staff.post(INDEX).status_code == 405


def test_post_needs_csrf(helion: Session) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(on_team(User.objects.create_user("door", password="pw"), "checkin"))
    assert client.post(DOOR, {"walk_in": "1"}).status_code == 403
    assert Reservation.objects.count() == 0
