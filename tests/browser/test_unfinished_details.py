"""Details a first-time user hit at 375 and 1280 px (issue 14, item 36): the print index fits a
phone, and the admin's Stars column shows at 1280 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE

PASSWORD = "a fine password 7"


@pytest.mark.browser
def test_the_print_index_fits_a_phone(new_context, demo_live):  # noqa: ANN001
    page = new_context(viewport=PHONE).new_page()
    page.goto(demo_live + "print/")
    expect(page.locator("table.print-days tbody tr")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]


@pytest.mark.browser
def test_the_admin_shows_each_sessions_stars_at_1280_px(new_context, demo_live, live_server):  # noqa: ANN001
    from django.contrib.auth.models import User

    User.objects.create_superuser("org", "org@example.org", PASSWORD)
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{live_server.url}/admin/login/?next=/admin/programme/session/")
    page.get_by_label("Username").fill("org")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    header = page.locator("#result_list thead th", has_text="Stars")
    expect(header).to_have_count(1)
    box = header.bounding_box()
    assert box["x"] + box["width"] <= 1280
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
