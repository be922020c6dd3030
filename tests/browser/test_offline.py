"""The phone in the hallway: the schedule read offline, a star made offline arrives later."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, TORCHJD, TORCHJD_KEY

# Playwright polls a wait_for_function predicate by calling it again, and it evaluates a bare
# expression anew on each call with eval, which the pages' Content-Security-Policy forbids: so
# every predicate here is a function. One that returns a promise is waited for once, and its
# value is the answer: these promises resolve only once the awaited state has come.

# The worker is active and controls this page (it claims open pages when it activates).
WORKER_READY = """() => navigator.serviceWorker.ready.then(() => new Promise((resolve) => {
  if (navigator.serviceWorker.controller) { resolve(true); return; }
  navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
}))"""

# Resolves once the worker's caches hold a copy of `path` (a page, or the JSON export).
KEPT = """(path) => new Promise((resolve) => {
  const look = async () => {
    for (const name of await caches.keys()) {
      const found = (await (await caches.open(name)).keys()).some((r) => new URL(r.url).pathname === path);
      if (found) { resolve(true); return; }
    }
    setTimeout(look, 50);
  };
  look();
})"""


OUTBOX = """() => new Promise((resolve) => {
  const opening = indexedDB.open("confsched:pytorch-conference-europe-2026:outbox", 1);
  opening.onsuccess = () => {
    const reading = opening.result.transaction("stars").objectStore("stars").count();
    reading.onsuccess = () => { resolve(reading.result); opening.result.close(); };
  };
})"""

# Resolves when the worker has sent every kept star (it empties the outbox after each answer).
OUTBOX_EMPTY = f"""() => new Promise((resolve) => {{
  const look = () => ({OUTBOX})().then((count) => count === 0 ? resolve(true) : setTimeout(look, 50));
  look();
}})"""


def _outbox_size(page) -> int:  # noqa: ANN001 - a Playwright page
    return page.evaluate(OUTBOX)


def _kept_urls(page) -> list[str]:  # noqa: ANN001 - a Playwright page
    return page.evaluate(
        """async () => {
          const names = (await caches.keys()).filter((n) => n.startsWith("confsched:"));
          const urls = [];
          for (const name of names) {
            for (const r of await (await caches.open(name)).keys()) { urls.push(new URL(r.url).pathname); }
          }
          return urls.sort();
        }"""
    )


@pytest.fixture
def page(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    """A desktop page whose service worker runs (the other browser tests block it)."""
    return new_context(service_workers="allow").new_page()


@pytest.mark.browser
def test_read_offline_star_offline_and_the_star_arrives(page, demo_live) -> None:  # noqa: ANN001
    session_url = f"{demo_live}sessions/{TORCHJD_KEY}/"
    page.goto(demo_live)
    page.wait_for_function(WORKER_READY)
    page.reload()  # now controlled: this load and the session page below are kept
    page.goto(session_url)
    expect(page.locator("h1")).to_contain_text(TORCHJD)
    path = re.sub(r"^https?://[^/]+", "", demo_live)
    # The worker keeps a page once it has answered with it: on a busy machine, a moment later.
    page.wait_for_function(
        """async (wanted) => {
          for (const name of await caches.keys()) {
            if (await (await caches.open(name)).match(wanted)) { return true; }
          }
          return false;
        }""",
        arg=path + f"sessions/{TORCHJD_KEY}/",
        timeout=15_000,
    )
    kept = _kept_urls(page)
    for wanted in ("", "grid/", "speakers/", f"sessions/{TORCHJD_KEY}/"):
        assert path + wanted in kept
    assert "/static/confsched/app.css" in kept

    page.context.set_offline(True)
    page.reload()
    banner = page.locator("[data-offline-copy]")
    expect(banner).to_contain_text("Offline copy from ")
    expect(page.locator("h1")).to_contain_text(TORCHJD)
    page.get_by_role("link", name="Schedule", exact=True).first.click()
    expect(page.locator("[data-offline-copy]")).to_be_visible()

    page.goto(session_url)
    star = page.locator("main button.star").first
    expect(star).to_have_attribute("aria-pressed", "false")
    star.click()
    expect(page.locator("main button.star").first).to_have_attribute("aria-pressed", "true")
    expect(page.locator("main button.star .visually-hidden").first).to_have_text(
        f"Starred: remove “{TORCHJD}” from my agenda"
    )
    # Offline still: a reload draws the copy's page with the star kept for sending.
    page.reload()
    expect(page.locator("main button.star").first).to_have_attribute("aria-pressed", "true")

    assert _outbox_size(page) == 1
    page.context.set_offline(False)  # the page hears "online" and the worker sends the star
    page.wait_for_function(OUTBOX_EMPTY)
    page.goto(demo_live + "agenda/")
    expect(page.locator("[data-offline-copy]")).to_have_count(0)
    expect(page.locator(".agenda-entry .card-title")).to_have_text([TORCHJD])


@pytest.mark.browser
def test_a_star_whose_first_sending_fails_is_sent_again(page, demo_live) -> None:  # noqa: ANN001
    """Back online, the worker's first try fails (the Wi-Fi is not really back yet): the page
    asks it again a moment later, and the star arrives without another click or page load."""
    page.goto(demo_live)
    page.wait_for_function(WORKER_READY)
    page.reload()
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-copy]")).to_be_visible()
    star = page.locator(f"main button.star[formaction$='/sessions/{TORCHJD_KEY}/star']")
    star.click()
    expect(star).to_have_attribute("aria-pressed", "true")
    assert _outbox_size(page) == 1

    tries = []

    def first_fails(route) -> None:  # noqa: ANN001 - a Playwright route
        tries.append(route.request.method)
        if len(tries) == 1:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.context.route(f"**/sessions/{TORCHJD_KEY}/star", first_fails)
    page.context.set_offline(False)
    page.wait_for_function(OUTBOX_EMPTY)
    assert tries == ["POST", "POST"]
    assert _visitor_stars(page) == [TORCHJD_KEY]
    expect(page.locator("[data-offline-status]")).to_have_text("1 star made offline was saved.")


@pytest.mark.browser
def test_a_star_whose_answer_the_front_lost_is_kept_and_sent_again_once(page, demo_live) -> None:  # noqa: ANN001
    """Online under the worker: the app saved the star, but the front answered 502 (its host
    went away before answering). The worker keeps the star and shows it starred; sent again
    a moment later, it is still one star."""
    page.goto(demo_live)
    page.wait_for_function(WORKER_READY)
    page.reload()
    given = []

    def first_answer_lost(route) -> None:  # noqa: ANN001 - a Playwright route
        answer = route.fetch()
        given.append(answer.status)
        if len(given) == 1:
            route.fulfill(status=502, body="Bad Gateway")
        else:
            route.fulfill(response=answer)

    page.context.route(f"**/sessions/{TORCHJD_KEY}/star", first_answer_lost)
    star = page.locator(f"main button.star[formaction$='/sessions/{TORCHJD_KEY}/star']")
    star.click()
    expect(star).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(OUTBOX_EMPTY)
    assert given == [200, 200]
    assert _visitor_stars(page) == [TORCHJD_KEY]


TOUR_KEY = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"


def _visitor_stars(page) -> list[str]:  # noqa: ANN001 - a Playwright page
    """The keys of the sessions the server holds in this browser's visitor session."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    from confsched.programme.models import Event, Session
    from confsched.web.agenda.stars import starred_ids

    cookie = next(c for c in page.context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME)
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(cookie["value"])
    event = Event.objects.get(slug="pytorch-conference-europe-2026")
    ids = starred_ids(request, event)
    return sorted(Session.objects.filter(pk__in=ids).values_list("key", flat=True))


