"""axe-core (the npm package, installed by `make axe`) finds no serious or critical violation on
any page, at desktop and phone widths, the API docs included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, TORCHJD_KEY
from tests.conftest import unavailable

AXE = (
    Path(__file__).resolve().parents[2] / "var" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
)

PAGES = [
    "", "grid/", "?track=training-systems&q=torch", "grid/?date=2026-04-08",
    f"sessions/{TORCHJD_KEY}/", "speakers/", "speakers/valerian-rey/", "agenda/", "changes/",
    "zones/", "now/", "embed/", "print/", "print/2026-04-07/",
]  # fmt: skip
SITE_PAGES = ["/", "/about/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
              "/api/v1/docs"]  # fmt: skip


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        unavailable(f"axe-core is not at {AXE} (run: make axe)", "CONFSCHED_REQUIRE_BROWSER")
    return AXE.read_text()


def _serious(page, source: str) -> list[str]:  # noqa: ANN001 - a Playwright page
    page.evaluate(source)  # evaluated by the browser's debugger protocol: CSP does not apply
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target)}))"
    )
    return [json.dumps(v) for v in found]


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_no_serious_violation_on_any_page(
    new_context, demo_live: str, axe_source: str, width: str
) -> None:  # noqa: ANN001
    context = new_context(viewport=PHONE) if width == "phone" else new_context()
    page = context.new_page()
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    problems = {}
    for url in [demo_live + path for path in PAGES] + [site + path for path in SITE_PAGES]:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        page.wait_for_load_state("networkidle")
        found = _serious(page, axe_source)
        if found:
            problems[url.removeprefix(site)] = found
    assert problems == {}
