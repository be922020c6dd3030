"""The planner page: the form, the proposal beside the stars, taking it."""

from __future__ import annotations

import re

import pytest

from confsched.agenda.models import VisitorStar
from confsched.programme.models import Session
from confsched.web.agenda.plan import clash_groups
from tests.conftest import DEMO_SLUG

URL = f"/{DEMO_SLUG}/plan/"
TRAINING_PLAN = [
    "lightning-talk-training-embedding-model-resiliently-for-multimodal-model-inference-routing",
    "lightning-talk-torchjd-jacobian-descent-in-pytorch",
    "lightning-talk-bringing-googles-colossus-to-pytorch-rapid-storage-via-fsspec-to-keep-gpus-busy",
    "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training",
    "optimizing-reinforcement-learning-at-trillion-parameter-scale",
]


def _proposed(response) -> list[str]:  # noqa: ANN001 - a test client response
    return [session.key for session in response.context["proposal"].sessions]


def _starred_keys(client) -> list[str]:  # noqa: ANN001 - the test client
    visitor = client.session.get("visitor", "")
    return sorted(
        VisitorStar.objects.filter(visitor=visitor).values_list("session__key", flat=True)
    )


@pytest.mark.django_db
def test_plan_page_form_only_on_first_visit(client, demo_event) -> None:  # noqa: ANN001
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Proposed agenda" not in html
    assert 'name="track" value="training-systems"' in html
    assert 'name="level" value="intermediate"' in html
    assert '<input type="checkbox" id="p-keep" name="keep" value="1" checked>' in html
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.django_db
def test_plan_page_track_proposes_clash_free_sessions(client, demo_event) -> None:  # noqa: ANN001
    response = client.get(URL, {"track": "training-systems", "planned": "1"})
    assert _proposed(response) == TRAINING_PLAN
    assert response.context["new_count"] == 5
    html = response.content.decode()
    assert "5 sessions with no overlaps, 5 not starred yet." in html
    assert html.count('form="take-form"') == 6  # five boxes and the button


@pytest.mark.django_db
def test_plan_page_unknown_track_is_named(client, demo_event) -> None:  # noqa: ANN001
    response = client.get(URL, {"track": ["nope", "training-systems"], "planned": "1"})
    assert response.context["asked"].problems == [
        "ignored track 'nope': this event has no such track"
    ]
    assert (
        "ignored track &#x27;nope&#x27;: this event has no such track" in response.content.decode()
    )
    assert _proposed(response) == TRAINING_PLAN


@pytest.mark.django_db
def test_plan_page_keeps_stars_as_must_see(client, demo_event) -> None:  # noqa: ANN001
    # A star that overlaps the first training session: kept, the training one dropped.
    first = Session.objects.get(key=TRAINING_PLAN[0])
    other = (
        Session.objects.filter(event=demo_event, starts_at=first.starts_at)
        .exclude(pk=first.pk)
        .order_by("key")
        .first()
    )
    client.post(f"/{DEMO_SLUG}/sessions/{other.key}/star", {"starred": "1"})
    kept = client.get(URL, {"track": "training-systems", "planned": "1", "keep": "1"})
    assert _proposed(kept) == [other.key, *TRAINING_PLAN[1:]]
    assert "Already starred" in kept.content.decode()
    free = client.get(URL, {"track": "training-systems", "planned": "1"})
    assert _proposed(free) == TRAINING_PLAN
    mine = free.context["mine"]
    assert [s.key for s in mine] == [other.key]
    assert [s.key for s in mine[0].clashes_with] == [TRAINING_PLAN[0]]


@pytest.mark.django_db
def test_plan_take_stars_the_ticked_sessions_and_redirects(client, demo_event) -> None:  # noqa: ANN001
    back = f"{URL}?track=training-systems&planned=1"
    client.get(URL)  # a session with a CSRF cookie, as a browser has
    response = client.post(URL, {"session": TRAINING_PLAN[:2], "next": back})
    assert response.status_code == 302
    assert response["Location"] == back
    assert _starred_keys(client) == sorted(TRAINING_PLAN[:2])


@pytest.mark.django_db
def test_plan_take_ignores_unknown_keys_and_foreign_next(client, demo_event) -> None:  # noqa: ANN001
    response = client.post(
        URL, {"session": ["no-such-session", TRAINING_PLAN[0]], "next": "https://evil.example/"}
    )
    assert response["Location"] == URL
    assert _starred_keys(client) == [TRAINING_PLAN[0]]


