"""Fixtures for the headless-browser tests: system Chromium, a live server with the demo event.

Playwright's sync API runs an asyncio loop in the test thread, so Django's ORM would refuse to
run there (SynchronousOnlyOperation); DJANGO_ALLOW_ASYNC_UNSAFE is the usual workaround. It is
set only while a browser module runs, not when this file is imported: set for the whole run it
leaks into the rest of the suite and its subprocesses, where `check --deploy` then reports
async.E001 (tests/test_settings.py fails).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import unavailable

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}
EVENT_NAME = "PyTorch Conference Europe 2026"


def _chromium_missing() -> str:
    if not CHROMIUM.exists():
        return f"Chromium is not at {CHROMIUM} (install it: apt-get install chromium)"
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is not executable"
    return ""


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium per test module; skipped (or failed, in CI) when absent."""
    reason = _chromium_missing()
    if reason:
        unavailable(reason, "CONFSCHED_REQUIRE_BROWSER")
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                yield chromium
            finally:
                chromium.close()


@pytest.fixture
def demo_live(transactional_db, live_server) -> str:  # noqa: ANN001 - pytest fixtures
    """The demo event loaded where the live server sees it; returns its schedule's URL."""
    from confsched.interchange.sched.read import parse_sched_pages
    from confsched.programme.services import create_event, load_programme
    from tests.conftest import DEMO_SLUG, demo_files

    event = create_event(slug=DEMO_SLUG, name=EVENT_NAME, timezone="Europe/Paris")
    load_programme(event, parse_sched_pages(demo_files()))
    return f"{live_server.url}/{DEMO_SLUG}/"


@pytest.fixture
def new_context(browser, transactional_db) -> Iterator[Callable[..., object]]:  # noqa: ANN001
    """Make fresh browser contexts (desktop-sized unless told); all closed after the test,
    before the database is emptied (the fixture asks for it so as to be torn down first): no
    page of a closing test still talks to the live server while its database is flushed."""
    contexts = []

    def make(**options: object) -> object:
        # The offline worker keeps fetching pages after a test ends, and the live server's
        # database cannot be flushed under it: only the offline tests let it run, and they
        # wait for it below.
        options.setdefault("service_workers", "block")
        options.setdefault("viewport", DESKTOP)
        options.setdefault("locale", "en-GB")
        options.setdefault("timezone_id", "Europe/Paris")
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(_Settling(context, options["service_workers"] == "allow"))
        return context

    with _RequestsInFlight() as in_flight:
        yield make
        for settling in contexts:
            settling.close()
        in_flight.wait_until_none()


class _RequestsInFlight:
    """Counts the requests the live server is answering, from Django's own signals, so that a
    test's database is flushed only once none is: a page may send one in the instant its
    context closes, before Playwright has told us of it, and the flush then fails under it
    ("couldn't be flushed", then "exists already" in the next test)."""

    QUIET_S = 0.3  # no request started for this long: anything sent before the close has come
    MOST_S = 15.0

    def __init__(self) -> None:
        import threading

        self.lock = threading.Lock()
        self.count = 0
        self.last_start = 0.0

    def __enter__(self) -> _RequestsInFlight:
        from django.core.signals import request_finished, request_started

        request_started.connect(self._started, dispatch_uid=id(self))
        request_finished.connect(self._finished, dispatch_uid=id(self))
        return self

    def __exit__(self, *exc: object) -> None:
        from django.core.signals import request_finished, request_started

        request_started.disconnect(dispatch_uid=id(self))
        request_finished.disconnect(dispatch_uid=id(self))

    def _started(self, **_: object) -> None:
        import time

        with self.lock:
            self.count += 1
            self.last_start = time.monotonic()

    def _finished(self, **_: object) -> None:
        with self.lock:
            self.count -= 1

    def wait_until_none(self) -> None:
        import time

        deadline = time.monotonic() + self.MOST_S
        while time.monotonic() < deadline:
            with self.lock:
                quiet = self.count <= 0 and time.monotonic() - self.last_start >= self.QUIET_S
            if quiet:
                return
            time.sleep(0.02)


