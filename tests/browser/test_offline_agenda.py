"""On the phone without a network: the person's own agenda, and search by words.

The agenda is no-store for every HTTP cache (its feed and share addresses); the service worker
keeps a copy without those in the signed-in person's own cache, dropped at log-out. Search by
meaning needs the server: offline, the worker searches the kept programme by its words.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TORCHJD, TORCHJD_KEY, signed_in
from tests.browser.test_offline import KEPT, WORKER_READY
from tests.browser.test_offline_privacy import ONLY_VISITOR_COPY

SHOTS = Path("/work/shots/offline")
EXECUTORCH_KEY = "bringing-executorch-to-the-next-frontiers-of-edge-ai"
EXECUTORCH = "Bringing ExecuTorch To the Next Frontiers of Edge AI"
MCU = "Flexible Deployment of PyTorch Models on MCU-Class Devices Using ExecuTorch"


def _shot(page, name: str) -> None:  # noqa: ANN001 - a Playwright page
    """A look at the page for the report (outside the repository), when the folder is there."""
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / name), full_page=True)


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


@pytest.fixture
def phone(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    return new_context(viewport=PHONE, service_workers="allow").new_page()


def _alice_opens_her_agenda(phone, demo_live: str) -> None:  # noqa: ANN001 - Playwright
    """Alice, signed in with two stars, opens her agenda once online under the worker."""
    from confsched.agenda.services import agenda_links, star_session
    from confsched.programme.models import Session

    # The cookie for the whole site (the log-out is at /accounts/), not the event's path only.
    alice = signed_in(phone.context, demo_live.split("/pytorch")[0], "alice")
    for key in (TORCHJD_KEY, EXECUTORCH_KEY):
        star_session(alice, Session.objects.get(key=key))
    phone.goto(demo_live)
    phone.wait_for_function(WORKER_READY)
    phone.goto(f"{demo_live}agenda/")
    token = agenda_links(alice, Session.objects.get(key=TORCHJD_KEY).event).feed_token
    expect(phone.locator("#feed-url")).to_have_value(f"{demo_live}agenda/{token}.ics")
    phone.wait_for_function(KEPT, arg=_path(f"{demo_live}agenda/"))


# Resolves once the kept copy of the agenda links to `path` (a session starred since).
AGENDA_COPY_LINKS = """(path) => new Promise((resolve) => {
  const look = async () => {
    for (const name of await caches.keys()) {
      const copy = await (await caches.open(name)).match(location.origin + "/pytorch-conference-europe-2026/agenda/");
      if (copy) {
        const html = await new Response(copy.body.pipeThrough(new DecompressionStream("gzip"))).text();
        if (html.includes('href="' + path + '"')) { resolve(true); return; }
      }
    }
    setTimeout(look, 50);
  };
  look();
})"""


def _agenda_titles(page) -> list[str]:  # noqa: ANN001 - a Playwright page
    return page.locator("main .agenda-entry h3").all_inner_texts()


@pytest.mark.browser
def test_offline_the_agenda_opened_online_is_shown_without_its_secrets(
    phone,
    demo_live,  # noqa: ANN001
) -> None:
    from confsched.programme.models import Session

    _alice_opens_her_agenda(phone, demo_live)
    # A star made online afterwards reaches the kept agenda too.
    mcu = Session.objects.get(title=MCU)
    phone.goto(demo_live)
    star = phone.locator(f'main button.star[formaction$="/sessions/{mcu.key}/star"]')
    star.click()
    expect(star).to_have_attribute("aria-pressed", "true")
    phone.wait_for_function(AGENDA_COPY_LINKS, arg=_path(f"{demo_live}sessions/{mcu.key}/"))

    phone.context.set_offline(True)
    phone.goto(f"{demo_live}agenda/")
    expect(phone.locator("[data-offline-copy]")).to_contain_text("Offline copy from ")
    expect(phone.locator("main h1")).to_have_text("My agenda")
    assert _agenda_titles(phone) == [MCU, TORCHJD, EXECUTORCH]
    expect(phone.locator(".account .who")).to_have_text("alice")
    # The copy holds none of the page's secrets: no feed, alert or share address.
    assert phone.locator("#feed, #alerts, #share, #seats").count() == 0
    assert ".ics" not in phone.content()
    _shot(phone, "agenda-offline-375.png")


@pytest.mark.browser
def test_after_log_out_offline_the_agenda_says_to_sign_in(phone, demo_live) -> None:  # noqa: ANN001
    _alice_opens_her_agenda(phone, demo_live)
    phone.goto(demo_live)
    phone.get_by_role("button", name="Log out").click()
    expect(phone.get_by_role("link", name="Log in")).to_be_visible()
    phone.wait_for_function(WORKER_READY)
    phone.wait_for_function(ONLY_VISITOR_COPY)

    phone.context.set_offline(True)
    phone.goto(f"{demo_live}agenda/")
    expect(phone.locator("[data-no-offline-agenda]")).to_have_text(
        "Your agenda is not in this phone's offline copy. Sign in and open My agenda while "
        "online: it is then kept here for reading offline, until you log out."
    )
    assert _agenda_titles(phone) == []
    expect(phone.locator("header a[aria-current=page]")).to_have_text("My agenda")
    assert "alice" not in phone.content()
    assert TORCHJD not in phone.content()
    _shot(phone, "agenda-offline-after-log-out-375.png")


@pytest.mark.browser
def test_offline_search_finds_the_kept_programme_by_its_words(phone, demo_live) -> None:  # noqa: ANN001
    phone.goto(demo_live)
    phone.wait_for_function(WORKER_READY)
    phone.reload()  # controlled: the schedule is kept, the frame of pages made offline
    phone.wait_for_function(KEPT, arg=_path(f"{demo_live}schedule.json"))

    phone.context.set_offline(True)
    phone.goto(f"{demo_live}search/")
    expect(phone.locator("main h1")).to_have_text("Search sessions")
    expect(phone.locator("header a[aria-current=page]")).to_have_text("Search")
    # Any case, any accents; a speaker's name counts: the rarer word's session first.
    phone.get_by_label("Describe what you are looking for").fill("VALERIAN exécutorch")
    phone.get_by_role("button", name="Search", exact=True).click()
    expect(phone.locator("#search-results-heading")).to_have_text(
        "Sessions matching “VALERIAN exécutorch”"
    )
    results = phone.locator("[data-offline-results] li > a")
    assert results.all_inner_texts() == [
        TORCHJD,
        EXECUTORCH,
        MCU,
    ]
    expect(phone.locator("[data-offline-copy]")).to_contain_text("Offline copy from ")
    _shot(phone, "search-offline-375.png")

    results.first.click()
    expect(phone.locator("main h1")).to_have_text(TORCHJD)
    phone.go_back()
    phone.get_by_label("Describe what you are looking for").fill("mojo")
    phone.get_by_role("button", name="Search", exact=True).click()
    expect(phone.locator("#search-results-heading")).to_have_text("No session matches “mojo”")
