"""Reserving from the pages: the seat control on list, grid and session pages (filled per request
into kept pages), the plain and htmx POSTs, the person's seat page, the agenda's seats, the
private feed's statuses and alarms, and the organizer's seats pages."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone

from confsched.agenda import reservations
from confsched.agenda.models import ReminderSetting, Reservation
from confsched.agenda.services import agenda_links
from confsched.programme.models import Event, Session
from tests.conftest import DEMO_SLUG
from tests.teams import on_team

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
BEFORE = datetime(2026, 4, 1, 8, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _before_the_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("confsched.core.clock.now", lambda: BEFORE)


@pytest.fixture
def workshop(demo_event: Event) -> Session:
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    reservations.set_seats(session, 2)
    session.refresh_from_db()
    return session


def _person(name: str, *, staff: bool = False) -> tuple[User, Client]:
    user = User.objects.create_user(name, f"{name}@example.org")
    if staff:
        on_team(user, "editor")
    client = Client()
    client.force_login(user)
    return user, client


def _controls(html: str) -> list[str]:
    """Each seat control's words, tags removed."""
    found = re.findall(r'<div class="seat" id="seat-\d+">(.*?)</div>', html)
    return [" ".join(re.sub(r"<[^>]+>", " ", text).split()) for text in found]


def _reserve(client: Client, key: str = TORCHJD, action: str = "reserve", **headers: str):  # noqa: ANN202
    return client.post(f"{BASE}sessions/{key}/reserve", {"action": action}, **headers)


def test_visitors_are_sent_to_log_in_first(client: Client, workshop: Session) -> None:
    plain = _reserve(client)
    htmx = _reserve(client, HTTP_HX_REQUEST="true")
    assert (plain.status_code, plain["Location"]) == (
        302, f"/accounts/login/?next={BASE}sessions/{TORCHJD}/",
    )  # fmt: skip
    assert (htmx.status_code, htmx["HX-Redirect"]) == (204, plain["Location"])
    assert Reservation.objects.count() == 0


@pytest.mark.parametrize("stencils", [True, False])
def test_the_list_grid_and_session_page_show_each_person_their_seat(
    client: Client, workshop: Session, stencils: bool
) -> None:
    with override_settings(CONFSCHED_PAGE_STENCILS=stencils):
        title = "for “TorchJD: Jacobian Descent in PyTorch”"
        assert _controls(client.get(BASE).content.decode()) == [
            f"2 of 2 seats free Reserve a seat {title}"
        ]
        _, ada = _person("ada")
        _, bob = _person("bob")
        _, cy = _person("cy")
        for person in (ada, bob):
            assert _reserve(person).status_code == 302
        assert _controls(cy.get(BASE + "grid/").content.decode()) == [
            "Full · 0 waiting Join the waitlist (#1) of “TorchJD: Jacobian Descent in PyTorch”"
        ]
        _reserve(cy)
        assert _controls(ada.get(f"{BASE}sessions/{TORCHJD}/").content.decode()) == [
            f"✓ Seat reserved Cancel my seat {title}"
        ]
        assert _controls(cy.get(BASE).content.decode()) == [
            "On the waitlist: #1 Leave the waitlist of “TorchJD: Jacobian Descent in PyTorch”"
        ]
        assert _controls(client.get(BASE).content.decode()) == [
            "Full · 1 waiting Join the waitlist (#2) of “TorchJD: Jacobian Descent in PyTorch”"
        ]


@pytest.mark.parametrize("stencils", [True, False])
def test_a_cancelled_session_offers_no_seat_on_its_page_or_card(
    client: Client, workshop: Session, stencils: bool
) -> None:
    """Its seats count for nothing: no "Reserve a seat" that would answer 409."""
    _, ada = _person("ada")
    _reserve(ada)
    Session.objects.filter(pk=workshop.pk).update(is_cancelled=True)
    Event.objects.filter(pk=workshop.event_id).update(updated_at=timezone.now())
    with override_settings(CONFSCHED_PAGE_STENCILS=stencils):
        for page in (BASE, f"{BASE}grid/", f"{BASE}sessions/{TORCHJD}/"):
            assert _controls(client.get(page).content.decode()) == ["Cancelled: no reservations"]
        # The person who holds a seat can still give it up.
        assert _controls(ada.get(f"{BASE}sessions/{TORCHJD}/").content.decode()) == [
            "✓ Seat reserved Cancel my seat for “TorchJD: Jacobian Descent in PyTorch”"
        ]


