"""Alerts about my sessions: the digest, the sender, the opt-in, unsubscribing and the feed."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from io import StringIO

import pytest
from defusedxml import ElementTree
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client

from confsched.agenda import alerts
from confsched.agenda.models import AgendaLinks, AlertDelivery, AlertSubscription
from confsched.agenda.services import star_session
from confsched.interchange.programme import Programme
from confsched.programme.models import Event, Session
from confsched.programme.services import load_programme, record_edit, session_facts
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
SITE = "https://schedule.example.org"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"  # 11:45-11:55 Founders Cafe
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # 11:00-11:25
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"
TORCHJD_TITLE = "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"
HELION_TITLE = "Helion 1.0: A High-Level DSL for Performance Portable Kernels"
RETIMED = "moved in time from Tue 7 Apr 11:45–11:55 to Tue 7 Apr 12:00–12:10"
PASSWORD = "correct horse battery staple 42"


def _user(name: str, *, email: str | None = None) -> User:
    return User.objects.create_user(
        name, f"{name}@example.org" if email is None else email, PASSWORD
    )


def _attendee(event: Event, name: str, *keys: str, is_on: bool = True, email: str | None = None):  # noqa: ANN202
    user = _user(name, email=email)
    for key in keys:
        star_session(user, Session.objects.get(event=event, key=key))
    if is_on:
        alerts.set_alerts(user, event, is_on=True)
    return user


def _changed(programme: Programme, *, retime: str = "", drop: str = "") -> Programme:
    """The demo programme with one session five... fifteen minutes later and one left out."""
    changed = replace(programme)
    changed.sessions = [
        replace(
            s,
            starts_at=s.starts_at + timedelta(minutes=15),
            ends_at=s.ends_at + timedelta(minutes=15),
        )
        if s.key == retime
        else s
        for s in programme.sessions
        if s.key != drop
    ]
    return changed


def _send() -> str:
    out = StringIO()
    call_command("send-alerts", base_url=SITE, stdout=out)
    return out.getvalue()


def _token(user: User) -> str:
    return AlertSubscription.objects.get(user=user).unsubscribe_token


# ---- the digest ----------------------------------------------------------------------------


def test_build_digest_lists_each_session_and_its_changes() -> None:
    digest = alerts.build_digest(
        event_name="Conf & Co",
        version_number=4,
        sessions=[
            alerts.ChangedSession(title="Talk <A>", changes=(RETIMED, "moved from X to Y")),
            alerts.ChangedSession(title="Talk B", changes=("cancelled",), is_cancelled=True),
        ],
        agenda_url=f"{SITE}/conf/agenda/",
        unsubscribe_url=f"{SITE}/conf/alerts/unsubscribe/T/",
    )
    assert digest.subject == "Conf & Co: 2 of your sessions changed"
    assert digest.text.splitlines() == [
        "Schedule changes at Conf & Co (version 4)",
        "",
        "2 sessions you starred have changed:",
        "",
        "* Talk <A>",
        f"  - {RETIMED}",
        "  - moved from X to Y",
        "",
        "* Talk B",
        "  - cancelled",
        "",
        f"Your agenda: {SITE}/conf/agenda/",
        "",
        "You get this email because you turned on alerts about your sessions at Conf & Co.",
        f"Stop these emails with one click: {SITE}/conf/alerts/unsubscribe/T/",
    ]
    assert "<strong>Talk &lt;A&gt;</strong>" in digest.html
    assert "<img" not in digest.html and "http://" not in digest.html


def test_digest_subject_names_a_single_session() -> None:
    one = [alerts.ChangedSession(title="Keynote", changes=("cancelled",))]
    assert alerts.digest_subject(event_name="Conf", sessions=one) == "Conf: “Keynote” changed"


@pytest.mark.parametrize(
    "bad", ["", "schedule.example.org", "ftp://example.org", "https://", "https://x.org/?a=1"]
)
def test_base_url_that_is_not_a_web_address_is_refused(bad: str) -> None:
    with pytest.raises(alerts.InvalidBaseURLError) as error:
        alerts.checked_base_url(bad)
    assert str(error.value) == (
        "the base URL (--base-url or CONFSCHED_BASE_URL) must be the site's http:// or "
        f"https:// address, e.g. https://schedule.example.org (got {bad!r})"
    )


def test_send_alerts_command_without_base_url_fails_and_sends_nothing(
    demo_event, demo_programme
) -> None:
    _attendee(demo_event, "ada", TORCHJD)
    load_programme(demo_event, _changed(demo_programme, retime=TORCHJD))
    with pytest.raises(CommandError, match=r"the base URL \(--base-url or CONFSCHED_BASE_URL\)"):
        call_command("send-alerts", base_url="")
    assert mail.outbox == []
    assert AlertDelivery.objects.count() == 0


# ---- who gets what -------------------------------------------------------------------------


def test_import_change_mails_only_opted_in_attendees_who_starred_it(
    demo_event, demo_programme
) -> None:
    ada = _attendee(demo_event, "ada", TORCHJD, HELION)
    _attendee(demo_event, "bob", TORCHJD, is_on=False)  # starred, never opted in
    _attendee(demo_event, "cyd", JIGSAW)  # opted in, starred something else
    _attendee(demo_event, "dan", TORCHJD, email="")  # no address to mail
    report = load_programme(demo_event, _changed(demo_programme, retime=TORCHJD, drop=HELION))
    assert _send() == "1 sent, 0 failed\n"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ada@example.org"]
    assert message.subject == "PyTorch Conference Europe 2026: 2 of your sessions changed"
    token = _token(ada)
    unsubscribe = f"{SITE}/{DEMO_SLUG}/alerts/unsubscribe/{token}/"
    assert message.body.splitlines() == [
        f"Schedule changes at PyTorch Conference Europe 2026 (version {report.version.number})",
        "",
        "2 sessions you starred have changed:",
        "",
        f"* {HELION_TITLE}",
        "  - cancelled",
        "",
        f"* {TORCHJD_TITLE}",
        f"  - {RETIMED}",
        "",
        f"Your agenda: {SITE}/{DEMO_SLUG}/agenda/",
        "",
        "You get this email because you turned on alerts about your sessions at "
        "PyTorch Conference Europe 2026.",
        f"Stop these emails with one click: {unsubscribe}",
    ]
    assert message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert [kind for _, kind in message.alternatives] == ["text/html"]


def test_running_twice_sends_nothing_the_second_time(demo_event, demo_programme) -> None:
    _attendee(demo_event, "ada", TORCHJD)
    load_programme(demo_event, _changed(demo_programme, retime=TORCHJD))
    assert _send() == "1 sent, 0 failed\n"
    assert _send() == "0 sent, 0 failed\n"
    assert len(mail.outbox) == 1
    delivery = AlertDelivery.objects.get()
    assert (delivery.attempts, delivery.last_error, delivery.sent_at is not None) == (1, "", True)


def test_each_version_is_its_own_digest(demo_event, demo_programme) -> None:
    _attendee(demo_event, "ada", TORCHJD)
    once = _changed(demo_programme, retime=TORCHJD)
    load_programme(demo_event, once)
    _send()
    load_programme(demo_event, _changed(once, drop=TORCHJD))
    assert _send() == "1 sent, 0 failed\n"
    assert [m.subject for m in mail.outbox] == [
        f"PyTorch Conference Europe 2026: “{TORCHJD_TITLE}” changed"
    ] * 2
    assert mail.outbox[1].body.splitlines()[4:6] == [f"* {TORCHJD_TITLE}", "  - cancelled"]


def test_admin_edit_is_alerted_too(demo_event) -> None:
    _attendee(demo_event, "ada", TORCHJD)
    session = Session.objects.get(event=demo_event, key=TORCHJD)
    before = session_facts(session)
    session.title = "TorchJD, v2"
    session.save()
    record_edit(session, before, editor="olga")
    assert _send() == "1 sent, 0 failed\n"
    assert mail.outbox[0].body.splitlines()[4:6] == [
        "* Lightning Talk: TorchJD, v2",
        "  - retitled from “TorchJD: Jacobian Descent in PyTorch” to “TorchJD, v2”",
    ]


def test_history_before_opting_in_is_not_mailed(demo_event, demo_programme) -> None:
    ada = _attendee(demo_event, "ada", TORCHJD, is_on=False)
    load_programme(demo_event, _changed(demo_programme, retime=TORCHJD))
    alerts.set_alerts(ada, demo_event, is_on=True)
    assert _send() == "0 sent, 0 failed\n"
    assert mail.outbox == []


def test_star_given_after_the_change_is_not_news(demo_event, demo_programme) -> None:
    ada = _attendee(demo_event, "ada")
    load_programme(demo_event, _changed(demo_programme, retime=TORCHJD))
    star_session(ada, Session.objects.get(event=demo_event, key=TORCHJD))
    assert _send() == "0 sent, 0 failed\n"


def test_unsubscribed_after_planning_gets_nothing(demo_event, demo_programme) -> None:
    ada = _attendee(demo_event, "ada", TORCHJD)
    load_programme(demo_event, _changed(demo_programme, retime=TORCHJD))
    assert alerts.plan_deliveries() == 1
    alerts.set_alerts(ada, demo_event, is_on=False)
    assert _send() == "0 sent, 0 failed\n"
    assert (mail.outbox, AlertDelivery.objects.count()) == ([], 0)


def test_failed_send_is_kept_and_retried_next_run(demo_event, demo_programme, monkeypatch) -> None:
    _attendee(demo_event, "ada", TORCHJD)
    load_programme(demo_event, _changed(demo_programme, retime=TORCHJD))

    def refuse(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202 - send()'s shape
        raise ConnectionRefusedError("smtp down")

    with monkeypatch.context() as patched:
        patched.setattr("django.core.mail.EmailMessage.send", refuse)
        with pytest.raises(CommandError) as error:
            _send()
    assert str(error.value) == (
        "1 digest(s) could not be sent and will be retried on the next run: ada v2"
    )
    delivery = AlertDelivery.objects.get()
    assert (delivery.sent_at, delivery.claimed_at, delivery.last_error) == (
        None,
        None,
        "ConnectionRefusedError: smtp down",
    )
    assert _send() == "1 sent, 0 failed\n"
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]


def test_stale_claim_of_a_dead_sender_is_taken_over(demo_event, demo_programme) -> None:
    from django.utils import timezone

    _attendee(demo_event, "ada", TORCHJD)
    load_programme(demo_event, _changed(demo_programme, retime=TORCHJD))
    alerts.plan_deliveries()
    now = timezone.now()
    assert alerts.claim_next(now=now - timedelta(minutes=20), skip=set()) is not None
    assert alerts.claim_next(now=now, skip=set()) is not None  # older than the lease
    assert alerts.claim_next(now=now, skip=set()) is None  # a live claim is left alone


# ---- the agenda page's opt-in --------------------------------------------------------------


def test_agenda_checkbox_turns_alerts_on_and_off(client: Client, demo_event) -> None:
    ada = _user("ada")
    client.force_login(ada)
    page = client.get(BASE + "agenda/").content.decode()
    assert '<input type="checkbox" name="alerts" value="on"> Email me' in page
    response = client.post(BASE + "agenda/alerts", {"alerts": ["off", "on"]})
    assert (response.status_code, response["Location"]) == (302, f"{BASE}agenda/#alerts")
    assert AlertSubscription.objects.get(user=ada).is_on is True
    page = client.get(BASE + "agenda/").content.decode()
    assert '<input type="checkbox" name="alerts" value="on" checked> Email me' in page
    client.post(BASE + "agenda/alerts", {"alerts": "off"})
    assert AlertSubscription.objects.get(user=ada).is_on is False


def test_agenda_opt_in_refuses_a_bad_value(client: Client, demo_event) -> None:
    client.force_login(_user("ada"))
    response = client.post(BASE + "agenda/alerts", {"alerts": "yes please"})
    assert response.status_code == 400
    assert (
        response.content.decode() == "The field 'alerts' must be 'on' or 'off' (got 'yes please')."
    )
    assert AlertSubscription.objects.count() == 0


def test_agenda_opt_in_needs_csrf_and_an_account(demo_event) -> None:
    anonymous = Client()
    response = anonymous.post(BASE + "agenda/alerts", {"alerts": "on"})
    assert (response.status_code, response["Location"]) == (
        302,
        f"/accounts/login/?next={BASE}agenda/alerts",
    )
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(_user("ada"))
    assert strict.post(BASE + "agenda/alerts", {"alerts": "on"}).status_code == 403
    assert AlertSubscription.objects.count() == 0


def test_agenda_says_when_there_is_no_address_to_mail(client: Client, demo_event) -> None:
    client.force_login(_user("ada", email=""))
    assert "Your account has no email address" in client.get(BASE + "agenda/").content.decode()


# ---- unsubscribing -------------------------------------------------------------------------


def test_unsubscribe_get_only_asks_and_post_unsubscribes(demo_event) -> None:
    ada = _attendee(demo_event, "ada", TORCHJD)
    url = f"{BASE}alerts/unsubscribe/{_token(ada)}/"
    asked = Client().get(url)
    assert asked.status_code == 200
    html = asked.content.decode()
    assert f'<form method="post" action="{url}"><button type="submit">Unsubscribe</button>' in html
    assert AlertSubscription.objects.get(user=ada).is_on is True  # a prefetch changes nothing
    assert asked["Cache-Control"] == "private, no-store"
    assert asked["Referrer-Policy"] == "same-origin"
    done = Client(enforce_csrf_checks=True).post(url)
    assert done.status_code == 200
    assert "You are unsubscribed" in done.content.decode()
    assert AlertSubscription.objects.get(user=ada).is_on is False
    assert "already off" in Client().get(url).content.decode()


def test_one_click_post_from_a_mail_client_unsubscribes(demo_event, demo_programme) -> None:
    ada = _attendee(demo_event, "ada", TORCHJD)
    load_programme(demo_event, _changed(demo_programme, retime=TORCHJD))
    _send()
    url = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>").removeprefix(SITE)
    response = Client(enforce_csrf_checks=True).post(
        url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert AlertSubscription.objects.get(user=ada).is_on is False
    load_programme(demo_event, _changed(demo_programme, drop=TORCHJD))
    assert _send() == "0 sent, 0 failed\n"


def test_unknown_or_other_event_token_is_404(demo_event) -> None:
    ada = _attendee(demo_event, "ada")
    other = Event.objects.create(slug="other", name="Other", timezone="UTC")
    assert Client().post(f"{BASE}alerts/unsubscribe/nope/").status_code == 404
    assert Client().get(f"/{other.slug}/alerts/unsubscribe/{_token(ada)}/").status_code == 404
    assert AlertSubscription.objects.get(user=ada).is_on is True


def test_an_unsubscribe_link_dies_when_alerts_are_turned_on_again(demo_event) -> None:
    ada = _attendee(demo_event, "ada", TORCHJD)
    old = f"{BASE}alerts/unsubscribe/{_token(ada)}/"
    assert Client().post(old).status_code == 200
    signed_in = Client()
    signed_in.force_login(ada)
    signed_in.post(f"{BASE}agenda/alerts", {"alerts": "on"})
    # The link of a mail sent before the new subscription no longer turns it off.
    assert Client().post(old).status_code == 404
    subscription = AlertSubscription.objects.get(user=ada)
    assert (subscription.is_on, old.endswith(f"/{subscription.unsubscribe_token}/")) == (
        True,
        False,
    )
    assert Client().post(f"{BASE}alerts/unsubscribe/{_token(ada)}/").status_code == 200
    assert AlertSubscription.objects.get(user=ada).is_on is False


def test_turning_alerts_on_twice_keeps_the_link(demo_event) -> None:
    ada = _attendee(demo_event, "ada", TORCHJD)
    token = _token(ada)
    signed_in = Client()
    signed_in.force_login(ada)
    signed_in.post(f"{BASE}agenda/alerts", {"alerts": "on"})
    assert _token(ada) == token


def test_unsubscribe_put_is_refused(demo_event) -> None:
    ada = _attendee(demo_event, "ada")
    assert Client().put(f"{BASE}alerts/unsubscribe/{_token(ada)}/").status_code == 405


# ---- the private feed ----------------------------------------------------------------------

ATOM = "{http://www.w3.org/2005/Atom}"


def test_feed_holds_the_same_digests_newest_first(
    client: Client, demo_event, demo_programme
) -> None:
    ada = _attendee(demo_event, "ada", TORCHJD, HELION, is_on=False)  # the feed needs no opt-in
    _attendee(demo_event, "bob", JIGSAW)
    once = _changed(demo_programme, retime=TORCHJD)
    load_programme(demo_event, once)
    load_programme(demo_event, _changed(once, drop=HELION))
    load_programme(demo_event, _changed(_changed(once, drop=HELION), retime=JIGSAW))  # not ada's
    links = AgendaLinks.objects.create(user=ada, event=demo_event)
    response = client.get(f"{BASE}alerts/{links.feed_token}.atom")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    assert response["Cache-Control"] == "private, no-store"
    root = ElementTree.fromstring(response.content)
    entries = [
        (e.findtext(f"{ATOM}title"), e.findtext(f"{ATOM}summary"))
        for e in root.findall(f"{ATOM}entry")
    ]
    assert entries == [
        (f"PyTorch Conference Europe 2026: “{HELION_TITLE}” changed", f"{HELION_TITLE}: cancelled"),
        (
            f"PyTorch Conference Europe 2026: “{TORCHJD_TITLE}” changed",
            f"{TORCHJD_TITLE}: {RETIMED}",
        ),
    ]
    assert root.find(f"{ATOM}entry/{ATOM}summary").get("type") == "text"


def test_feed_with_unknown_token_is_404(client: Client, demo_event) -> None:
    assert client.get(f"{BASE}alerts/not-a-token.atom").status_code == 404


def test_agenda_links_to_the_alert_feed(client: Client, demo_event) -> None:
    ada = _user("ada")
    client.force_login(ada)
    page = client.get(BASE + "agenda/").content.decode()
    token = AgendaLinks.objects.get(user=ada).feed_token
    assert re.search(rf'href="http://testserver{BASE}alerts/{token}\.atom"', page)
