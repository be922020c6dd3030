"""The feedback pages: the attendee's form, the organizers' page, the speaker's private page,
and the exports' feedback_url."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda import feedback
from confsched.agenda.models import Feedback, SpeakerFeedbackLink
from confsched.core import clock
from confsched.programme.models import Event, Session, Speaker
from tests.conftest import DEMO_SLUG
from tests.teams import on_team

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
PAGE = f"/{DEMO_SLUG}/sessions/{TORCHJD}/feedback/"
STAFF_PAGE = f"/{DEMO_SLUG}/feedback/"
DURING = datetime(2026, 4, 7, 12, 0, tzinfo=UTC)
BEFORE = datetime(2026, 4, 7, 9, 0, tzinfo=UTC)
AFTER = datetime(2026, 4, 16, 0, 0, tzinfo=UTC)


def _at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(clock, "now", lambda: moment)


def _text(html: str) -> str:
    main = html.split('<main id="main" class="wrap" tabindex="-1">', 1)[-1].split("<footer", 1)[0]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", main)).split())


def _client(name: str = "ada", *, role: str = "") -> Client:
    user = User.objects.create_user(name, f"{name}@example.org", "a fine password 7")
    if role:
        on_team(user, role)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def during(monkeypatch: pytest.MonkeyPatch) -> None:
    _at(monkeypatch, DURING)


def test_the_session_page_links_to_its_feedback(client: Client, demo_event: Event) -> None:
    html = client.get(f"/{DEMO_SLUG}/sessions/{TORCHJD}/").content.decode()
    assert re.findall(r'<a href="([^"]+)">Rate this session</a>', html) == [PAGE]


def test_a_visitor_is_told_to_log_in(client: Client, demo_event: Event, during: None) -> None:
    response = client.get(PAGE)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Attendees who are signed in can rate this session from 1 to 5" in _text(html)
    assert f'href="/accounts/login/?next={PAGE}"' in html
    assert '<form method="post" action="' + PAGE not in html
    assert response["Cache-Control"] == "private, no-store"


def test_a_visitors_post_goes_to_the_login_page(
    client: Client, demo_event: Event, during: None
) -> None:
    response = client.post(PAGE, {"rating": "4"})
    assert (response.status_code, response["Location"]) == (
        302,
        f"/accounts/login/?next={PAGE}",
    )
    assert Feedback.objects.count() == 0


def test_before_the_start_the_page_says_when_feedback_opens(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, BEFORE)
    html = _client().get(PAGE).content.decode()
    assert "Feedback opens at 11:45 on Tuesday 7 April, when the session starts" in _text(html)
    assert 'name="rating"' not in html


def test_after_the_close_the_page_says_it_is_closed_and_shows_ones_own(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client()
    _at(monkeypatch, DURING)
    assert client.post(PAGE, {"rating": "4", "comment": "Nice"}).status_code == 302
    _at(monkeypatch, AFTER)
    text = _text(client.get(PAGE).content.decode())
    assert (
        "Feedback on this session is closed: it could be given until the end of "
        "Wednesday 15 April 2026. You rated it 4 out of 5 and wrote: Nice"
    ) in text
    response = client.post(PAGE, {"rating": "5"})
    assert response.status_code == 400
    assert Feedback.objects.get().rating == 4


def test_a_signed_in_attendee_rates_then_edits(demo_event: Event, during: None) -> None:
    client = _client()
    html = client.get(PAGE).content.decode()
    assert re.findall(r"<legend>([^<]+)</legend>", html) == ["Your rating"]
    assert re.findall(r'<input type="radio" name="rating" value="(\d)"', html) == list("12345")
    assert ">Send feedback</button>" in html
    response = client.post(PAGE, {"rating": "4", "comment": "Clear and short."})
    assert (response.status_code, response["Location"]) == (302, PAGE + "#feedback-saved")
    html = client.get(PAGE).content.decode()
    assert "Saved: you rated this session 4 out of 5" in _text(html)
    assert re.findall(r'value="(\d)" required checked', html) == ["4"]
    assert ">Clear and short.</textarea>" in html
    assert ">Update feedback</button>" in html
    assert client.post(PAGE, {"rating": "5", "comment": "Better."}).status_code == 302
    assert list(Feedback.objects.values_list("rating", "comment")) == [(5, "Better.")]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"comment": "No rating given"}, "Choose a rating from 1 to 5 (got nothing)."),
        ({"rating": "6", "comment": "Six"}, "Choose a rating from 1 to 5 (got &#x27;6&#x27;)."),
        ({"rating": "3", "comment": "x" * 4001}, "Your comment is 4,001 characters long"),
    ],
    ids=["no rating", "rating 6", "long comment"],
)
def test_bad_input_is_answered_400_with_the_message_and_the_input_kept(
    demo_event: Event, during: None, data: dict, message: str
) -> None:
    response = _client().post(PAGE, data)
    html = response.content.decode()
    assert response.status_code == 400
    assert message in re.search(r'role="alert" id="feedback-error"><p>([^<]+)', html).group(1)
    assert f">{data['comment']}</textarea>" in html
    checked = re.findall(r'value="(\d)" required checked', html)
    assert checked == ([data["rating"]] if data.get("rating") in list("12345") else [])
    assert Feedback.objects.count() == 0


def test_the_throttle_answers_429(demo_event: Event, during: None, settings: object) -> None:
    settings.CONFSCHED_FEEDBACK_ACCOUNT_LIMIT = 2  # type: ignore[attr-defined]
    client = _client()
    assert [client.post(PAGE, {"rating": r}).status_code for r in "123"] == [302, 302, 429]
    response = client.post(PAGE, {"rating": "4"})
    assert (response.status_code, response["Retry-After"]) == (429, "600")
    assert "You sent feedback more than 2 times in 10 minutes." in _text(response.content.decode())
    assert Feedback.objects.get().rating == 2


def test_a_cancelled_session_has_nothing_to_rate(demo_event: Event, during: None) -> None:
    Session.objects.filter(event=demo_event, key=TORCHJD).update(is_cancelled=True)
    client = _client()
    assert "This session was cancelled: there is nothing to rate." in _text(
        client.get(PAGE).content.decode()
    )
    assert client.post(PAGE, {"rating": "4"}).status_code == 400
    assert client.get(f"/{DEMO_SLUG}/sessions/no-such/feedback/").status_code == 404


def test_the_staff_page_is_for_staff_only(client: Client, demo_event: Event) -> None:
    response = client.get(STAFF_PAGE)
    assert (response.status_code, response["Location"]) == (
        302,
        f"/accounts/login/?next={STAFF_PAGE}",
    )
    assert _client("bo").get(STAFF_PAGE).status_code == 404
    assert _client("cy").post(f"{STAFF_PAGE}speakers/valerian-rey/link").status_code == 404
    assert SpeakerFeedbackLink.objects.count() == 0


def test_the_staff_page_shows_figures_comments_and_links(demo_event: Event, during: None) -> None:
    torchjd = Session.objects.select_related("event").get(event=demo_event, key=TORCHJD)
    for index, (rating, comment) in enumerate([(5, "Loved it"), (4, ""), (4, "Good")]):
        user = User.objects.create_user(f"u{index}", f"u{index}@example.org", "x")
        feedback.give_feedback(user, torchjd, rating=rating, comment=comment)
    staff = _client("boss", role="editor")
    response = staff.get(STAFF_PAGE)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    html = response.content.decode()
    row = re.search(
        rf'<tr><th scope="row"><a href="#feedback-session-{torchjd.pk}">[^<]+</a></th>(.*?)</tr>',
        html,
    )
    assert re.findall(r'<td class="num">([^<]+)</td>', row.group(1)) == [
        "3", "4.33", "1", "2", "0", "0", "0",
    ]  # fmt: skip
    assert html.count('<svg class="chart feedback-chart"') == 1
    assert re.findall(r'<p class="feedback-comment">([^<]+)</p>', html) == ["Good", "Loved it"]
    assert "u0" not in _text(html)  # no names
    assert "3 ratings and 2 comments on 1 of 28 sessions." in _text(html)
    assert "27 other sessions not rated yet." in _text(html)
    # A speaker's link: made, shown, replaced.
    valerian = Speaker.objects.get(event=demo_event, key="valerian-rey")
    made = staff.post(f"{STAFF_PAGE}speakers/valerian-rey/link")
    assert (made.status_code, made["Location"]) == (302, f"{STAFF_PAGE}#speaker-{valerian.pk}")
    token = SpeakerFeedbackLink.objects.get(speaker=valerian).token
    html = staff.get(STAFF_PAGE).content.decode()
    assert f'value="http://testserver/{DEMO_SLUG}/feedback/speaker/{token}/"' in html
    assert (
        'class="secondary">New link<span class="visually-hidden"> for Valérian Rey</span></button>'
    ) in html
    staff.post(f"{STAFF_PAGE}speakers/valerian-rey/link")
    assert SpeakerFeedbackLink.objects.get(speaker=valerian).token != token
    assert staff.post(f"{STAFF_PAGE}speakers/nobody/link").status_code == 404


def test_the_speaker_page_shows_only_their_sessions_without_names(
    client: Client, demo_event: Event, during: None
) -> None:
    torchjd = Session.objects.select_related("event").get(event=demo_event, key=TORCHJD)
    helion = Session.objects.select_related("event").get(event=demo_event, key=HELION)
    ada = User.objects.create_user("ada", "ada@example.org", "x")
    feedback.give_feedback(ada, torchjd, rating=5, comment="Loved the demo.")
    feedback.give_feedback(ada, helion, rating=2, comment="For Oguz only.")
    valerian = Speaker.objects.get(event=demo_event, key="valerian-rey")
    token = feedback.speaker_link(valerian).token
    response = client.get(f"/{DEMO_SLUG}/feedback/speaker/{token}/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "same-origin"
    text = _text(response.content.decode())
    assert text.startswith("Feedback for Valérian Rey What attendees said")
    assert "1 rating so far" in text
    assert "Loved the demo." in text
    assert "For Oguz only." not in text
    assert "Helion" not in text
    assert "ada" not in text
    assert client.get(f"/{DEMO_SLUG}/feedback/speaker/not-a-token/").status_code == 404
    assert client.get(f"/{DEMO_SLUG}/feedback/speaker/{token}x/").status_code == 404


def test_the_exports_carry_each_sessions_feedback_url(client: Client, demo_event: Event) -> None:
    url = f"https://testserver/{DEMO_SLUG}/sessions/{TORCHJD}/feedback/"
    xml = client.get(f"/{DEMO_SLUG}/schedule.xml", secure=True).content.decode()
    assert xml.count("<feedback_url>") == 28
    assert f"<feedback_url>{url}</feedback_url>" in xml
    data = json.loads(client.get(f"/{DEMO_SLUG}/schedule.json", secure=True).content)
    events = [
        event
        for day in data["schedule"]["conference"]["days"]
        for room in day["rooms"].values()
        for event in room
    ]
    assert len(events) == 28
    assert {event["url"] + "feedback/" == event["feedback_url"] for event in events} == {True}
    assert next(e["feedback_url"] for e in events if e["url"].endswith(f"/{TORCHJD}/")) == url


def test_the_staff_page_costs_the_same_queries_however_much_feedback(
    demo_event: Event, during: None
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    staff = _client("boss", role="editor")
    sessions = list(
        Session.objects.published()
        .select_related("event")
        .filter(event=demo_event, is_cancelled=False, speakers__isnull=False)
        .distinct()[:6]
    )
    assert len(sessions) == 6

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert staff.get(STAFF_PAGE).status_code == 200
        return len(captured)

    feedback.give_feedback(User.objects.create_user("u0", "", "x"), sessions[0], rating=3)
    queries()  # the first page of a process reads the announcements once
    few = queries()
    for index, session in enumerate(sessions):
        user = User.objects.create_user(f"v{index}", "", "x")
        feedback.give_feedback(user, session, rating=index % 5 + 1, comment=f"c{index}")
        feedback.speaker_link(session.speakers.first())
    assert queries() == few