def test_a_page_s_etag_moves_with_the_seats(client: Client, workshop: Session) -> None:
    first = client.get(BASE)
    same = client.get(BASE, HTTP_IF_NONE_MATCH=first["ETag"])
    _reserve(_person("ada")[1])
    moved = client.get(BASE, HTTP_IF_NONE_MATCH=first["ETag"])
    assert (same.status_code, moved.status_code) == (304, 200)


def test_open_entry_pages_hold_no_seat_control(client: Client, demo_event: Event) -> None:
    assert _controls(client.get(BASE).content.decode()) == []
    response = _reserve(_person("ada")[1], HTTP_HX_REQUEST="true")
    assert (response.status_code, _controls(response.content.decode())) == (
        409, ["Open entry “TorchJD: Jacobian Descent in PyTorch” is open entry: no reservation "
              "is needed, just come."],
    )  # fmt: skip


def test_a_plain_reservation_lands_on_the_seat_page_which_says_what_happened(
    workshop: Session,
) -> None:
    ada, client = _person("ada")
    response = client.post(
        f"{BASE}sessions/{TORCHJD}/reserve", {"action": "reserve", "next": BASE + "grid/"}
    )
    assert response["Location"] == f"{BASE}sessions/{TORCHJD}/seat/"
    page = client.get(response["Location"])
    html = page.content.decode()
    code = Reservation.objects.get(user=ada).code
    assert re.findall(r'<p class="seat-note is-ok" role="status">([^<]+)</p>', html) == [
        "Your seat is reserved."
    ]
    assert f'<strong class="checkin-code">{code}</strong>' in html
    assert f'<a href="{BASE}grid/">Back</a>' in html
    assert page["Cache-Control"] == "private, no-store"
    # The note is said once.
    assert "seat-note" not in client.get(response["Location"]).content.decode()


def test_htmx_gets_the_control_back_with_the_overlap_warned(
    workshop: Session, demo_event: Event
) -> None:
    overlapping = Session.objects.get(event=demo_event, key=HELION)
    Session.objects.filter(pk=overlapping.pk).update(
        starts_at=workshop.starts_at, ends_at=workshop.ends_at
    )
    reservations.set_seats(overlapping, 5)
    _, client = _person("ada")
    _reserve(client, HELION)
    response = _reserve(client, HTTP_HX_REQUEST="true")
    note = re.findall(
        r'<p class="seat-note ([^"]+)" role="status">([^<]+)</p>', response.content.decode()
    )
    assert (response.status_code, note) == (200, [(
        "is-warning",
        "Your seat is reserved. It overlaps “Helion 1.0: A High-Level DSL for Performance "
        "Portable Kernels”, which you also reserved.",
    )])  # fmt: skip


