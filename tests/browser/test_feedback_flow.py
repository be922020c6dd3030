"""On a phone: log in, open a session, rate it 4 with a comment, change it to 5; the organizers'
page and the speaker's private page; axe finds nothing serious on any of the three."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TORCHJD, TORCHJD_KEY
from tests.browser.test_accessibility import _serious
from tests.browser.test_accessibility import axe_source as axe_source  # the module's fixture
from tests.teams import on_team

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DURING = datetime(2026, 4, 7, 12, 0, tzinfo=UTC)  # 14:00 in Paris, after TorchJD's start


@pytest.mark.browser
def test_rate_a_session_then_change_it_and_read_it_as_organizer_and_speaker(
    new_context, demo_live: str, axe_source: str, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    from django.contrib.auth.models import User

    from confsched.agenda.models import Feedback
    from confsched.core import clock

    monkeypatch.setattr(clock, "now", lambda: DURING)  # the live server runs in this process
    user = User.objects.create_user("ada", "ada@example.org", "a fine password 7")
    page = new_context(viewport=PHONE).new_page()

    page.goto(demo_live + f"sessions/{TORCHJD_KEY}/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("a fine password 7")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(demo_live + f"sessions/{TORCHJD_KEY}/")
    expect(page.locator(".account .who")).to_have_text("ada")

    page.get_by_role("link", name="Rate this session").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Feedback on {TORCHJD}")
    rating = page.get_by_role("group", name="Your rating")
    rating.get_by_role("radio", name="4").check()
    page.get_by_label("Comment").fill("Clear examples; I would have liked more on the maths.")
    page.get_by_role("button", name="Send feedback").click()
    expect(page.locator("#feedback-saved")).to_contain_text(
        "Saved: you rated this session 4 out of 5"
    )
    expect(rating.get_by_role("radio", name="4")).to_be_checked()
    expect(page.get_by_label("Comment")).to_have_value(
        "Clear examples; I would have liked more on the maths."
    )

    page.get_by_role("group", name="Your rating").get_by_role("radio", name="5").check()
    page.get_by_role("button", name="Update feedback").click()
    expect(page.locator("#feedback-saved")).to_contain_text(
        "Saved: you rated this session 5 out of 5"
    )
    assert list(Feedback.objects.values_list("user__username", "rating", "comment")) == [
        ("ada", 5, "Clear examples; I would have liked more on the maths.")
    ]
    assert _serious(page, axe_source) == []
    page.screenshot(path=str(SCREENSHOTS / "feedback-phone.png"), full_page=True)

    # The organizer: figures, the chart, the comment, and a speaker's private link made.
    on_team(user, "editor")
    page.goto(demo_live + "feedback/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Feedback")
    expect(page.locator(".feedback-comment")).to_have_text(
        ["Clear examples; I would have liked more on the maths."]
    )
    page.get_by_role("button", name="Create link for Valérian Rey").click()
    link = page.get_by_label("Private link of Valérian Rey")
    speaker_url = link.input_value()
    assert re.fullmatch(re.escape(demo_live) + r"feedback/speaker/[A-Za-z0-9_-]{43}/", speaker_url)
    assert _serious(page, axe_source) == []
    page.screenshot(path=str(SCREENSHOTS / "feedback-staff.png"), full_page=True)

    # The speaker, signed out: only their own session, no names.
    speaker_page = new_context(viewport=PHONE).new_page()
    speaker_page.goto(speaker_url)
    expect(speaker_page.get_by_role("heading", level=1)).to_have_text("Feedback for Valérian Rey")
    expect(speaker_page.get_by_role("heading", level=2)).to_have_text([TORCHJD])
    expect(speaker_page.locator(".feedback-comment")).to_have_text(
        ["Clear examples; I would have liked more on the maths."]
    )
    expect(speaker_page.locator("main")).not_to_contain_text("ada")
    assert _serious(speaker_page, axe_source) == []
    speaker_page.screenshot(path=str(SCREENSHOTS / "feedback-speaker.png"), full_page=True)
