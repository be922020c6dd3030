"""The planner in the browser: choose a track, see a plan without clashes, take it."""

from __future__ import annotations

from datetime import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE

TRAINING_TITLES = [
    "Training Embedding Model Resiliently for Multimodal Model Inference Routing",
    "TorchJD: Jacobian Descent in PyTorch",
    "Bringing Google’s Colossus to PyTorch: Rapid Storage via fsspec to Keep GPUs Busy",
    "Jigsaw: Domain and Tensor Parallelism for High-Resolution Input Training",
    "Optimizing Reinforcement Learning at Trillion-Parameter Scale",
]


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_plan_a_track_and_take_it(new_context, demo_live, viewport) -> None:  # noqa: ANN001
    page = new_context(viewport=viewport).new_page()
    page.goto(demo_live + "agenda/")
    page.get_by_role("link", name="Plan a clash-free agenda from what you care about").click()
    page.get_by_label("Training Systems").check()
    page.get_by_role("button", name="Plan my agenda").click()

    expect(page.locator("#plan-summary")).to_have_text(
        "5 sessions with no overlaps, 5 not starred yet."
    )
    titles = page.locator(".plan-entry .card-title")
    expect(titles).to_have_text(TRAINING_TITLES)
    # No two proposed sessions overlap, read from the page's own times.
    times = page.eval_on_selector_all(
        ".plan-entry .when",
        "ws => ws.map(w => [...w.querySelectorAll('time')].map(t => t.dateTime))",
    )
    spans = sorted((datetime.fromisoformat(a), datetime.fromisoformat(b)) for a, b in times)
    assert all(first[1] <= second[0] for first, second in zip(spans, spans[1:], strict=False))

    page.get_by_role("button", name="Star all of these").click()
    expect(page.locator("#plan-summary")).to_have_text(
        "5 sessions with no overlaps, 0 not starred yet."
    )
    page.get_by_role("link", name="My agenda", exact=True).first.click()
    expect(page.locator("p.summary")).to_have_text("5 sessions.")
    expect(page.locator(".agenda-entry .card-title")).to_have_text(TRAINING_TITLES)
