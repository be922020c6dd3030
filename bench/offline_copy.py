"""The offline copy of a big event: how large it gets and whether it slows the first page.

Usage: python bench/offline_copy.py [--sessions N]
Builds a synthetic event (5,000 sessions, 7,000 speakers by default) in a throw-away SQLite
database, serves it on a local port, warms the server's pages, then drives the system's
Chromium: the first page's timings (response end, DOMContentLoaded, load) with the service
worker blocked and with it running; the time until the worker has its copy (the pages it
keeps at once and the event's data); and the copy's size: the bytes of every body kept (as
the worker stores them, compressed) and what the browser's storage estimate counts.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import urllib.request

FIRST_PAGE = """() => {
  const n = performance.getEntriesByType("navigation")[0];
  return { responseEnd: n.responseEnd, domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd };
}"""

COPY = """async () => {
  let bytes = 0, entries = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      bytes += (await (await cache.match(request)).blob()).size;
      entries += 1;
    }
  }
  const estimate = await navigator.storage.estimate();
  return { bytes, entries, usage: estimate.usage };
}"""

DATA_KEPT = """() => new Promise((resolve) => {
  const look = () => caches.keys().then(async (names) => {
    for (const name of names) {
      if (await (await caches.open(name)).match("/big/schedule.json")) { resolve(true); return; }
    }
    setTimeout(look, 100);
  });
  look();
})"""

WORKER_READY = """() => navigator.serviceWorker.ready.then(() => true)"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=5000)
    args = parser.parse_args()
    data_dir = tempfile.mkdtemp(prefix="confsched-bench-")
    os.environ.setdefault("CONFSCHED_DATA_DIR", data_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confsched.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret")
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("CONFSCHED_TESTING", "1")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.testcases import LiveServerThread, _StaticFilesHandler
    from playwright.sync_api import sync_playwright

    from confsched.interchange.synthetic import synthetic_programme
    from confsched.programme.services import create_event, load_programme

    call_command("migrate", verbosity=0)
    event = create_event(slug="big", name="Big", timezone="Europe/Brussels")
    people = args.sessions * 7 // 5
    load_programme(event, synthetic_programme(args.sessions, rooms=40, people=people))
    server = LiveServerThread("localhost", _StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    base = f"http://localhost:{server.port}/big/"
    for page in ("", "grid/", "speakers/", "schedule.json"):  # the server builds them once
        urllib.request.urlopen(base + page).read()  # noqa: S310 - our local server

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        for workers in ("block", "allow"):
            context = browser.new_context(service_workers=workers, timezone_id="Europe/Brussels")
            context.set_default_timeout(600_000)
            page = context.new_page()
            started = time.perf_counter()
            page.goto(base)
            first = page.evaluate(FIRST_PAGE)
            print(
                f"worker {workers}: first page responseEnd {first['responseEnd']:.0f} ms, "
                f"DOMContentLoaded {first['domContentLoaded']:.0f} ms, load {first['load']:.0f} ms"
            )
            if workers == "allow":
                page.wait_for_function(WORKER_READY)
                page.wait_for_function(DATA_KEPT)
                kept = time.perf_counter() - started
                copy = page.evaluate(COPY)
                print(
                    f"  copy complete {kept:.1f} s after the first request: {copy['entries']}"
                    f" entries, {copy['bytes'] / 1e6:.2f} MB of bodies kept,"
                    f" storage estimate {copy['usage'] / 1e6:.2f} MB"
                )
            context.close()
        browser.close()
    server.terminate()


if __name__ == "__main__":
    main()
