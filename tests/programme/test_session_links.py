"""Session links through the doors of the database: validation, load_programme keeping them in
step on re-import, snapshot, the change log, our own exports read back, and the admin."""

from __future__ import annotations

from dataclasses import replace
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from confsched.interchange import programme as pm
from confsched.interchange.formats import CSV_FIELDS, FRAB_FIELDS
from confsched.programme.models import Change, ScheduleVersion, Session, SessionLink
from confsched.programme.services import load_programme, snapshot, validate_programme
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"
# Sched says "Slides Attached Yes" for these two, and gives no address.
JIGSAW = "lightning-talk-jigsaw-domain-and-tensor-parallelism-for-high-resolution-input-training"
COLOSSUS = (
    "lightning-talk-bringing-googles-colossus-to-pytorch-rapid-storage-via-fsspec-to-keep-gpus-busy"
)
DECK = pm.SessionLink(url="https://speakerdeck.com/torchjd/jd", title="Deck", kind="slides")
VIDEO = pm.SessionLink(url="https://youtu.be/torchjd", title="Recording", kind="video")
REPO = pm.SessionLink(url="https://github.com/TorchJD/torchjd", kind="link")


def _with_links(programme: pm.Programme, key: str, *links: pm.SessionLink, carries=None):  # noqa: ANN001, ANN202
    """The programme with the session's links replaced, said by a format that `carries`."""
    sessions = [replace(s, links=links) if s.key == key else s for s in programme.sessions]
    return replace(programme, sessions=sessions, carries=carries)


def _stored(key: str) -> list[tuple]:
    return list(
        SessionLink.objects.filter(session__key=key)
        .order_by("position")
        .values_list("position", "kind", "title", "url")
    )


def _changes(report) -> list[tuple[str, str]]:  # noqa: ANN001
    return list(Change.objects.filter(version=report.version).values_list("kind", "description"))


def _session(key: str) -> Session:
    return Session.objects.get(key=key)


def test_links_are_stored_in_order_and_come_back_out(demo_event, demo_programme) -> None:
    report = load_programme(demo_event, _with_links(demo_programme, TORCHJD, DECK, VIDEO, REPO))
    assert _stored(TORCHJD) == [
        (0, "slides", "Deck", "https://speakerdeck.com/torchjd/jd"),
        (1, "video", "Recording", "https://youtu.be/torchjd"),
        (2, "link", "", "https://github.com/TorchJD/torchjd"),
    ]
    row = _session(TORCHJD)
    assert (row.has_slides, row.sequence) == (True, 1)
    title = "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"
    assert report.updated == [(title, ["has_slides", "links"])]
    assert _changes(report) == [("details", "slides attached; links changed")]
    assert snapshot(demo_event).session(TORCHJD).links == (DECK, VIDEO, REPO)


def test_the_same_links_again_change_nothing(demo_event, demo_programme) -> None:
    with_links = _with_links(demo_programme, TORCHJD, DECK, VIDEO)
    load_programme(demo_event, with_links)
    rows = list(SessionLink.objects.values_list("pk", flat=True))
    report = load_programme(demo_event, with_links)
    assert (report.version, report.updated, report.unchanged) == (None, [], 29)
    assert list(SessionLink.objects.values_list("pk", flat=True)) == rows  # not rewritten


def test_links_the_source_drops_are_removed_and_none_doubled(demo_event, demo_programme) -> None:
    load_programme(demo_event, _with_links(demo_programme, TORCHJD, DECK, VIDEO))
    report = load_programme(demo_event, _with_links(demo_programme, TORCHJD, VIDEO, REPO))
    assert _stored(TORCHJD) == [
        (0, "video", "Recording", "https://youtu.be/torchjd"),
        (1, "link", "", "https://github.com/TorchJD/torchjd"),
    ]
    assert SessionLink.objects.count() == 2
    row = _session(TORCHJD)
    assert (row.has_slides, row.sequence) == (False, 2)  # the slides went with their link
    assert _changes(report) == [("details", "slides removed; links changed")]


def test_a_change_of_links_alone_is_noted(demo_event, demo_programme) -> None:
    load_programme(demo_event, _with_links(demo_programme, TORCHJD, VIDEO))
    report = load_programme(demo_event, _with_links(demo_programme, TORCHJD, REPO))
    assert _changes(report) == [("details", "links changed")]
    assert _session(TORCHJD).sequence == 2  # calendars show the links (ATTACH)


