"""The people pages on a phone (375 px): axe-core finds no serious or critical violation on the
directory, the profile, who is going and the delete confirmation; on the session page htmx puts
the going list in place of its link; the pages are photographed for docs/screenshots/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, TORCHJD_KEY
from tests.browser.test_accessibility import _serious, axe_source  # noqa: F401 - a fixture

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "a fine password 7"
PEOPLE = [
    ("ada", "Ada Lovelace", "Analytical Engines", "Programmer",
     "https://ada.example.org/\nhttps://github.com/ada-lovelace-notes"),
    ("grace", "Grace Hopper", "US Navy", "Rear Admiral", "https://grace.example.org/"),
    ("alan", "Alan Turing", "", "Mathematician", ""),
]  # fmt: skip


def _signed_in_context(new_context, site: str):  # noqa: ANN001, ANN202 - Playwright objects
    """ada (with a public profile, a star) signed in on a phone; grace and alan opted in and
    going, bob going without a profile."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from confsched.agenda import people
    from confsched.agenda.services import star_session
    from confsched.programme.models import Event, Session

    event = Event.objects.get()
    session = Session.objects.get(event=event, key=TORCHJD_KEY)
    for username, name, company, role, links in PEOPLE:
        user = User.objects.create_user(username, f"{username}@example.org", PASSWORD)
        people.save_profile(
            user, event, is_public=True, display_name=name, company=company, role=role,
            links=links,
        )  # fmt: skip
        star_session(user, session)
    star_session(User.objects.create_user("bob", "bob@example.org", PASSWORD), session)
    client = Client()
    client.force_login(User.objects.get(username="ada"))
    context = new_context(viewport=PHONE)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": site}])
    return context


def test_the_people_pages_on_a_phone_pass_axe_and_are_photographed(
    new_context,
    demo_live: str,
    axe_source: str,  # noqa: F811 - the fixture
) -> None:  # noqa: ANN001
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    page = _signed_in_context(new_context, site).new_page()
    shots = {
        "people-directory": demo_live + "people/",
        "people-profile": demo_live + "profile/",
        "people-going": demo_live + f"sessions/{TORCHJD_KEY}/going/",
        "account-delete": site + "/accounts/delete/?next=/pytorch-conference-europe-2026/profile/",
    }
    problems = {}
    for name, url in shots.items():
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        page.wait_for_load_state("networkidle")
        found = _serious(page, axe_source)
        if found:
            problems[name] = found
        # Nothing wider than the phone: no sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    # The profile with what a wrong form shows, checked too.
    page.goto(demo_live + "profile/")
    page.fill("#id_links", "not a link")
    page.get_by_role("button", name="Save my profile").click()
    assert page.locator("#id_links-errors").inner_text() == (
        "Links, line 1: “not a link” is not a web address starting with http:// or https://."
    )
    found = _serious(page, axe_source)
    if found:
        problems["profile with errors"] = found
    assert problems == {}


def test_htmx_puts_who_is_going_in_place_on_the_session_page(new_context, demo_live: str) -> None:  # noqa: ANN001
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    page = _signed_in_context(new_context, site).new_page()
    page.set_viewport_size(PHONE)
    page.goto(demo_live + f"sessions/{TORCHJD_KEY}/")
    going = page.locator("section.going .going-list li")
    going.first.wait_for()
    assert going.all_inner_texts() == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
    assert page.locator("section.going .going-others").inner_text() == "and 1 other"
    page.locator("section.going").screenshot(path=str(SCREENSHOTS / "people-going-in-session.png"))
    page.locator("section.going").get_by_role("link", name="Grace Hopper").click()
    page.wait_for_url("**/people/#person-*")
    assert page.locator(".person-card:target .person-name").inner_text() == "Grace Hopper"


def test_without_javascript_the_session_page_links_to_who_is_going(
    new_context, demo_live: str
) -> None:  # noqa: ANN001
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    context = _signed_in_context(new_context, site)
    context.close()
    page = new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(demo_live + f"sessions/{TORCHJD_KEY}/")
    page.get_by_role("link", name="See who is going").click()
    assert page.locator("h1").inner_text() == (
        "Who's going to “TorchJD: Jacobian Descent in PyTorch”"
    )
    assert page.locator(".going-list li").all_inner_texts() == [
        "Ada Lovelace", "Alan Turing", "Grace Hopper",
    ]  # fmt: skip
