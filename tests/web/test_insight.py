"""The organizers' insight page and the public "likely full" mark."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core.cache import cache

from confsched.agenda.models import AgendaItem, VisitorStar
from confsched.programme.insight import BAR_SPACE
from confsched.programme.models import Event, Room, Session
from tests.conftest import DEMO_SLUG
from tests.teams import on_team

URL = f"/{DEMO_SLUG}/insight/"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # Master Stage, 11:00
TRAINING = (  # Junior Stage, 11:00
    "lightning-talk-training-embedding-model-resiliently-for-multimodal-model-inference-routing"
)
FORECAST = (  # Central Room, 11:00
    "lightning-talk-why-your-forecasting-transformer-isnt-working-and-how-to-fix-it-in-python"
)
TOUR = "tour-de-force-llm-inference-optimization-from-simple-to-sophisticated"  # Master, 11:30


@pytest.fixture
def starred(demo_event, django_user_model):  # noqa: ANN001, ANN201 - pytest fixture
    """Master Stage 4 seats, Junior Stage 10, the others unknown; five attendees' stars."""
    Room.objects.filter(event=demo_event, name="Master Stage").update(capacity=4)
    Room.objects.filter(event=demo_event, name="Junior Stage").update(capacity=10)
    people = [django_user_model.objects.create_user(f"u{i}", password="pw") for i in range(5)]
    sessions = {s.key: s for s in Session.objects.filter(event=demo_event)}
    for key, fans in ((HELION, 3), (TRAINING, 2), (FORECAST, 5), (TOUR, 3)):
        for person in people[:fans]:
            AgendaItem.objects.create(user=person, session=sessions[key])
    VisitorStar.objects.create(visitor="v1", session=sessions[HELION])
    return demo_event


@pytest.fixture
def staff(client, django_user_model, demo_event):  # noqa: ANN001, ANN201 - pytest fixture
    user = django_user_model.objects.create_user("boss", password="pw")
    client.force_login(on_team(user, "viewer"))
    return client


def _bars(html: str, chart: int) -> list[tuple[str, str]]:
    svg = re.findall(r"<svg .*?</svg>", html, flags=re.S)[chart]
    return re.findall(r'<rect class="bar" [^>]*width="(\d+)"[^>]*><title>([^<]*)</title>', svg)


@pytest.mark.django_db
def test_insight_anonymous_goes_to_login(client, demo_event) -> None:  # noqa: ANN001
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={URL}"


@pytest.mark.django_db
def test_insight_attendee_gets_404(client, demo_event, django_user_model) -> None:  # noqa: ANN001
    client.force_login(django_user_model.objects.create_user("fan", password="pw"))
    assert client.get(URL).status_code == 404


@pytest.mark.django_db
def test_insight_unknown_event_404(staff) -> None:  # noqa: ANN001
    assert staff.get("/no-such-event/insight/").status_code == 404


@pytest.mark.django_db
def test_insight_counts_and_flags(staff, starred) -> None:  # noqa: ANN001
    response = staff.get(URL)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    rows = [
        (d.row.key, d.row.stars, d.row.capacity, d.fill_percent, d.is_likely_full)
        for d in response.context["demands"]
    ]
    assert rows[:4] == [
        (HELION, 4, 4, 100, True),  # three accounts and a visitor
        (TOUR, 3, 4, 75, False),
        (TRAINING, 2, 10, 20, False),
        ("lightning-talk-flexible-deployment-of-pytorch-models-on-mcu-class-devices-using-executorch",
         0, 10, 0, False),
    ]  # fmt: skip
    assert len(rows) == 28
    assert rows[-1][2:] == (None, None, False)
    assert response.context["likely_full_count"] == 1
    assert response.context["total_stars"] == 14
    slots = [(f"{s.starts_at:%a %H:%M}", s.sessions, s.stars) for s in response.context["slots"]]
    assert len(slots) == 14
    assert slots[:2] == [("Tue 11:00", 3, 11), ("Tue 11:15", 1, 0)]
    assert ("Tue 11:30", 2, 3) in slots
    html = response.content.decode()
    assert "1 session likely full; 11 in rooms without a known capacity." in html
    assert '<tr class="likely-full"><th scope="row"><a href="/' in html


@pytest.mark.django_db
def test_insight_attendees_per_star_moves_the_flag(staff, starred) -> None:  # noqa: ANN001
    Event.objects.filter(pk=starred.pk).update(attendees_per_star=Decimal("1.5"))
    demands = staff.get(URL).context["demands"]
    assert [(d.row.key, d.fill_percent) for d in demands if d.is_likely_full] == [
        (HELION, 150),
        (TOUR, 112),
    ]