@pytest.mark.browser
def test_stars_made_online_under_the_worker_reach_the_server_at_once(page, demo_live) -> None:  # noqa: ANN001
    page.goto(demo_live)
    page.wait_for_function(WORKER_READY)  # the worker answers this page's star requests
    wanted = []
    for key in (TORCHJD_KEY, TOUR_KEY):
        star = page.locator(f"main button.star[formaction$='/sessions/{key}/star']")
        expect(star).to_have_attribute("aria-pressed", "false")
        star.click()
        expect(star).to_have_attribute("aria-pressed", "true")
        # Online: the server took the star before the button turned; nothing waits in the outbox.
        wanted.append(key)
        assert _outbox_size(page) == 0
        assert _visitor_stars(page) == sorted(wanted)
    page.get_by_role("link", name="My agenda").click()
    expect(page.locator("p.summary")).to_have_text("2 sessions, 2 overlapping.")


BANNER_PLACE = """() => {
  const banner = document.querySelector("[data-offline-copy]");
  const header = document.querySelector("header.site-header");
  return {
    scrollY: window.scrollY,
    top: Math.round(banner.getBoundingClientRect().top),
    headerBottom: Math.round(header.getBoundingClientRect().bottom),
    fitsOnScreen: banner.getBoundingClientRect().bottom <= window.innerHeight,
  };
}"""


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_offline_banner_is_on_screen_after_a_reload(new_context, demo_live, viewport) -> None:  # noqa: ANN001
    page = new_context(viewport=viewport, service_workers="allow").new_page()
    page.goto(demo_live)
    page.wait_for_function(WORKER_READY)
    page.reload()  # controlled: this page is kept
    page.context.set_offline(True)
    # The browser brings the header back to the top of the screen: the banner is right under it.
    page.reload()
    place = page.evaluate(BANNER_PLACE)
    assert place == {
        "scrollY": 0,
        "top": place["headerBottom"],
        "headerBottom": place["headerBottom"],
        "fitsOnScreen": True,
    }
    assert place["headerBottom"] > 0
    # Further down the page it stays at the top of the screen.
    page.mouse.wheel(0, 2000)
    page.wait_for_function("() => window.scrollY > 1000")
    assert page.evaluate(BANNER_PLACE)["top"] == 0


