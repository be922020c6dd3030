"""Drafts and releases: start, discard, release with a name, its preview, imports to the draft;
every refusal says why and writes nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from confsched.agenda.models import AgendaItem
from confsched.agenda.services import star_session
from confsched.core.errors import DraftError
from confsched.programme.models import Event, ScheduleVersion, Session
from confsched.programme.services import (
    discard_draft,
    draft_for,
    load_import,
    release_draft,
    release_preview,
    snapshot,
    start_draft,
)
from confsched.programme.services.drafts import changed_since_draft, draft_sessions_waiting
from tests.conftest import DEMO_DIR, DEMO_SLUG

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"


def _move(draft: Event, key: str, *, minutes: int = 0, room: str | None = None) -> None:
    """Change a draft session the way the editor will (through the one door)."""
    from confsched.programme.services import load_programme

    programme = snapshot(draft)
    session = programme.session(key)
    changed = replace(
        session,
        starts_at=session.starts_at + timedelta(minutes=minutes),
        ends_at=session.ends_at + timedelta(minutes=minutes),
        room=session.room if room is None else room,
    )
    programme.sessions = [changed if s.key == key else s for s in programme.sessions]
    load_programme(draft, programme, source="edit by test")


def test_a_draft_starts_as_a_hidden_copy_with_the_same_keys_and_seats(demo_event) -> None:
    Session.objects.filter(event=demo_event, key=HELION).update(seats=40)
    draft = start_draft(demo_event)
    assert (draft.slug, draft.draft_of_id, str(draft)) == (
        f"draft.{demo_event.pk}", demo_event.pk, "PyTorch Conference Europe 2026 (draft)",
    )  # fmt: skip
    assert draft_for(demo_event) == draft
    assert sorted(Session.objects.filter(event=draft).values_list("key", flat=True)) == sorted(
        Session.objects.filter(event=demo_event).values_list("key", flat=True)
    )
    assert Session.objects.get(event=draft, key=HELION).seats == 40
    assert snapshot(draft).sessions == snapshot(demo_event).sessions
    # Nothing changed for attendees: no new public version.
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 1
    assert release_preview(demo_event) == []


def test_a_second_draft_and_a_draft_of_a_draft_are_refused(demo_event) -> None:
    draft = start_draft(demo_event)
    with pytest.raises(DraftError, match=f"^{DEMO_SLUG} has a draft already: release or discard"):
        start_draft(demo_event)
    with pytest.raises(DraftError, match=r"\(draft\) is a draft itself"):
        start_draft(draft)
    with pytest.raises(DraftError, match=r"is a draft itself"):
        release_draft(draft, name="x")
    assert Event.with_drafts.count() == 2


def test_release_and_discard_without_a_draft_are_refused(demo_event) -> None:
    with pytest.raises(DraftError, match=f"^{DEMO_SLUG} has no draft to release: start one first$"):
        release_draft(demo_event, name="Final")
    with pytest.raises(DraftError, match=f"^{DEMO_SLUG} has no draft to discard$"):
        discard_draft(demo_event)


@pytest.mark.parametrize("name", ["", "   ", "\n\t"])
def test_a_release_without_a_name_is_refused_and_writes_nothing(demo_event, name: str) -> None:
    draft = start_draft(demo_event)
    _move(draft, TORCHJD, minutes=30)
    with pytest.raises(DraftError, match="^a release needs a name"):
        release_draft(demo_event, name=name)
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 1


def test_a_release_that_changes_nothing_is_refused(demo_event) -> None:
    start_draft(demo_event)
    with pytest.raises(DraftError, match="^nothing to release: the draft shows attendees"):
        release_draft(demo_event, name="Same again")
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 1


def test_attendees_see_the_release_until_the_draft_is_released(demo_event) -> None:
    public = Session.objects.get(event=demo_event, key=TORCHJD)
    ada = User.objects.create_user("ada")
    star_session(ada, public)
    draft = start_draft(demo_event)
    _move(draft, TORCHJD, minutes=30, room="Master Stage")
    public.refresh_from_db()
    assert public.room.name != "Master Stage"  # the release is untouched
    start, room = public.starts_at, public.room.name
    preview = release_preview(demo_event)
    assert [(line.key, line.kind) for line in preview] == [(TORCHJD, "retimed"), (TORCHJD, "moved")]
    assert preview[1].description == f"moved from {room} to Master Stage"
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 1  # the preview wrote none

    version = release_draft(demo_event, name="  Spring   update ", editor="eve")
    assert (version.number, version.name, version.source, version.summary) == (
        2, "Spring update", "release by eve", "1 new time, 1 new room",
    )  # fmt: skip
    public.refresh_from_db()
    assert (public.starts_at, public.room.name) == (start + timedelta(minutes=30), "Master Stage")
    # The star stays on the same row: identity is the key.
    assert AgendaItem.objects.filter(user=ada, session=public).count() == 1
    assert list(version.changes.values_list("kind", flat=True)) == ["retimed", "moved"]
    # The draft lives on, now what attendees see.
    assert draft_for(demo_event) == draft
    assert release_preview(demo_event) == []


def test_an_unscheduled_draft_session_is_cancelled_by_the_release_and_stays_in_the_draft(
    demo_event,
) -> None:
    draft = start_draft(demo_event)
    assert draft_sessions_waiting(draft) == 1  # the demo's one session waiting for review
    Session.objects.filter(event=draft, key=HELION).update(starts_at=None, ends_at=None)
    assert draft_sessions_waiting(draft) == 2
    version = release_draft(demo_event, name="Helion waits")
    assert [(c.session.key, c.kind) for c in version.changes.all()] == [(HELION, "cancelled")]
    public = Session.objects.get(event=demo_event, key=HELION)
    assert (public.is_cancelled, public.starts_at is not None) == (True, True)
    assert Session.objects.get(event=draft, key=HELION).starts_at is None
    # Scheduled again in the draft: back in the programme at the next release.
    _move(draft, TORCHJD, minutes=0)
    Session.objects.filter(event=draft, key=HELION).update(
        starts_at=public.starts_at, ends_at=public.ends_at
    )
    version = release_draft(demo_event, name="Helion is back")
    assert [(c.session.key, c.kind) for c in version.changes.all()] == [(HELION, "restored")]


def test_discarding_deletes_the_draft_and_leaves_the_release(demo_event) -> None:
    draft = start_draft(demo_event)
    _move(draft, TORCHJD, minutes=30)
    before = snapshot(demo_event).sessions
    discard_draft(demo_event)
    assert draft_for(demo_event) is None
    assert not Session.objects.filter(event_id=draft.pk).exists()
    assert snapshot(demo_event).sessions == before


def test_an_import_to_the_draft_starts_one_and_leaves_attendees_alone(
    demo_event, demo_programme
) -> None:
    programme = replace(demo_programme)
    torchjd = programme.session(TORCHJD)
    programme.sessions = [
        replace(s, title="TorchJD, renamed") if s.key == TORCHJD else s for s in programme.sessions
    ]
    report = load_import(demo_event, programme, to_draft=True, source="import: v2.txt")
    draft = draft_for(demo_event)
    assert report.version.event_id == draft.pk
    assert Session.objects.get(event=draft, key=TORCHJD).title == "TorchJD, renamed"
    assert Session.objects.get(event=demo_event, key=TORCHJD).title == torchjd.title
    version = release_draft(demo_event, name="Renamed")
    assert [c.description for c in version.changes.all()] == [
        f"retitled from “{torchjd.title}” to “TorchJD, renamed”"
    ]


def test_an_import_released_at_once_reaches_the_draft_too(demo_event, demo_programme) -> None:
    draft = start_draft(demo_event)
    _move(draft, HELION, minutes=60)
    programme = replace(demo_programme)
    programme.sessions = [
        replace(s, title="TorchJD, renamed") if s.key == TORCHJD else s for s in programme.sessions
    ]
    report = load_import(demo_event, programme, source="import: v2.txt")
    assert report.version.event_id == demo_event.pk
    assert Session.objects.get(event=draft, key=TORCHJD).title == "TorchJD, renamed"
    # The release then does not undo the import; it carries what the file said of Helion.
    assert release_preview(demo_event) == []


def test_the_import_command_loads_into_the_draft(demo_event, capsys) -> None:
    files = [str(path) for path in sorted(DEMO_DIR.glob("*.txt"))]
    call_command("import", *files, event=DEMO_SLUG, to_draft=True)
    out = capsys.readouterr().out
    assert "Loaded into the draft: attendees see it when an editor releases it." in out
    assert draft_for(demo_event) is not None
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 1


def _retitle_publicly(event: Event, demo_programme, title: str) -> None:  # noqa: ANN001
    """Attendees' programme changed behind the draft's back (an edit or a sync of the event
    alone): the load that releases at once, without the draft."""
    from confsched.programme.services import load_programme

    programme = replace(demo_programme)
    programme.sessions = [
        replace(s, title=title) if s.key == TORCHJD else s for s in programme.sessions
    ]
    load_programme(event, programme, source="edit by ada")


def test_a_draft_knows_the_version_it_last_equalled(demo_event) -> None:
    draft = start_draft(demo_event)
    assert draft.draft_base == 1
    assert changed_since_draft(demo_event, release_preview(demo_event)) is None
    _move(draft, HELION, minutes=60)
    version = release_draft(demo_event, name="Helion later")
    assert (version.number, Event.with_drafts.get(pk=draft.pk).draft_base) == (2, 2)
    assert changed_since_draft(demo_event, release_preview(demo_event)) is None


def test_an_import_released_at_once_is_reported_and_undone_by_nothing(
    demo_event, demo_programme
) -> None:
    draft = start_draft(demo_event)
    _move(draft, HELION, minutes=60)
    programme = replace(demo_programme)
    programme.sessions = [
        replace(s, title="TorchJD, renamed") if s.key == TORCHJD else s for s in programme.sessions
    ]
    load_import(demo_event, programme, source="import: v2.txt")
    since = changed_since_draft(demo_event, release_preview(demo_event))
    assert [(v.number, v.source) for v in since.versions] == [(2, "import: v2.txt")]
    assert since.undone == []


def test_a_public_change_the_draft_lacks_is_what_the_release_would_undo(
    demo_event, demo_programme
) -> None:
    title = Session.objects.get(event=demo_event, key=TORCHJD).title
    draft = start_draft(demo_event)
    _move(draft, HELION, minutes=60)
    _retitle_publicly(demo_event, demo_programme, "TorchJD, renamed")
    preview = release_preview(demo_event)
    since = changed_since_draft(demo_event, preview)
    assert [(v.number, v.summary) for v in since.versions] == [(2, "1 new title")]
    assert [(u.line.key, u.line.kind, u.line.description, u.public) for u in since.undone] == [
        (
            TORCHJD, "retitled", f"retitled from “TorchJD, renamed” to “{title}”",
            [(2, f"retitled from “{title}” to “TorchJD, renamed”")],
        )
    ]  # fmt: skip
    # Helion's move is the draft's own: in the preview, not among what it undoes.
    assert sorted(line.key for line in preview) == sorted([HELION, TORCHJD])


def test_the_draft_s_own_change_of_a_session_the_public_changed_is_not_undoing(
    demo_event, demo_programme
) -> None:
    draft = start_draft(demo_event)
    _move(draft, TORCHJD, minutes=30)
    _retitle_publicly(demo_event, demo_programme, "TorchJD, renamed")
    preview = release_preview(demo_event)
    assert sorted(line.kind for line in preview) == ["retimed", "retitled"]
    since = changed_since_draft(demo_event, preview)
    assert [(u.line.key, u.line.kind) for u in since.undone] == [(TORCHJD, "retitled")]


def test_a_release_from_a_stale_look_is_refused_and_writes_nothing(
    demo_event, demo_programme
) -> None:
    draft = start_draft(demo_event)
    _move(draft, HELION, minutes=60)
    _retitle_publicly(demo_event, demo_programme, "TorchJD, renamed")
    with pytest.raises(DraftError) as refused:
        release_draft(demo_event, name="Helion later", seen=1)
    assert str(refused.value) == (
        "attendees' programme changed since you looked (version 2 is newer than version 1): "
        "see below what differs, then release again"
    )
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 2
    assert Event.with_drafts.get(pk=draft.pk).draft_base == 1
    assert release_draft(demo_event, name="Helion later", seen=2).number == 3


def test_a_draft_older_than_its_base_record_warns_of_nothing(demo_event, demo_programme) -> None:
    draft = start_draft(demo_event)
    Event.with_drafts.filter(pk=draft.pk).update(draft_base=None)
    _retitle_publicly(demo_event, demo_programme, "TorchJD, renamed")
    assert changed_since_draft(demo_event, release_preview(demo_event)) is None
