"""Another site frames the embeddable schedule: allowed for a listed origin, refused otherwise."""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from confsched.programme.models import Event
from tests.browser.conftest import TORCHJD
from tests.conftest import DEMO_SLUG

ELSEWHERE = "https://elsewhere.example"


class _HostPage(BaseHTTPRequestHandler):
    """Another site: its one page frames the address in its query (?frame=...)."""

    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        asked = parse_qs(urlsplit(self.path).query).get("frame")
        if not asked:  # the browser's /favicon.ico
            self.send_error(404)
            return
        framed = html.escape(asked[0])
        body = (
            f'<!doctype html><title>Host</title><iframe src="{framed}" title="Schedule"></iframe>'
        )
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def host_site() -> Iterator[str]:
    """A second live server, on 127.0.0.1 while the app's is on localhost: another origin.

    A real server rather than a page Playwright answers: Chromium treats such a page as public
    and its local-network checks would block any frame of localhost, allowed or not.
    """
    server = ThreadingHTTPServer(("127.0.0.1", 0), _HostPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _host_page(page, host: str, framed: str) -> None:  # noqa: ANN001 - a Playwright page
    page.goto(f"{host}/?{urlencode({'frame': framed})}")
    page.wait_for_load_state("load")


REFUSED = "chrome-error://chromewebdata/"  # Chromium's error page in place of a refused frame


def _settled_frame_url(page, expected: str) -> str:  # noqa: ANN001 - a Playwright page
    """The frame's address once it reaches ``expected``, or whatever it has after 5 s.

    The host page's load event can come before Chromium commits the error page of a refused
    frame, whose address is empty until then; a cross-origin frame's address cannot be read
    from the page's scripts, so it is polled here.
    """
    for _ in range(100):
        if page.frames[1].url == expected:
            break
        page.wait_for_timeout(50)
    return page.frames[1].url


def _allow(origins: str) -> None:
    Event.objects.filter(slug=DEMO_SLUG).update(embed_origins=origins)


@pytest.mark.browser
def test_a_listed_origin_frames_the_schedule_and_links_open_a_new_tab(
    page,
    demo_live,
    host_site,  # noqa: ANN001
) -> None:
    host = host_site
    assert demo_live.startswith("http://localhost:")  # the embed is on the other origin
    _allow(f"{ELSEWHERE}\n{host}")
    _host_page(page, host, demo_live + "embed/?q=TorchJD")
    link = page.frame_locator("iframe").get_by_role("link", name=f"Lightning Talk: {TORCHJD}")
    assert link.get_attribute("target") == "_blank"
    with page.context.expect_page() as opened:
        link.click()
    assert opened.value.url == (
        demo_live + "sessions/lightning-talk-torchjd-jacobian-descent-in-pytorch/"
    )


@pytest.mark.browser
def test_an_unlisted_origin_is_refused(page, demo_live, host_site) -> None:  # noqa: ANN001
    _allow(ELSEWHERE)
    _host_page(page, host_site, demo_live + "embed/")
    assert _settled_frame_url(page, REFUSED) == REFUSED


@pytest.mark.browser
def test_the_schedule_page_itself_is_never_framed(
    page,
    demo_live,
    host_site,  # noqa: ANN001
) -> None:
    host = host_site
    _allow(host)
    _host_page(page, host, demo_live)
    assert _settled_frame_url(page, REFUSED) == REFUSED
