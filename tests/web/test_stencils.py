"""Schedule pages built once and filled per request are the pages a fresh render gives.

Every sampled view is asked for with stencils off (each request renders from scratch, the way
the page was always made) and on (built once, then filled in), for a visitor with stars in
their browser session and for a signed-in attendee with stars; only the CSRF token, masked
anew for every response, may differ. Changes to the programme and to stars show on the very
next request.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.models import AgendaItem
from confsched.programme.models import Session
from confsched.programme.services import load_programme
from confsched.web.site.stencils import Hole, Markers, Part, Stencil
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
VIEWS = [
    "",
    "grid/",
    "?track=training-systems&level=intermediate",
    "?q=torch&room=founders-cafe",
    "?tz=America/New_York",
    "grid/?tz=Asia/Tokyo&date=2026-04-07",
    "?q=nothing-matches-this",
    f"sessions/{TORCHJD}/",
    f"sessions/{HELION}/?tz=Europe/London",
    "speakers/",
    "speakers/valerian-rey/",
]
TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+"')


def _page(client: Client, path: str, **headers: str) -> tuple[int, str]:
    response = client.get(BASE + path, headers={"Accept-Encoding": "gzip", **headers})
    body = response.content
    if response.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return response.status_code, TOKEN.sub(r'\1…"', body.decode())


def _visitor_with_stars() -> Client:
    client = Client()
    for key in (TORCHJD, HELION):
        client.post(f"{BASE}sessions/{key}/star", {"starred": "1", "next": BASE})
    return client


def _attendee_with_stars() -> Client:
    user = User.objects.create_user("ada", "ada@example.org", "correct horse battery 42")
    for session in Session.objects.filter(key__in=[TORCHJD, HELION]):
        AgendaItem.objects.create(user=user, session=session)
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["newcomer", "visitor", "attendee"])
@pytest.mark.parametrize("path", VIEWS)
def test_a_stenciled_page_is_the_page_a_fresh_render_gives(
    demo_event, settings, who: str, path: str
) -> None:
    # A newcomer (no stars) gets the kept compressed page with their token spliced in.
    people = {"newcomer": Client, "visitor": _visitor_with_stars, "attendee": _attendee_with_stars}
    client = people[who]()
    settings.CONFSCHED_PAGE_STENCILS = False
    fresh = _page(client, path)
    htmx_fresh = _page(client, path, HX_Request="true", HX_Target="results")
    settings.CONFSCHED_PAGE_STENCILS = True
    built, again = _page(client, path), _page(client, path)
    htmx = _page(client, path, HX_Request="true", HX_Target="results")
    assert fresh[0] == 200
    assert (built, again, htmx) == (fresh, fresh, htmx_fresh)
    starred = {"": 2, "grid/": 2, f"sessions/{TORCHJD}/": 1, "speakers/": 0}
    assert fresh[1].count('aria-pressed="true"') == (
        0 if who == "newcomer" else starred.get(path, fresh[1].count('aria-pressed="true"'))
    )
    assert fresh[1].count('name="csrfmiddlewaretoken"') == 1 + (who == "attendee")  # + log-out


def test_a_change_to_the_programme_shows_on_the_next_request(
    client: Client, demo_event, demo_programme
) -> None:
    assert "TorchJD" in client.get(BASE).content.decode()
    sessions = [
        replace(s, title="Jacobians, renamed") if s.key == TORCHJD else s
        for s in demo_programme.sessions
    ]
    load_programme(demo_event, replace(demo_programme, sessions=sessions))
    html = client.get(BASE).content.decode()
    assert ("Jacobians, renamed" in html, "TorchJD: Jacobian" in html) == (True, False)


def test_a_star_shows_on_the_next_request_and_changes_the_etag(client: Client, demo_event) -> None:
    first = client.get(BASE)
    assert first.content.decode().count('aria-pressed="true"') == 0
    client.post(f"{BASE}sessions/{TORCHJD}/star", {"starred": "1", "next": BASE})
    second = client.get(BASE, headers={"If-None-Match": first["ETag"]})
    assert (second.status_code, second.content.decode().count('aria-pressed="true"')) == (200, 1)
    third = client.get(BASE, headers={"If-None-Match": second["ETag"]})
    assert (third.status_code, third.content) == (304, b"")


def test_another_person_never_gets_someone_elses_page(client: Client, demo_event) -> None:
    attendee = _attendee_with_stars()
    mine = attendee.get(BASE)
    theirs = client.get(BASE, headers={"If-None-Match": mine["ETag"]})
    html = theirs.content.decode()
    who = '<span class="who">ada</span>'
    assert who in mine.content.decode()
    assert (theirs.status_code, html.count('aria-pressed="true"'), who in html) == (200, 0, False)
    assert mine["Cache-Control"] == "private, no-store"


def _stencil() -> Stencil:
    markers = Markers()
    page = (
        f"<p>{markers.mark('account')}</p><form>{markers.mark('csrf')}</form>"
        f"{markers.mark('star', 7)}|{markers.mark('star', 9)}" + "<i>the rest</i>" * 50
    )
    return Stencil(
        markers.cut(page), stars={pk: (["<b>☆</b>"], [f"<b>★{pk}</b>"]) for pk in (7, 9)}
    )


def test_a_stencil_fills_holes_and_stars_in_place() -> None:
    stencil = _stencil()
    values = {"csrf": b"T", "account": b"me"}
    rest = "<i>the rest</i>" * 50
    assert stencil.fill(values=values, starred=set()).decode() == (
        "<p>me</p><form>T</form><b>☆</b>|<b>☆</b>" + rest
    )
    assert stencil.fill(values=values, starred={9, 7}).decode() == (
        "<p>me</p><form>T</form><b>★7</b>|<b>★9</b>" + rest
    )
    assert stencil.fill(values=values, starred={9, 3}).decode() == (
        "<p>me</p><form>T</form><b>☆</b>|<b>★9</b>" + rest
    )
    markers = Markers()
    assert markers.cut(f"a{markers.mark('csrf')}") == [b"a", Hole("csrf")]


def test_a_stencils_plain_page_gzipped_is_the_plain_fill_with_a_valid_trailer() -> None:
    stencil = _stencil()
    values = {"csrf": b"token-1", "account": "Ada Lovelace ✓".encode()}
    body = stencil.gzip_plain(values=values)
    # gzip.decompress checks the CRC-32 and length in the trailer.
    assert gzip.decompress(body) == stencil.fill(values=values, starred=set())
    other = stencil.gzip_plain(values={"csrf": b"token-2", "account": b""})
    assert gzip.decompress(other) == stencil.fill(
        values={"csrf": b"token-2", "account": b""}, starred=set()
    )


def test_a_stencil_with_pieces_replaced_fills_and_gzips_with_them() -> None:
    stencil = _stencil()
    values = {"csrf": b"T", "account": b"me"}
    rest = "<i>the rest</i>" * 50
    # Pieces: <p>, account, </p><form>, csrf, </form>, star 7, |, star 9, the rest.
    changed = stencil.replaced({6: b"/", 7: b"<b>o</b>"}, {9: b"<b>*9</b>"})
    assert changed.fill(values=values, starred=set()).decode() == (
        "<p>me</p><form>T</form><b>☆</b>/<b>o</b>" + rest
    )
    assert changed.fill(values=values, starred={7, 9}).decode() == (
        "<p>me</p><form>T</form><b>★7</b>/<b>*9</b>" + rest
    )
    assert gzip.decompress(changed.gzip_plain(values=values)) == changed.fill(
        values=values, starred=set()
    )
    assert stencil.fill(values=values, starred={9}).decode() == (
        "<p>me</p><form>T</form><b>☆</b>|<b>★9</b>" + rest
    )
    with pytest.raises(ValueError, match="piece 3 is a hole, not text"):
        stencil.replaced({3: b"x"}, {})


def test_a_long_page_is_compressed_in_runs_and_a_replaced_piece_compresses_its_own() -> None:
    parts: list[Part] = [f"<p>{number}</p>".encode() * 2000 for number in range(100)]
    parts[40:40] = [Hole("csrf")]
    stencil = Stencil(parts, stars={})
    runs = [item for item in stencil.plain.sequence if isinstance(item, tuple)]
    assert (len(runs), len(stencil.plain.sequence)) == (13, 14)
    changed = stencil.replaced({70: b"<p>changed</p>"}, {})
    # The run holding piece 70 and the next, compressed against its end, are made again.
    same = [
        item is other
        for item, other in zip(stencil.plain.sequence, changed.plain.sequence, strict=True)
    ]
    assert same == [True] * 9 + [False, False] + [True] * 3
    # No run refers back across the hole (its value differs per request).
    assert stencil.plain.chained == [False] + [True] * 4 + [False, False] + [True] * 7
    values = {"csrf": b"T"}
    assert gzip.decompress(changed.gzip_plain(values=values)) == changed.fill(
        values=values, starred=set()
    )
    assert b"<p>changed</p><p>70</p>" in changed.fill(values=values, starred=set())


def test_a_star_control_may_not_hold_a_hole() -> None:
    markers = Markers()
    with pytest.raises(ValueError, match="a star control holds no hole"):
        Stencil(
            markers.cut(markers.mark("star", 1)),
            stars={1: (markers.cut(markers.mark("csrf")), ["x"])},
        )


def test_markers_are_new_for_every_rendering() -> None:
    assert Markers().mark("csrf") != Markers().mark("csrf")


def test_a_session_page_lists_the_next_sessions_of_its_track_and_links_to_all(
    client: Client, demo_programme
) -> None:
    from confsched.programme.services import create_event

    event = create_event(slug="track", name="Track", timezone="Europe/Paris")
    talk = demo_programme.sessions[0]
    sessions = [
        replace(
            talk, key=f"t{i:02}", title=f"Talk {i:02}", track="Compilers",
            starts_at=talk.starts_at + timedelta(minutes=30 * i),
            ends_at=talk.starts_at + timedelta(minutes=30 * i + 25),
        )
        for i in range(20)
    ]  # fmt: skip
    load_programme(event, replace(demo_programme, sessions=sessions))
    html = client.get("/track/sessions/t10/").content.decode()
    related = html[html.index('id="related-heading"') :]
    assert re.findall(r">Talk (\d\d)</a>", related) == ["11", "12", "13", "14", "15", "16"]
    assert '<a href="/track/?track=compilers">All 20 sessions in Compilers</a>' in related
    last = client.get("/track/sessions/t18/").content.decode()
    tail = last[last.index('id="related-heading"') :]
    assert re.findall(r">Talk (\d\d)</a>", tail) == ["13", "14", "15", "16", "17", "19"]


def test_threads_asking_for_one_missing_page_build_it_once() -> None:
    import threading

    from confsched.web.site.stencils import kept

    builds = []
    started = threading.Event()

    def build() -> Stencil:
        builds.append(1)
        started.wait(0.5)  # the other threads ask while this one builds
        return Stencil(["<p>page</p>"], stars={})

    found: list[Stencil] = []
    threads = [
        threading.Thread(target=lambda: found.append(kept("one-key", build))) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    started.set()
    for thread in threads:
        thread.join()
    assert (len(builds), len({id(stencil) for stencil in found})) == (1, 1)


@pytest.mark.parametrize("path", ["sessions/no-such-session/", "speakers/nobody/"])
def test_a_page_that_is_not_there_is_404_each_time_and_leaves_nothing_behind(
    client: Client, demo_event, path: str
) -> None:
    from confsched.web.site import stencils

    statuses = [client.get(BASE + path).status_code for _ in range(2)]
    assert (statuses, stencils._building) == ([404, 404], {})


def test_a_build_s_full_collection_waits_until_its_response_is_sent(
    client: Client, demo_event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The collection after a build scans everything the process keeps (0.1-0.3 s at 5,000
    sessions): it runs when Django says the response is finished, once, not in the request."""
    from django.core.signals import request_finished
    from django.db import close_old_connections

    from confsched.web.site import collection, stencils

    during: list[int] = []
    calls: list[str] = []
    monkeypatch.setattr(collection.gc, "collect", lambda *args: calls.append("collect"))
    stencils.forget_local_stencils()
    stencils.kept("test-build-key", lambda: during.append(len(calls)) or _stencil())
    assert (during, calls) == ([0], [])
    # As the test client sends it: without closing the test's database connection (Django's
    # own receiver closes it; PostgreSQL's then is gone for the rest of the test).
    request_finished.disconnect(close_old_connections)
    try:
        request_finished.send(sender=None)
        request_finished.send(sender=None)
    finally:
        request_finished.connect(close_old_connections)
    assert calls == ["collect"]
    # A page built whole in a request: collected after its response, once.
    Session.objects.filter(event__slug=DEMO_SLUG).update(title="Renamed")
    demo_event.save(update_fields=["updated_at"])
    calls.clear()
    assert client.get(f"/{DEMO_SLUG}/grid/").status_code == 200
    assert calls == ["collect"]
