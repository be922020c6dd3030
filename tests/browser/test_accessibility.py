"""axe-core (the npm package, installed by `make axe`) finds no WCAG 2.2 A or AA violation, of
any impact, on any page kind: the public pages, the account pages, an attendee's pages, the
organizers' pages and the error pages, at a phone's 375 px and a desktop's 1280 px
(docs/accessibility.md)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, PHONE, TORCHJD_KEY, signed_in
from tests.conftest import DEMO_SLUG, unavailable

AXE = (
    Path(__file__).resolve().parents[2] / "var" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
)
# Every rule of WCAG 2.0, 2.1 and 2.2 at levels A and AA; 2.2's target size is `target-size`.
WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
DURING = datetime(2026, 4, 7, 12, 0, tzinfo=UTC)  # 14:00 in Paris, TorchJD begun: rating is open

# Page kind: (address, the status it answers with). "E/" is the event's schedule, "S/" the site.
ANONYMOUS = {
    "home": ("S/", 200),
    "about": ("S/about/", 200),
    "api docs": ("S/api/v1/docs", 200),
    "log in": ("S/accounts/login/", 200),
    "sign up": ("S/accounts/signup/", 200),
    "password reset": ("S/accounts/password/reset/", 200),
    "password reset sent": ("S/accounts/password/reset/sent/", 200),
    "password reset done": ("S/accounts/password/reset/done/", 200),
    "list": ("E/", 200),
    "list filtered": ("E/?track=training-systems&q=torch", 200),
    "list empty": ("E/?q=nothing-matches-this", 200),
    "grid": ("E/grid/?date=2026-04-08", 200),
    "session": (f"E/sessions/{TORCHJD_KEY}/", 200),
    "speakers": ("E/speakers/", 200),
    "speaker": ("E/speakers/valerian-rey/", 200),
    "changes": ("E/changes/", 200),
    "version": ("E/v/1/", 200),
    "zones": ("E/zones/", 200),
    "elsewhere": ("E/elsewhere/", 200),
    "now": ("E/now/", 200),
    "search": ("E/search/?q=torch", 200),
    "embed": ("E/embed/", 200),
    "print index": ("E/print/", 200),
    "print day": ("E/print/2026-04-07/", 200),
    "error 404": ("E/sessions/no-such-session/", 404),
    "error 400": ("E/?tz=Nowhere/Atlantis", 400),
}
ATTENDEE = {
    "agenda": ("E/agenda/", 200),
    "favourites": ("E/agenda/favourites/", 200),
    "plan": ("E/plan/", 200),
    "notifications' devices": ("E/agenda/devices/", 200),
    "grid signed in": ("E/grid/", 200),
    "session signed in": (f"E/sessions/{TORCHJD_KEY}/", 200),
    "seat": (f"E/sessions/{TORCHJD_KEY}/seat/", 200),
    "rate": (f"E/sessions/{TORCHJD_KEY}/feedback/", 200),
    "people": ("E/people/", 200),
    "profile": ("E/profile/", 200),
    "going": (f"E/sessions/{TORCHJD_KEY}/going/", 200),
    "password change": ("S/accounts/password/change/", 200),
    "password change done": ("S/accounts/password/change/done/", 200),
    "account delete": ("S/accounts/delete/", 200),
}
STAFF = {
    "insight": ("E/insight/", 200),
    "draft": ("E/draft/", 200),
    "editor": ("E/draft/edit/", 200),
    "seats": ("E/seats/", 200),
    "reservations": (f"E/sessions/{TORCHJD_KEY}/reservations/", 200),
    "check-in": ("E/checkin/", 200),
    "check-in session": (f"E/sessions/{TORCHJD_KEY}/checkin/", 200),
    "team": ("E/team/", 200),
    "speakers' links": ("E/team/speakers/", 200),
    "speakers' changes": ("E/team/speakers/review/", 200),
    "announcements": ("E/team/announcements/", 200),
    "feedback staff": ("E/feedback/", 200),
}
# A speaker's own pages ("P/" is the speaker's page at the event, after the site's /speaker/).
SPEAKER = {
    "speaker home": ("S/speaker/", 200),
    "speaker profile": ("P/", 200),
    "speaker session": (f"P/sessions/{TORCHJD_KEY}/", 200),
    "speaker link dead": ("S/speaker/0.0/", 404),
}


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        unavailable(f"axe-core is not at {AXE} (run: make axe)", "CONFSCHED_REQUIRE_BROWSER")
    return AXE.read_text()


def _serious(page, source: str) -> list[str]:  # noqa: ANN001 - a Playwright page
    """The serious and critical violations of axe's default rules (the flow tests' check)."""
    page.evaluate(source)  # evaluated by the browser's debugger protocol: CSP does not apply
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target)}))"
    )
    return [json.dumps(v) for v in found]


def wcag22_violations(page, source: str) -> list[str]:  # noqa: ANN001 - a Playwright page
    """Every violation, whatever its impact, of axe's WCAG 2.0-2.2 A and AA rules."""
    page.evaluate(source)
    found = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, nodes: v.nodes.slice(0, 3).map(n => n.target)}))",
        WCAG22_AA,
    )
    return [json.dumps(v, ensure_ascii=False) for v in found]