@pytest.mark.django_db
def test_insight_svg_one_bar_per_session_and_slot(staff, starred) -> None:  # noqa: ANN001
    html = staff.get(URL).content.decode()
    fills = _bars(html, 0)
    assert len(fills) == 17  # the sessions in Master and Junior Stage, the rooms with seats
    assert fills[:3] == [
        (str(BAR_SPACE), "Helion 1.0: A High-Level DSL for Performance Portable Kernels: 100 %"),
        (str(round(BAR_SPACE * 0.75)), "Tour De Force: LLM Inference Optimization From Simple "
         "To Sophisticated: 75 %"),
        (str(round(BAR_SPACE * 0.2)), "Training Embedding Model Resiliently for "
         "Multimodal Model Inference Routing: 20 %"),
    ]  # fmt: skip
    slots = _bars(html, 1)
    assert len(slots) == 14
    assert slots[0] == (str(BAR_SPACE), "Tue 11:00: 11")
    assert ("0", "Tue 11:15: 0") in slots
    assert (str(round(BAR_SPACE * 3 / 11)), "Tue 11:30: 3") in slots
    assert "style=" not in html


@pytest.mark.django_db
def test_insight_queries_bounded(staff, starred, django_assert_num_queries) -> None:  # noqa: ANN001
    staff.get(URL)  # warm what the first request loads once
    # The session, the user, the person's roles, the event, the sessions, visitors' stars,
    # the reservations.
    with django_assert_num_queries(7):
        staff.get(URL)
    more = Session.objects.filter(event=starred).exclude(key=HELION)
    for session in more:
        VisitorStar.objects.create(visitor="v2", session=session)
    with django_assert_num_queries(7):
        assert staff.get(URL).context["total_stars"] == 14 + 27


def _session_page(client, key: str) -> str:  # noqa: ANN001 - the test client
    return client.get(f"/{DEMO_SLUG}/sessions/{key}/").content.decode()


@pytest.mark.django_db
def test_session_likely_full_hidden_unless_turned_on(client, starred) -> None:  # noqa: ANN001
    assert "Likely full" not in _session_page(client, HELION)


@pytest.mark.django_db
def test_session_likely_full_shown_when_on(client, starred) -> None:  # noqa: ANN001
    Event.objects.filter(pk=starred.pk).update(show_likely_full=True)
    assert '<p class="likely-full-note">Likely full:' in _session_page(client, HELION)
    assert "Likely full" not in _session_page(client, TOUR)


@pytest.mark.django_db
def test_session_likely_full_follows_stars_within_a_minute(client, starred) -> None:  # noqa: ANN001
    Event.objects.filter(pk=starred.pk).update(show_likely_full=True)
    assert "Likely full" not in _session_page(client, TOUR)
    VisitorStar.objects.create(visitor="v9", session=Session.objects.get(key=TOUR))
    # Kept for a minute: the same page until the per-event set is built again.
    assert "Likely full" not in _session_page(client, TOUR)
    cache.delete(f"likely-full:{starred.pk}:1.0")  # what the minute's end does
    assert "Likely full" in _session_page(client, TOUR)
    assert "Likely full" in _session_page(client, HELION)


@pytest.mark.django_db
def test_session_likely_full_costs_no_query_once_kept(  # noqa: ANN001
    client, starred, django_assert_num_queries
) -> None:
    _session_page(client, HELION)
    with django_assert_num_queries(1):  # the event: the kept page needs nothing else
        _session_page(client, HELION)
    Event.objects.filter(pk=starred.pk).update(show_likely_full=True)
    _session_page(client, HELION)
    with django_assert_num_queries(1):  # and so with the mark on, the set being kept
        _session_page(client, HELION)


def _card_of(html: str, title: str) -> str:
    start = html.index(title)
    return html[html.rindex('<article class="card', 0, start) : html.index("</article>", start)]


@pytest.mark.django_db
def test_cards_say_likely_full_when_the_event_shows_it(client, starred) -> None:  # noqa: ANN001
    helion = Session.objects.get(key=HELION).title
    tour = Session.objects.get(key=TOUR).title
    for page in ("", "grid/"):
        assert "Likely full" not in client.get(f"/{DEMO_SLUG}/{page}").content.decode()
    Event.objects.filter(pk=starred.pk).update(show_likely_full=True)
    for page in ("", "grid/"):
        html = client.get(f"/{DEMO_SLUG}/{page}").content.decode()
        assert '<span class="tag tag-full">Likely full</span>' in _card_of(html, helion)
        assert "Likely full" not in _card_of(html, tour)
    # A star that makes another session likely full shows on the cards once the set is anew.
    VisitorStar.objects.create(visitor="v9", session=Session.objects.get(key=TOUR))
    cache.delete(f"likely-full:{starred.pk}:1.0")
    html = client.get(f"/{DEMO_SLUG}/").content.decode()
    assert '<span class="tag tag-full">Likely full</span>' in _card_of(html, tour)
