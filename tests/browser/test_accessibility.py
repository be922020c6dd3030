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
    "?q=nothing-matches-this", f"sessions/{TORCHJD_KEY}/", "speakers/", "speakers/valerian-rey/",
    "agenda/", "agenda/favourites/", "changes/", "zones/", "now/", "plan/", "search/?q=torch",
    "embed/", "print/", "print/2026-04-07/",
]  # fmt: skip
SITE_PAGES = ["/", "/about/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
              "/accounts/password/reset/sent/", "/accounts/password/reset/done/",
              "/api/v1/docs"]  # fmt: skip
ERROR_PAGES = {"sessions/no-such-session/": 404, "?tz=Nowhere/Atlantis": 400}
# A signed-in attendee with stars: their agenda and its shared page, their grid, the password
# pages.
SIGNED_IN_PAGES = ["agenda/", "grid/", f"sessions/{TORCHJD_KEY}/", "plan/"]
SIGNED_IN_SITE_PAGES = ["/accounts/password/change/", "/accounts/password/change/done/"]


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


def _problems(page, urls: dict[str, int], source: str, site: str) -> dict[str, list[str]]:  # noqa: ANN001
    problems = {}
    # The search page loads the search-by-meaning model on its first request, which on a busy
    # two-core machine took longer than the usual ten seconds: this test is about access.
    page.set_default_navigation_timeout(60_000)
    for url, status in urls.items():
        response = page.goto(url)
        assert response is not None and response.status == status, url
        page.wait_for_load_state("networkidle")
        found = _serious(page, source)
        if found:
            problems[url.removeprefix(site)] = found
    return problems


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_no_serious_violation_on_any_page(
    new_context, demo_live: str, axe_source: str, width: str
) -> None:  # noqa: ANN001
    context = new_context(viewport=PHONE) if width == "phone" else new_context()
    page = context.new_page()
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    urls = {demo_live + path: 200 for path in PAGES} | {site + path: 200 for path in SITE_PAGES}
    urls |= {demo_live + path: status for path, status in ERROR_PAGES.items()}
    assert _problems(page, urls, axe_source, site) == {}


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_no_serious_violation_on_the_pages_of_a_signed_in_attendee(
    new_context, demo_live: str, axe_source: str, width: str
) -> None:  # noqa: ANN001
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    user = User.objects.create_user("ada", "ada@example.org", "a fine password 7")
    client = Client()
    client.force_login(user)
    base = "/" + demo_live.split("/", 3)[3]
    client.post(f"{base}sessions/{TORCHJD_KEY}/star", {"starred": "1", "next": base})
    client.post(f"{base}agenda/share", {"share": "on"})
    context = new_context(viewport=PHONE) if width == "phone" else new_context()
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": site}])
    page = context.new_page()
    page.goto(demo_live + "agenda/")
    shared = page.locator("#agenda-share-url").input_value()
    urls = {demo_live + path: 200 for path in SIGNED_IN_PAGES}
    urls |= {site + path: 200 for path in SIGNED_IN_SITE_PAGES} | {shared: 200}
    assert _problems(page, urls, axe_source, site) == {}
