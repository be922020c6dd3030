"""Accounts, stars, the agenda page, feeds and sharing, through real requests."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
import vobject
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from confsched.agenda.models import AgendaItem, AgendaLinks, VisitorStar
from confsched.programme.models import Session
from confsched.programme.services import load_programme
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"  # 11:45-11:55 Founders Cafe
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"  # 11:30-11:55
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # 11:00-11:25
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"  # 15:00
PASSWORD = "correct horse battery staple 42"


def _star(client: Client, key: str, *, on: bool = True, **headers: str):  # noqa: ANN202
    return client.post(
        f"{BASE}sessions/{key}/star",
        {"starred": "1" if on else "0", "next": BASE + "?track=training-systems"},
        headers=headers,
    )


def _user(name: str = "ada") -> User:
    return User.objects.create_user(name, f"{name}@example.org", PASSWORD)


def _agenda_titles(html: str) -> list[str]:
    return re.findall(r'class="card-title"><a href="[^"]+">([^<]+)</a>', html)


def test_signup_hashes_with_argon2_and_logs_in(client: Client, demo_event) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "ada",
            "email": "ada@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": BASE,
        },
    )
    assert (response.status_code, response["Location"]) == (302, BASE)
    user = User.objects.get(username="ada")
    assert user.password.startswith("argon2$argon2id$")
    assert client.get(BASE).context["user"] == user


def test_signup_refuses_a_weak_password_and_names_the_field(client: Client, demo_event) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "ada",
            "email": "ada@example.org",
            "password1": "password",
            "password2": "password",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {"password2": ["This password is too common."]}
    assert User.objects.count() == 0


def test_stars_work_as_a_plain_form_without_javascript(client: Client, demo_event) -> None:
    user = _user()
    client.force_login(user)
    response = _star(client, TORCHJD)
    card = f"#s-{Session.objects.get(key=TORCHJD).pk}"  # back to the same card, not the top
    assert (response.status_code, response["Location"]) == (
        302,
        BASE + "?track=training-systems" + card,
    )
    assert list(AgendaItem.objects.values_list("session__key", flat=True)) == [TORCHJD]
    _star(client, TORCHJD)  # twice: still one star
    assert AgendaItem.objects.count() == 1
    _star(client, TORCHJD, on=False)
    assert AgendaItem.objects.count() == 0


def test_a_star_form_never_redirects_off_site(client: Client, demo_event) -> None:
    response = client.post(
        f"{BASE}sessions/{TORCHJD}/star", {"starred": "1", "next": "https://evil.example/"}
    )
    pk = Session.objects.get(key=TORCHJD).pk
    assert response["Location"] == f"{BASE}sessions/{TORCHJD}/#s-{pk}"


def test_htmx_star_swaps_the_button_in_place(client: Client, demo_event) -> None:
    response = _star(client, TORCHJD, **{"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith(
        '<button type="submit" form="star-form"'
        f' formaction="{BASE}sessions/{TORCHJD}/star" name="starred" value="0"'
    )
    assert 'aria-pressed="true"' in html


def test_visitor_stars_join_the_account_at_signup(client: Client, demo_event) -> None:
    _star(client, TORCHJD)
    _star(client, TOUR)
    page = client.get(BASE + "agenda/").content.decode()
    assert _agenda_titles(page) == [
        "Tour De Force: LLM Inference Optimization From Simple To Sophisticated",
        "TorchJD: Jacobian Descent in PyTorch",
    ]
    assert "These stars live in this browser only." in page
    client.post(
        "/accounts/signup/",
        {
            "username": "ada",
            "email": "ada@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert sorted(
        AgendaItem.objects.filter(user__username="ada").values_list("session__key", flat=True)
    ) == sorted([TORCHJD, TOUR])


def test_visitor_stars_join_at_login_with_nothing_doubled(client: Client, demo_event) -> None:
    user = _user()
    other = Client()
    other.force_login(user)
    _star(other, TORCHJD)  # starred earlier on another device
    _star(client, TORCHJD)
    _star(client, HELION)
    response = client.post(
        "/accounts/login/", {"username": "ada", "password": PASSWORD, "next": BASE + "agenda/"}
    )
    assert (response.status_code, response["Location"]) == (302, BASE + "agenda/")
    assert sorted(
        AgendaItem.objects.filter(user=user).values_list("session__key", flat=True)
    ) == sorted([TORCHJD, HELION])
    # Moved, not copied: the visitor's rows are gone and their session no longer names them.
    assert (VisitorStar.objects.count(), client.session.get("visitor")) == (0, None)


def test_agenda_marks_overlaps_gaps_and_changes(client: Client, demo_event, demo_programme) -> None:
    user = _user()
    client.force_login(user)
    for key in (HELION, TOUR, TORCHJD, JIGSAW):
        _star(client, key)
    moved = replace(demo_programme)
    moved.sessions = [
        replace(
            s,
            starts_at=s.starts_at + timedelta(minutes=5),
            ends_at=s.ends_at + timedelta(minutes=5),
            room="Central Room",
        )
        if s.key == JIGSAW
        else s
        for s in demo_programme.sessions
    ]
    load_programme(demo_event, moved)
    html = client.get(BASE + "agenda/").content.decode()
    assert _agenda_titles(html) == [
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels",
        "Tour De Force: LLM Inference Optimization From Simple To Sophisticated",
        "TorchJD: Jacobian Descent in PyTorch",
        "Jigsaw: Domain and Tensor Parallelism for High-Resolution Input Training",
    ]
    assert (
        re.sub(r"\s+", " ", re.search(r'<p class="summary">(.*?)</p>', html, re.S).group(1))
        == "4 sessions, <strong>2 overlapping</strong>."
    )
    clashes = [
        re.sub(r"<[^>]+>", "", c)
        for c in re.findall(r'<p class="clash" role="note">(.*?)</p>', html, re.S)
    ]
    assert clashes == [
        "Overlaps with TorchJD: Jacobian Descent in PyTorch.",
        "Overlaps with Tour De Force: LLM Inference Optimization From Simple To Sophisticated.",
    ]
    gaps = re.findall(
        r'<li class="gap">Free: .*?>(\d\d:\d\d)</time>–.*?>(\d\d:\d\d)</time> \((\d+) min\)</li>',
        html,
    )
    assert gaps == [("11:25", "11:30", "5")] or gaps == [("11:55", "15:05", "190")]
    assert gaps == [("11:55", "15:05", "190")]
    assert re.findall(
        r'<p class="changed" role="note"><strong>Changed since you starred it:</strong> ([^<]+)\.</p>',
        html,
    ) == ["time, room"]


def test_agenda_shows_now_and_next_during_the_event(
    client: Client, demo_event, monkeypatch
) -> None:
    from django.utils import timezone

    client.force_login(_user())
    for key in (HELION, TORCHJD):
        _star(client, key)
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 4, 7, 9, 10, tzinfo=UTC))
    html = client.get(BASE + "agenda/").content.decode()
    helion = Session.objects.get(key=HELION).pk
    torchjd = Session.objects.get(key=TORCHJD).pk
    assert (
        f'<p><strong>Now:</strong> <a href="#s-{helion}">Helion 1.0: A High-Level DSL for Performance Portable Kernels</a></p>'
        in html
    )
    assert (
        f'<p><strong>Next:</strong> <a href="#s-{torchjd}">TorchJD: Jacobian Descent in PyTorch</a> at <time datetime="2026-04-07T11:45:00+02:00">Tue 11:45</time></p>'
        in html
    )


def _feed_url(client: Client) -> str:
    html = client.get(BASE + "agenda/").content.decode()
    return re.search(r'id="feed-url" type="url" readonly value="([^"]+)"', html).group(1)


def test_the_private_feed_carries_the_agenda(client: Client, demo_event) -> None:
    user = _user()
    client.force_login(user)
    _star(client, TORCHJD)
    _star(client, HELION)
    url = _feed_url(client)
    token = AgendaLinks.objects.get(user=user).feed_token
    assert url == f"http://testserver{BASE}agenda/{token}.ics"
    assert len(token) == 43  # 32 random bytes: 256 bits
    html = client.get(BASE + "agenda/").content.decode()
    assert f'href="webcal://testserver{BASE}agenda/{token}.ics"' in html
    response = Client().get(url)  # a calendar app: no cookie, no login
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Cache-Control"] == "private, max-age=300"
    calendar = vobject.readOne(response.content.decode())
    events = sorted(calendar.vevent_list, key=lambda e: e.dtstart.value)
    assert [e.summary.value for e in events] == [
        "Helion 1.0: A High-Level DSL for Performance Portable Kernels",
        "Lightning Talk: TorchJD: Jacobian Descent in PyTorch",
    ]
    assert [e.uid.value for e in events] == [
        f"{HELION}@{DEMO_SLUG}.confsched",
        f"{TORCHJD}@{DEMO_SLUG}.confsched",
    ]
    assert events[1].dtstart.value == datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
    assert calendar.vtimezone.tzid.value == "Europe/Paris"
    assert calendar.contents["x-wr-calname"][0].value == "PyTorch Conference Europe 2026: my agenda"


def test_the_feed_answers_304_until_something_changes(
    client: Client, demo_event, demo_programme
) -> None:
    client.force_login(_user())
    _star(client, TORCHJD)
    url = _feed_url(client)
    feed = Client()
    first = feed.get(url)
    etag = first["ETag"]
    assert feed.get(url, headers={"If-None-Match": etag}).status_code == 304
    _star(client, HELION)  # the agenda changed
    assert feed.get(url, headers={"If-None-Match": etag}).status_code == 200
    etag = feed.get(url)["ETag"]
    retitled = replace(demo_programme)
    retitled.sessions = [
        replace(s, title="TorchJD, v2") if s.key == TORCHJD else s for s in demo_programme.sessions
    ]
    load_programme(demo_event, retitled)  # the programme changed
    changed = feed.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    event = next(
        e
        for e in vobject.readOne(changed.content.decode()).vevent_list
        if e.uid.value.startswith(TORCHJD)
    )
    assert (event.summary.value, event.sequence.value) == ("Lightning Talk: TorchJD, v2", "1")


def test_resetting_the_feed_kills_the_old_address_at_once(client: Client, demo_event) -> None:
    client.force_login(_user())
    _star(client, TORCHJD)
    old = _feed_url(client)
    assert Client().get(old).status_code == 200
    response = client.post(BASE + "agenda/feed/reset")
    assert response["Location"] == BASE + "agenda/#feed"
    new = _feed_url(client)
    assert new != old
    assert Client().get(old).status_code == 404
    assert Client().get(new).status_code == 200


def test_event_session_and_filtered_calendars(client: Client, demo_event) -> None:
    whole = vobject.readOne(client.get(BASE + "schedule.ics").content.decode())
    assert len(whole.vevent_list) == 28
    one = vobject.readOne(client.get(f"{BASE}sessions/{TORCHJD}/calendar.ics").content.decode())
    assert [e.uid.value for e in one.vevent_list] == [f"{TORCHJD}@{DEMO_SLUG}.confsched"]
    assert one.vevent.url.value == f"http://testserver{BASE}sessions/{TORCHJD}/"
    filtered = vobject.readOne(
        client.get(BASE + "schedule.ics?track=training-systems&level=intermediate").content.decode()
    )
    assert len(filtered.vevent_list) == 4
    assert filtered.contents["x-wr-calname"][0].value == "PyTorch Conference Europe 2026 (filtered)"
    html = client.get(BASE + "?track=training-systems").content.decode()
    assert (
        f'<a href="{BASE}schedule.ics?track=training-systems">Calendar of this view (.ics)</a>'
        in html
    )


def test_sharing_turns_on_and_off(client: Client, demo_event) -> None:
    client.force_login(_user())
    _star(client, TORCHJD)
    assert client.post(BASE + "agenda/share", {"share": "on"})["Location"] == BASE + "agenda/#share"
    token = AgendaLinks.objects.get().share_token
    shared = Client().get(f"{BASE}agenda/shared/{token}/")
    html = shared.content.decode()
    assert (shared.status_code, _agenda_titles(html)) == (
        200,
        ["TorchJD: Jacobian Descent in PyTorch"],
    )
    # No name was chosen: no name is shown (the username is half of a log-in, never shown).
    assert _headings(html) == (
        "A shared agenda · PyTorch Conference Europe 2026 · confsched",
        "A shared agenda",
    )
    assert "star" not in html.replace("starred", "") and "feed-url" not in html  # read-only
    client.post(BASE + "agenda/share", {"share": "off"})
    assert Client().get(f"{BASE}agenda/shared/{token}/").status_code == 404


def _headings(html: str) -> tuple[str, str]:
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    heading = re.search(r"<h1>(.*?)</h1>", html, re.S)
    assert title and heading
    return unescape(title.group(1).strip()), unescape(heading.group(1).strip())


def test_the_shared_agenda_shows_the_name_chosen_where_sharing_was_turned_on(
    client: Client, demo_event
) -> None:
    user = _user()
    client.force_login(user)
    form = client.get(BASE + "agenda/").content.decode()
    assert (
        '<label for="share-name">Name shown on the shared page (optional)</label><input '
        'id="share-name" name="display_name" maxlength="150" autocomplete="given-name" value="">'
    ) in form
    client.post(BASE + "agenda/share", {"share": "on", "display_name": "  Ada\nL. "})
    token = AgendaLinks.objects.get().share_token
    html = Client().get(f"{BASE}agenda/shared/{token}/").content.decode()
    assert _headings(html) == (
        "Ada L.'s agenda · PyTorch Conference Europe 2026 · confsched",
        "Ada L.'s agenda",
    )
    user.refresh_from_db()
    assert user.first_name == "Ada L."
    # Turning the link off keeps the name for next time; the form offers it.
    client.post(BASE + "agenda/share", {"share": "off"})
    assert 'name="display_name" maxlength="150" autocomplete="given-name" value="Ada L.">' in (
        client.get(BASE + "agenda/").content.decode()
    )


def test_password_reset_mails_a_working_link(client: Client, demo_event) -> None:
    _user()
    client.post("/accounts/password/reset/", {"email": "ada@example.org"})
    assert len(mail.outbox) == 1
    link = re.search(
        r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body
    ).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a brand new password 7", "new_password2": "a brand new password 7"},
    )
    assert done["Location"] == "/accounts/password/reset/done/"
    assert User.objects.get(username="ada").check_password("a brand new password 7")


def test_password_change(client: Client, demo_event) -> None:
    user = _user()
    client.force_login(user)
    response = client.post(
        "/accounts/password/change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another long password 9",
            "new_password2": "another long password 9",
        },
    )
    assert response["Location"] == "/accounts/password/change/done/"
    user.refresh_from_db()
    assert user.check_password("another long password 9")


def test_logout_is_a_post(client: Client, demo_event) -> None:
    client.force_login(_user())
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_admin_shows_star_counts_without_names(client: Client, demo_event) -> None:
    for name in ("ada", "bob", "cy"):
        user = _user(name)
        other = Client()
        other.force_login(user)
        _star(other, TORCHJD)
    _star(Client(), HELION)  # a visitor's star stays in their browser: not counted
    admin = User.objects.create_superuser("organizer", "o@example.org", PASSWORD)
    client.force_login(admin)
    html = client.get("/admin/programme/session/?o=-2").content.decode()  # by Stars, 2nd column
    rows = re.findall(
        r'<th class="field-title"><a href="[^"]+">([^<]+)</a></th>.*?<td class="field-star_count">(\d+)</td>',
        html,
        re.S,
    )
    assert rows[0] == ("TorchJD: Jacobian Descent in PyTorch", "3")
    assert "ada" not in html.split('id="result_list"')[1]
    assert client.get("/admin/agenda/agendaitem/").status_code == 404


# --- the log-in throttle -------------------------------------------------------------------


def _login(client: Client, username: str, password: str, address: str = "203.0.113.7"):  # noqa: ANN202
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_failures_from_many_addresses_leave_the_owner_free_to_log_in(
    client: Client, demo_event
) -> None:
    # The pair (account, address) locks, not the account: five wrong passwords from five
    # addresses lock no one out, and the owner's right one works (web/accounts/login_throttle.py).
    _user()
    for attempt in range(5):
        assert _login(client, "ada", "wrong", address=f"198.51.100.{attempt}").status_code == 200
    assert _login(client, "ada", PASSWORD, address="192.0.2.99").status_code == 302
    # Stored in the database, so every app process sees the same count: one row per address
    # tried; a log-in clears its own address's row only.
    assert AccessAttempt.objects.filter(username="ada").count() == 5


def test_failed_logins_for_one_account_do_not_lock_others_at_that_address(
    client: Client, demo_event
) -> None:
    # A venue's attendees share a few NAT addresses: one person's typos lock only their account.
    _user("ada")
    _user("bob")
    statuses = [_login(client, "ada", "wrong").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    assert _login(client, "ada", PASSWORD).status_code == 429
    assert _login(client, "bob", PASSWORD).status_code == 302


def test_guessing_across_many_accounts_locks_the_address_at_its_own_limit(
    client: Client, demo_event, settings
) -> None:
    settings.CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT = 12
    _user("bob")
    statuses = [_login(client, f"x{n}", "wrong").status_code for n in range(12)]
    assert statuses == [200] * 11 + [429]
    assert _login(client, "bob", PASSWORD).status_code == 429
    assert _login(client, "bob", PASSWORD, address="192.0.2.1").status_code == 302


def test_the_address_limit_is_far_looser_than_the_account_limit(settings) -> None:
    assert (
        settings.AXES_FAILURE_LIMIT,
        settings.CONFSCHED_LOGIN_ADDRESS_FAILURE_LIMIT,
        settings.CONFSCHED_LOGIN_ACCOUNT_FAILURE_LIMIT,
    ) == (5, 300, 50)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


@pytest.mark.parametrize("page", ["", "grid/", f"sessions/{TORCHJD}/"])
def test_starred_sessions_show_as_starred_on_every_page(
    client: Client, demo_event, page: str
) -> None:
    _star(client, TORCHJD)  # a visitor: kept in their session
    html = client.get(BASE + page).content.decode()
    pressed = re.findall(
        r'<button type="submit" form="star-form" formaction="([^"]+)"[^>]*aria-pressed="(true|false)"',
        html,
        re.S,
    )
    assert [action for action, state in pressed if state == "true"] == [
        f"{BASE}sessions/{TORCHJD}/star"
    ]
    assert len(pressed) == (1 if page.startswith("sessions/") else 28)
    # Logged in (force_login skips the merge of visitor stars): the account's stars count.
    client.force_login(_user())
    _star(client, HELION)
    html = client.get(BASE + page).content.decode()
    states = dict(
        re.findall(
            r'formaction="[^"]*/sessions/([^/"]+)/star"[^>]*aria-pressed="(true|false)"', html
        )
    )
    if page.startswith("sessions/"):
        assert states == {TORCHJD: "false"}
    else:
        assert (states[HELION], states[TORCHJD], list(states.values()).count("true")) == (
            "true",
            "false",
            1,
        )
