"""The editor's services on a draft: move, unschedule, add; problems returned, refusals said."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from confsched.agenda.models import AgendaItem
from confsched.agenda.services import star_session
from confsched.core.errors import DraftError
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.clashes import ROOM_CLASH, Problem
from confsched.programme.models import Session
from confsched.programme.services import (
    create_event,
    load_programme,
    release_draft,
    release_preview,
    start_draft,
)
from confsched.programme.services.editing import (
    add_session,
    move_session,
    placement_problems,
    unschedule,
)

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"


def test_a_starred_session_moved_in_the_draft_and_released_keeps_its_star(demo_event) -> None:
    public = Session.objects.get(event=demo_event, key=TORCHJD)
    star_session(User.objects.create_user("ada"), public)
    draft = start_draft(demo_event)
    start = public.starts_at + timedelta(days=1)
    problems = move_session(draft, TORCHJD, room="Master Stage", starts_at=start,
                            ends_at=start + timedelta(minutes=10), editor="eve")  # fmt: skip
    assert problems == []
    assert Session.objects.get(event=demo_event, key=TORCHJD).starts_at == public.starts_at
    version = release_draft(demo_event, name="Moved TorchJD")
    assert sorted(version.changes.values_list("kind", flat=True)) == ["moved", "retimed"]
    public.refresh_from_db()
    assert (public.starts_at, public.room.name) == (start, "Master Stage")
    assert AgendaItem.objects.filter(session=public).count() == 1


def test_the_problems_are_said_before_saving_and_after(demo_event) -> None:
    draft = start_draft(demo_event)
    helion = Session.objects.select_related("room").get(event=draft, key=HELION)
    end = helion.starts_at + timedelta(minutes=10)
    before = placement_problems(draft, TORCHJD, room=helion.room.name, starts_at=helion.starts_at, ends_at=end)  # fmt: skip
    assert [(p.kind, p.keys) for p in before] == [(ROOM_CLASH, (HELION,))]
    assert release_preview(demo_event) == []  # nothing saved
    after = move_session(draft, TORCHJD, room=helion.room.name, starts_at=helion.starts_at, ends_at=end)  # fmt: skip
    assert after == before


def test_unscheduling_takes_a_session_off_the_grid_and_the_release_cancels_it(demo_event) -> None:
    draft = start_draft(demo_event)
    unschedule(draft, HELION, editor="eve")
    row = Session.objects.get(event=draft, key=HELION)
    assert (row.starts_at, row.ends_at, row.room) == (None, None, None)
    assert [(line.key, line.kind) for line in release_preview(demo_event)] == [
        (HELION, "cancelled")
    ]


def test_adding_a_session_to_the_draft(demo_event) -> None:
    draft = start_draft(demo_event)
    torchjd = Session.objects.select_related("room").get(event=draft, key=TORCHJD)
    problems = add_session(draft, key="new-talk", title=" A new talk ", room=torchjd.room.name,
                           starts_at=torchjd.starts_at, ends_at=torchjd.ends_at)  # fmt: skip
    assert problems == [
        Problem(ROOM_CLASH, f"{torchjd.room.name} holds “{torchjd.title}” then "
                            f"(Tue 7 Apr 11:45–11:55)", (TORCHJD,))
    ]  # fmt: skip
    assert Session.objects.get(event=draft, key="new-talk").title == "A new talk"
    assert add_session(draft, key="waiting", title="Waiting for a slot") == []
    lines = [(line.key, line.kind) for line in release_preview(demo_event)]
    assert lines == [("new-talk", "added")]  # the one without a time stays in the draft


def test_refusals_say_why_and_write_nothing(demo_event) -> None:
    draft = start_draft(demo_event)
    torchjd = Session.objects.get(event=draft, key=TORCHJD)
    start = torchjd.starts_at
    with pytest.raises(
        DraftError, match="is no draft: the editor changes a draft, never a release"
    ):
        move_session(demo_event, TORCHJD, room="", starts_at=start, ends_at=start)
    with pytest.raises(DraftError, match="has no session 'nope'"):
        move_session(draft, "nope", room="", starts_at=start, ends_at=start)
    with pytest.raises(DraftError, match="cannot end .* before it starts"):
        move_session(draft, TORCHJD, room="", starts_at=start, ends_at=start - timedelta(minutes=1))
    with pytest.raises(DraftError, match=f"has a session {TORCHJD!r} already"):
        add_session(draft, key=TORCHJD, title="Again")
    with pytest.raises(DraftError, match="a session needs a title"):
        add_session(draft, key="x", title="  ")
    with pytest.raises(DraftError, match="give both a start and an end, or neither"):
        add_session(draft, key="x", title="X", starts_at=start)
    with pytest.raises(DraftError, match="has no session 'nope'"):
        unschedule(draft, "nope")
    assert release_preview(demo_event) == []


def _draft_of(size: int, slug: str):
    event = create_event(slug=slug, name=slug, timezone="Europe/Paris")
    load_programme(event, synthetic_programme(size, rooms=5, days=2, abstract_sentences=1))
    return start_draft(event)


def _edit_queries(draft) -> list[int]:
    """The queries of one move, one unschedule and one addition in `draft`."""
    row = Session.objects.get(event=draft, key="s7")
    start = row.starts_at + timedelta(minutes=30)
    counts = []
    for edit in (
        lambda: move_session(
            draft,
            "s7",
            room="Room 2",
            starts_at=start,
            ends_at=start + timedelta(minutes=25),
            editor="eve",
        ),  # fmt: skip
        lambda: unschedule(draft, "s8", editor="eve"),
        lambda: add_session(
            draft,
            key="new",
            title="New",
            room="Room 1",
            starts_at=start,
            ends_at=start + timedelta(minutes=5),
            editor="eve",
        ),  # fmt: skip
    ):
        with CaptureQueriesContext(connection) as queries:
            edit()
        counts.append(len(queries))
    return counts


def test_an_edit_writes_one_session_whatever_the_size_of_the_draft() -> None:
    small, large = _draft_of(50, "small"), _draft_of(500, "large")
    assert _edit_queries(small) == _edit_queries(large)
    # Only the edited sessions moved (their SEQUENCE; a new one starts at 0), one draft
    # version per edit.
    moved = Session.objects.filter(event=large, sequence__gt=0)
    assert sorted(moved.values_list("key", flat=True)) == ["s7", "s8"]
    assert Session.objects.filter(event=large).count() == 501
    assert list(large.versions.order_by("number").values_list("source", flat=True))[-3:] == [
        "edit by eve",
        "edit by eve",
        "edit by eve",
    ]
    row = Session.objects.select_related("room").get(event=large, key="s7")
    assert (row.room.name, row.is_cancelled) == ("Room 2", False)


def test_an_edit_that_changes_nothing_records_nothing(demo_event) -> None:
    draft = start_draft(demo_event)
    row = Session.objects.select_related("room").get(event=draft, key=TORCHJD)
    versions = draft.versions.count()
    move_session(draft, TORCHJD, room=row.room.name, starts_at=row.starts_at, ends_at=row.ends_at)
    assert (draft.versions.count(), Session.objects.get(pk=row.pk).sequence) == (
        versions,
        row.sequence,
    )
