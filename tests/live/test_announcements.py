"""Announcements (live/): the rules, the writes and their refusals, the reads, the command."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from confsched.core import clock
from confsched.live import services
from confsched.live.announcing import (
    AnnouncementError,
    check_link,
    clean_texts,
    parse_local_time,
)
from confsched.live.models import Announcement
from confsched.live.queries import current_announcements, news_key, news_stamp
from confsched.programme.models import Event

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 4, 7, 10, 0, tzinfo=UTC)  # 12:00 in Paris
SLUG = "pytorch-conference-europe-2026"


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201 - sets the clock
    def move(moment: datetime) -> None:
        monkeypatch.setattr(clock, "now", lambda: moment)

    move(NOON)
    return move


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, str], str]]:
    calls: list[tuple[int, dict[str, str], str]] = []
    monkeypatch.setattr(
        services,
        "notify_announcement",
        lambda event, texts, url: calls.append((event.pk, texts, url)),
    )
    return calls


@pytest.fixture
def event(demo_event: Event) -> Event:
    demo_event.languages = "en, fr"
    demo_event.save(update_fields=["languages"])
    return demo_event


def test_clean_texts_keeps_offered_languages_in_order_and_drops_empty_ones() -> None:
    texts = {"fr": "  Salle   A ", "en": "Hall A", "de": ""}
    assert clean_texts(
        {k: v for k, v in texts.items() if k != "de"}, offered=["en", "fr"], default="en"
    ) == {"en": "Hall A", "fr": "Salle A"}


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        ({"fr": "Salle A"}, "An announcement needs a text in the event's default language (“en”)."),
        ({"en": "   "}, "An announcement needs a text in the event's default language (“en”)."),
        ({"en": "Hi", "de": "Hallo"}, "The event is not offered in “de”; its languages: en, fr."),
        ({"en": "x" * 501}, "The text in “en” is 501 characters long; at most 500."),
    ],
)
def test_clean_texts_refuses(texts: dict[str, str], message: str) -> None:
    with pytest.raises(AnnouncementError) as caught:
        clean_texts(texts, offered=["en", "fr"], default="en")
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("link", "kept"),
    [
        ("", ""),
        (" https://example.org/a?b=1 ", "https://example.org/a?b=1"),
        ("/e/now/", "/e/now/"),
    ],
)
def test_check_link_takes_https_and_paths(link: str, kept: str) -> None:
    assert check_link(link) == kept


@pytest.mark.parametrize(
    "link",
    [
        "http://example.org/",
        "javascript:alert(1)",
        "//evil.example/",
        "https://",
        "/a b",
        "ftp://x/",
    ],
)
def test_check_link_refuses_others(link: str) -> None:
    with pytest.raises(AnnouncementError) as caught:
        check_link(link)
    assert str(caught.value) == (
        "The link must be an https:// address or a path on this site starting with “/” (at most "
        f"500 characters), not “{link}”."
    )


def test_parse_local_time_reads_the_event_zone(event: Event) -> None:
    assert parse_local_time("2026-04-07 14:30", zone=event.zone) == datetime(
        2026, 4, 7, 12, 30, tzinfo=UTC
    )
    assert parse_local_time("2026-04-07T14:30", zone=event.zone) == datetime(
        2026, 4, 7, 12, 30, tzinfo=UTC
    )
    assert parse_local_time("", zone=event.zone) is None
    with pytest.raises(AnnouncementError) as caught:
        parse_local_time("tomorrow", zone=event.zone)
    assert str(caught.value) == (
        "“tomorrow” is not a time: write it as YYYY-MM-DD HH:MM, in the event's zone."
    )


def test_announce_writes_moves_the_stamp_and_pushes_once_committed(
    at, pushed, event: Event
) -> None:  # noqa: ANN001
    before = news_stamp(event.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        row = services.announce(
            event, texts={"en": "Keynote moves to Hall A.", "fr": "La keynote passe en salle A."},
            link="https://example.org/hall-a",
        )  # fmt: skip
        assert pushed == []  # not before the commit
    assert (row.texts, row.link, row.created_at, row.ends_at) == (
        {"en": "Keynote moves to Hall A.", "fr": "La keynote passe en salle A."},
        "https://example.org/hall-a", NOON, None,
    )  # fmt: skip
    assert news_stamp(event.pk) != before
    assert pushed == [
        (event.pk, {"en": "Keynote moves to Hall A.", "fr": "La keynote passe en salle A."},
         f"/{SLUG}/now/"),
    ]  # fmt: skip


def test_a_path_link_is_what_the_push_opens(at, pushed, event: Event) -> None:  # noqa: ANN001
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.announce(event, texts={"en": "Lunch"}, link=f"/{SLUG}/")
    assert pushed[0][2] == f"/{SLUG}/"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"texts": {"fr": "Bonjour"}}, "An announcement needs a text in the event's default language (“en”)."),
        ({"texts": {"en": "Hi"}, "link": "http://x.org"}, "The link must be an https:// address or a path on this site starting with “/” (at most 500 characters), not “http://x.org”."),
        ({"texts": {"en": "Hi"}, "ends_at": NOON}, "The end time 2026-04-07 10:00 UTC has passed: give a time in the future, or none."),
    ],
)  # fmt: skip
def test_announce_refuses_and_writes_nothing(at, pushed, event: Event, kwargs, message) -> None:  # noqa: ANN001
    before = news_stamp(event.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        with pytest.raises(AnnouncementError) as caught:
            services.announce(event, **kwargs)
    assert str(caught.value) == message
    assert Announcement.objects.count() == 0
    assert (pushed, news_stamp(event.pk)) == ([], before)


def test_current_announcements_end_at_their_time_and_when_ended(at, pushed, event: Event) -> None:  # noqa: ANN001
    with TestCase.captureOnCommitCallbacks(execute=True):
        lasting = services.announce(event, texts={"en": "Wifi: confsched"})
        brief = services.announce(
            event, texts={"en": "Coffee"}, ends_at=datetime(2026, 4, 7, 10, 30, tzinfo=UTC)
        )
    assert [n.pk for n in current_announcements(event, now=NOON)] == [brief.pk, lasting.pk]
    later = datetime(2026, 4, 7, 10, 30, tzinfo=UTC)
    assert [n.pk for n in current_announcements(event, now=later)] == [lasting.pk]
    at(later)
    with TestCase.captureOnCommitCallbacks(execute=True):
        ended = services.end_announcement(lasting)
    assert (ended.ends_at, current_announcements(event, now=later)) == (later, [])
    with pytest.raises(AnnouncementError) as caught:
        services.end_announcement(lasting)
    assert str(caught.value) == "This announcement has ended already."


def test_current_announcements_cost_no_query_until_something_changes(
    at, pushed, event: Event
) -> None:  # noqa: ANN001
    with TestCase.captureOnCommitCallbacks(execute=True):
        row = services.announce(event, texts={"en": "Hello", "fr": "Bonjour"})
    with CaptureQueriesContext(connection) as first:
        current_announcements(event, now=NOON)
    with CaptureQueriesContext(connection) as again:
        (news,) = current_announcements(event, now=NOON)
    assert (len(first.captured_queries), len(again.captured_queries)) == (1, 0)
    assert (news.pk, news.text_in("fr", default="en"), news.text_in("de", default="en")) == (
        row.pk, "Bonjour", "Hello",
    )  # fmt: skip
    cache.delete(news_key(event.pk))  # the cache lost it: read again, never taken as current
    with CaptureQueriesContext(connection) as lost:
        current_announcements(event, now=NOON)
    assert len(lost.captured_queries) == 1


def test_the_command_announces(at, pushed, event: Event) -> None:  # noqa: ANN001
    out = StringIO()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command(
            "announce", "--event", SLUG, "Doors open", "--link", "/x/", "--until",
            "2026-04-07 18:00", "--language", "fr", "Portes ouvertes", stdout=out,
        )  # fmt: skip
    row = Announcement.objects.get()
    assert (row.texts, row.link, row.ends_at) == (
        {"en": "Doors open", "fr": "Portes ouvertes"},
        "/x/",
        datetime(2026, 4, 7, 16, 0, tzinfo=UTC),
    )
    assert (
        out.getvalue() == f"Announced at {SLUG} (#{row.pk}), shown until 2026-04-07 18:00 CEST.\n"
    )
    assert pushed == [(event.pk, {"en": "Doors open", "fr": "Portes ouvertes"}, "/x/")]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--event", "nope", "Hi"], "No event 'nope'."),
        (["--event", SLUG, "  "], "An announcement needs a text in the event's default language (“en”)."),
        (["--event", SLUG, "Hi", "--until", "18h"], "“18h” is not a time: write it as YYYY-MM-DD HH:MM, in the event's zone."),
        (["--event", SLUG, "Hi", "--until", "2026-04-07 11:00"], "The end time 2026-04-07 11:00 CEST has passed: give a time in the future, or none."),
        (["--event", SLUG, "Hi", "--link", "http://x.org"], "The link must be an https:// address or a path on this site starting with “/” (at most 500 characters), not “http://x.org”."),
        (["--event", SLUG, "Hi", "--language", "de", "Hallo"], "The event is not offered in “de”; its languages: en, fr."),
        (["--event", SLUG, "Hi", "--language", "en", "Hi"], "The text in 'en', the event's default language, is TEXT itself: give it once."),
    ],
)  # fmt: skip
def test_the_command_refuses_and_writes_nothing(at, pushed, event: Event, argv, message) -> None:  # noqa: ANN001
    with pytest.raises(CommandError) as caught:
        call_command("announce", *argv)
    assert str(caught.value) == message
    assert (Announcement.objects.count(), pushed) == (0, [])