def test_a_link_and_another_detail_share_one_change(demo_event, demo_programme) -> None:
    load_programme(demo_event, _with_links(demo_programme, TORCHJD, VIDEO))
    edited = _with_links(demo_programme, TORCHJD, REPO)
    edited.sessions = [replace(s, kind="Talk") if s.key == TORCHJD else s for s in edited.sessions]
    report = load_programme(demo_event, edited)
    assert _changes(report) == [
        ("details", "kind changed from Lightning Talk to Talk; links changed")
    ]


def test_a_format_without_links_leaves_them_alone(demo_event, demo_programme) -> None:
    load_programme(demo_event, _with_links(demo_programme, TORCHJD, DECK))
    # The Sched pages again: they say nothing of links, and "no slides" for this session.
    assert demo_programme.carries is not None and "links" not in demo_programme.carries
    report = load_programme(demo_event, demo_programme)
    assert (report.version, _stored(TORCHJD)[0][3]) == (None, DECK.url)
    assert _session(TORCHJD).has_slides is True  # it has a slides link


def test_frab_keeps_a_sched_flag_but_its_own_slides_follow_its_links(
    demo_event, demo_programme
) -> None:
    flagged = {JIGSAW, COLOSSUS}
    assert set(Session.objects.filter(has_slides=True).values_list("key", flat=True)) == flagged
    # frab carries links but no flag: a flag without a link (Sched's) stays.
    report = load_programme(demo_event, replace(demo_programme, carries=FRAB_FIELDS))
    assert report.version is None
    load_programme(demo_event, _with_links(demo_programme, TORCHJD, DECK, carries=FRAB_FIELDS))
    assert set(Session.objects.filter(has_slides=True).values_list("key", flat=True)) == {
        *flagged,
        TORCHJD,
    }
    # The same frab file without the link: the slides it gave are gone, Sched's flags stay.
    report = load_programme(demo_event, replace(demo_programme, carries=FRAB_FIELDS))
    assert set(Session.objects.filter(has_slides=True).values_list("key", flat=True)) == flagged
    assert (_stored(TORCHJD), _changes(report)) == (
        [],
        [("details", "slides removed; links changed")],
    )


def test_a_csv_flag_of_no_with_a_slides_link_is_yes(demo_event, demo_programme) -> None:
    programme = _with_links(demo_programme, TORCHJD, DECK, carries=CSV_FIELDS)
    assert programme.session(TORCHJD).has_slides is True
    load_programme(demo_event, programme)
    assert _session(TORCHJD).has_slides is True


def test_validation_keeps_web_addresses_once_and_names_what_it_left_out() -> None:
    links = (
        pm.SessionLink(url=" https://x.org/a ", title="A" * 320),
        pm.SessionLink(url="javascript:alert(1)", title="Slides"),
        pm.SessionLink(url="/media/deck.pdf", kind="slides"),
        pm.SessionLink(url="https://x.org/a b"),
        pm.SessionLink(url="http://[broken"),
        pm.SessionLink(url="https://x.org/" + "p" * 1000),
        pm.SessionLink(url="https://x.org/a", title="Again"),
        pm.SessionLink(url="https://x.org/\x00c", kind="video"),
    )
    programme = pm.Programme(sessions=[pm.Session(key="s", title="S", links=links)])
    checked = validate_programme(programme)
    assert checked.sessions[0].links == (
        pm.SessionLink(url="https://x.org/a", title="A" * 299 + "…"),
        pm.SessionLink(url="https://x.org/\ufffdc", kind="video"),
    )
    assert checked.sessions[0].has_slides is True  # the source said it has slides
    assert checked.warnings == [
        "1 session link address held control characters or broken Unicode, replaced by �",
        f"a link title was longer than the database keeps and was shortened (e.g. “{'A' * 40}…”)",
        "a session link address too long to keep was left out (e.g. “https://x.org/pppppppppppppppppppppppppp…”)",
        "a session link that is not an http(s) URL was left out (e.g. “javascript:alert(1)”)",
    ]


