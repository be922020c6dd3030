"""The organizers' pages and the mails are in the event's language too: every staff page kind,
signed in as an owner, and each mail, rendered in English and in French or German, show no
interface English left over (the checks of tests/web/test_translations.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from confsched.agenda import checkin, reservations
from confsched.agenda.models import AlertSubscription, Feedback
from confsched.programme.models import Event, Session
from confsched.programme.services import load_programme
from confsched.teams.rights import Role
from confsched.teams.services import invitation_text, invitation_token, invite
from tests.teams import on_team
from tests.web.test_translations import BASE, SAME_IN, TORCHJD, _event_data, _leftover, _texts

LANGUAGES = ("fr", "de")
SESSION = f"{BASE}sessions/{TORCHJD}/"
# Every staff page kind (tests/test_rights.py lists them all), with what each can show.
STAFF_PAGES = {
    "insight": BASE + "insight/",
    "seats": BASE + "seats/",
    "session's reservations": SESSION + "reservations/",
    "feedback, organizers": BASE + "feedback/",
    "check-in, sessions": BASE + "checkin/",
    "check-in, door": SESSION + "checkin/",
    "team": BASE + "team/",
}
# Answers to a form: the same request in each language gives the same answer.
STAFF_POSTS = {
    "check-in, unknown code": (SESSION + "checkin/", {"code": "ZZZZZZZZZZ"}, 200),
    "check-in, bad code": (SESSION + "checkin/", {"code": "?"}, 200),
    "seats, refused": (SESSION + "reservations/", {"action": "seats", "seats": "many"}, 400),
    "team, refused": (BASE + "team/", {"action": "invite", "email": "nope", "role": "x"}, 400),
}
PEOPLE = ("ada", "bob", "carol", "dave")
# Organizers' words German keeps as they are (with tests/web/test_translations.py's).
SAME = {"fr": SAME_IN["fr"], "de": SAME_IN["de"] | {"Check", "Team"}}


@pytest.fixture
def busy(demo_event: Event, monkeypatch: pytest.MonkeyPatch) -> Event:
    """The demo event in three languages, with an owner, seats taken, a waitlist, a walk-in,
    feedback and an invitation out; the day before it starts."""
    monkeypatch.setattr("confsched.core.clock.now", lambda: datetime(2026, 4, 6, 12, tzinfo=UTC))
    demo_event.languages = "en, fr, de"
    demo_event.save()
    users = {name: User.objects.create_user(name, f"{name}@example.org") for name in PEOPLE}
    on_team(users["ada"], "owner")
    on_team(users["bob"], "viewer")
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    reservations.set_seats(session, 2)
    for name in ("bob", "carol"):
        reservations.force(users[name], session)
    reservations.set_seats(session, 3)
    checkin.admit_walk_in(session)
    reservations.reserve(users["dave"], session)
    Feedback.objects.create(user=users["bob"], session=session, rating=4, comment="Clear.")
    invite(demo_event, "new@example.org", Role.EDITOR, by="ada", link_for=str)
    return demo_event


def _data(event: Event) -> tuple[list[str], list[str]]:
    words, texts = _event_data(event)
    emails = [f"{name}@example.org" for name in PEOPLE]
    return sorted({*words, *PEOPLE}, key=len, reverse=True), [*texts, *emails, "Clear."]


def _left(english: str, translated: str, data: Any, language: str) -> list[str]:
    same = {word.lower() for word in SAME[language]}
    shared = _texts(english) & _texts(translated)
    return sorted(text for text in shared if _leftover(text, data, same))


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_staff_page_kind_is_in_the_language(busy: Event, language: str) -> None:
    owner = Client()
    owner.force_login(User.objects.get(username="ada"))
    invitation = busy.invitations.get()
    join = Client()
    join.force_login(User.objects.get(username="dave"))
    asks: list[tuple[Client, str, dict[str, str] | None, int]] = [
        (owner, url, None, 200) for url in STAFF_PAGES.values()
    ]
    asks += [(owner, url, data, status) for url, data, status in STAFF_POSTS.values()]
    asks.append((join, f"{BASE}team/join/{invitation_token(invitation)}/", None, 200))
    # The seat controls and their answers (followed to the seat page that shows them), as
    # attendees see them: dave waits, carol has a seat.
    carol = Client()
    carol.force_login(User.objects.get(username="carol"))
    for client in (join, carol, Client()):
        asks += [(client, SESSION, None, 200), (client, SESSION + "seat/", None, 200)]
    asks += [
        (join, BASE + "agenda/", None, 200),
        (join, SESSION + "reserve", {"action": "sit"}, 200),
    ]
    data = _data(busy)
    left: dict[str, list[str]] = {}
    for client, url, form, status in asks:
        answers = [
            client.post(url, form, follow=True, HTTP_ACCEPT_LANGUAGE=lang)
            if form is not None
            else client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
            for lang in ("en", language)
        ]
        assert [answer.status_code for answer in answers] == [status, status], url
        assert f'<html lang="{language}">' in answers[1].content.decode(), url
        found = _left(*(answer.content.decode() for answer in answers), data, language)
        if found:
            left[f"{url} {form or ''}"] = found
    assert left == {}, "\n".join(f"{url}: {texts}" for url, texts in left.items())


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_invitation_mail_is_in_the_events_default_language(busy: Event, language: str) -> None:
    invitation = busy.invitations.get()
    english = invitation_text(invitation, link="https://example.org/join/")
    busy.default_language = language
    busy.save()
    invitation.event = busy
    translated = invitation_text(invitation, link="https://example.org/join/")
    assert (
        translated[0]
        == {
            "fr": "PyTorch Conference Europe 2026 : rejoindre l’équipe comme éditeur·rice",
            "de": "PyTorch Conference Europe 2026: dem Team als Bearbeiter:in beitreten",
        }[language]
    )
    data = _data(busy)
    same = {word.lower() for word in SAME[language]}
    lines = {line for part in english for line in part.splitlines() if line.strip()}
    shared = lines & {line for part in translated for line in part.splitlines()}
    assert sorted(line for line in shared if _leftover(line, data, same)) == []
    mail.outbox.clear()


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_french_or_german_events_attendee_gets_the_seat_mail_in_its_language(
    busy: Event, language: str, django_capture_on_commit_callbacks: Any
) -> None:
    busy.default_language = language
    busy.save()
    session = Session.objects.get(event=busy, key=TORCHJD)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reservations.set_seats(session, 4)  # dave, first on the waitlist, gets the seat
    [sent] = mail.outbox
    assert (sent.to, sent.subject) == (
        ["dave@example.org"],
        {
            "fr": "PyTorch Conference Europe 2026 : vous avez une place pour « TorchJD: Jacobian "
            "Descent in PyTorch »",
            "de": "PyTorch Conference Europe 2026: Sie haben einen Platz für „TorchJD: Jacobian "
            "Descent in PyTorch“",
        }[language],
    )
    first = sent.body.splitlines()[0]
    assert first.startswith(
        {"fr": "Une place s’est libérée et elle est à vous", "de": "Ein Platz wurde frei"}[language]
    )
    assert {"fr": "mardi 7 avril, 11:45", "de": "Dienstag, 7. April, 11:45"}[language] in first


@pytest.mark.django_db
def test_a_french_events_alert_mail_is_in_french(demo_event: Event, demo_programme: Any) -> None:
    from tests.agenda.test_alerts import HELION, SITE, _attendee, _changed, _send

    demo_event.languages, demo_event.default_language = "fr, en", "fr"
    demo_event.save()
    _attendee(demo_event, "ada", HELION)
    report = load_programme(demo_event, _changed(demo_programme, drop=HELION))
    assert _send() == "1 sent, 0 failed\n"
    [message] = mail.outbox
    assert message.subject == (
        "PyTorch Conference Europe 2026 : « Helion 1.0: A High-Level DSL for Performance "
        "Portable Kernels » a changé"
    )
    lines = message.body.splitlines()
    assert [lines[0], lines[2], lines[-2], lines[-1]] == [
        "Changements du programme de PyTorch Conference Europe 2026 "
        f"(version {report.version.number})",
        "Une session que vous avez étoilée a changé :",
        "Vous recevez ce courriel parce que vous avez activé les alertes sur vos sessions de "
        "PyTorch Conference Europe 2026.",
        "Ne plus recevoir ces courriels, en un clic : "
        f"{SITE}/{demo_event.slug}/alerts/unsubscribe/{AlertSubscription.objects.get().unsubscribe_token}/",
    ]
    html = message.alternatives[0][0]
    assert '<html lang="fr">' in html and ">Votre programme</a>" in html


@pytest.mark.django_db
def test_a_german_events_reminder_mail_is_in_german() -> None:
    from tests.agenda.test_reminders import SITE, _event, _person, _run, _session, at

    event = _event()
    event.languages, event.default_language = "de, en", "de"
    event.save()
    keynote = _session(event, "keynote", starts=at(10, 0))
    ada = _person("ada", event, minutes=10)
    code = reservations.reserve(ada, keynote).reservation.code
    assert _run(at(9, 50)).sent == 1
    [message] = mail.outbox
    assert message.subject == "Conf & Co: „Keynote“ beginnt um 10:00 in Room 1"
    agenda = f"{SITE}/conf/agenda/"
    assert message.body.splitlines() == [
        "Bald bei Conf & Co, Di, 4. Jun um 10:00 (Zeitzone Europe/Paris):",
        "",
        "* Keynote",
        "  Zeit: 10:00–10:25",
        "  Raum: Room 1",
        f"  Check-in-Code: {code}",
        "",
        f"Ihr Programm: {agenda}",
        "",
        "Sie erhalten diese E-Mail, weil Sie Erinnerungen per E-Mail vor den Sessions gewünscht "
        "haben, in denen Sie bei Conf & Co einen Platz haben. Ändern Sie das auf Ihrer "
        f"Programmseite: {agenda}#reminders",
    ]
