"""The outline journal (programme.OutlineStep, services/journal.py, queries.outline_after): after
a change by a writer that names what it touched, the outline made from the version before's,
reading only those sessions, is exactly the outline read whole; every change that cannot be
followed so (a write without a step, a room renamed, a session that appeared unnamed, too many
sessions) reads it whole."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from confsched.interchange import programme as pm
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme import queries
from confsched.programme.models import Event, OutlineStep, Room, Session, Speaker
from confsched.programme.services import (
    create_event,
    load_programme,
    move_version,
    record_edit,
    session_facts,
    set_session_links,
    set_speaker_fields,
)
from confsched.programme.services.journal import STEPS_KEPT

pytestmark = pytest.mark.django_db

# 40 sessions, 30 people on two each: every speaker bills two or three sessions.
SIZE, PEOPLE = 40, 30


@pytest.fixture
def event() -> Event:
    made = create_event(slug="journal", name="Journal", timezone="Europe/Brussels")
    load_programme(made, _programme())
    return made


def _programme(**changed: dict[str, Any]) -> pm.Programme:
    """The synthetic programme, with `changed` (a session's key: the fields it takes)."""
    base = synthetic_programme(SIZE, people=PEOPLE)
    sessions = [replace(s, **changed.get(s.key, {})) for s in base.sessions]
    return replace(base, sessions=sessions)


def _shape(outlined: queries.Outlined) -> list[tuple[Any, ...]]:
    """Everything a page reads of an outline, in its order."""
    return [(o.pk, o.row, o.billing, o.room, o.track, o.level) for o in outlined.sessions]


def _fresh(event: Event) -> Event:
    return Event.with_drafts.get(pk=event.pk)


def _import(event: Event, programme: pm.Programme) -> None:
    report = load_programme(event, programme)
    assert report.version is not None


def _rename(event: Event) -> set[str]:
    _import(event, _programme(s5={"title": "Renamed"}))
    return {"s5"}


def _retime(event: Event) -> set[str]:
    """s5 moves after every other session: the order changes."""
    s5 = _programme().sessions[5]
    later = {
        "starts_at": s5.starts_at + timedelta(days=3),
        "ends_at": s5.ends_at + timedelta(days=3),
    }
    _import(event, _programme(s5=later))
    return {"s5"}


def _other_room(event: Event) -> set[str]:
    _import(event, _programme(s5={"room": "Room 3"}, s6={"room": "A new room"}))
    return {"s5", "s6"}


def _cancel_by_absence(event: Event) -> set[str]:
    base = _programme()
    _import(event, replace(base, sessions=[s for s in base.sessions if s.key != "s7"]))
    return {"s7"}


def _add(event: Event) -> set[str]:
    base = _programme()
    added = replace(base.sessions[3], key="added", title="An added session")
    _import(event, replace(base, sessions=[*base.sessions, added]))
    return {"added"}


def _other_speakers(event: Event) -> set[str]:
    _import(event, _programme(s8={"speakers": (pm.SessionSpeaker("p1", "Elsewhere Inc"),)}))
    return {"s8"}


def _speaker_holds_a_name(event: Event) -> set[str]:
    speaker = Speaker.objects.get(event=event, key="p3")
    set_speaker_fields(speaker, {"name": "Held Name", "company": "Held Co"}, by="p3")
    return set(Session.objects.filter(speaker_links__speaker=speaker).values_list("key", flat=True))


def _speaker_adds_slides(event: Event) -> set[str]:
    session = Session.objects.get(event=event, key="s9")
    set_session_links(session, [("https://example.org/s.pdf", "Slides", "slides")], by="p18")
    return {"s9"}


def _organizer_edits(event: Event) -> set[str]:
    """As the admin and the editor do: the row saved, then record_edit."""
    session = Session.objects.get(event=event, key="s10")
    before = session_facts(session)
    session.title, session.is_cancelled = "Edited", True
    session.save()
    record_edit(session, before, editor="admin")
    return {"s10"}


def _rename_beside_another(event: Event) -> set[str]:
    """s5 renamed to come before s10, which shares its time and room: the order changes."""
    s5 = _programme().sessions[5]
    together = {"starts_at": s5.starts_at, "ends_at": s5.ends_at, "room": s5.room}
    _import(event, _programme(s10=together, s5={"title": "Aaa, first in its slot"}))
    return {"s5"}


# Per change: what it does, and whether its sessions stay where they were (no read of the
# listed ids in order).
JOURNALED: dict[str, tuple[Callable[[Event], set[str]], bool]] = {
    "import rename": (_rename, True),
    "import retime": (_retime, False),
    "import other room": (_other_room, False),
    "import cancel by absence": (_cancel_by_absence, True),  # listed still, struck through
    "import add": (_add, False),
    "import other speakers": (_other_speakers, True),
    "import rename beside another": (_rename_beside_another, False),
    "speaker's name and company": (_speaker_holds_a_name, True),
    "speaker's slides": (_speaker_adds_slides, True),
    "organizer's edit": (_organizer_edits, True),
}


@pytest.mark.parametrize("change", JOURNALED)
def test_a_journaled_change_reads_only_its_sessions_and_gives_the_whole_outline(
    event: Event, change: str, django_assert_num_queries
) -> None:
    make, in_place = JOURNALED[change]
    if change == "import rename beside another":  # the two together first
        s5 = _programme().sessions[5]
        together = {"starts_at": s5.starts_at, "ends_at": s5.ends_at, "room": s5.room}
        _import(event, _programme(s10=together))
    held = queries.outlined(_fresh(event))
    keys = make(event)
    now = _fresh(event)
    # The steps, the facets, the touched rows, their speakers' places and those speakers; and
    # the listed ids in order when a touched session may have moved.
    with django_assert_num_queries(5 if in_place else 6):
        after = queries.outline_after(now, held)
    assert after is not None and after.at == now.updated_at
    assert _shape(after) == _shape(queries.outlined(now))
    if change == "import rename beside another":
        before, order = [o.key for o in held.sessions], [o.key for o in after.sessions]
        assert (before.index("s10") + 1, order.index("s5") + 1) == (
            before.index("s5"),
            order.index("s10"),
        )
    renewed = {o.key for o in after.sessions if o not in held.sessions}
    assert renewed == keys & {o.key for o in after.sessions}
    assert len(after.sessions) == SIZE + (change == "import add")  # the cancelled stay listed


def test_steps_follow_one_another_across_several_changes(event: Event) -> None:
    held = queries.outlined(_fresh(event))
    _rename(event)
    _speaker_adds_slides(event)
    _add(event)
    now = _fresh(event)
    after = queries.outline_after(now, held)
    assert after is not None
    assert _shape(after) == _shape(queries.outlined(now))
    steps = list(OutlineStep.objects.filter(event=event).order_by("pk"))
    assert [step.since for step in steps[1:]] == [step.until for step in steps[:-1]]
    assert steps[-1].until == now.updated_at


def _bump(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(updated_at=timezone.now())


def _room_renamed(event: Event) -> None:
    Room.objects.filter(event=event, name="Room 2").update(name="Renamed room")
    move_version(event, [])


def _listed_unnamed(event: Event) -> None:
    """A writer that names a session it moved but not one it added: the order read (the moved
    one may have moved) finds the other. (One that names no session moved is trusted.)"""
    first, second = Session.objects.filter(event=event).order_by("pk")[:2]
    Session.objects.create(
        event=event, key="unnamed", title="Nobody named me", starts_at=first.starts_at,
        ends_at=first.ends_at,
    )  # fmt: skip
    assert second.starts_at is not None and second.ends_at is not None
    later = timedelta(days=9)
    moved = {"starts_at": second.starts_at + later, "ends_at": second.ends_at + later}
    Session.objects.filter(pk=second.pk).update(**moved)
    move_version(event, [second.pk])


def _too_many(event: Event) -> None:
    move_version(event, Session.objects.filter(event=event).values_list("pk", flat=True))


def _speaker_renamed_by_import(event: Event) -> None:
    base = _programme()
    people = [replace(p, company="Moved on") if p.key == "p2" else p for p in base.speakers]
    report = load_programme(event, replace(base, speakers=people))
    assert (report.speakers_updated, report.version) == (1, None)  # no session's change


NOT_FOLLOWED: dict[str, Callable[[Event], None]] = {
    "a write without a step": lambda event: (_rename(event), _bump(event), _rename_back(event)),
    "a room renamed": _room_renamed,
    "a session listed that no step named": _listed_unnamed,
    "more sessions than a quarter": _too_many,
    "a speaker changed by an import": _speaker_renamed_by_import,
}


def _rename_back(event: Event) -> None:
    _import(_fresh(event), _programme())


@pytest.mark.parametrize("change", NOT_FOLLOWED)
def test_a_change_the_journal_cannot_follow_reads_the_outline_whole(
    event: Event, change: str
) -> None:
    held = queries.outlined(_fresh(event))
    NOT_FOLLOWED[change](event)
    now = _fresh(event)
    assert now.updated_at != held.at
    assert queries.outline_after(now, held) is None
    with CaptureQueriesContext(connection) as read:
        queries.outlined(now)
    with CaptureQueriesContext(connection) as tried_first:
        whole = queries.outlined(now, since=held)
    # Trying the journal first costs its own reads, never the facets a second time.
    facets = [query["sql"] for query in read.captured_queries if " UNION ALL " in query["sql"]]
    again = [query["sql"] for query in tried_first.captured_queries if query["sql"] in facets]
    assert (len(facets), len(again)) == (1, 1)
    assert whole.at == now.updated_at
    assert _shape(whole) == _shape(queries.outlined(now))


def test_the_journal_keeps_its_last_steps_and_a_reader_follows_sixteen(event: Event) -> None:
    readers = []
    for _ in range(STEPS_KEPT + 8):
        readers.append(queries.outlined(_fresh(event)))
        move_version(event, [])
    now = _fresh(event)
    assert OutlineStep.objects.filter(event=event).count() == STEPS_KEPT
    followed = [queries.outline_after(now, held) is not None for held in readers]
    assert followed == [False] * (len(readers) - 16) + [True] * 16


def test_the_titles_search_lists_follow_the_journal_and_a_write_without_a_step(
    event: Event, django_assert_num_queries
) -> None:
    """search/semantic's listed titles (similar sessions' candidates): after a journaled change
    only its sessions are read again; after a write without a step, all."""
    from confsched.search import semantic

    def listed(at: Event) -> dict[int, str]:
        published = Session.objects.filter(event=at, is_cancelled=False).published()
        return dict(published.values_list("pk", "title"))

    semantic.listed_titles(_fresh(event))
    renamed = _programme(s5={"title": "Renamed"})
    _import(event, replace(renamed, sessions=[s for s in renamed.sessions if s.key != "s7"]))
    now = _fresh(event)
    with django_assert_num_queries(2):  # the steps, the touched sessions' titles
        titles = semantic.listed_titles(now)
    assert titles == listed(event)
    assert (len(titles), "Renamed" in titles.values()) == (SIZE - 1, True)
    Session.objects.filter(event=event, key="s11").update(title="Renamed without a step")
    _bump(event)
    assert semantic.listed_titles(_fresh(event)) == listed(event)
