"""People's pages: the attendee directory, my profile, who is going (page and htmx fragment),
and the account's own data: the JSON download and deleting the account."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from confsched.agenda import people, reservations
from confsched.agenda.models import AgendaItem, AttendeeProfile, Reservation
from confsched.agenda.services import star_session
from confsched.programme.models import Event, Room, Session
from confsched.programme.services import create_event
from confsched.teams.rights import Role
from confsched.teams.services import add_member

pytestmark = pytest.mark.django_db

BASE = "/workshops/"
START = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
PASSWORD = "a fine password 7"
PRIVATE = "private, no-store"


@pytest.fixture(autouse=True)
def _before_the_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("confsched.core.clock.now", lambda: START - timedelta(days=1))


@pytest.fixture
def event() -> Event:
    return create_event(slug="workshops", name="Workshops 2027", timezone="Europe/Paris")


@pytest.fixture
def talk(event: Event) -> Session:
    room = Room.objects.create(event=event, name="Lab", slug="lab")
    return Session.objects.create(
        event=event, key="triton", title="Writing Triton kernels", room=room, seats=1,
        starts_at=START, ends_at=START + timedelta(minutes=50),
    )  # fmt: skip


def _user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.org", PASSWORD)


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _public(user: User, event: Event, name: str, **fields: str) -> AttendeeProfile:
    values = {"company": "", "role": "", "links": ""} | fields
    return people.save_profile(user, event, is_public=True, display_name=name, **values)


def _main(html: str) -> str:
    return html.split('<main id="main"', 1)[1].split("</main>", 1)[0]


# ---- the directory --------------------------------------------------------------------------


def test_visitors_see_the_directory_of_the_opted_in_only(client: Client, event: Event) -> None:
    grace = _public(
        _user("grace"), event, "Grace Hopper", company="Navy", role="Admiral",
        links="https://grace.example.org/\nhttp://cobol.example.com",
    )  # fmt: skip
    ada = _public(_user("ada"), event, "Ada Lovelace")
    people.save_profile(
        _user("hidden"), event, is_public=False, display_name="Hidden Person", company="Secret",
        role="", links="https://hidden.example.org",
    )  # fmt: skip
    response = client.get(f"{BASE}people/")
    assert (response.status_code, response["Cache-Control"]) == (200, PRIVATE)
    main = _main(response.content.decode())
    assert re.findall(
        r'<li id="(person-\d+)" class="person-card">\s*<h2 class="person-name">([^<]+)', main
    ) == [
        (f"person-{ada.pk}", "Ada Lovelace"),
        (f"person-{grace.pk}", "Grace Hopper"),
    ]
    assert '<p class="person-role">Admiral, Navy</p>' in main
    assert re.findall(r'<a href="([^"]+)" rel="nofollow ugc noopener">([^<]+)</a>', main) == [
        ("https://grace.example.org/", "grace.example.org/"),
        ("http://cobol.example.com", "cobol.example.com"),
    ]
    assert "2 attendees listed." in main
    for secret in ("Hidden", "hidden", "Secret", "@example.org", ">grace<", ">ada<"):
        assert secret not in main


def test_the_directory_search_says_what_it_found(client: Client, event: Event) -> None:
    _public(_user("grace"), event, "Grace Hopper", company="Navy")
    _public(_user("ada"), event, "Ada Lovelace")
    main = _main(client.get(f"{BASE}people/?q=+navy+").content.decode())
    assert re.findall(r'class="person-name">([^<]+)', main) == ["Grace Hopper"]
    assert "1 attendee matches “navy”." in main and 'value="navy"' in main
    main = _main(client.get(f"{BASE}people/?q=nobody").content.decode())
    assert "No attendee matches “nobody”." in main and "person-card" not in main


def test_the_directory_costs_the_same_queries_for_2_or_12_people(
    client: Client, event: Event, django_assert_max_num_queries
) -> None:  # noqa: ANN001
    for n in range(2):
        _public(_user(f"a{n}"), event, f"Person {n}", links="https://example.org/")
    with CaptureQueriesContext(connection) as two:
        assert client.get(f"{BASE}people/").status_code == 200
    for n in range(2, 12):
        _public(_user(f"a{n}"), event, f"Person {n}", links="https://example.org/")
    with django_assert_max_num_queries(len(two.captured_queries)):
        html = client.get(f"{BASE}people/").content.decode()
    assert html.count('class="person-card"') == 12


def test_the_directory_of_an_unknown_event_is_404(client: Client) -> None:
    assert client.get("/no-such-event/people/").status_code == 404


# ---- my profile -----------------------------------------------------------------------------


def test_the_profile_asks_a_visitor_to_log_in_first(client: Client, event: Event) -> None:
    response = client.get(f"{BASE}profile/")
    assert (response.status_code, response["Location"]) == (
        302,
        "/accounts/login/?next=/workshops/profile/",
    )


def test_the_profile_box_is_off_by_default_and_saving_lists_me(event: Event) -> None:
    ada = _user("ada")
    client = _client(ada)
    page = client.get(f"{BASE}profile/")
    assert (page.status_code, page["Cache-Control"]) == (200, PRIVATE)
    html = page.content.decode()
    assert re.findall(r"<label for=\"id_is_public\">(<input [^>]+>) ([^<]+)</label>", html) == [
        ('<input type="checkbox" name="is_public" id="id_is_public">',
         "Show me in the attendee directory"),
    ]  # fmt: skip
    response = client.post(
        f"{BASE}profile/",
        {"is_public": "on", "display_name": " Ada  L. ", "company": "Engines", "role": "",
         "links": "https://ada.example.org"},
    )  # fmt: skip
    assert (response.status_code, response["Location"]) == (302, f"{BASE}profile/?saved=1")
    row = AttendeeProfile.objects.get(user=ada, event=event)
    assert (row.is_public, row.display_name, row.company, row.links) == (
        True, "Ada L.", "Engines", "https://ada.example.org",
    )  # fmt: skip
    html = client.get(f"{BASE}profile/?saved=1").content.decode()
    assert "Saved. You are listed in" in html
    assert '<input type="checkbox" name="is_public" id="id_is_public" checked>' in html
    assert 'value="Ada L."' in html
    assert re.findall(
        r'class="person-name">([^<]+)', Client().get(f"{BASE}people/").content.decode()
    ) == ["Ada L."]


def test_a_wrong_profile_is_400_with_the_input_kept_and_nothing_saved(event: Event) -> None:
    client = _client(_user("ada"))
    response = client.post(
        f"{BASE}profile/",
        {"is_public": "on", "display_name": "", "company": "Engines & Co",
         "links": "https://ok.example.org\nnot a link"},
    )  # fmt: skip
    assert (response.status_code, response["Cache-Control"]) == (400, PRIVATE)
    html = response.content.decode()
    assert re.findall(r'<ul class="field-errors" id="([^"]+)"><li>([^<]+)</li>', html) == [
        ("id_display_name-errors",
         "Display name: needed to show you in the attendee directory (or leave the box "
         "unticked)."),
        ("id_links-errors",
         "Links, line 2: “not a link” is not a web address starting with http:// or https://."),
    ]  # fmt: skip
    assert 'value="Engines &amp; Co"' in html
    assert ">\nhttps://ok.example.org\nnot a link</textarea>" in html
    assert '<input type="checkbox" name="is_public" id="id_is_public" checked>' in html
    assert "Nothing was saved" in html
    assert AttendeeProfile.objects.count() == 0


# ---- who is going ---------------------------------------------------------------------------


def _going(event: Event, talk: Session) -> list[AttendeeProfile]:
    """Three opted-in (Ada starred, Grace reserved, Alan both) and two others (Bob starred,
    Carol, private, both)."""
    ada, grace, alan, bob, carol = (_user(n) for n in ("ada", "grace", "alan", "bob", "carol"))
    reservations.set_seats(talk, 10)
    profiles = [_public(u, event, n) for u, n in ((ada, "Ada"), (alan, "Alan"), (grace, "Grace"))]
    star_session(ada, talk)
    reservations.reserve(grace, talk)
    star_session(alan, talk)
    reservations.reserve(alan, talk)
    star_session(bob, talk)
    star_session(carol, talk)
    reservations.reserve(carol, talk)
    return profiles


def test_the_going_page_names_the_opted_in_and_counts_the_rest(
    client: Client, event: Event, talk: Session
) -> None:
    profiles = _going(event, talk)
    response = client.get(f"{BASE}sessions/triton/going/")
    assert (response.status_code, response["Cache-Control"]) == (200, PRIVATE)
    main = _main(response.content.decode())
    assert "<h1>Who's going to “Writing Triton kernels”</h1>" in main
    assert re.findall(r'<ul class="going-list">.*?</ul>', main) == [
        '<ul class="going-list">'
        + "".join(f'<li><a href="/workshops/people/#person-{p.pk}">{p.display_name}</a></li>'
                  for p in profiles)
        + "</ul>"
    ]  # fmt: skip
    assert '<p class="going-others">and 2 others</p>' in main


def test_htmx_asks_for_the_going_list_alone(client: Client, event: Event, talk: Session) -> None:
    profiles = _going(event, talk)
    response = client.get(f"{BASE}sessions/triton/going/", headers={"HX-Request": "true"})
    assert (response.status_code, response["Cache-Control"]) == (200, PRIVATE)
    assert set(response["Vary"].replace(" ", "").split(",")) == {"Cookie", "HX-Request"}
    html = response.content.decode()
    assert html.startswith('<ul class="going-list">') and "<html" not in html
    assert re.findall(r">([^<]+)</a></li>", html) == [p.display_name for p in profiles]
    assert '<p class="going-others">and 2 others</p>' in html


@pytest.mark.parametrize(
    ("starred_by", "expected"),
    [(0, "No one has starred or reserved this session yet."),
     (1, "1 attendee, none listed by name."),
     (3, "3 attendees, none listed by name.")],
)  # fmt: skip
def test_going_without_an_opted_in_person(
    client: Client, event: Event, talk: Session, starred_by: int, expected: str
) -> None:
    for n in range(starred_by):
        star_session(_user(f"p{n}"), talk)
    html = client.get(f"{BASE}sessions/triton/going/", headers={"HX-Request": "true"}).content
    assert re.findall(r'<p class="going-others">([^<]+)</p>', html.decode()) == [expected]


def test_going_of_an_unknown_or_unpublished_session_is_404(
    client: Client, event: Event, talk: Session
) -> None:
    Session.objects.filter(pk=talk.pk).update(needs_review=True)
    assert client.get(f"{BASE}sessions/triton/going/").status_code == 404
    assert client.get(f"{BASE}sessions/nothing/going/").status_code == 404


def test_the_session_page_holds_the_loader_and_no_name_or_count(
    event: Event, talk: Session
) -> None:
    _going(event, talk)
    html = _client(User.objects.get(username="ada")).get(f"{BASE}sessions/triton/").content
    section = re.findall(
        r'<section class="related going".*?</section>', html.decode(), flags=re.DOTALL
    )
    assert section == [
        '<section class="related going" aria-labelledby="going-heading">\n'
        '    <h2 id="going-heading">Who\'s going</h2>\n'
        '    <div class="going" data-hx-get="/workshops/sessions/triton/going/" '
        'data-hx-trigger="load, going-changed from:body" data-hx-swap="innerHTML"><p><a '
        'href="/workshops/sessions/triton/going/">See who is going</a></p></div>\n'
        "  </section>"
    ]
    for name in (b"Ada", b"Grace", b"Alan", b"others"):
        assert name not in html.split(b'<main id="main"')[1]


# ---- my data --------------------------------------------------------------------------------


def test_the_data_download_is_the_persons_json_never_kept(event: Event, talk: Session) -> None:
    ada = _user("ada")
    star_session(ada, talk)
    _public(ada, event, "Ada")
    response = _client(ada).get("/accounts/data.json")
    assert (response.status_code, response["Content-Type"], response["Cache-Control"]) == (
        200, "application/json; charset=utf-8", PRIVATE,
    )  # fmt: skip
    assert response["Content-Disposition"] == 'attachment; filename="confsched-data-ada.json"'
    data = json.loads(response.content)
    assert data == {**people.export_data(ada), "speaker_pages": []}  # no speaker page
    assert [(s["event"], s["session"], s["title"]) for s in data["stars"]] == [
        ("workshops", "triton", "Writing Triton kernels")
    ]
    assert data["account"]["username"] == "ada" and data["profiles"][0]["display_name"] == "Ada"


def test_the_data_download_needs_a_log_in(client: Client) -> None:
    response = client.get("/accounts/data.json")
    assert (response.status_code, response["Location"]) == (
        302,
        "/accounts/login/?next=/accounts/data.json",
    )


def test_the_account_pages_link_to_the_data_and_the_deletion(event: Event) -> None:
    client = _client(_user("ada"))
    html = client.get(f"/accounts/password/change/?next={BASE}").content.decode()
    assert re.findall(r'<a href="(/accounts/(?:data|delete)[^"]*)"', html) == [
        "/accounts/data.json",
        "/accounts/delete/?next=/workshops/",
    ]
    html = client.get(f"{BASE}profile/").content.decode()
    assert re.findall(r'<a href="(/accounts/(?:data|delete)[^"]*)"', html) == [
        "/accounts/data.json",
        "/accounts/delete/?next=/workshops/profile/",
    ]


# ---- deleting the account -------------------------------------------------------------------


def test_the_delete_page_says_what_goes(event: Event, talk: Session) -> None:
    ada = _user("ada")
    star_session(ada, talk)
    reservations.reserve(ada, talk)
    response = _client(ada).get(f"/accounts/delete/?next={BASE}")
    assert (response.status_code, response["Cache-Control"]) == (200, PRIVATE)
    html = _main(response.content.decode())
    assert "your 1 starred session," in html
    assert "your 1 reservation: each seat you hold goes to the first person on that" in html
    assert "your feedback (none now)," in html
    assert '<a href="/workshops/">‹ Back</a>' in html  # in the event's frame
    assert 'autocomplete="current-password"' in html


def test_a_wrong_password_deletes_nothing(event: Event, talk: Session) -> None:
    ada = _user("ada")
    star_session(ada, talk)
    client = _client(ada)
    response = client.post("/accounts/delete/", {"password": "not my password"})
    assert (response.status_code, response["Cache-Control"]) == (400, PRIVATE)
    assert re.findall(
        r'<ul class="field-errors" id="id_password-errors"><li>([^<]+)', response.content.decode()
    ) == ["That is not your password: nothing was deleted."]
    assert (User.objects.filter(username="ada").count(), AgendaItem.objects.count()) == (1, 1)
    assert client.get(f"{BASE}profile/").status_code == 200  # still signed in
    assert client.post("/accounts/delete/", {}).status_code == 400
    assert User.objects.filter(username="ada").count() == 1


def test_the_last_owner_of_an_event_is_told_to_pass_it_on_first(event: Event) -> None:
    ada = _user("ada")
    add_member(event, ada, Role.OWNER, by="command line")
    client = _client(ada)
    said = (
        "You are the only owner of “Workshops 2027”: make someone else owner there first (on "
        "the team page). Nothing was deleted."
    )
    page = _main(client.get("/accounts/delete/").content.decode())
    assert re.findall(r'<div class="notice" role="alert"><p>([^<]+)</p>', page) == [said]
    response = client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 400
    assert re.findall(
        r'<div class="notice" role="alert"><p>([^<]+)</p>', _main(response.content.decode())
    ) == [said]
    assert User.objects.filter(username="ada").exists()


def test_the_right_password_deletes_everything_and_logs_out(
    event: Event, talk: Session, django_capture_on_commit_callbacks
) -> None:  # noqa: ANN001
    ada, bob = _user("ada"), _user("bob")
    star_session(ada, talk)
    _public(ada, event, "Ada")
    reservations.reserve(ada, talk)  # the only seat
    reservations.reserve(bob, talk)  # waitlisted
    client = _client(ada)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/accounts/delete/", {"password": PASSWORD, "next": BASE})
    assert (response.status_code, response["Location"]) == (302, "/")
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert User.objects.filter(username="ada").count() == 0
    assert (AgendaItem.objects.count(), AttendeeProfile.objects.count()) == (0, 0)
    assert list(Reservation.objects.values_list("user__username", "status")) == [
        ("bob", "confirmed")
    ]
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    home = client.get("/")  # the one event's page otherwise: here, the message first
    assert (home.status_code, home["Cache-Control"]) == (200, PRIVATE)
    assert re.findall(
        r'<div class="site-messages" role="status"><p>([^<]+)</p>', home.content.decode()
    ) == [
        "Your account is deleted, with everything in it; your reserved seats went to the next "
        "on each waitlist."
    ]
    assert client.get("/").status_code == 302  # said once
    assert client.get(f"{BASE}profile/").status_code == 302  # logged out
    assert client.get("/accounts/delete/").status_code == 302