@pytest.mark.django_db
def test_plan_take_needs_csrf(demo_event) -> None:  # noqa: ANN001
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post(URL, {"session": TRAINING_PLAN[:1]})
    assert response.status_code == 403
    assert VisitorStar.objects.count() == 0


@pytest.mark.django_db
def test_plan_page_unknown_event_is_404(client) -> None:  # noqa: ANN001
    assert client.get("/no-such-event/plan/").status_code == 404


@pytest.mark.django_db
def test_plan_page_walking_time_from_event(client, demo_event) -> None:  # noqa: ANN001
    demo_event.walking_minutes = 60
    demo_event.save()
    response = client.get(URL, {"track": "training-systems", "planned": "1"})
    assert "leaving 60 minutes to walk between rooms" in response.content.decode()
    keys = _proposed(response)
    # 09:10 to 09:45 or 10:00 in another room is too short a walk: three sessions fit.
    assert keys == [TRAINING_PLAN[0], TRAINING_PLAN[3], TRAINING_PLAN[4]]


@pytest.mark.django_db
def test_agenda_links_to_planner(client, demo_event) -> None:  # noqa: ANN001
    html = client.get(f"/{DEMO_SLUG}/agenda/").content.decode()
    assert f'<a href="{URL}">Plan a clash-free agenda from what you care about</a>' in html


@pytest.mark.django_db
def test_plan_page_query_count_is_fixed(client, demo_event, django_assert_max_num_queries) -> None:  # noqa: ANN001
    client.get(URL)
    with django_assert_max_num_queries(8):
        client.get(URL, {"track": "training-systems", "q": "pytorch", "planned": "1"})


@pytest.mark.django_db
def test_admin_edits_walking_minutes(admin_client, demo_event) -> None:  # noqa: ANN001
    url = f"/admin/programme/event/{demo_event.pk}/change/"
    html = admin_client.get(url).content.decode()
    assert 'name="walking_minutes" value="0"' in html
    data = {
        "slug": demo_event.slug, "name": demo_event.name, "timezone": demo_event.timezone,
        "location": "", "embed_origins": "", "walking_minutes": "-3", "attendees_per_star": "1.0",
        "feedback_days": "7", "allow_double_booking": "on", "default_language": "en",
    }  # fmt: skip
    refused = admin_client.post(url, data)
    assert refused.status_code == 200
    assert "Ensure this value is greater than or equal to 0." in refused.content.decode()
    demo_event.refresh_from_db()
    assert demo_event.walking_minutes == 0
    assert admin_client.post(url, {**data, "walking_minutes": "7"}).status_code == 302
    demo_event.refresh_from_db()
    assert demo_event.walking_minutes == 7


@pytest.mark.django_db
def test_plan_page_says_three_overlapping_must_sees_once(client, demo_event) -> None:  # noqa: ANN001
    # Issue 29: three starred talks at one time were three pairs, "Two must-sees overlap:" thrice.
    first = Session.objects.get(key=TRAINING_PLAN[0])
    three = list(
        Session.objects.filter(event=demo_event, starts_at=first.starts_at).order_by("key")[:3]
    )
    assert len(three) == 3
    for session in three:
        client.post(f"/{DEMO_SLUG}/sessions/{session.key}/star", {"starred": "1"})
    html = client.get(URL, {"planned": "1", "keep": "1"}).content.decode()
    notes = re.findall(r'<p class="clash" role="note">(.*?)</p>', html)
    assert [" ".join(re.sub(r"<[^>]+>", "", note).split()) for note in notes] == [
        f"3 must-sees overlap: {three[0].title}, {three[1].title} and {three[2].title}; "
        "the plan keeps as many must-sees as fit."
    ]
    assert "Two must-sees overlap" not in html


def test_clash_groups_join_pairs_that_share_a_session() -> None:
    pairs = [("a", "b"), ("c", "d"), ("b", "c"), ("a", "c"), ("e", "f")]
    assert clash_groups(pairs) == [["a", "b", "c", "d"], ["e", "f"]]
    assert clash_groups([("a", "b")]) == [["a", "b"]]
    assert clash_groups([]) == []
