"""What a change keeps of what attendees saw (changes.seen_by_public), and the lines each reader
reads from it (history.change_lines): attendees only what was public at the version, the
team everything."""

from __future__ import annotations

import zoneinfo
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from django.utils import translation

from confsched.programme.changes import change_facts, say, seen_by_public
from confsched.programme.history import change_lines, summary_in_language, summary_of
from confsched.programme.models import Change, Event, Session

PARIS = zoneinfo.ZoneInfo("Europe/Paris")
NINE = datetime(2026, 4, 7, 9, tzinfo=UTC)
CONF = Event(slug="conf")
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def _state(title: str = "T", *, at: datetime | None = NINE, flagged: bool = False) -> dict:
    return {"title": title, "kind": "Talk", "starts_at": at, "needs_review": flagged}


@pytest.mark.parametrize(
    ("before", "after", "seen"),
    [
        (None, _state(), {"before": False, "after": True, "title": "Talk: T"}),
        (None, _state(flagged=True), {"before": False, "after": False, "title": ""}),
        (None, _state(at=None), {"before": False, "after": False, "title": ""}),
        (_state(at=None), _state("U"), {"before": False, "after": True, "title": "Talk: U"}),
        (_state(), _state("U", flagged=True), {"before": True, "after": False, "title": "Talk: T"}),
        (_state(), _state("U", at=None), {"before": True, "after": False, "title": "Talk: T"}),
        (_state(), _state("U"), {"before": True, "after": True, "title": "Talk: U"}),
        ({**_state(), "kind": ""}, {**_state(), "kind": ""}, {"before": True, "after": True, "title": "T"}),
    ],
)  # fmt: skip
def test_a_change_keeps_what_attendees_saw(before: dict | None, after: dict, seen: dict) -> None:
    assert seen_by_public(before, after) == seen


def test_a_review_flag_set_or_cleared_is_a_change() -> None:
    before = {
        **_state(), "abstract": "", "ends_at": None, "room": "A", "track": "", "level": "",
        "has_slides": False, "language": "", "speakers": [], "is_cancelled": False,
    }  # fmt: skip
    flagged = change_facts(before, {**before, "needs_review": True}, zone=PARIS)
    cleared = change_facts({**before, "needs_review": True}, before, zone=PARIS)
    assert flagged == [("details", {"details": [["needs_review", False, True]]})]
    assert [say(kind, facts) for kind, facts in flagged + cleared] == [
        "waiting for review",
        "reviewed",
    ]


def test_a_time_is_said_in_the_reader_s_zone_or_the_recorded_one() -> None:
    facts = {"was": [NINE.isoformat(), None], "now": [None, None], "zone": "Europe/Paris"}
    new_york = zoneinfo.ZoneInfo("America/New_York")
    assert (say("retimed", facts), say("retimed", facts, zone=new_york)) == (
        "moved in time from Tue 7 Apr 11:00 to no time",
        "moved in time from Tue 7 Apr 05:00 to no time",
    )


def _change(session: Session, kind: str, facts: dict, seen: dict | None) -> Change:
    kept = {**facts, "public": seen} if seen is not None else facts
    return Change(session=session, kind=kind, facts=kept, description=f"{kind} in English")


def _rows() -> list[Change]:
    """One version's changes: a session published (a time given and retitled), one withdrawn
    (flagged and retitled), one moved, one changed out of sight, one recorded before changes
    kept what attendees saw (published now)."""
    shown = Session(event=CONF, pk=1, key="shown", title="Shown", starts_at=NINE)
    gone = Session(event=CONF, pk=2, key="gone", title="Secret", needs_review=True, starts_at=NINE)
    moved = Session(event=CONF, pk=3, key="moved", title="Moved", starts_at=NINE)
    hidden = Session(event=CONF, pk=4, key="hidden", title="Hidden", needs_review=True)
    older = Session(event=CONF, pk=5, key="older", title="Older", starts_at=NINE)
    published = {"before": False, "after": True, "title": "Shown"}
    withdrawn = {"before": True, "after": False, "title": "Public title"}
    retimed = {"was": [None, None], "now": [NINE.isoformat(), None], "zone": "Europe/Paris"}
    return [
        _change(shown, "retimed", retimed, published),
        _change(shown, "retitled", {"was": "Draft", "now": "Shown"}, published),
        _change(gone, "retitled", {"was": "Public title", "now": "Secret"}, withdrawn),
        _change(gone, "details", {"details": [["needs_review", False, True]]}, withdrawn),
        _change(moved, "moved", {"was": "A", "now": "B"}, {"before": True, "after": True, "title": "Moved"}),
        _change(hidden, "retitled", {"was": "H", "now": "Hidden"}, {"before": False, "after": False, "title": ""}),
        _change(older, "moved", {}, None),
    ]  # fmt: skip


