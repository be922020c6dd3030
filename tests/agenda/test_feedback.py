"""Session feedback: the window to the second, ratings and comments checked, one row per
attendee and session, the figures, the speakers' private links and the throttle."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from confsched.agenda import feedback
from confsched.agenda.feedback import FeedbackError, FeedbackThrottledError, Summary
from confsched.agenda.feedback_chart import distribution_svg
from confsched.agenda.models import Feedback, SpeakerFeedbackLink
from confsched.core import clock
from confsched.programme.models import Event, Session, Speaker

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"  # 7 Apr 11:45 Paris, 2 speakers
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"  # 11:00, Oguz Ulgen
TORCHJD_STARTS = datetime(2026, 4, 7, 9, 45, tzinfo=UTC)
# The event ends on 8 April; 7 feedback days later, the 15th ends at midnight in Paris (UTC+2).
CLOSES = datetime(2026, 4, 15, 22, 0, tzinfo=UTC)
DURING = datetime(2026, 4, 7, 12, 0, tzinfo=UTC)


def _at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(clock, "now", lambda: moment)


def _session(event: Event, key: str) -> Session:
    return Session.objects.select_related("event").get(event=event, key=key)


def _user(name: str = "ada") -> User:
    return User.objects.create_user(name, f"{name}@example.org", "a fine password 7")


def test_the_window_runs_from_the_start_to_the_end_of_the_last_feedback_day(
    demo_event: Event,
) -> None:
    session = _session(demo_event, TORCHJD)
    assert feedback.feedback_window(session) == (TORCHJD_STARTS, CLOSES)


def test_without_an_end_date_the_window_counts_from_the_sessions_own_day(
    demo_event: Event,
) -> None:
    Event.objects.filter(pk=demo_event.pk).update(end_date=None, feedback_days=2)
    session = _session(demo_event, TORCHJD)
    # 7 April + 2 days: the 9th is the last, ending at midnight Paris time.
    assert feedback.feedback_window(session)[1] == datetime(2026, 4, 9, 22, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("moment", "is_accepted"),
    [
        (TORCHJD_STARTS - timedelta(seconds=1), False),
        (TORCHJD_STARTS, True),
        (CLOSES - timedelta(seconds=1), True),
        (CLOSES, False),
    ],
    ids=["a second before the start", "at the start", "the last second", "after the close"],
)
def test_feedback_is_taken_exactly_inside_the_window(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch, moment: datetime, is_accepted: bool
) -> None:
    _at(monkeypatch, moment)
    session, user = _session(demo_event, TORCHJD), _user()
    assert feedback.is_open(session) is is_accepted
    if is_accepted:
        feedback.give_feedback(user, session, rating=4, comment="Clear.")
        assert list(Feedback.objects.values_list("rating", "comment")) == [(4, "Clear.")]
    else:
        with pytest.raises(FeedbackError) as error:
            feedback.give_feedback(user, session, rating=4, comment="Clear.")
        expected = (
            "Feedback on 'TorchJD: Jacobian Descent in PyTorch' opens when it starts, at 11:45 "
            "on Tuesday 7 April 2026 (Europe/Paris)."
            if moment < TORCHJD_STARTS
            else "Feedback on 'TorchJD: Jacobian Descent in PyTorch' closed at the end of "
            "Wednesday 15 April 2026 (Europe/Paris)."
        )
        assert str(error.value) == expected
        assert Feedback.objects.count() == 0


@pytest.mark.parametrize(
    ("rating", "message"),
    [
        (0, "Choose a rating from 1 to 5 (got 0)."),
        (6, "Choose a rating from 1 to 5 (got 6)."),
        ("x", "Choose a rating from 1 to 5 (got 'x')."),
        ("", "Choose a rating from 1 to 5 (got nothing)."),
        ("4.5", "Choose a rating from 1 to 5 (got '4.5')."),
        ("²", "Choose a rating from 1 to 5 (got '²')."),
        ("9" * 5000, f"Choose a rating from 1 to 5 (got '{'9' * 40}…')."),
        (True, "Choose a rating from 1 to 5 (got True)."),
    ],
)
def test_a_rating_outside_1_to_5_is_refused(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch, rating: object, message: str
) -> None:
    _at(monkeypatch, DURING)
    with pytest.raises(FeedbackError) as error:
        feedback.give_feedback(_user(), _session(demo_event, TORCHJD), rating=rating)
    assert (str(error.value), Feedback.objects.count()) == (message, 0)


def test_a_rating_from_a_form_is_read_as_a_number(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DURING)
    given = feedback.give_feedback(_user(), _session(demo_event, TORCHJD), rating=" 5 ")
    assert (given.rating, given.comment) == (5, "")


def test_a_comment_over_4000_characters_is_refused(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DURING)
    session, user = _session(demo_event, TORCHJD), _user()
    with pytest.raises(FeedbackError) as error:
        feedback.give_feedback(user, session, rating=3, comment="a" * 4001)
    assert str(error.value) == (
        "Your comment is 4,001 characters long; at most 4,000 fit. Shorten it and send it again."
    )
    assert Feedback.objects.count() == 0
    feedback.give_feedback(user, session, rating=3, comment="a" * 4000)
    assert Feedback.objects.get().comment == "a" * 4000


def test_feedback_is_once_per_session_and_editable(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DURING)
    session, user = _session(demo_event, TORCHJD), _user()
    first = feedback.give_feedback(user, session, rating=4, comment="Good pace.")
    second = feedback.give_feedback(
        user, session, rating=5, comment="  Even better on reflection. "
    )
    assert second.pk == first.pk
    assert list(Feedback.objects.values_list("user__username", "rating", "comment")) == [
        ("ada", 5, "Even better on reflection.")
    ]
    assert feedback.feedback_of(user, session) == second


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"is_cancelled": True}, "'TorchJD: Jacobian Descent in PyTorch' was cancelled: there is "
         "nothing to rate."),
        ({"needs_review": True}, "'TorchJD: Jacobian Descent in PyTorch' is not published, so it "
         "cannot be rated."),
    ],
    ids=["cancelled", "unpublished"],
)  # fmt: skip
def test_cancelled_and_unpublished_sessions_cannot_be_rated(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch, change: dict, message: str
) -> None:
    _at(monkeypatch, DURING)
    Session.objects.filter(event=demo_event, key=TORCHJD).update(**change)
    session = _session(demo_event, TORCHJD)
    assert feedback.is_open(session) is False
    with pytest.raises(FeedbackError) as error:
        feedback.give_feedback(_user(), session, rating=5)
    assert (str(error.value), Feedback.objects.count()) == (message, 0)


def test_summaries_count_average_and_distribution(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DURING)
    torchjd, helion = _session(demo_event, TORCHJD), _session(demo_event, HELION)
    for index, rating in enumerate([5, 4, 4, 1]):
        feedback.give_feedback(_user(f"a{index}"), torchjd, rating=rating)
    feedback.give_feedback(_user("b"), helion, rating=2, comment="Too fast.")
    with CaptureQueriesContext(connection) as queries:
        found = feedback.summaries(demo_event)
    assert len(queries) == 1
    assert found == {
        torchjd.pk: Summary(count=4, average=Decimal("3.50"), distribution=(1, 0, 0, 2, 1)),
        helion.pk: Summary(count=1, average=Decimal("2.00"), distribution=(0, 1, 0, 0, 0)),
    }
    assert feedback.summary(torchjd).by_rating == [(5, 1), (4, 2), (3, 0), (2, 0), (1, 1)]
    # 2, 5, 5 and 4 average 4; without the 2, 4.666... rounds half up to 4.67.
    for index, rating in enumerate([5, 5, 4]):
        feedback.give_feedback(_user(f"c{index}"), helion, rating=rating)
    assert feedback.summary(helion).average == Decimal("4.00")
    Feedback.objects.filter(session=helion, rating=2).delete()
    assert feedback.summary(helion) == Summary(
        count=3, average=Decimal("4.67"), distribution=(0, 0, 0, 1, 2)
    )


def test_a_session_without_feedback_has_an_empty_summary(demo_event: Event) -> None:
    assert feedback.summary(_session(demo_event, TORCHJD)) == Summary(
        count=0, average=None, distribution=(0, 0, 0, 0, 0)
    )


def test_the_event_feedback_is_read_in_a_fixed_number_of_queries(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DURING)
    torchjd = _session(demo_event, TORCHJD)
    feedback.give_feedback(_user("a"), torchjd, rating=3, comment="First")
    feedback.give_feedback(_user("b"), torchjd, rating=4)
    with CaptureQueriesContext(connection) as queries:
        rows = feedback.event_feedback(demo_event)
    assert len(queries) == 3
    assert len(rows) == 28  # the published sessions
    row = next(item for item in rows if item.session.pk == torchjd.pk)
    assert (row.summary.count, [c.comment for c in row.comments]) == (2, ["First"])


def test_a_speakers_token_shows_only_their_own_sessions(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DURING)
    torchjd, helion = _session(demo_event, TORCHJD), _session(demo_event, HELION)
    feedback.give_feedback(_user("a"), torchjd, rating=5, comment="Loved the demo.")
    feedback.give_feedback(_user("b"), helion, rating=2, comment="Secret for Oguz only.")
    valerian = Speaker.objects.get(event=demo_event, key="valerian-rey")
    oguz = Speaker.objects.get(event=demo_event, key="oguz-ulgen")
    link = feedback.speaker_link(valerian)
    assert feedback.speaker_link(valerian) == link  # made once
    found = feedback.sessions_for_speaker_token(demo_event, link.token)
    assert found is not None
    speaker, sessions = found
    assert speaker == valerian
    assert [item.session.key for item in sessions] == [TORCHJD]
    assert [c.comment for item in sessions for c in item.comments] == ["Loved the demo."]
    oguz_found = feedback.sessions_for_speaker_token(demo_event, feedback.speaker_link(oguz).token)
    assert oguz_found is not None
    assert [item.session.key for item in oguz_found[1]] == [HELION]
    assert [c.comment for item in oguz_found[1] for c in item.comments] == ["Secret for Oguz only."]


def test_an_unknown_or_replaced_token_finds_no_one(demo_event: Event) -> None:
    valerian = Speaker.objects.get(event=demo_event, key="valerian-rey")
    old = feedback.speaker_link(valerian).token
    new = feedback.reset_speaker_link(valerian).token
    assert new != old
    assert SpeakerFeedbackLink.objects.count() == 1
    assert feedback.sessions_for_speaker_token(demo_event, old) is None
    assert feedback.sessions_for_speaker_token(demo_event, "") is None
    assert feedback.sessions_for_speaker_token(demo_event, "nope") is None
    other = Event.objects.create(slug="other", name="Other", timezone="Europe/Paris")
    assert feedback.sessions_for_speaker_token(other, new) is None  # another event's address
    assert feedback.speaker_links(demo_event) == {valerian.pk: new}


def test_the_throttle_refuses_the_21st_write_of_an_account(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DURING)
    session, user = _session(demo_event, TORCHJD), _user()
    for rating in [1, 2, 3, 4, 5] * 4:
        feedback.give_feedback(user, session, rating=rating, address="192.0.2.1")
    with pytest.raises(FeedbackThrottledError) as error:
        feedback.give_feedback(user, session, rating=1, address="192.0.2.2")
    assert str(error.value) == (
        "You sent feedback more than 20 times in 10 minutes. "
        "Wait a few minutes, then send it again."
    )
    assert Feedback.objects.get().rating == 5  # the refused write changed nothing
    # Another account is not held back by this one.
    feedback.give_feedback(_user("bo"), session, rating=2, address="192.0.2.3")


def test_the_throttle_refuses_an_address_past_its_looser_limit(
    demo_event: Event, monkeypatch: pytest.MonkeyPatch, settings: object
) -> None:
    _at(monkeypatch, DURING)
    settings.CONFSCHED_FEEDBACK_ADDRESS_LIMIT = 3  # type: ignore[attr-defined]
    session = _session(demo_event, TORCHJD)
    for index in range(3):
        feedback.give_feedback(_user(f"u{index}"), session, rating=4, address="198.51.100.7")
    with pytest.raises(FeedbackThrottledError) as error:
        feedback.give_feedback(_user("late"), session, rating=4, address="198.51.100.7")
    assert str(error.value) == (
        "More than 3 feedback writes came from your network in 10 minutes. "
        "Wait a few minutes, then send it again."
    )
    assert Feedback.objects.count() == 3
    feedback.give_feedback(_user("elsewhere"), session, rating=4, address="198.51.100.8")
    assert Feedback.objects.count() == 4


def test_the_distribution_chart_draws_each_rating_to_scale() -> None:
    svg = str(
        distribution_svg(
            Summary(count=4, average=Decimal("3.50"), distribution=(1, 0, 0, 2, 1)), title="T"
        )
    )
    assert svg.startswith('<svg class="chart feedback-chart" role="img" viewBox="0 0 320 114"')
    assert re.findall(r'width="(\d+)" height="14"', svg) == ["108", "216", "0", "0", "108"]
    assert re.findall(r"<title>([^<]+)</title>", svg) == [
        "T", "5 stars: 1 rating", "4 stars: 2 ratings", "3 stars: 0 ratings",
        "2 stars: 0 ratings", "1 star: 1 rating",
    ]  # fmt: skip
    assert "2 (50 %)" in svg
