"""The agenda page's reminders panel: showing the setting, and saving it from a plain form
and from htmx."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda import reminders
from confsched.agenda.models import ReminderSetting
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
SAVE = f"{BASE}agenda/reminders"
LABELS = {
    0: "No reminder",
    5: "5 minutes before",
    10: "10 minutes before",
    15: "15 minutes before",
    30: "30 minutes before",
}


def _options(selected: int) -> str:
    """The select's options as drawn, `selected` marked."""
    return (
        '<select id="reminder-minutes" name="minutes">'
        + "".join(
            f'<option value="{value}"{" selected" if value == selected else ""}>{label}</option>'
            for value, label in LABELS.items()
        )
        + "</select>"
    )


def _user(name: str = "ada", *, email: str | None = None) -> User:
    return User.objects.create_user(name, f"{name}@example.org" if email is None else email)


def _signed_in(client: Client, **kwargs: str) -> User:
    user = _user(**kwargs)
    client.force_login(user)
    return user


def _setting(user: User) -> tuple[int, bool]:
    setting = ReminderSetting.objects.get(user=user)
    return setting.minutes, setting.by_mail


def test_panel_shows_no_reminder_by_default_after_the_alerts(client: Client, demo_event) -> None:
    _signed_in(client)
    page = client.get(BASE + "agenda/").content.decode()
    assert page.index('id="alerts"') < page.index('id="reminders"') < page.index('id="share"')
    assert _options(0) in page
    assert (
        '<label class="alerts-choice"><input type="checkbox" name="by_mail" value="on" '
        'aria-describedby="reminders-status"> Also email me before sessions I have a seat in'
        "</label>"
    ) in page
    assert '<p class="hint" id="reminders-status" role="status">No reminders.</p>' in page
    assert ReminderSetting.objects.count() == 0  # showing the default writes nothing


def test_plain_form_saves_and_redirects_to_the_panel(client: Client, demo_event) -> None:
    ada = _signed_in(client)
    response = client.post(SAVE, {"minutes": "15", "by_mail": "on"})
    assert (response.status_code, response["Location"]) == (302, f"{BASE}agenda/#reminders")
    assert _setting(ada) == (15, True)
    page = client.get(BASE + "agenda/").content.decode()
    assert _options(15) in page
    assert 'aria-describedby="reminders-status" checked> Also email me' in page
    assert (
        "Your calendar feed reminds you 15 minutes before each session, and an email comes "
        "15 minutes before each session you have a seat in.</p>"
    ) in page
    client.post(SAVE, {"minutes": "5"})  # the box left unticked: no mail
    assert _setting(ada) == (5, False)


def test_htmx_gets_the_panel_back_saved(client: Client, demo_event) -> None:
    ada = _signed_in(client)
    response = client.post(SAVE, {"minutes": "30"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    panel = response.content.decode()
    assert panel.startswith('<section id="reminders" class="panel alerts-panel reminders-panel"')
    assert panel.rstrip().endswith("</section>")
    assert _options(30) in panel
    assert (
        '<p class="hint" id="reminders-status" role="status">Saved. Your calendar feed reminds '
        "you 30 minutes before each session.</p>"
    ) in panel
    assert 'name="csrfmiddlewaretoken"' in panel
    assert _setting(ada) == (30, False)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"minutes": "7"},
            "Reminders can be 0, 5, 10, 15, 30 minutes before a session (0: none); got 7.",
        ),  # noqa: E501
        ({"minutes": "soon"}, "The field 'minutes' must be one of 0, 5, 10, 15, 30 (got 'soon')."),
        ({}, "The field 'minutes' must be one of 0, 5, 10, 15, 30 (got '')."),
        ({"minutes": "-5"}, "The field 'minutes' must be one of 0, 5, 10, 15, 30 (got '-5')."),
        ({"minutes": "²"}, "The field 'minutes' must be one of 0, 5, 10, 15, 30 (got '²')."),
        ({"minutes": "٣"}, "The field 'minutes' must be one of 0, 5, 10, 15, 30 (got '٣')."),
        (
            {"minutes": "9" * 5000},
            f"The field 'minutes' must be one of 0, 5, 10, 15, 30 (got '{'9' * 40}…').",
        ),
        (
            {"minutes": "10", "by_mail": "yes"},
            "The field 'by_mail' must be 'on' or left out (got 'yes').",
        ),  # noqa: E501
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_input_is_refused_with_the_reason(
    client: Client, demo_event, data: dict, message: str, htmx: bool
) -> None:
    _signed_in(client)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(SAVE, data, headers=headers)
    assert (response.status_code, response.content.decode()) == (400, message)
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert ReminderSetting.objects.count() == 0


def test_mail_asked_without_an_address_is_refused(client: Client, demo_event) -> None:
    _signed_in(client, email="")
    page = client.get(BASE + "agenda/").content.decode()
    assert 'aria-describedby="reminders-status" disabled> Also email me' in page
    assert "Your account has no email address, so reminders cannot be emailed.</p>" in page
    response = client.post(SAVE, {"minutes": "10", "by_mail": "on"})
    assert response.status_code == 400
    assert response.content.decode().startswith("Your account has no email address")
    assert ReminderSetting.objects.count() == 0


def test_visitors_are_sent_to_log_in_and_see_no_panel(demo_event) -> None:
    visitor = Client()
    response = visitor.post(SAVE, {"minutes": "10"})
    assert (response.status_code, response["Location"]) == (
        302,
        f"/accounts/login/?next={BASE}agenda/reminders",
    )
    assert 'id="reminders"' not in visitor.get(BASE + "agenda/").content.decode()
    assert ReminderSetting.objects.count() == 0


def test_saving_needs_csrf_and_post(demo_event) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(_user())
    assert strict.post(SAVE, {"minutes": "10"}).status_code == 403
    assert strict.get(SAVE).status_code == 405
    assert ReminderSetting.objects.count() == 0


def test_unknown_event_is_404(client: Client, demo_event) -> None:
    _signed_in(client)
    assert client.post("/no-such-event/agenda/reminders", {"minutes": "10"}).status_code == 404


def test_a_shared_agenda_shows_no_panel(client: Client, demo_event) -> None:
    ada = _signed_in(client)
    reminders.set_reminders(ada, demo_event, minutes=10, by_mail=True)
    client.post(BASE + "agenda/share", {"share": "on"})
    token = ada.agenda_links.get().share_token
    page = Client().get(f"{BASE}agenda/shared/{token}/").content.decode()
    assert "minutes before" not in page and 'id="reminders"' not in page