class _Settling:
    """A browser context that, when closed, first lets its requests end (the service worker's
    included: Playwright reports them on the context), so that the live server is not in the
    middle of one when the test's database is flushed ("database table is locked")."""

    SETTLE_MS = 10_000

    def __init__(self, context, worker: bool) -> None:  # noqa: ANN001 - a Playwright context
        self.context = context
        self.worker = worker
        self.open: set[object] = set()
        context.on("request", lambda request: self.open.add(request))
        context.on("requestfinished", lambda request: self.open.discard(request))
        context.on("requestfailed", lambda request: self.open.discard(request))

    def close(self) -> None:
        pages = [p for p in self.context.pages if p.url.startswith("http")]
        if pages:
            if self.worker:  # installing the worker fetches the pages it keeps
                pages[0].evaluate(
                    "Promise.race([navigator.serviceWorker.ready,"
                    f" new Promise((r) => setTimeout(r, {self.SETTLE_MS}))]).then(() => true)"
                )
            waited = 0
            while self.open and waited < self.SETTLE_MS:
                pages[0].wait_for_timeout(20)
                waited += 20
        self.context.close()


@pytest.fixture
def page(new_context):  # noqa: ANN001, ANN201 - pytest fixture
    """A page in a fresh desktop-sized context with JavaScript on."""
    return new_context().new_page()


# Helpers shared by the test modules (imported from tests.browser.conftest).

TORCHJD = "TorchJD: Jacobian Descent in PyTorch"
TORCHJD_KEY = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
TORCHJD_TITLE = "TorchJD: Jacobian Descent in PyTorch"


@pytest.fixture
def workshop(demo_live: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The demo a week before the event, TorchJD a workshop of one seat; the event's address."""
    from datetime import UTC, datetime

    from confsched.agenda import reservations
    from confsched.programme.models import Session

    monkeypatch.setattr("confsched.core.clock.now", lambda: datetime(2026, 4, 1, tzinfo=UTC))
    reservations.set_seats(Session.objects.get(key=TORCHJD_KEY), 1)
    return demo_live


TRAINING_SYSTEMS_INTERMEDIATE = [
    "Training Embedding Model Resiliently for Multimodal Model Inference Routing",
    TORCHJD,
    "Optimizing Reinforcement Learning at Trillion-Parameter Scale",
    "TorchStore: What We Learned Building Distributed Storage Solutions for AysncRL",
]
PARIS_LABEL = "Europe/Paris (CEST, UTC+02:00)"


def filter_params(url: str) -> dict[str, list[str]]:
    """The URL's non-blank query parameters in order; a repeated value shows up twice."""
    from urllib.parse import parse_qsl, urlsplit

    params: dict[str, list[str]] = {}
    for name, value in parse_qsl(urlsplit(url).query):
        if value:
            params.setdefault(name, []).append(value)
    return params


def checked_boxes(page) -> list[str]:  # noqa: ANN001 - a Playwright page
    """name=value of every checked box in the filters form, in page order."""
    return page.eval_on_selector_all(
        "#filters input[type=checkbox]:checked", "boxes => boxes.map(b => b.name + '=' + b.value)"
    )


def choose_zone(page, zone: str) -> None:  # noqa: ANN001 - a Playwright page
    """Open the zone line's picker (one line until opened) and choose `zone` in it."""
    picker = page.locator("details[data-zone-picker]")
    if picker.get_attribute("open") is None:
        picker.locator("summary").click()
    page.locator("#tz").select_option(zone)


def signed_in(context, site: str, username: str, *, role: str = ""):  # noqa: ANN001, ANN201
    """A new account `username` (with `role` on the demo event when asked), signed in within
    the browser `context` through a session cookie for `site`; returns the account."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from tests.teams import on_team

    user = User.objects.create_user(username, f"{username}@example.org")
    if role:
        on_team(user, role)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": site}])
    return user
