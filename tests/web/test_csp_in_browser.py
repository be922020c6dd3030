"""The Content-Security-Policy breaks nothing: a real browser reports no violation anywhere.

Headless Chromium (fixtures from tests/browser) opens the public pages, the account pages, the
Django admin and the API docs, and counts every `securitypolicyviolation` the policy raises.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import browser, demo_live, new_context  # noqa: F401 - fixtures
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.browser

TORCHJD_KEY = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
# Recorded before any page script runs; injected by the browser, so the policy does not apply.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push(e.effectiveDirective + " " + (e.blockedURI || "inline"));
});
"""


def _visit(page, url: str, ready: str) -> list[str]:  # noqa: ANN001 - a Playwright page
    page.goto(url)
    expect(page.locator(ready).first).to_be_visible()
    return page.evaluate("window.cspViolations")


def test_public_pages_run_htmx_and_our_script_without_violations(new_context, demo_live) -> None:  # noqa: ANN001, F811
    context = new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    found = {}
    for path, ready in [
        ("", "#results .card-title"),
        ("grid/", "table.grid"),
        (f"sessions/{TORCHJD_KEY}/", "h1"),
        ("speakers/", "h1"),
        ("agenda/", "h1"),
        ("changes/", "h1"),
        ("?tz=Europe", "h1"),
    ]:
        found[path] = _visit(page, demo_live + path, ready)
    page.goto(demo_live)
    page.locator("#f-track-training-systems").check()  # htmx swaps the results in
    expect(page.locator("p.summary")).to_have_text("Showing 6 of 28 sessions.")
    expect(page.locator("[data-copy='#share-url']")).not_to_have_attribute(
        "hidden", ""
    )  # app.js ran after the swap
    found["htmx"] = page.evaluate("window.cspViolations")
    assert found == {path: [] for path in found}


def test_account_pages_admin_and_api_docs_without_violations(new_context, demo_live) -> None:  # noqa: ANN001, F811
    from django.contrib.auth.models import User

    from confsched.programme.models import Session

    User.objects.create_superuser("root", "root@example.org", "a long enough password 42")
    session_pk = Session.objects.get(key=TORCHJD_KEY).pk
    site = demo_live.removesuffix(f"/{DEMO_SLUG}/")
    context = new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    found = {
        "signup": _visit(page, site + "/accounts/signup/", "#id_username"),
        "login": _visit(page, site + "/admin/login/", "#id_username"),
    }
    page.fill("#id_username", "root")
    page.fill("#id_password", "a long enough password 42")
    page.click("input[type=submit]")
    expect(page.locator("#site-name")).to_be_visible()
    found["admin"] = page.evaluate("window.cspViolations")
    for name, path, ready in [
        ("sessions", "/admin/programme/session/", "#result_list"),
        ("session", f"/admin/programme/session/{session_pk}/change/", ".select2-container"),
        ("new event", "/admin/programme/event/add/", "#id_slug"),
        ("api docs", "/api/v1/docs", ".swagger-ui .info .title"),
    ]:
        found[name] = _visit(page, site + path, ready)
    # The slug is filled in from the name by the admin's own script.
    page.goto(site + "/admin/programme/event/add/")
    page.locator("#id_name").press_sequentially("Py Con")
    expect(page.locator("#id_slug")).to_have_value("py-con")
    found["prepopulated"] = page.evaluate("window.cspViolations")
    assert found == {name: [] for name in found}


def test_the_api_docs_try_an_operation_without_violations(new_context, demo_live) -> None:  # noqa: ANN001, F811
    site = demo_live.removesuffix(f"/{DEMO_SLUG}/")
    context = new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    _visit(page, site + "/api/v1/docs", ".swagger-ui .info .title")
    page.locator(".opblock-summary-path", has_text="/api/v1/events").first.click()
    page.get_by_role("button", name="Try it out").click()
    page.get_by_role("button", name="Execute").click()
    expect(page.locator(".live-responses-table tbody .response-col_status")).to_have_text("200")
    assert page.evaluate("window.cspViolations") == []
