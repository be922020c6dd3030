"""A session page after a change (web/sessions/frames.py): the page of the version before when
the change touched nothing it shows, else built again; either way byte for byte what a plain
render (CONFSCHED_PAGE_STENCILS off) gives."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from django.test import Client
from django.utils import timezone

from confsched.interchange import programme as pm
from confsched.programme.models import Event, Session
from confsched.programme.services import create_event, load_programme
from confsched.search.models import SessionEmbedding
from confsched.search.semantic import DIMENSIONS, MODEL_NAME

pytestmark = pytest.mark.django_db

SLUG = "frames"
TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')
# Two words a title, none shared but where said: similar sessions by words are the page's
# session's title's neighbours only.
WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
    "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber basalt "
    "cobalt dune ember fjord glacier harbor iris jasper kestrel lagoon meadow nimbus onyx "
    "prism quill raven saffron thistle umber vortex"
).split()
PAGE = "t0"  # the page looked at: track A, its title shares "bravo" with t5 (track C)


def _programme(**changed: dict) -> pm.Programme:
    """Twenty-four sessions in tracks A, B and C, four rooms each hour: track A has eight."""
    start = datetime(2030, 5, 6, 8, tzinfo=UTC)
    sessions = []
    for number in range(24):
        slot = start + timedelta(hours=number // 4)
        title = f"{WORDS[2 * number].title()} {WORDS[2 * number + 1]}"
        if number == 5:
            title = "Bravo again"
        session = pm.Session(
            key=f"t{number}", title=title, starts_at=slot, ends_at=slot + timedelta(minutes=50),
            room=f"Room {number % 4}", track="ABC"[number % 3], kind="Talk",
        )  # fmt: skip
        sessions.append(replace(session, **changed.get(session.key, {})))
    return pm.Programme(sessions=sessions)


@pytest.fixture
def event() -> Event:
    made = create_event(slug=SLUG, name="Frames", timezone="Europe/Paris")
    load_programme(made, _programme())
    return made


def _similar(page: str) -> list[str]:
    section = page.split('id="similar-heading"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'href="/frames/sessions/(t\d+)/"', section)


def _page(key: str = PAGE) -> str:
    response = Client().get(f"/{SLUG}/sessions/{key}/")
    assert response.status_code == 200
    return TOKEN.sub(r'\1…"', response.content.decode())


def _checked(renders: Counter[str], settings, *, is_kept: bool) -> str:  # noqa: ANN001
    """The page now, after asserting it is what a plain render gives and that it was the frame
    (no template run) or built whole (one)."""
    renders.clear()
    built = _page()
    rendered = renders["confsched/session.html"]
    settings.CONFSCHED_PAGE_STENCILS = False
    assert built == _page()
    settings.CONFSCHED_PAGE_STENCILS = True
    assert rendered == (0 if is_kept else 1)
    return built


def _import(event: Event, **changed: dict) -> None:
    assert load_programme(event, _programme(**changed)).version is not None


# Per change: what it does, and whether the page of PAGE is the one before (no template run).
CHANGES: dict[str, tuple[Callable[[Event], None], bool]] = {
    "a session far away renamed": (lambda e: _import(e, t4={"title": "Quartz spire"}), True),
    "one far away moved within its track": (
        lambda e: _import(
            e,
            t7={
                "starts_at": datetime(2030, 5, 6, 17, tzinfo=UTC),
                "ends_at": datetime(2030, 5, 6, 18, tzinfo=UTC),
            },
        ),
        True,
    ),  # fmt: skip
    "the page's session renamed": (lambda e: _import(e, t0={"title": "Alpha renamed"}), False),
    "a session of its track renamed": (lambda e: _import(e, t9={"title": "Quartz spire"}), False),
    "a session far away joins its track": (lambda e: _import(e, t4={"track": "A"}), False),
    "one shown leaves its track": (lambda e: _import(e, t18={"track": "B"}), False),
    "one not shown leaves its track": (lambda e: _import(e, t21={"track": "B"}), False),
    "a title now shares a word of its title": (
        lambda e: _import(e, t4={"title": "Alpha spire"}),
        False,
    ),
    "the similar one renamed": (lambda e: _import(e, t5={"title": "Quartz spire"}), False),
    "a write the journal does not follow": (
        lambda e: Event.objects.filter(pk=e.pk).update(updated_at=timezone.now()),
        False,
    ),
}


@pytest.mark.parametrize("change", CHANGES)
def test_after_each_change_the_session_page_is_what_a_plain_render_gives(
    event: Event, renders: Counter[str], settings, change: str
) -> None:
    _page()  # built, and kept as its frame
    make, is_kept = CHANGES[change]
    make(event)
    _checked(renders, settings, is_kept=is_kept)


def test_the_page_a_track_lists_and_the_similar_by_words(event: Event) -> None:
    """The premises the cases above stand on: t0's page lists its track's next sessions and,
    as similar, t5 only (the one title sharing a word)."""
    page = _page()
    section = page.split('id="similar-heading"', 1)[1]
    assert _similar(page) == ["t5"]
    track = re.findall(r'href="/frames/sessions/(t\d+)/"', section.split("</section>", 1)[1])
    assert sorted(track[:6]) == ["t12", "t15", "t18", "t3", "t6", "t9"]


def _vectors(event: Event, near: dict[str, float]) -> None:
    """Vectors for every session: PAGE's along the first axis, each of `near` at that cosine
    to it, the others orthogonal to it and to each other."""
    rows = Session.objects.filter(event=event).order_by("pk")
    for index, session in enumerate(rows):
        vector = np.zeros(DIMENSIONS, dtype="<f4")
        if session.key == PAGE:
            vector[0] = 1.0
        else:
            cosine = near.get(session.key, 0.0)
            vector[0], vector[1 + index] = cosine, (1 - cosine**2) ** 0.5
        SessionEmbedding.objects.create(
            session=session, model_name=MODEL_NAME, text_digest="-", vector=vector.tobytes()
        )
    Event.objects.filter(pk=event.pk).update(embedded_at=timezone.now())


@pytest.mark.parametrize(
    ("back", "is_kept"),
    [("t10", True), ("t16", False)],
    ids=["a far one back in the programme", "a near one back in the programme"],
)
def test_by_meaning_a_session_back_in_the_programme_rebuilds_only_where_it_ranks(
    event: Event, renders: Counter[str], settings, back: str, is_kept: bool
) -> None:
    near = {"t4": 0.9, "t7": 0.8, "t8": 0.7, "t11": 0.6, "t13": 0.5, "t16": 0.95, "t10": 0.1}
    _vectors(event, near)
    gone = _programme()
    load_programme(event, replace(gone, sessions=[s for s in gone.sessions if s.key != back]))
    page = _page()  # back is cancelled: listed, not a candidate for similar sessions
    nearest = ["t16", "t4", "t7", "t8", "t11", "t13"]
    assert _similar(page) == [key for key in nearest if key != back][:5]
    load_programme(event, _programme())  # back again
    built = _checked(renders, settings, is_kept=is_kept)
    assert _similar(built) == nearest[:5]


@pytest.mark.parametrize(
    ("key", "cosine", "is_kept"),
    [("t10", 0.2, True), ("t10", 0.85, False), ("t4", 0.3, False)],
    ids=["one far away embedded again, still far", "one embedded again near", "a shown one"],
)
def test_by_meaning_new_vectors_rebuild_only_the_pages_they_reach(
    event: Event, renders: Counter[str], settings, key: str, cosine: float, is_kept: bool
) -> None:
    """The worker embeds a changed session after the change (a new `embedded_at`): a page is
    built again only when that session's new vector can show among its similar sessions."""
    _vectors(event, {"t4": 0.9, "t7": 0.8, "t8": 0.7, "t11": 0.6, "t13": 0.5, "t10": 0.1})
    assert _similar(_page()) == ["t4", "t7", "t8", "t11", "t13"]
    row = SessionEmbedding.objects.get(session__event=event, session__key=key)
    vector = np.frombuffer(row.vector, dtype="<f4").copy()
    other = int(np.flatnonzero(vector[1:])[0]) + 1  # its own axis
    vector[0], vector[other] = cosine, (1 - cosine**2) ** 0.5
    row.vector = vector.tobytes()
    row.save()
    Event.objects.filter(pk=event.pk).update(embedded_at=timezone.now())
    _checked(renders, settings, is_kept=is_kept)
