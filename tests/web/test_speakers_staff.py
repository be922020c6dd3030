"""The team's speakers page (web/staff/speakers.py): mails are queued, never sent in the
request, and the page says when each was queued, sent or why it failed; "mail all links" and
"remind all" say whom they skipped; each profile's missing items and the count of incomplete
ones; who may use it, and the 400s for a speaker or an action the page does not know."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.programme.models import Event, Speaker
from confsched.programme.services import create_event
from confsched.speakers import passes
from confsched.speakers.models import SpeakerPass
from tests.task_queue import queued, run_worker
from tests.teams import on_team

pytestmark = pytest.mark.django_db
SITE = "https://schedule.example.org"
SLUG = "one"
URL = f"/{SLUG}/team/speakers/"
LINK_TASK = "confsched.speakers.tasks.send_link"
REMINDER_TASK = "confsched.speakers.tasks.send_reminder"
# 12:00 UTC is 14:00 in Paris, the event's zone.
NOON = datetime(2026, 4, 6, 12, tzinfo=UTC)


@pytest.fixture
def event(settings, monkeypatch) -> Event:  # noqa: ANN001
    settings.CONFSCHED_BASE_URL = SITE
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOON)
    event = create_event(slug=SLUG, name="One Conf", timezone="Europe/Paris")
    Speaker.objects.create(event=event, key="ada", name="Ada", company="Acme")
    Speaker.objects.create(
        event=event, key="done", name="Done", bio="Hi.", position="Dev",
        avatar_url="https://img.example/d.png",
    )  # fmt: skip
    Speaker.objects.create(event=event, key="bob", name="Bob", bio="Hi.", company="Acme")
    return event


def _team(role: str = "editor") -> Client:
    client = Client()
    client.force_login(on_team(User.objects.create_user(f"team-{role}"), role, slug=SLUG))
    return client


def _page(client: Client) -> str:
    response = client.get(URL)
    assert response.status_code == 200
    return unescape(response.content.decode())


def _said(page: str) -> str:
    found = re.search(r'<p class="saved-note" role="\w+">(.*?)</p>', page)
    return found[1] if found else ""


def _row(page: str, key: str) -> str:
    """The speaker's row as text, its tags gone and its blanks one space."""
    row = re.search(rf'<tr id="speaker-{key}">(.*?)</tr>', page, re.S)
    assert row is not None
    return " ".join(re.sub(r"<[^>]+>", " ", row[1]).split())


def test_mailing_a_link_queues_it_and_the_page_says_when(event: Event, mailoutbox) -> None:  # noqa: ANN001
    client = _team()
    response = client.post(URL, {"action": "mail", "key": "ada", "email": "ada@example.org"})
    assert (response.status_code, response["Location"]) == (302, URL)
    made = SpeakerPass.objects.get(speaker__key="ada")
    assert queued() == [
        (LINK_TASK, "default", 10, "READY", {"args": [event.pk, made.pk, SITE], "kwargs": {}})
    ]
    assert mailoutbox == []  # the request sent nothing
    page = _page(client)
    assert _said(page) == "The link of Ada is queued to be mailed to ada@example.org."
    assert _row(page, "ada") == (
        "Ada not opened E-mail of Ada Mail the link Link queued 6 Apr, 14:00 missing: photo, bio "
        "Send a reminder New link End the link"
    )
    assert f'readonly value="{SITE}/speaker/{passes.token_for(made)}/"' in page
    run_worker()
    assert [(m.to, m.subject) for m in mailoutbox] == [
        (["ada@example.org"], "Your speaker page at One Conf")
    ]
    assert f"{SITE}/speaker/{passes.token_for(made)}/" in mailoutbox[0].body
    row = _row(_page(client), "ada")
    assert "mailed 6 Apr, 14:00, not opened" in row
    assert "Mail again Link mailed 6 Apr, 14:00 missing" in row


def test_mail_all_queues_one_per_address_and_says_whom_it_skipped(event: Event) -> None:
    client = _team()
    for key, email in (("ada", "ada@example.org"), ("bob", ""), ("done", "done@example.org")):
        passes.issue_pass(Speaker.objects.get(event=event, key=key), by="olga", email=email)
    SpeakerPass.objects.filter(speaker__key="done").update(opened_at=NOON)
    client.post(URL, {"action": "mail_all"})
    assert _said(_page(client)) == (
        "1 link is queued to be mailed. 1 speaker has opened their link already and was "
        "skipped. 1 speaker has no address and was skipped."
    )
    ada = SpeakerPass.objects.get(speaker__key="ada")
    assert [(path, args["args"][1]) for path, _, _, _, args in queued()] == [(LINK_TASK, ada.pk)]