@pytest.mark.browser
def test_manifest_is_installable_metadata(page, demo_live) -> None:  # noqa: ANN001
    page.goto(demo_live)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(page.url.split("/", 3)[0] + "//" + page.url.split("/")[2] + href)
    assert response.headers["content-type"] == "application/manifest+json"
    icon = page.request.get(demo_live.split("/pytorch")[0] + response.json()["icons"][1]["src"])
    assert (icon.status, icon.headers["content-type"]) == (200, "image/png")


def _banner_label_in(zone: str, taken: str) -> str:
    """How the site writes the moment `taken` (ISO 8601) in `zone`: 24-hour clock."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    local = datetime.fromisoformat(taken.replace("Z", "+00:00")).astimezone(ZoneInfo(zone))
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M}"


@pytest.mark.browser
def test_offline_banner_time_is_in_the_page_zone_on_a_24_hour_clock(new_context, demo_live) -> None:  # noqa: ANN001
    """The device is in New York with a 12-hour locale; the event is in Paris. The copy's time
    is written as the page writes its times: in the event's zone, or in the zone chosen."""
    context = new_context(service_workers="allow", locale="en-US", timezone_id="America/New_York")
    page = context.new_page()
    page.goto(demo_live)
    page.wait_for_function(WORKER_READY)
    page.reload()
    tokyo = demo_live + "grid/?tz=Asia/Tokyo"
    page.goto(tokyo)
    expect(page.locator("#zone-now strong")).to_contain_text("Asia/Tokyo")
    context.set_offline(True)
    labels = {}
    for zone, url in (("Europe/Paris", demo_live), ("Asia/Tokyo", tokyo)):
        page.goto(url)
        when = page.locator("[data-offline-copy] time")
        expect(when).to_be_visible()
        labels[zone] = (when.inner_text(), _banner_label_in(zone, when.get_attribute("datetime")))
    assert labels["Europe/Paris"][0] == labels["Europe/Paris"][1]
    assert labels["Asia/Tokyo"][0] == labels["Asia/Tokyo"][1]
    context.set_offline(False)
    page.goto(demo_live)


# Resolves once the worker keeps the event's data (it fetches it in the background).
DATA_KEPT = """() => new Promise((resolve) => {
  const look = () => caches.keys().then(async (names) => {
    for (const name of names) {
      if (await (await caches.open(name)).match(location.pathname.split("/").slice(0, 2).join("/") + "/schedule.json")) {
        resolve(true);
        return;
      }
    }
    setTimeout(look, 50);
  });
  look();
})"""


@pytest.mark.browser
def test_pages_never_opened_are_readable_offline_after_the_first_visit(page, demo_live) -> None:  # noqa: ANN001
    """One visit to the schedule; then, offline, a session page and a speaker page never
    opened, and a filtered view (the whole list, saying that the filter needs the network)."""
    page.goto(demo_live)
    page.wait_for_function(WORKER_READY)
    page.reload()
    page.wait_for_function(DATA_KEPT)
    page.context.set_offline(True)

    page.goto(f"{demo_live}sessions/{TORCHJD_KEY}/")
    expect(page.locator("[data-offline-copy]")).to_be_visible()
    expect(page.locator("main h1")).to_have_text(TORCHJD)
    expect(page).to_have_title(f"{TORCHJD} · PyTorch Conference Europe 2026 · confsched")
    expect(page.locator("main .abstract p").first).not_to_be_empty()
    speaker = page.locator("main section[aria-labelledby=speakers-heading] a").first
    name = speaker.inner_text()
    speaker.click()
    expect(page.locator("main h1")).to_have_text(name)
    expect(page.locator("main .speaker-page li a", has_text=TORCHJD)).to_have_count(1)

    page.goto(f"{demo_live}?track=training-systems")
    expect(page.locator(".offline-note")).to_have_text(
        "This filtered view needs the network: here is the whole list from the offline copy."
    )
    expect(
        page.locator(f"main button.star[formaction$='/sessions/{TORCHJD_KEY}/star']")
    ).to_have_count(1)
    page.context.set_offline(False)
    page.goto(demo_live)
