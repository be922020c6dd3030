"""On a phone: sign in, choose a reminder on the agenda page, save it, find it kept; the same
without JavaScript; no serious accessibility violation on the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from confsched.agenda.models import ReminderSetting
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import _serious, axe_source  # noqa: F401 - a fixture

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "reminders-phone.png"
PASSWORD = "correct horse battery staple 42"


def _sign_in(page, demo_live: str, name: str) -> None:  # noqa: ANN001 - a Playwright page
    User.objects.create_user(name, f"{name}@example.org", PASSWORD)
    page.goto(
        f"{demo_live.rsplit('/', 2)[0]}/accounts/login/?next=/pytorch-conference-europe-2026/agenda/"
    )
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/agenda/$"))
    expect(page.locator(".account .who")).to_have_text(name)


@pytest.mark.browser
def test_choose_a_reminder_on_a_phone_and_find_it_kept(
    new_context,  # noqa: ANN001 - a fixture
    demo_live: str,
    axe_source: str,  # noqa: F811 - the fixture
) -> None:
    page = new_context(viewport=PHONE).new_page()
    _sign_in(page, demo_live, "ada")
    panel = page.locator("#reminders")
    minutes = panel.get_by_label("Remind me")
    by_mail = panel.get_by_label("Also email me before sessions I have a seat in")
    expect(minutes).to_have_value("0")
    expect(by_mail).not_to_be_checked()
    expect(panel.get_by_role("status")).to_have_text("No reminders.")

    minutes.select_option(label="15 minutes before")
    by_mail.check()
    panel.get_by_role("button", name="Save").click()
    # htmx swapped the panel in place: no page load, the choice confirmed.
    expect(page.locator("#reminders").get_by_role("status")).to_have_text(
        "Saved. Your calendar feed reminds you 15 minutes before each session, and an email "
        "comes 15 minutes before each session you have a seat in."
    )
    expect(page).to_have_url(re.compile(r"/agenda/$"))  # a plain form would add #reminders
    assert list(ReminderSetting.objects.values_list("minutes", "by_mail")) == [(15, True)]

    page.reload()
    panel = page.locator("#reminders")
    expect(panel.get_by_label("Remind me")).to_have_value("15")
    expect(panel.get_by_label("Also email me before sessions I have a seat in")).to_be_checked()
    # Nothing wider than the phone: the panel wraps.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert _serious(page, axe_source) == []
    page.evaluate(
        "window.scrollBy(0, document.getElementById('reminders').getBoundingClientRect().top - 16)"
    )
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))


@pytest.mark.browser
def test_the_panel_saves_without_javascript(new_context, demo_live: str) -> None:  # noqa: ANN001
    page = new_context(viewport=PHONE, java_script_enabled=False).new_page()
    _sign_in(page, demo_live, "bob")
    panel = page.locator("#reminders")
    panel.get_by_label("Remind me").select_option("5")
    panel.get_by_role("button", name="Save").click()
    expect(page).to_have_url(re.compile(r"/agenda/#reminders$"))
    expect(page.locator("#reminders").get_by_label("Remind me")).to_have_value("5")
    expect(page.locator("#reminders").get_by_role("status")).to_have_text(
        "Your calendar feed reminds you 5 minutes before each session."
    )
    assert list(ReminderSetting.objects.values_list("minutes", "by_mail")) == [(5, False)]