def test_profiles_show_what_is_missing_and_reminders_go_to_incomplete_ones(
    event: Event, mailoutbox
) -> None:  # noqa: ANN001
    client = _team()
    for key in ("ada", "bob", "done"):
        passes.issue_pass(
            Speaker.objects.get(event=event, key=key), by="olga", email=f"{key}@example.org"
        )
    page = _page(client)
    assert "2 profiles are incomplete." in page
    assert "missing: photo, bio Send a reminder" in _row(page, "ada")
    assert "missing: photo Send a reminder" in _row(page, "bob")
    assert " complete New link" in _row(page, "done")
    client.post(URL, {"action": "remind", "key": "ada"})
    assert _said(_page(client)) == "A reminder to Ada is queued (missing: photo, bio)."
    client.post(URL, {"action": "remind_all"})  # Ada's waits already: only Bob's is added
    assert _said(_page(client)) == "2 reminders are queued."
    assert [path for path, *_ in queued()] == [REMINDER_TASK, REMINDER_TASK]
    run_worker()
    assert sorted((m.to[0], m.subject) for m in mailoutbox) == [
        ("ada@example.org", "Your speaker page at One Conf is missing: photo, bio"),
        ("bob@example.org", "Your speaker page at One Conf is missing: photo"),
    ]
    assert "Reminded 6 Apr, 14:00" in _row(_page(client), "bob")
    # A complete profile is not reminded.
    response = client.post(URL, {"action": "remind", "key": "done"})
    assert response.status_code == 400
    assert _said(unescape(response.content.decode())) == (
        "The profile of Done is complete: there is nothing to remind them of."
    )


def test_remind_all_skips_incomplete_profiles_without_an_address(event: Event) -> None:
    client = _team()
    passes.issue_pass(Speaker.objects.get(event=event, key="ada"), by="olga", email="a@example.org")
    client.post(URL, {"action": "remind_all"})
    assert _said(_page(client)) == (
        "1 reminder is queued. 1 speaker has no address and was skipped."
    )


def test_a_mail_that_failed_shows_why(event: Event, settings) -> None:  # noqa: ANN001
    client = _team()
    client.post(URL, {"action": "mail", "key": "ada", "email": "ada@example.org"})
    settings.EMAIL_BACKEND = "tests.speakers.test_mailing.RefusingBackend"
    run_worker()
    assert (
        "Link not sent: The mail to ada@example.org could not be sent (the server said no)."
        in _row(_page(client), "ada")
    )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"action": "mail", "key": "nobody"}, "No speaker of this event has the key 'nobody'."),
        ({"action": "remind", "key": ""}, "No speaker of this event has the key ''."),
        (
            {"action": "explode", "key": "ada"},
            "'explode' is not something this page does: choose a button.",
        ),
        ({}, "'' is not something this page does: choose a button."),
        (
            {"action": "mail", "key": "ada", "email": ""},
            "Ada has no e-mail address: add one, or pass the link on by hand.",
        ),
        (
            {"action": "remind", "key": "ada"},
            "Ada has no link yet: make one and give their address first.",
        ),
    ],
)
def test_bad_input_gets_a_400_that_says_what(event: Event, data: dict[str, str], said: str) -> None:
    response = _team().post(URL, data)
    assert (response.status_code, _said(unescape(response.content.decode()))) == (400, said)
    assert queued() == []


def test_only_the_programme_team_reaches_the_page(event: Event) -> None:
    viewer = _team("viewer")
    attendee = Client()
    attendee.force_login(User.objects.create_user("attendee"))
    for client in (viewer, attendee):
        assert client.get(URL).status_code == 404
        assert client.post(URL, {"action": "mail_all"}).status_code == 404
        assert client.post(URL, {"action": "remind", "key": "ada"}).status_code == 404
    assert Client().post(URL, {"action": "mail_all"}).status_code == 302  # to log in
    assert (queued(), SpeakerPass.objects.count()) == ([], 0)
    assert _team("owner").get(URL).status_code == 200
