"""The draft page of an editor, its warning that attendees' programme changed behind the draft
shown: axe-core finds no serious or critical violation, at desktop and phone widths."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.browser.conftest import PHONE, TORCHJD_KEY, signed_in
from tests.browser.test_accessibility import AXE, _problems
from tests.conftest import unavailable


@pytest.fixture(scope="module")
def axe() -> str:
    if not AXE.exists():
        unavailable(f"axe-core is not at {AXE} (run: make axe)", "CONFSCHED_REQUIRE_BROWSER")
    return AXE.read_text()


def draft_behind_the_public(demo_live: str) -> None:
    """A draft with a move of its own, then a public retitle the draft lacks."""
    from confsched.programme.models import Event
    from confsched.programme.services import load_programme, snapshot, start_draft

    event = Event.objects.get()
    draft = start_draft(event)
    moved = snapshot(draft)
    moved.sessions = [
        replace(s, room="Founders Cafe") if s.key == TORCHJD_KEY else s for s in moved.sessions
    ]
    load_programme(draft, moved, source="edit by test")
    public = snapshot(event)
    public.sessions = [
        replace(s, title="TorchJD, renamed") if s.key == TORCHJD_KEY else s for s in public.sessions
    ]
    load_programme(event, public, source="import: late.xml")


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_no_serious_violation_on_the_draft_page(
    new_context, demo_live: str, axe: str, width: str
) -> None:  # noqa: ANN001
    draft_behind_the_public(demo_live)
    context = new_context(viewport=PHONE) if width == "phone" else new_context()
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    signed_in(context, site, "boss", role="editor")
    page = context.new_page()
    page.goto(demo_live + "draft/")
    assert page.locator("#draft-since-title").inner_text() == (
        "Attendees' programme changed since the draft"
    )
    assert _problems(page, {demo_live + "draft/": 200}, axe, site) == {}
