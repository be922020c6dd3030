"""The schedule editor in a browser: on a desktop a session card dragged onto another room and
time shows the check (a room already taken) before anything is saved, and "Save anyway" saves
it; its lower edge dragged down asks for a longer length (checked, then cancelled); on a phone without JavaScript the session's form moves it (Check, then Save). axe-core
finds nothing serious on the editor. With CONFSCHED_SCREENSHOTS=1: docs/screenshots/
editor-desktop.png (the check after a drop) and editor-phone.png (the form)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in
from tests.browser.test_accessibility import _serious, axe_source  # noqa: F401 - the fixture
from tests.browser.test_seats_flow import _shot
from tests.conftest import DEMO_SLUG

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
PARIS = ZoneInfo("Europe/Paris")
PHONE_390 = {"width": 390, "height": 844}


def _draft_row(key: str):  # noqa: ANN202 - a Session
    from confsched.programme.models import Event, Session

    draft = Event.with_drafts.get(draft_of__slug=DEMO_SLUG)
    return Session.objects.select_related("room").get(event=draft, key=key)


def _start_draft() -> None:
    from confsched.programme.models import Event
    from confsched.programme.services import start_draft

    start_draft(Event.objects.get(slug=DEMO_SLUG))


@pytest.mark.browser
def test_a_drop_shows_the_problem_then_saves_it(
    new_context,
    demo_live: str,
    axe_source: str,  # noqa: F811 - the fixture
) -> None:  # noqa: ANN001
    _start_draft()
    context = new_context()
    signed_in(context, demo_live.split(f"/{DEMO_SLUG}/")[0], "boss", role="editor")
    page = context.new_page()
    page.goto(demo_live + "draft/edit/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Schedule editor")
    assert _serious(page, axe_source) == []

    # Helion holds the Master Stage from 11:00: drop TorchJD there.
    target = page.locator(
        'tr[data-day="2026-04-07"][data-start="11:00"] td[data-room="Master Stage"]'
    )
    page.locator(f"#s-{TORCHJD}").drag_to(target)
    panel = page.locator("#editor-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".editor-check-head")).to_have_text("1 problem there:")
    expect(panel.locator(".problem")).to_have_text(
        "Master Stage holds “Helion 1.0: A High-Level DSL for Performance Portable Kernels” "
        "then (Tue 7 Apr 11:00–11:25)"
    )
    expect(panel.locator(".editor-check-where")).to_have_text(
        "Tuesday 7 April, 11:00–11:10, Master Stage"
    )
    row = _draft_row(TORCHJD)
    assert (row.room.name, row.starts_at) == (
        "Founders Cafe",
        datetime(2026, 4, 7, 11, 45, tzinfo=PARIS),
    )
    assert _serious(page, axe_source) == []
    _shot(page, "editor-desktop")

    panel.get_by_role("button", name="Save anyway").click()
    expect(page.locator(".editor-done")).to_have_text("Saved in the draft.")
    expect(page.locator(f'td[data-room="Master Stage"] #s-{TORCHJD}')).to_have_count(1)
    row = _draft_row(TORCHJD)
    assert (row.room.name, row.starts_at, row.ends_at) == (
        "Master Stage",
        datetime(2026, 4, 7, 11, 0, tzinfo=PARIS),
        datetime(2026, 4, 7, 11, 10, tzinfo=PARIS),
    )

    # Its lower edge dragged down two grid steps (1.5rem each): ten minutes longer, checked.
    handle = page.locator(f"#s-{TORCHJD} [data-editor-resize]")
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + 24, steps=4)
    page.mouse.move(x, y + 48, steps=4)
    expect(handle).to_have_text("→ 11:20")
    page.mouse.up()
    expect(panel.locator(".editor-check-where")).to_have_text(
        "Tuesday 7 April, 11:00–11:20, Master Stage"
    )
    panel.get_by_role("button", name="Cancel").click()
    expect(panel).to_be_hidden()
    assert _draft_row(TORCHJD).ends_at == datetime(2026, 4, 7, 11, 10, tzinfo=PARIS)


@pytest.mark.browser
def test_the_form_moves_a_session_on_a_phone_without_javascript(
    new_context, demo_live: str
) -> None:  # noqa: ANN001
    _start_draft()
    context = new_context(viewport=PHONE_390, java_script_enabled=False)
    signed_in(context, demo_live.split(f"/{DEMO_SLUG}/")[0], "boss", role="editor")
    page = context.new_page()
    page.goto(demo_live + "draft/edit/")
    page.locator(f"#s-{TORCHJD} a").click()
    expect(page.locator("#edit-heading")).to_have_text(
        "Edit “TorchJD: Jacobian Descent in PyTorch”"
    )
    expect(page.locator(".editor-now")).to_have_text(
        "Now: Tuesday 7 April, 11:45–11:55, Founders Cafe."
    )
    form = page.locator("#edit .editor-form")
    form.get_by_label("Start").fill("08:00")
    form.get_by_label("End", exact=True).fill("08:25")
    form.get_by_label("Room").select_option("Central Room")
    form.get_by_role("button", name="Check").click()
    expect(page.locator(".editor-check-head")).to_contain_text("No problem there")
    assert _draft_row(TORCHJD).room.name == "Founders Cafe"  # checked, not saved
    _shot(page, "editor-phone", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
    page.locator(".editor-confirm").get_by_role("button", name="Save").click()
    expect(page.locator(".editor-done")).to_have_text("Saved in the draft.")
    expect(page.locator(".editor-now")).to_have_text(
        "Now: Tuesday 7 April, 08:00–08:25, Central Room."
    )
    row = _draft_row(TORCHJD)
    assert (row.room.name, row.starts_at) == ("Central Room", datetime(2026, 4, 7, 8, tzinfo=PARIS))
