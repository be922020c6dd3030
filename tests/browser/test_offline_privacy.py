"""A shared phone: the offline copy and the stars kept offline belong to one person only.

The event's service worker keeps pages (each shows who is signed in, their stars) and stars
made offline. After a log-out, or when the next person is signed in without one, neither the
pages nor the stars of the person before may reach them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import TORCHJD_KEY
from tests.browser.test_offline import KEPT, WORKER_READY

# Names of this origin's IndexedDB databases and caches (reading them creates nothing).
STORAGE = """async () => ({
  databases: (await indexedDB.databases()).map((d) => d.name).sort(),
  caches: (await caches.keys()).sort(),
})"""

# The stars kept for sending; 0 when the outbox is not there at all.
KEPT_STARS = """() => indexedDB.databases().then((dbs) => {
  const name = "confsched:pytorch-conference-europe-2026:outbox";
  if (!dbs.some((d) => d.name === name)) { return 0; }
  return new Promise((resolve) => {
    const opening = indexedDB.open(name);
    opening.onsuccess = () => {
      const reading = opening.result.transaction("stars").objectStore("stars").count();
      reading.onsuccess = () => { resolve(reading.result); opening.result.close(); };
    };
  });
})"""

# Resolves once the worker keeps pages for one person only, the visitor: what it does when
# the server names someone else than the person whose copy it kept.
ONLY_VISITOR_COPY = """() => new Promise((resolve) => {
  const look = () => caches.keys().then((names) => {
    const pages = names.filter((n) => n.includes("/"));
    if (pages.length === 1 && pages[0].endsWith("/visitor")) { resolve(true); } else { setTimeout(look, 50); }
  });
  look();
})"""


@pytest.fixture
def page(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    return new_context(service_workers="allow").new_page()


def _sign_in(page, live_server, username: str) -> object:  # noqa: ANN001 - Playwright, pytest
    """A new account, signed in in this browser (its session cookie set)."""
    from django.contrib.auth.models import User
    from django.test import Client

    user = User.objects.create_user(username, password=f"pw-{username}-4321")
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    return user


def _stars_of(user) -> list[str]:  # noqa: ANN001 - a User
    from confsched.agenda.models import AgendaItem

    return sorted(AgendaItem.objects.filter(user=user).values_list("session__key", flat=True))


def _alice_reads_offline(page, demo_live: str, live_server) -> object:  # noqa: ANN001
    """Alice signs in, and her schedule, session page and agenda are read under the worker."""
    alice = _sign_in(page, live_server, "alice")
    page.goto(demo_live)
    page.wait_for_function(WORKER_READY)
    page.reload()  # controlled: this page and the next are kept, in Alice's copy
    expect(page.locator(".account .who")).to_have_text("alice")
    page.goto(f"{demo_live}sessions/{TORCHJD_KEY}/")
    page.goto(f"{demo_live}agenda/")
    expect(page.locator(".account .who")).to_have_text("alice")
    page.wait_for_function(KEPT, arg="/pytorch-conference-europe-2026/agenda/")
    return alice


def _offline_page(page, url: str) -> str | None:  # noqa: ANN001 - a Playwright page
    """What the page's worker answers for `url` offline, or None: no copy (a network error)."""
    return page.evaluate(
        """(url) => fetch(url, { headers: { Accept: "text/html" } })
          .then((response) => response.text()).catch(() => null)""",
        url,
    )


@pytest.mark.browser
def test_after_log_out_offline_shows_no_page_of_the_person_before(
    page,
    demo_live,
    live_server,  # noqa: ANN001
) -> None:
    _alice_reads_offline(page, demo_live, live_server)
    page.goto(demo_live)
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    # The log-out cleared the copy; the page the browser came back to keeps a new one.
    page.wait_for_function(WORKER_READY)
    page.wait_for_function(ONLY_VISITOR_COPY)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-copy]")).to_be_visible()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert "alice" not in page.content()
    assert _offline_page(page, f"{demo_live}agenda/") is None
    assert _offline_page(page, f"{demo_live}sessions/{TORCHJD_KEY}/") is None


