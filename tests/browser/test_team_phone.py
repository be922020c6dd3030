"""The team page on a 375 px phone: the owner opens it from the header's Organizers menu,
invites by email, changes a member's role and removes one; axe-core finds nothing serious on
the page or on the invitation's page; nothing is wider than the screen. With
CONFSCHED_SCREENSHOTS=1: docs/screenshots/team-phone.png and organizers-menu-phone.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, signed_in
from tests.browser.test_accessibility import _serious, axe_source  # noqa: F401 - the fixture
from tests.browser.test_seats_flow import _shot


def _no_wider_than_the_screen(page) -> None:  # noqa: ANN001 - a Playwright page
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.browser
def test_an_owner_manages_the_team_on_a_phone(
    new_context,
    demo_live: str,
    axe_source: str,  # noqa: F811 - the fixture
) -> None:  # noqa: ANN001
    from django.contrib.auth.models import User
    from django.core import mail

    from confsched.teams.models import TeamMember
    from tests.teams import on_team

    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    context = new_context(viewport=PHONE)
    signed_in(context, site, "boss", role="owner")
    on_team(User.objects.create_user("bob", "bob@example.org"), "viewer")
    page = context.new_page()
    page.goto(demo_live)
    page.locator(".staff-menu summary").click()
    _shot(page, "organizers-menu-phone")
    page.get_by_role("link", name="Team", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Team")
    assert _serious(page, axe_source) == []
    _no_wider_than_the_screen(page)

    page.get_by_role("textbox", name="Email").fill("new@example.org")
    page.get_by_label("Check-in: the check-in pages only").check()
    page.get_by_role("button", name="Send the invitation").click()
    expect(page.locator(".seat-note")).to_have_text(
        "Invitation mailed to new@example.org (check-in); the link works for 7 days."
    )
    assert mail.outbox[0].to == ["new@example.org"]

    page.get_by_label("Role of bob").select_option("editor")
    page.locator("li", has_text="bob@example.org").get_by_role("button", name="Change").click()
    expect(page.locator(".seat-note")).to_have_text("bob is now editor.")
    _shot(page, "team-phone", full_page=True)
    page.get_by_role("button", name="Remove bob").click()
    expect(page.locator(".seat-note")).to_have_text("bob is no longer in the team.")
    assert list(TeamMember.objects.values_list("user__username", flat=True)) == ["boss"]
    assert _serious(page, axe_source) == []
    _no_wider_than_the_screen(page)

    # The invitation's page, for the person it was mailed to.
    link = next(line for line in mail.outbox[0].body.splitlines() if "/team/join/" in line)
    newcomer = new_context(viewport=PHONE)
    signed_in(newcomer, site, "new")
    joining = newcomer.new_page()
    joining.goto(link)
    expect(joining.get_by_role("heading", level=1)).to_have_text(
        "Join the team of PyTorch Conference Europe 2026"
    )
    assert _serious(joining, axe_source) == []
    joining.get_by_role("button", name="Accept").click()
    expect(joining.get_by_role("heading", level=1)).to_have_text("Check-in")