def test_attendees_read_only_what_was_public_at_the_version() -> None:
    lines = change_lines(_rows(), for_team=False)
    assert [(line.session.key, line.kind, line.title, line.words) for line in lines] == [
        ("shown", "added", "Shown", "added"),
        ("gone", "withdrawn", "Public title", "withdrawn from the programme"),
        ("moved", "moved", "Moved", "moved from A to B"),
        ("older", "moved", "Older", "moved in English"),
    ]
    # Linked only to a page that exists now: not a session flagged since.
    assert [(line.kind_label, line.url) for line in lines] == [
        ("Added", "/conf/sessions/shown/"),
        ("Withdrawn", ""),
        ("New room", "/conf/sessions/moved/"),
        ("New room", "/conf/sessions/older/"),
    ]
    assert summary_of(line.kind for line in lines) == "1 added, 1 withdrawn, 2 new rooms"


def test_the_team_reads_every_change_marked_whether_attendees_read_it() -> None:
    lines = change_lines(_rows(), for_team=True)
    assert [(line.session.key, line.kind, line.title, line.is_public) for line in lines] == [
        ("shown", "retimed", "Shown", True),
        ("shown", "retitled", "Shown", True),
        ("gone", "retitled", "Secret", True),
        ("gone", "details", "Secret", True),
        ("moved", "moved", "Moved", True),
        ("hidden", "retitled", "Hidden", False),
        ("older", "moved", "Older", True),
    ]


@pytest.mark.django_db
def test_flagging_a_published_session_alone_makes_a_version(demo_event, demo_programme) -> None:
    """Before, a flag set or cleared with nothing else changed made no version: the session
    left or joined the public programme without a word, and no version kept the programme."""
    from confsched.programme.services import load_programme

    flagged = [
        replace(s, needs_review=s.key == TORCHJD or s.needs_review) for s in demo_programme.sessions
    ]
    report = load_programme(demo_event, replace(demo_programme, sessions=flagged))
    assert report.version is not None
    assert [(c.kind, c.facts) for c in report.version.changes.all()] == [
        ("details", {
            "details": [["needs_review", False, True]],
            "public": {"before": True, "after": False,
                       "title": "Lightning Talk: TorchJD: Jacobian Descent in PyTorch"},
        })
    ]  # fmt: skip
    back = load_programme(demo_event, demo_programme).version
    assert back is not None
    assert [c.facts["public"]["after"] for c in back.changes.all()] == [True]


def test_a_stored_summary_is_said_again_in_the_active_language() -> None:
    """ScheduleVersion.summary is English (and was "2 new room" before phrases had plurals):
    pages without the version's changes at hand say it in the reader's language."""
    with translation.override("fr"):
        assert summary_in_language("29 added") == "29 sessions ajoutées"
        assert summary_in_language("1 cancelled, 2 new room") == (
            "1 session annulée, 2 nouvelles salles"
        )
    with translation.override("de"):
        assert summary_in_language("1 new time, 2 new rooms, 1 speakers changed") == (
            "1 neue Zeit, 2 neue Räume, 1 Änderung der Vortragenden"
        )
        # What it does not know stays as stored.
        assert summary_in_language("3 moved about") == "3 moved about"
        assert summary_in_language("") == ""
