"""Re-imports: versions with a change log, cancellation instead of deletion, admin edits."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from confsched.agenda.models import AgendaItem
from confsched.agenda.services import star_session
from confsched.programme.models import Change, ScheduleVersion, Session
from confsched.programme.services import load_programme
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
HELION = "helion-1-0-a-high-level-dsl-for-performance-portable-kernels"
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"


def _edit(programme, key: str, **changes):  # noqa: ANN001, ANN202
    edited = replace(programme)
    edited.sessions = [replace(s, **changes) if s.key == key else s for s in programme.sessions]
    return edited


def test_the_first_import_is_version_one(demo_event) -> None:
    version = ScheduleVersion.objects.get(event=demo_event)
    assert (version.number, version.summary) == (1, "29 added")
    assert Change.objects.filter(version=version, kind="added").count() == 29


def test_the_same_file_twice_makes_no_version(demo_event, demo_programme) -> None:
    report = load_programme(demo_event, demo_programme)
    assert report.version is None
    assert ScheduleVersion.objects.filter(event=demo_event).count() == 1


def test_a_changed_file_makes_a_version_that_says_what_changed(demo_event, demo_programme) -> None:
    torchjd = demo_programme.session(TORCHJD)
    edited = _edit(
        demo_programme, TORCHJD,
        starts_at=torchjd.starts_at + timedelta(minutes=30),
        ends_at=torchjd.ends_at + timedelta(minutes=30),
        room="Master Stage", title="TorchJD: Jacobians for Everyone",
    )  # fmt: skip
    edited = _edit(edited, HELION, abstract="A shorter abstract.", speakers=())
    edited.sessions = [s for s in edited.sessions if s.key != JIGSAW]
    report = load_programme(demo_event, edited, source="import: v2.txt")
    version = report.version
    assert (version.number, version.source) == (2, "import: v2.txt")
    assert (
        version.summary
        == "1 cancelled, 1 new time, 1 new room, 1 new title, 1 new description, 1 speakers changed"
    )
    assert sorted((c.session.key, c.kind, c.description) for c in version.changes.all()) == sorted(
        [
            (
                TORCHJD,
                "retimed",
                "moved in time from Tue 7 Apr 11:45–11:55 to Tue 7 Apr 12:15–12:25",
            ),
            (TORCHJD, "moved", "moved from Founders Cafe to Master Stage"),
            (
                TORCHJD,
                "retitled",
                "retitled from “TorchJD: Jacobian Descent in PyTorch” to “TorchJD: Jacobians for Everyone”",
            ),
            (HELION, "redescribed", "description changed"),
            (HELION, "speakers", "speakers now none (were Oguz Ulgen)"),
            (JIGSAW, "cancelled", "cancelled"),
        ]
    )
    jigsaw = Session.objects.get(key=JIGSAW)
    assert (jigsaw.is_cancelled, jigsaw.sequence) == (True, 1)
    assert Session.objects.get(key=TORCHJD).sequence == 1
    # Back again in a third file: restored.
    third = load_programme(demo_event, demo_programme)
    assert [(c.session.key, c.kind) for c in third.version.changes.filter(kind="restored")] == [
        (JIGSAW, "restored")
    ]
    assert Session.objects.get(key=JIGSAW).is_cancelled is False


def test_a_partial_import_cancels_nothing(demo_event, demo_programme) -> None:
    only_one = replace(demo_programme)
    only_one.sessions = [demo_programme.session(TORCHJD)]
    report = load_programme(demo_event, only_one, is_complete=False)
    assert (report.cancelled, report.version) == ([], None)
    assert Session.objects.filter(is_cancelled=True).count() == 0


def test_stars_survive_cancellation_and_return(demo_event, demo_programme) -> None:
    user = User.objects.create_user("ada", "ada@example.org", "x" * 20)
    star_session(user, Session.objects.get(key=JIGSAW))
    gone = replace(demo_programme)
    gone.sessions = [s for s in demo_programme.sessions if s.key != JIGSAW]
    load_programme(demo_event, gone)
    assert AgendaItem.objects.filter(user=user, session__key=JIGSAW).count() == 1
    client = Client()
    client.force_login(user)
    html = client.get(f"/{DEMO_SLUG}/agenda/").content.decode()
    assert '<span class="tag tag-cancelled">Cancelled</span>' in html


def test_the_change_log_page_and_feed(client: Client, demo_event, demo_programme) -> None:
    edited = _edit(demo_programme, TORCHJD, room="Master Stage")
    load_programme(demo_event, edited, source="import: v2.txt")
    html = client.get(f"/{DEMO_SLUG}/changes/").content.decode()
    assert f'<h2 id="v2-heading"><a href="/{DEMO_SLUG}/v/2/">Version 2</a></h2>' in html
    assert (
        f'<a href="/{DEMO_SLUG}/sessions/{TORCHJD}/">Lightning Talk: TorchJD: Jacobian Descent in PyTorch</a>: moved from Founders Cafe to Master Stage'
        in html
    )
    assert "<p>1 new room.</p>" in html
    atom = client.get(f"/{DEMO_SLUG}/changes.atom")
    assert atom["Content-Type"] == "application/atom+xml; charset=utf-8"
    body = atom.content.decode()
    assert "<title>Version 2: 1 new room</title>" in body
    assert (
        "Lightning Talk: TorchJD: Jacobian Descent in PyTorch: moved from Founders Cafe to Master Stage"
        in body
    )


def test_an_admin_edit_is_recorded_as_a_change(client: Client, demo_event) -> None:
    session = Session.objects.get(key=TORCHJD)
    admin = User.objects.create_superuser("organizer", "o@example.org", "a-long-password-1")
    client.force_login(admin)
    response = client.post(
        f"/admin/programme/session/{session.pk}/change/",
        {
            "event": demo_event.pk, "kind": "Lightning Talk", "title": session.title,
            "abstract": session.abstract, "starts_at_0": "2026-04-07", "starts_at_1": "12:15:00",
            "ends_at_0": "2026-04-07", "ends_at_1": "12:25:00", "room": session.room_id,
            "track": session.track_id, "level": session.level_id, "language": "",
            "review_note": "",
            "speaker_links-TOTAL_FORMS": "0", "speaker_links-INITIAL_FORMS": "0",
            "speaker_links-MIN_NUM_FORMS": "0", "speaker_links-MAX_NUM_FORMS": "1000",
            "links-TOTAL_FORMS": "0", "links-INITIAL_FORMS": "0",
            "links-MIN_NUM_FORMS": "0", "links-MAX_NUM_FORMS": "1000",
        },
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:3000]
    version = ScheduleVersion.objects.get(event=demo_event, number=2)
    assert (version.source, version.summary) == ("edit by organizer", "1 new time")
    assert [c.description for c in version.changes.all()] == [
        "moved in time from Tue 7 Apr 11:45–11:55 to Tue 7 Apr 12:15–12:25"
    ]
    assert Session.objects.get(key=TORCHJD).sequence == 1
    # The form shows times in the event's zone (12:15 in Paris is 10:15 UTC).
    page = client.get(f"/admin/programme/session/{session.pk}/change/").content.decode()
    assert 'name="starts_at_1" value="12:15:00"' in page
    assert "Times in Europe/Paris" in page