def _waiting_changes() -> None:
    """A speaker's profile and links waiting for review, and a new photo being prepared by the
    worker (which the live server does not run: its pages ask again every 2 s), once for both
    widths."""
    from confsched.programme.models import Session, Speaker
    from confsched.speakers.models import PhotoUpload, ProposedChange

    speaker = Speaker.objects.get(event__slug=DEMO_SLUG, key="valerian-rey")
    if ProposedChange.objects.filter(speaker=speaker).exists():
        return
    ProposedChange.objects.create(
        speaker=speaker, kind="profile", proposed_by="valerian",
        values={"bio": "Builds fast models.", "links": [{"url": "https://code.example/v"}]},
    )  # fmt: skip
    session = Session.objects.filter(speaker_links__speaker=speaker).first()
    ProposedChange.objects.create(
        speaker=speaker, session=session, kind="links", proposed_by="valerian",
        values={"links": [{"url": "https://video.example/v", "title": "Recording", "kind": "video"}]},
    )  # fmt: skip
    PhotoUpload.objects.create(
        speaker=speaker, kind="upload", source=f"incoming/{'0' * 20}.jpg", filename="me.jpg",
        by="valerian",
    )  # fmt: skip


def _problems(page, urls: dict[str, int], source: str, site: str) -> dict[str, list[str]]:  # noqa: ANN001
    """The WCAG 2.2 violations of each address (answered with its status), by its path."""
    return _visit(
        page,
        {url.removeprefix(site): (url, status) for url, status in urls.items()},
        source,
        "",
        site,
    )


def _visit(page, kinds: dict, source: str, event: str, site: str) -> dict[str, list[str]]:  # noqa: ANN001
    problems = {}
    # The search page loads the search-by-meaning model on its first request, which on a busy
    # two-core machine took longer than the usual ten seconds: this test is about access.
    page.set_default_navigation_timeout(60_000)
    for kind, (address, status) in kinds.items():
        url = event + address[2:] if address.startswith("E/") else address
        url = site + address[1:] if address.startswith("S/") else url
        response = page.goto(url)
        assert response is not None and response.status == status, kind
        page.wait_for_load_state("networkidle")
        found = wcag22_violations(page, source)
        if found:
            problems[kind] = found
    return problems


@pytest.mark.browser
@pytest.mark.parametrize("width", [375, 1280])
def test_every_page_kind_meets_wcag22_aa(
    new_context, demo_live: str, axe_source: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    from django.contrib.auth.models import User
    from django.test import Client

    from confsched.core import clock
    from confsched.programme.models import Event

    monkeypatch.setattr(clock, "now", lambda: DURING)  # the live server runs in this process
    Event.objects.filter(slug=DEMO_SLUG).update(languages="en, fr, de")  # the language links
    viewport = PHONE if width == 375 else DESKTOP
    site = demo_live.split("/pytorch-conference-europe-2026/")[0]
    problems = _visit(
        new_context(viewport=viewport).new_page(), ANONYMOUS, axe_source, demo_live, site
    )

    # An attendee with a star and a shared agenda; its shared page is a page kind of its own.
    context = new_context(viewport=viewport)
    ada = signed_in(context, site, "ada")
    client = Client()
    client.force_login(ada)
    base = "/" + demo_live.split("/", 3)[3]
    client.post(f"{base}sessions/{TORCHJD_KEY}/star", {"starred": "1", "next": base})
    client.post(f"{base}agenda/share", {"share": "on"})
    page = context.new_page()
    page.goto(demo_live + "agenda/")
    shared = page.locator("#agenda-share-url").input_value()
    attendee = ATTENDEE | {"shared agenda": (shared, 200)}
    problems |= _visit(page, attendee, axe_source, demo_live, site)

    context = new_context(viewport=viewport)
    signed_in(context, site, "boss", role="owner")
    _waiting_changes()  # the review queue shows its differences
    problems |= _visit(context.new_page(), STAFF, axe_source, demo_live, site)

    # A speaker: their link's door (signed out), then their own pages.
    from confsched.programme.models import Speaker
    from confsched.speakers import passes

    speaker = Speaker.objects.get(event__slug=DEMO_SLUG, key="valerian-rey")
    door = f"S/speaker/{passes.token_for(passes.issue_pass(speaker, by='boss'))}/"
    problems |= _visit(
        new_context(viewport=viewport).new_page(), {"speaker link": (door, 200)}, axe_source,
        demo_live, site,
    )  # fmt: skip
    context = new_context(viewport=viewport)
    valerian = signed_in(context, site, "valerian")
    passes.use_pass(passes.live_pass(speaker), signed_in=valerian)
    own = f"S/speaker/{DEMO_SLUG}/{speaker.key}/"
    kinds = {
        kind: (own + a[2:] if a.startswith("P/") else a, s) for kind, (a, s) in SPEAKER.items()
    }
    problems |= _visit(context.new_page(), kinds, axe_source, demo_live, site)
    assert User.objects.count() == 3
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)
