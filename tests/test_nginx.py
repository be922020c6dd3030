"""The production front (deploy/nginx/) with Debian's nginx before a real `confsched serve`.

The deploy files are used as they are, with their paths pointed at this test's folders and a
plain-HTTP server on a free port in place of the TLS one, inside Debian's own nginx.conf
(tests/front.py: its sendfile, tcp_nopush and gzip, as a real server has them). Checks: a second
anonymous request is a cache HIT that never reaches Python (gunicorn's access log), signed-in people are never
answered from the cache, a re-import is visible once the (here 2 s) max-age has passed, and an
If-None-Match gets its 304 through the cache.

Skips without /usr/sbin/nginx (`apt-get install nginx`), unless CONFSCHED_REQUIRE_SERVICES is
set.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from confsched.core import files
from confsched.core.storage import AtomicFileSystemStorage
from tests.conftest import DEMO_DIR, DEMO_SLUG, unavailable
from tests.front import DEBIAN_CONF, NGINX, nginx_conf
from tests.served_demo import CONFSCHED, confsched, free_port, reachable, with_demo

MAX_AGE = 2
PAGE = f"/{DEMO_SLUG}/"
TITLE = "TorchJD: Jacobian Descent in PyTorch"
MULTILINGUAL = "in-three-languages"


@dataclass
class Front:
    base: str  # nginx's address
    access_log: Path  # gunicorn's: one line per request that reached Python
    env: dict[str, str]
    work: Path

    app: str  # gunicorn's own address

    def python_saw(self, path: str) -> int:
        """How many requests for `path` reached the app: counted once a marker request sent
        straight to the app after them shows in the log (gunicorn writes each line after its
        response)."""
        marker = f"/marker-{time.monotonic_ns()}"
        try:
            urllib.request.urlopen(self.app + marker, timeout=10)  # noqa: S310 - our server
        except urllib.error.HTTPError:
            pass  # a 404, logged like any other request
        for _ in range(100):
            log = self.access_log.read_text()
            if marker in log:
                return len(re.findall(rf'"(?:GET|HEAD) {re.escape(path)} HTTP', log))
            time.sleep(0.05)
        raise AssertionError(f"the app's access log never showed {marker}")


def _wait_for(port: int, process: subprocess.Popen, what: str) -> None:
    for _ in range(200):
        if reachable(port):
            return
        if process.poll() is not None:
            raise AssertionError(f"{what} stopped with {process.returncode}")
        time.sleep(0.15)
    raise AssertionError(f"{what} did not answer on {port}")


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    if not NGINX.exists():
        unavailable("nginx is needed at /usr/sbin/nginx", "CONFSCHED_REQUIRE_SERVICES")
    work = tmp_path_factory.mktemp("nginx")
    data = work / "data"
    env = {
        k: v for k, v in os.environ.items()
        if k not in {"DEBUG", "CONFSCHED_TESTING", "DATABASE_URL", "REDIS_URL"}
    } | {
        "SECRET_KEY": "s" * 50, "CONFSCHED_DATA_DIR": str(data),
        "CONFSCHED_PUBLIC_MAX_AGE": str(MAX_AGE), "CONFSCHED_PUBLIC_STALE": "0",
        "CONFSCHED_PROXY_COUNT": "1", "DJANGO_SUPERUSER_PASSWORD": "a-long-pass-phrase-1",
        "PYTHONPATH": os.pathsep.join(sys.path), "PYTHONUNBUFFERED": "1",
    }  # fmt: skip
    with_demo(env)
    demo = [str(path) for path in sorted(DEMO_DIR.glob("*.txt"))]
    confsched(
        "import", "--event", MULTILINGUAL, "--timezone", "Europe/Paris", "--languages", "en,fr,de",
        *demo, env=env,
    )  # fmt: skip
    confsched("createsuperuser", "--noinput", "--username", "ada", "--email", "a@x.org", env=env)
    app_port, port = free_port(), free_port()
    access_log = work / "gunicorn.log"
    with access_log.open("w") as log:
        app = subprocess.Popen(  # noqa: S603 - our own command
            [*CONFSCHED, "serve", "--port", str(app_port), "--workers", "1"],
            env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    conf = nginx_conf(work, static=data / "static", app_port=app_port, port=port)
    nginx = subprocess.Popen(  # noqa: S603 - Debian's nginx, our config
        [str(NGINX), "-p", str(work), "-c", str(conf)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        _wait_for(app_port, app, "confsched serve")
        _wait_for(port, nginx, "nginx")
        yield Front(
            f"http://127.0.0.1:{port}", access_log, env, work, f"http://127.0.0.1:{app_port}"
        )
    finally:
        for process in (nginx, app):
            process.terminate()
            process.wait(timeout=10)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        return None


def _get(front: Front, path: str, opener: urllib.request.OpenerDirector | None = None,
         **headers: str) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    request = urllib.request.Request(front.base + path, headers=headers)  # noqa: S310
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=20) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_a_second_anonymous_request_is_a_hit_that_never_reaches_python(front: Front) -> None:
    path = PAGE + "grid/"
    first = _get(front, path, **{"Accept-Encoding": "gzip"})
    second = _get(front, path, **{"Accept-Encoding": "gzip"})
    assert (first[0], first[1]["X-Cache-Status"]) == (200, "MISS")
    assert (second[0], second[1]["X-Cache-Status"]) == (200, "HIT")
    assert second[2] == first[2]
    assert "Set-Cookie" not in second[1]
    assert front.python_saw(path) == 1


def test_an_english_only_page_is_one_copy_whatever_the_browser_language(front: Front) -> None:
    path = PAGE + "speakers/"
    french = _get(front, path, **{"Accept-Language": "fr-FR,fr;q=0.9"})
    german = _get(front, path, **{"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert (french[1]["X-Cache-Status"], german[1]["X-Cache-Status"]) == ("MISS", "HIT")
    assert german[2] == french[2] and b'<html lang="en"' in german[2]
    assert front.python_saw(path) == 1


def test_a_multilingual_page_is_kept_per_browser_language(front: Front) -> None:
    path = f"/{MULTILINGUAL}/speakers/"
    asked = [
        ("fr-FR,fr;q=0.9", "MISS", "fr"),
        ("de", "MISS", "de"),
        ("fr-FR,fr;q=0.9", "HIT", "fr"),
    ]
    for header, status, language in asked:
        _, headers, page = _get(front, path, **{"Accept-Language": header})
        assert (headers["X-Cache-Status"], headers["Content-Language"]) == (status, language)
        assert f'<html lang="{language}"'.encode() in page
    assert front.python_saw(path) == 2


def test_a_304_passes_through(front: Front) -> None:
    path = PAGE + "speakers/"
    first = _get(front, path)
    etag = first[1]["ETag"]
    again = _get(front, path, **{"If-None-Match": etag})
    assert (again[0], again[1]["ETag"], again[2]) == (304, etag, b"")
    assert front.python_saw(path) == 1
    # And from the app itself, for a request the cache must not answer (a cookie of the site).
    own = _get(front, path, **{"If-None-Match": 'W/"no-such-tag"', "Cookie": "confsched_tz=UTC"})
    assert (own[0], own[1]["X-Cache-Status"]) == (200, "BYPASS")


def test_signed_in_people_are_never_served_from_the_cache(front: Front) -> None:
    path = PAGE + "speakers/valerian-rey/"
    _get(front, path)
    assert _get(front, path)[1]["X-Cache-Status"] == "HIT"
    jar = http.cookiejar.CookieJar()
    ada = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect())
    form = _get(front, "/accounts/login/", ada)[2].decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    body = urllib.parse.urlencode(
        {"username": "ada", "password": "a-long-pass-phrase-1", "csrfmiddlewaretoken": token}
    ).encode()
    login = urllib.request.Request(  # noqa: S310
        front.base + "/accounts/login/", data=body, headers={"Origin": front.base}
    )
    try:
        ada.open(login, timeout=20)
    except urllib.error.HTTPError as error:
        assert error.code == 302  # signed in, sent on
    seen = front.python_saw(path)
    for _ in range(2):
        status, headers, page = _get(front, path, ada)
        assert (status, headers["X-Cache-Status"]) == (200, "BYPASS")
        assert headers["Cache-Control"] == "private, no-store"
        assert b'<span class="who">ada</span>' in page
    assert front.python_saw(path) == seen + 2
    # Nor was their page kept for anyone else.
    status, headers, page = _get(front, path)
    assert (headers["X-Cache-Status"], b"ada" in page.split(b"<main")[0]) == ("HIT", False)


def test_a_release_is_visible_within_the_max_age(front: Front) -> None:
    path = PAGE + "?q=TorchJD"
    assert TITLE.encode() in _get(front, path)[2]
    assert _get(front, path)[1]["X-Cache-Status"] == "HIT"
    renamed = front.work / "renamed"
    renamed.mkdir()
    for source in sorted(DEMO_DIR.glob("*.txt")):
        text = source.read_text().replace(TITLE, "TorchJD: Jacobian Descent, released")
        (renamed / source.name).write_text(text)
    confsched("import", "--event", DEMO_SLUG, "--accept-new-keys",
              *map(str, sorted(renamed.glob("*.txt"))), env=front.env)  # fmt: skip
    time.sleep(MAX_AGE + 0.5)  # the max-age is the promise: past it, the release shows
    status, headers, page = _get(front, path)
    assert (status, b"TorchJD: Jacobian Descent, released" in page) == (200, True)
    assert headers["X-Cache-Status"] in ("EXPIRED", "REVALIDATED", "MISS")
    # The next hit reads the page stored again, not the file nginx held open for the last
    # hits (open_file_cache: the inode is checked against the cache's entry).
    status, headers, page = _get(front, path)
    assert (status, headers["X-Cache-Status"]) == (200, "HIT")
    assert b"TorchJD: Jacobian Descent, released" in page


def test_uploaded_files_are_served_by_nginx_with_the_app_s_headers(front: Front) -> None:
    """From the data folder the app writes to (core/files.py), as web/site/media.py would
    serve them, and Python never sees the requests."""
    media = AtomicFileSystemStorage(location=front.work / "data" / "media")
    photo = files.save(files.PHOTOS, b"\xff\xd8\xff\xe0 a photo", "image/jpeg", storage=media)
    deck = files.save(
        files.SLIDES, b"PK\x03\x04 a deck",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        storage=media,
    )  # fmt: skip
    shared = {
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cache-Control": "public, max-age=31536000, immutable",
    }
    for name, content_type, disposition, body in [
        (photo, "image/jpeg", "inline", b"\xff\xd8\xff\xe0 a photo"),
        (deck, "application/vnd.openxmlformats-officedocument.presentationml.presentation",
         "attachment", b"PK\x03\x04 a deck"),
    ]:  # fmt: skip
        status, headers, served = _get(front, files.url(name))
        assert (status, served, headers["Content-Type"], headers["Content-Disposition"]) == (
            200, body, content_type, disposition,
        )  # fmt: skip
        assert {key: headers[key] for key in shared} == shared
        assert "Set-Cookie" not in headers and "X-Cache-Status" not in headers
        assert front.python_saw(files.url(name)) == 0
    # Names the app never makes are 404s from nginx too, whatever is in the folder.
    (front.work / "data" / "media" / "photos" / "page.html").write_bytes(b"<script>")
    for path in ("/media/photos/page.html", "/media/", "/media/photos/../../static/x",
                 f"/media/other/{'a' * 20}.jpg", f"/media/photos/{'0' * 20}.jpg"):  # fmt: skip
        assert _get(front, path)[0] == 404
        assert front.python_saw(path) == 0


def test_the_front_runs_inside_debians_own_nginx_conf(front: Front) -> None:
    """Every check here ran inside the distribution's nginx.conf: its http settings stand
    around the site's, as on a server where the deploy files are dropped in."""
    conf = (front.work / "nginx.conf").read_text()
    http = conf.split("http {", 1)[1]
    for debian_line in (
        "sendfile on;",
        "tcp_nopush on;",
        "gzip on;",
        "include /etc/nginx/mime.types;",
    ):
        assert re.search(rf"(?m)^\s*{re.escape(debian_line)}$", http), debian_line
    assert f"include {front.work}/site.conf;" in http
    assert ("sites-enabled" in conf, "/run/nginx.pid" in conf) == (False, False)
    if DEBIAN_CONF.exists():  # the packaged file itself, changed only where it names places
        kept = [line.strip() for line in DEBIAN_CONF.read_text().splitlines()]
        ours = {line.strip() for line in conf.splitlines()}
        places = (
            "user ",
            "pid ",
            "error_log ",
            "access_log ",
            "worker_processes ",
            "include /etc/nginx/conf.d",
            "include /etc/nginx/sites",
        )
        assert [
            line
            for line in kept
            if line and not line.startswith(("#", *places)) and line not in ours
        ] == []
    # The site's answers are not corked, whatever the outer file says: inside Debian's
    # `tcp_nopush on` each cached page waited about 40 ms on a kept-alive connection
    # (bench/cache_front.py). Set for the server, before its first location.
    server = (front.work / "confsched-locations.conf").read_text().split("location ", 1)[0]
    assert re.search(r"(?m)^tcp_nopush off;$", server)