def test_closed_and_unknown_actions_say_why(
    workshop: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, client = _person("ada")
    unknown = _reserve(client, action="sit", HTTP_HX_REQUEST="true")
    monkeypatch.setattr("confsched.core.clock.now", lambda: workshop.starts_at)
    closed = _reserve(client, HTTP_HX_REQUEST="true")
    assert (unknown.status_code, closed.status_code) == (400, 409)
    assert "Unknown action &#x27;sit&#x27;: reserve or cancel." in unknown.content.decode()
    assert "Reservations for “TorchJD: Jacobian Descent in PyTorch” closed at" in (
        closed.content.decode()
    )
    assert Reservation.objects.count() == 0


def test_the_agenda_shows_seats_and_waitlist_places_apart(workshop: Session) -> None:
    _reserve(_person("ada")[1])
    _reserve(_person("bob")[1])
    cy, client = _person("cy")
    _reserve(client)
    html = client.get(BASE + "agenda/").content.decode()
    seats = html.split('<section id="seats"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r"<h3>([^<]+)</h3>", seats) == ["On the waitlist"]
    assert "number 1 on the waitlist" in seats
    # Reserved without a star: in the agenda, with an empty star to add one.
    assert 'aria-pressed="false"' in html.split(f'id="s-{workshop.pk}"', 1)[1]


def test_the_private_feed_marks_seats_and_carries_the_alarm(
    client: Client, workshop: Session, demo_event: Event
) -> None:
    ada, ada_client = _person("ada")
    bob, bob_client = _person("bob")
    cy, cy_client = _person("cy")
    for person in (ada_client, bob_client, cy_client):
        _reserve(person)
    ReminderSetting.objects.create(user=ada, event=demo_event, minutes=15)

    def feed(user: User) -> str:
        token = agenda_links(user, demo_event).feed_token
        text = client.get(f"{BASE}agenda/{token}.ics").content.decode()
        return text.replace("\r\n ", "")

    ada_feed, cy_feed = feed(ada), feed(cy)
    code = Reservation.objects.get(user=ada).code
    assert re.findall(r"STATUS:(\w+)", ada_feed) == ["CONFIRMED"]
    assert f"DESCRIPTION:Your seat is reserved. Check-in code: {code}\\n\\n" in ada_feed
    assert re.findall(r"BEGIN:VALARM\r\n(.*?)END:VALARM", ada_feed, re.S) == [
        "ACTION:DISPLAY\r\nDESCRIPTION:Lightning Talk: TorchJD: Jacobian Descent in PyTorch\r\n"
        "TRIGGER:-PT15M\r\n"
    ]
    assert re.findall(r"STATUS:(\w+)", cy_feed) == ["TENTATIVE"]
    assert "DESCRIPTION:On the waitlist: number 1." in cy_feed
    assert "VALARM" not in cy_feed


def test_starting_reservations_retires_the_kept_pages(client: Client, demo_event: Event) -> None:
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    before = Event.objects.get(pk=demo_event.pk).updated_at
    client.get(BASE)
    reservations.set_seats(session, 3)
    after = Event.objects.get(pk=demo_event.pk).updated_at
    reservations.set_seats(session, 3)  # the same number: the kept pages stay
    assert (after > before, Event.objects.get(pk=demo_event.pk).updated_at == after) == (True, True)
    reservations.set_seats(session, 4)
    assert _controls(client.get(BASE).content.decode())[0].startswith("4 of 4 seats free")


# ---- organizers -----------------------------------------------------------------------------


def test_seats_pages_are_for_staff_only(client: Client, workshop: Session) -> None:
    urls = [BASE + "seats/", f"{BASE}sessions/{TORCHJD}/reservations/",
            f"{BASE}sessions/{TORCHJD}/reservations.csv"]  # fmt: skip
    _, attendee = _person("ada")
    _, staff = _person("boss", staff=True)
    assert [client.get(url).status_code for url in urls] == [302, 302, 302]
    assert [attendee.get(url).status_code for url in urls] == [404, 404, 404]
    assert [staff.get(url).status_code for url in urls] == [200, 200, 200]


def test_the_organizer_changes_seats_forces_and_removes(workshop: Session) -> None:
    people = [_person(name) for name in ("ada", "bob", "cy", "dee")]
    for _, client in people:
        _reserve(client)
    _, staff = _person("boss", staff=True)
    url = f"{BASE}sessions/{TORCHJD}/reservations/"

    def say(**form: str) -> str:
        response = staff.post(url, form)
        assert response.status_code == 302, response.content
        page = staff.get(url).content.decode()
        return re.findall(r'role="status">([^<]+)</p>', page)[0]

    assert say(action="seats", seats="3") == "3 seats. 1 moved up from the waitlist."
    assert say(action="force", person="DEE@example.org") == (
        "dee has a seat (over the limit if the session was full)."
    )
    ada_row = Reservation.objects.get(user__username="ada")
    assert say(action="remove", reservation=str(ada_row.pk)) == "ada is off the list."
    states = list(Reservation.objects.order_by("pk").values_list("user__username", "status"))
    assert states == [("bob", "confirmed"), ("cy", "confirmed"), ("dee", "confirmed")]
    csv_text = staff.get(f"{BASE}sessions/{TORCHJD}/reservations.csv").content.decode()
    assert [line.split(",")[:5] for line in csv_text.splitlines()] == [
        ["status", "position", "username", "name", "email"],
        ["confirmed", "", "bob", "", "bob@example.org"],
        ["confirmed", "", "cy", "", "cy@example.org"],
        ["confirmed", "", "dee", "", "dee@example.org"],
    ]


def test_fewer_seats_than_held_say_they_keep_them_and_the_team_s_log_tells(
    client: Client, workshop: Session
) -> None:
    for name in ("ada", "bob"):
        _reserve(_person(name)[1])
    _, staff = _person("boss", staff=True)
    url = f"{BASE}sessions/{TORCHJD}/reservations/"
    assert staff.post(url, {"action": "seats", "seats": "1"}).status_code == 302
    page = staff.get(url).content.decode()
    assert re.findall(r'role="status">([^<]+)</p>', page) == [
        "1 seat. 1 person holds a seat beyond that number and keeps it; the waitlist moves once "
        "enough give theirs up."
    ]
    assert Reservation.objects.filter(status="confirmed").count() == 2
    line = re.compile(r'<section class="seats-log".*?<li>.*?· (.*?)</li>', re.S)
    team_log = line.findall(staff.get(f"{BASE}changes/").content.decode())
    words = " ".join(re.sub(r"<[^>]+>", "", team_log[0]).split())
    assert words == (
        "TorchJD: Jacobian Descent in PyTorch: 2 seats → 1 seat (2 held: they keep them) · "
        "seats page · boss"
    )
    assert "seats-log" not in client.get(f"{BASE}changes/").content.decode()


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"action": "seats", "seats": "ten"},
         "Seats must be a whole number, or empty for open entry; got &#x27;ten&#x27;."),
        ({"action": "seats", "seats": "²"},  # isdigit() says yes, int() says no
         "Seats must be a whole number, or empty for open entry; got &#x27;²&#x27;."),
        ({"action": "seats", "seats": "9" * 5000},  # past the column, and int() refuses it
         f"Seats must be a whole number, or empty for open entry; got &#x27;{'9' * 40}…&#x27;."),
        ({"action": "seats", "seats": "-1"},
         "Seats must be a whole number, or empty for open entry; got &#x27;-1&#x27;."),
        ({"action": "force", "person": "x" * 100_000},  # never sent: a 100 KB LIKE pattern
         f"No single account has the username or email &#x27;{'x' * 40}…&#x27;."),
        ({"action": "remove", "reservation": "²"}, "That reservation is no longer on the list."),
        ({"action": "remove", "reservation": "9" * 5000},
         "That reservation is no longer on the list."),
        ({"action": "force", "person": "nobody"},
         "No single account has the username or email &#x27;nobody&#x27;."),
        ({"action": "remove", "reservation": "999"}, "That reservation is no longer on the list."),
        ({"action": "capacity"},
         "The session&#x27;s room has no capacity set: type the number of seats."),
    ],
)  # fmt: skip
def test_the_organizer_s_mistakes_are_told_and_change_nothing(
    workshop: Session, form: dict[str, str], message: str
) -> None:
    _, staff = _person("boss", staff=True)
    response = staff.post(f"{BASE}sessions/{TORCHJD}/reservations/", form)
    assert response.status_code == 400
    assert re.findall(r'role="alert">([^<]+)</p>', response.content.decode()) == [message]
    assert (Session.objects.get(pk=workshop.pk).seats, Reservation.objects.count()) == (2, 0)


def test_after_reserving_the_session_page_reads_who_is_going_again(workshop: Session) -> None:
    # Issue 29: the "who's going" part, read when the page opened, said "No one has starred or
    # reserved this session yet." after the person reserved from that very page.
    _, client = _person("ada")
    going = f"{BASE}sessions/{TORCHJD}/going/"
    page = client.get(f"{BASE}sessions/{TORCHJD}/").content.decode()
    assert (
        f'<div class="going" data-hx-get="{going}" '
        'data-hx-trigger="load, going-changed from:body" data-hx-swap="innerHTML">'
    ) in page
    before = client.get(going, HTTP_HX_REQUEST="true").content.decode()
    reserved = _reserve(client, HTTP_HX_REQUEST="true")
    starred = client.post(f"{BASE}sessions/{HELION}/star", {"starred": "1"}, HTTP_HX_REQUEST="true")
    after = client.get(going, HTTP_HX_REQUEST="true").content.decode()
    assert (reserved["HX-Trigger"], starred["HX-Trigger"]) == ("going-changed", "going-changed")
    assert "No one has starred or reserved this session yet." in before
    assert '<p class="going-others">1 attendee, none listed by name.</p>' in after