def test_a_load_with_bad_links_writes_only_the_good_ones(demo_event, demo_programme) -> None:
    bad = pm.SessionLink(url="data:text/html,<script>alert(1)</script>", kind="slides")
    report = load_programme(demo_event, _with_links(demo_programme, TORCHJD, bad, VIDEO))
    assert _stored(TORCHJD) == [(0, "video", "Recording", "https://youtu.be/torchjd")]
    assert report.warnings == [
        "a session link that is not an http(s) URL was left out (e.g. “data:text/html,<script>"
        "alert(1)</script>”)"
    ]


@pytest.mark.parametrize("extension", ["xml", "json", "csv"])
def test_our_own_export_with_links_imported_back_changes_nothing(
    demo_event, demo_programme, tmp_path, extension: str
) -> None:
    load_programme(demo_event, _with_links(demo_programme, TORCHJD, DECK, VIDEO, REPO))
    path = tmp_path / f"schedule.{extension}"
    call_command(
        "export", "--event", DEMO_SLUG, "--format", extension, "--output", str(path),
        "--base-url", "https://example.org", stderr=StringIO(),
    )  # fmt: skip
    versions = ScheduleVersion.objects.filter(event=demo_event).count()
    out = StringIO()
    call_command("import", "--event", DEMO_SLUG, str(path), stdout=out)
    assert "Nothing changed: no new schedule version." in out.getvalue()
    assert ScheduleVersion.objects.filter(event=demo_event).count() == versions
    assert snapshot(demo_event).session(TORCHJD).links == (DECK, VIDEO, REPO)
    assert set(Session.objects.filter(has_slides=True).values_list("key", flat=True)) == {
        JIGSAW,
        COLOSSUS,
        TORCHJD,
    }


def _admin_post(client: Client, session: Session, **links: str):  # noqa: ANN202
    """The session's change form as saved untouched, with `links` as its links inline."""
    fields = {
        "event": session.event_id, "kind": session.kind, "title": session.title,
        "abstract": session.abstract, "starts_at_0": "2026-04-07", "starts_at_1": "11:45:00",
        "ends_at_0": "2026-04-07", "ends_at_1": "11:55:00", "room": session.room_id,
        "track": session.track_id, "level": session.level_id, "language": "",
        "review_note": "",
        "speaker_links-TOTAL_FORMS": "0", "speaker_links-INITIAL_FORMS": "0",
        "speaker_links-MIN_NUM_FORMS": "0", "speaker_links-MAX_NUM_FORMS": "1000",
        "links-TOTAL_FORMS": "1" if links else "0", "links-INITIAL_FORMS": "0",
        "links-MIN_NUM_FORMS": "0", "links-MAX_NUM_FORMS": "1000",
        **{f"links-0-{name}": value for name, value in links.items()},
    }  # fmt: skip
    return client.post(f"/admin/programme/session/{session.pk}/change/", fields)


def test_an_organizer_adds_slides_in_the_admin(client: Client, demo_event) -> None:
    client.force_login(User.objects.create_superuser("organizer", "o@example.org", "pw-0123456789"))
    session = _session(TORCHJD)
    response = _admin_post(
        client, session, position="0", kind="slides", title="Deck", url="speakerdeck.com/jd"
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert _stored(TORCHJD) == [(0, "slides", "Deck", "https://speakerdeck.com/jd")]
    row = _session(TORCHJD)
    assert (row.has_slides, row.sequence) == (True, 1)
    version = ScheduleVersion.objects.get(event=demo_event, number=2)
    assert [c.description for c in version.changes.all()] == ["slides attached; links changed"]
    page = client.get(f"/admin/programme/session/{session.pk}/change/").content.decode()
    assert 'value="https://speakerdeck.com/jd"' in page


def test_the_admin_refuses_a_link_that_is_not_a_web_address(client: Client, demo_event) -> None:
    client.force_login(User.objects.create_superuser("organizer", "o@example.org", "pw-0123456789"))
    session = _session(TORCHJD)
    response = _admin_post(
        client, session, position="0", kind="link", title="", url="javascript:alert(1)"
    )
    assert response.status_code == 200
    assert "Enter a valid URL." in response.content.decode()
    assert (_stored(TORCHJD), ScheduleVersion.objects.filter(event=demo_event).count()) == ([], 1)
