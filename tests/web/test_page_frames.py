"""The list and grid after each kind of change equal a plain render (web/schedule/frames.py).

Every view (list and grid, zones, languages, filters, the htmx results fragment) is built once,
then one change is made; each view's next page must be byte for byte what a plain render
(CONFSCHED_PAGE_STENCILS off) gives, and it must have cost exactly what the change needs: a
splice of the changed cards into the previous page (no template run over the page), or a
whole build that renders only the cards that show something new.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
import redis
from django.test import Client
from django.utils import timezone

from confsched.programme.models import Event, Level, Room, Session, SessionSpeaker, Speaker, Track
from confsched.web.site.stencils import forget_local_stencils
from tests.conftest import DEMO_SLUG, unavailable
from tests.served_demo import reachable

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"
# A database of its own (test_scale_out flushes 15), keys under a prefix of the test's own.
REDIS = "redis://127.0.0.1:6379/14"
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')
FRAGMENT = {"HX-Request": "true", "HX-Target": "results"}


def _views(event: Event) -> dict[str, tuple[str, dict[str, str]]]:
    """Every kind of view, each holding TORCHJD: its track on its day is one filter."""
    session = Session.objects.select_related("track").get(event=event, key=TORCHJD)
    assert session.track is not None and session.starts_at is not None
    day = session.starts_at.astimezone(event.zone).date().isoformat()
    return {
        "list": ("", {}),
        "grid": ("grid/", {}),
        "list fr": ("", {"Accept-Language": "fr"}),
        "grid fr": ("grid/", {"Accept-Language": "fr"}),
        "grid New York": ("grid/?tz=America/New_York", {}),
        "list Tokyo": ("?tz=Asia/Tokyo", {}),
        "list filtered": (f"?track={session.track.slug}&date={day}", {}),
        "fragment": (f"?track={session.track.slug}", FRAGMENT),
    }


def _pages(views: dict[str, tuple[str, dict[str, str]]]) -> dict[str, str]:
    # A new visitor each time: a page in another zone leaves a cookie that keeps it.
    pages = {}
    for name, (path, headers) in views.items():
        response = Client().get(BASE + path, headers=headers)
        assert response.status_code == 200
        pages[name] = TOKEN.sub(r'\1…"', response.content.decode())
    return pages


def _touch(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(updated_at=timezone.now())


def _torchjd(event: Event) -> Session:
    return Session.objects.get(event=event, key=TORCHJD)


def _rename(event: Event) -> str:
    session = _torchjd(event)
    session.title = "TorchJD: Jacobian descent, renamed"  # its place in its slot kept
    session.save()
    return session.title


def _import_rename(event: Event) -> str:
    """A rename as an import makes it: the import also writes the files' digest on the event
    (programme/services/importing.py), which no page shows."""
    title = _rename(event)
    Event.objects.filter(pk=event.pk).update(import_digest="f" * 64)
    return title


def _edit_abstract(event: Event) -> str:
    session = _torchjd(event)
    session.abstract = "Not on any card."
    session.save()
    return session.title


def _cancel(event: Event) -> str:
    session = _torchjd(event)
    session.is_cancelled = True
    session.save()
    return session.title


def _rename_speaker(event: Event) -> str:
    speaker = Speaker.objects.filter(session_links__session__key=TORCHJD).order_by("pk").first()
    assert speaker is not None
    speaker.name = "Renamed Speaker"
    speaker.save()
    return speaker.name


def _move_time(event: Event) -> str:
    session = _torchjd(event)
    assert session.starts_at is not None and session.ends_at is not None
    session.starts_at += timedelta(minutes=30)
    session.ends_at += timedelta(minutes=30)
    session.save()
    return session.title


def _move_room(event: Event) -> str:
    session = _torchjd(event)
    session.room = Room.objects.filter(event=event).exclude(pk=session.room_id).order_by("pk")[0]
    session.save()
    return session.title


def _add(event: Event) -> str:
    session = _torchjd(event)
    Session.objects.create(
        event=event, key="added-session", title="An added session", starts_at=session.starts_at,
        ends_at=session.ends_at, room=session.room, track=session.track,
    )  # fmt: skip
    return "An added session"


def _delete(event: Event) -> str:
    _torchjd(event).delete()
    return "Showing <strong>27</strong> of 27 sessions."


def _rename_track(event: Event) -> str:
    track = Track.objects.get(session__key=TORCHJD)
    track.name = "Renamed Track"
    track.save()
    return track.name


def _rename_level(event: Event) -> str:
    level = Level.objects.get(session__key=TORCHJD)
    level.name = "Renamed Level"
    level.save()
    return level.name


def _take_reservations(event: Event) -> str:
    session = _torchjd(event)
    session.seats = 30
    session.save()
    return session.title


def _rename_event(event: Event) -> str:
    Event.objects.filter(pk=event.pk).update(name="Renamed Conference")
    return "Renamed Conference"


def _sessions_of_speaker(event: Event) -> int:
    speaker = Speaker.objects.filter(session_links__session__key=TORCHJD).order_by("pk").first()
    return SessionSpeaker.objects.filter(speaker=speaker, session__in=_published(event)).count()


def _sessions_of_track(event: Event) -> int:
    return _published(event).filter(track__session__key=TORCHJD).count()


def _sessions_of_level(event: Event) -> int:
    return _published(event).filter(level__session__key=TORCHJD).count()


def _published(event: Event):  # noqa: ANN202 - a queryset
    return Session.objects.filter(event=event).published()


# Per change: whether the pages are the previous ones with cards spliced in (no template run
# over a page), how many cards are rendered (per card variant: list and grid in Paris in English
# and in French, the grid in New York, the list in Tokyo: 6 per session showing something new)
# and stars (English and French, unstarred and starred: 4 per session whose title changed).
CHANGES: dict[str, tuple[Callable[[Event], str], bool, Callable[[Event], int], int]] = {
    "rename": (_rename, True, lambda event: 6, 4),
    "import rename": (_import_rename, True, lambda event: 6, 4),
    "abstract": (_edit_abstract, True, lambda event: 0, 0),
    "cancel": (_cancel, True, lambda event: 6, 0),
    "speaker rename": (_rename_speaker, True, lambda event: 6 * _sessions_of_speaker(event), 0),
    "move time": (_move_time, False, lambda event: 6, 0),
    "move room": (_move_room, False, lambda event: 6, 0),
    "add": (_add, False, lambda event: 6, 4),
    "delete": (_delete, False, lambda event: 0, 0),
    "track rename": (_rename_track, False, lambda event: 6 * _sessions_of_track(event), 0),
    "level rename": (_rename_level, False, lambda event: 6 * _sessions_of_level(event), 0),
    "reservations": (_take_reservations, False, lambda event: 0, 0),
    "event rename": (_rename_event, False, lambda event: 0, 0),
}


@pytest.mark.parametrize("change", CHANGES)
def test_after_each_kind_of_change_every_view_is_what_a_plain_render_gives(
    demo_event, renders: Counter[str], settings, change: str
) -> None:
    Event.objects.filter(pk=demo_event.pk).update(languages="en, fr")
    views = _views(demo_event)
    _pages(views)  # every view built, and kept as a frame
    make, is_spliced, cards, stars = CHANGES[change]
    shown = make(demo_event)
    _touch(demo_event)
    expected_cards = cards(demo_event)
    renders.clear()
    built = _pages(views)
    counts = (
        renders["confsched/_results.html"],
        renders["confsched/_card.html"],
        renders["confsched/_star.html"],
    )
    settings.CONFSCHED_PAGE_STENCILS = False
    plain = _pages(views)
    assert {name: built[name] == plain[name] for name in views} == dict.fromkeys(views, True)
    assert counts == (0 if is_spliced else len(views), expected_cards, stars)
    assert shown in built["list"]


def _built_after_change(
    event: Event, views: dict[str, tuple[str, dict[str, str]]], renders: Counter[str]
) -> tuple[int, int]:
    """The pages after a change: how many were built whole (results) and cards rendered."""
    _touch(event)
    renders.clear()
    _pages(views)
    return renders["confsched/_results.html"], renders["confsched/_card.html"]


def test_spliced_pages_follow_one_change_after_another_and_a_server_start_builds_whole(
    demo_event, renders: Counter[str], settings
) -> None:
    views = {"list": ("", {}), "grid": ("grid/", {})}
    _pages(views)
    session = _torchjd(demo_event)
    for number in range(3):
        session.title = f"TorchJD take {number}"
        session.save()
        _touch(demo_event)
        renders.clear()
        built = _pages(views)
        assert (renders["confsched/_results.html"], renders["confsched/_card.html"]) == (0, 2)
        # Its card and its star (which names it).
        assert [len(re.findall(r"TorchJD take \d", html)) for html in built.values()] == [2, 2]
        assert all(f"TorchJD take {number}" in html for html in built.values())
    # A change of the event itself builds whole, and that page is the next frame: the next
    # title change is spliced again.
    _rename_event(demo_event)
    assert _built_after_change(demo_event, views, renders) == (2, 0)
    session.title = "TorchJD after the event's rename"
    session.save()
    assert _built_after_change(demo_event, views, renders) == (0, 2)
    session.title = "TorchJD after a start"
    session.save()
    _touch(demo_event)
    forget_local_stencils()  # a server start: no frame, no card kept in this process
    renders.clear()
    built = _pages(views)
    assert (renders["confsched/_results.html"], renders["confsched/_card.html"]) == (2, 56)
    settings.CONFSCHED_PAGE_STENCILS = False
    assert _pages(views) == built


def test_a_search_is_built_whole_and_never_left_as_a_frame(
    demo_event, renders: Counter[str], settings
) -> None:
    views = {"search": ("?q=jacobian", {}), "grid search": ("grid/?q=jacobian", {})}
    _pages(views)
    _rename(demo_event)
    _touch(demo_event)
    renders.clear()
    built = _pages(views)
    assert (renders["confsched/_results.html"], renders["confsched/_card.html"]) == (2, 2)
    settings.CONFSCHED_PAGE_STENCILS = False
    assert _pages(views) == built
    assert "Jacobian descent, renamed" in built["search"]


@pytest.fixture
def shared_prefix(settings) -> Iterator[str]:  # noqa: ANN001
    """The default cache in Redis, under a prefix of the test's own (removed after it)."""
    if not reachable(6379):
        unavailable("Redis on 127.0.0.1:6379 is needed", "CONFSCHED_REQUIRE_SERVICES")
    prefix = f"frames-{uuid.uuid4().hex}"
    settings.CACHES = {"default": {
        "BACKEND": "confsched.core.caching.ForgivingRedisCache", "LOCATION": REDIS, "KEY_PREFIX": prefix,
    }}  # fmt: skip
    yield prefix
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def test_a_process_handed_the_page_by_another_splices_the_next_change_into_its_frame(
    demo_event, renders: Counter[str], settings, shared_prefix: str
) -> None:
    """With Redis, a process that found the page there (built by another) has no frame of its
    own: it takes the one the other left in Redis, and the next change is a splice."""
    views = {"list": ("", {}), "grid": ("grid/", {})}
    _pages(views)  # built here: the pages and their frames kept here and in Redis
    forget_local_stencils()  # another process, with nothing of its own
    renders.clear()
    _pages(views)
    assert (renders["confsched/_results.html"], renders["confsched/_card.html"]) == (0, 0)
    _rename(demo_event)
    assert _built_after_change(demo_event, views, renders) == (0, 2)
    # A splice is not put in Redis (pickling a 5,000-session frame took 0.1 s): the frames
    # there are the two built whole, from before the rename. A third process takes them
    # and splices what changed since, the renamed card found kept.
    from django.core.cache import cache

    client = redis.Redis.from_url(REDIS)
    keys = [key.decode().split(":", 2)[2] for key in client.scan_iter(f"{shared_prefix}:*:frame:*")]
    torchjd = _torchjd(demo_event).pk
    titles = {cache.get(key).rows[torchjd][0][2] for key in keys}
    assert (len(keys), titles) == (2, {"TorchJD: Jacobian Descent in PyTorch"})
    # The page itself is not in the frame a second time: the frame names the kept page.
    pages = {cache.get(key).page for key in keys}
    assert [hasattr(cache.get(key), "stencil") for key in keys] == [False, False]
    assert {type(cache.get(page)).__name__ for page in pages} == {"Stencil"}
    forget_local_stencils()
    _rename_speaker(demo_event)
    cards = 2 * _sessions_of_speaker(demo_event)
    assert _built_after_change(demo_event, views, renders) == (0, cards)
    built = _pages(views)
    settings.CONFSCHED_PAGE_STENCILS = False
    assert _pages(views) == built


def test_a_frame_in_redis_whose_page_is_gone_is_no_frame_the_page_is_built_whole(
    demo_event, renders: Counter[str], settings, shared_prefix: str
) -> None:
    views = {"list": ("", {}), "grid": ("grid/", {})}
    _pages(views)
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{shared_prefix}:*:page:*"):  # evicted: the frames stay
        client.delete(key)
    forget_local_stencils()
    _rename(demo_event)
    assert _built_after_change(demo_event, views, renders)[0] == 2
    built = _pages(views)
    settings.CONFSCHED_PAGE_STENCILS = False
    assert _pages(views) == built