@pytest.mark.browser
def test_a_skipped_log_out_never_shows_the_copy_of_the_person_before(
    page,
    demo_live,
    live_server,  # noqa: ANN001
) -> None:
    """Alice's session ends without a log-out (expired, or ended in another browser): the next
    page names nobody, and from then on offline shows no page of hers."""
    _alice_reads_offline(page, demo_live, live_server)
    page.context.clear_cookies()
    page.goto(demo_live)
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    page.wait_for_function(ONLY_VISITOR_COPY)

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-copy]")).to_be_visible()
    assert "alice" not in page.content()
    assert _offline_page(page, f"{demo_live}sessions/{TORCHJD_KEY}/") is None


@pytest.mark.browser
def test_no_store_pages_are_never_kept(page, demo_live, live_server) -> None:  # noqa: ANN001
    _alice_reads_offline(page, demo_live, live_server)
    page.goto(f"{demo_live}plan/")
    assert "no-store" in page.request.get(f"{demo_live}plan/").headers["cache-control"]
    kept = page.evaluate(
        """async () => {
          const urls = [];
          for (const name of await caches.keys()) {
            for (const r of await (await caches.open(name)).keys()) { urls.push(new URL(r.url).pathname); }
          }
          return urls.filter((u) => !u.startsWith("/static/") && !u.endsWith(".json")).sort();
        }"""
    )
    path = "/pytorch-conference-europe-2026/"
    # The agenda is kept as its copy without secrets (asked for apart), never as it was shown.
    assert kept == [
        path, path + "agenda/", path + "grid/", path + f"sessions/{TORCHJD_KEY}/", path + "speakers/",
    ]  # fmt: skip
    agenda = page.evaluate(
        """async () => {
          for (const name of await caches.keys()) {
            const copy = await (await caches.open(name)).match(location.origin + "/pytorch-conference-europe-2026/agenda/");
            if (copy) {
              const text = await new Response(copy.body.pipeThrough(new DecompressionStream("gzip"))).text();
              return { perPerson: name.includes("/"), feed: text.includes(".ics"), alerts: text.includes(".atom"), h1: text.includes("<h1>My agenda</h1>") };
            }
          }
          return null;
        }"""
    )
    assert agenda == {"perPerson": True, "feed": False, "alerts": False, "h1": True}


def _star_offline(page, demo_live: str) -> None:  # noqa: ANN001 - a Playwright page
    page.context.set_offline(True)
    page.goto(f"{demo_live}sessions/{TORCHJD_KEY}/")
    star = page.locator("main button.star").first
    star.click()
    expect(star).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(KEPT_STARS) == 1


@pytest.mark.browser
def test_a_star_kept_offline_is_never_sent_as_the_next_person(
    new_context,
    demo_live,
    live_server,  # noqa: ANN001
) -> None:
    """Alice stars offline and leaves; her session ends; Bob signs in on the same browser.
    Her star is not sent under his account (nor under hers: she is no longer signed in)."""
    from django.contrib.auth.models import User

    context = new_context(service_workers="allow")
    page = context.new_page()
    alice = _alice_reads_offline(page, demo_live, live_server)
    _star_offline(page, demo_live)
    page.close()
    context.set_offline(False)
    context.clear_cookies()

    bob = User.objects.create_user("bob", password="pw-bob-4321")
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/pytorch-conference-europe-2026/")
    page.get_by_label("Username").fill("bob")
    page.get_by_label("Password").fill("pw-bob-4321")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".account .who")).to_have_text("bob")
    page.wait_for_function(f"() => ({KEPT_STARS})().then((n) => n === 0)")
    page.goto(f"{demo_live}agenda/")
    expect(page.locator(".account .who")).to_have_text("bob")
    assert (_stars_of(bob), _stars_of(alice)) == ([], [])


@pytest.mark.browser
def test_log_out_drops_the_stars_kept_offline(page, demo_live, live_server) -> None:  # noqa: ANN001
    alice = _alice_reads_offline(page, demo_live, live_server)
    _star_offline(page, demo_live)
    # Back online, the star cannot get through before Alice logs out.
    page.context.route(f"**/sessions/{TORCHJD_KEY}/star", lambda route: route.abort())
    page.context.set_offline(False)
    page.goto(demo_live)
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    page.context.unroute(f"**/sessions/{TORCHJD_KEY}/star")
    assert (
        "confsched:pytorch-conference-europe-2026:outbox" not in page.evaluate(STORAGE)["databases"]
    )
    assert _stars_of(alice) == []
