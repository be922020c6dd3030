"""Re-imports: a session that comes back is back, and our own exports change nothing at all."""

from __future__ import annotations

from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command

from confsched.interchange.formats import FRAB_FIELDS
from confsched.programme.models import Change, ScheduleVersion, Session
from confsched.programme.services import load_programme
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def _state(event) -> list[tuple]:  # noqa: ANN001
    return list(
        Session.objects.filter(event=event)
        .order_by("key")
        .values_list("key", "is_cancelled", "needs_review", "sequence", "starts_at", "title")
    )


def test_a_session_back_in_a_format_without_a_cancelled_flag_is_not_cancelled(
    demo_event, demo_programme
) -> None:
    without = replace(
        demo_programme,
        sessions=[s for s in demo_programme.sessions if s.key != TORCHJD],
        carries=FRAB_FIELDS,
    )
    load_programme(demo_event, without)
    assert Session.objects.get(event=demo_event, key=TORCHJD).is_cancelled is True
    report = load_programme(demo_event, replace(demo_programme, carries=FRAB_FIELDS))
    row = Session.objects.get(event=demo_event, key=TORCHJD)
    assert (row.is_cancelled, row.sequence) == (False, 2)
    assert [title for title, _ in report.updated] == [row.full_title]
    assert list(
        Change.objects.filter(version=report.version).values_list("kind", "description")
    ) == [("restored", "back in the programme")]


def test_a_source_that_says_cancelled_still_cancels(demo_event, demo_programme) -> None:
    sessions = [
        replace(s, is_cancelled=s.key == TORCHJD) for s in demo_programme.sessions
    ]  # the iCalendar readers carry STATUS:CANCELLED
    load_programme(demo_event, replace(demo_programme, sessions=sessions))
    assert Session.objects.get(event=demo_event, key=TORCHJD).is_cancelled is True


def test_an_unpublished_session_missing_from_a_complete_import_is_left_alone(
    demo_event, demo_programme
) -> None:
    flagged = Session.objects.get(event=demo_event, needs_review=True)
    before = _state(demo_event)
    report = load_programme(
        demo_event,
        replace(demo_programme, sessions=[s for s in demo_programme.sessions if s.starts_at]),
    )
    assert (report.cancelled, report.version, _state(demo_event)) == ([], None, before)
    assert Session.objects.get(pk=flagged.pk).is_cancelled is False


@pytest.mark.parametrize("extension", ["xml", "json", "xcal", "csv", "ics"])
def test_our_own_export_imported_back_changes_nothing(demo_event, tmp_path, extension) -> None:  # noqa: ANN001
    # Cancel one session first: exports leave cancelled sessions out (or mark them so).
    Session.objects.filter(event=demo_event, key=TORCHJD).update(is_cancelled=True, sequence=1)
    path = tmp_path / f"schedule.{extension}"
    call_command(
        "export", "--event", DEMO_SLUG, "--format", extension, "--output", str(path),
        "--base-url", "https://example.org", stderr=StringIO(),
    )  # fmt: skip
    before = _state(demo_event)
    versions = ScheduleVersion.objects.filter(event=demo_event).count()
    out = StringIO()
    call_command("import", "--event", DEMO_SLUG, str(path), stdout=out)
    assert "0 sessions created, 0 updated" in out.getvalue()
    assert "0 cancelled" in out.getvalue()
    assert "Nothing changed: no new schedule version." in out.getvalue()
    assert _state(demo_event) == before
    assert ScheduleVersion.objects.filter(event=demo_event).count() == versions


def test_an_import_runs_no_system_checks(demo_event, tmp_path) -> None:  # noqa: ANN001
    from django.core import checks
    from django.core.management import load_command_class
    from django.core.management.base import SystemCheckError

    def failing(**kwargs: object) -> list[checks.CheckMessage]:
        return [checks.Error("a check that always fails", id="test.E001")]

    path = tmp_path / "schedule.json"
    call_command(
        "export", "--event", DEMO_SLUG, "--format", "json", "--output", str(path),
        "--base-url", "https://example.org", stderr=StringIO(),
    )  # fmt: skip
    checks.register(failing)
    try:
        # As `confsched import` runs it: execute() with the command line's options, whose
        # skip_checks is False (call_command would skip the checks itself).
        out = StringIO()
        command = load_command_class("confsched.programme", "import")
        parser = command.create_parser("confsched", "import")
        options = vars(parser.parse_args(["--event", DEMO_SLUG, str(path)]))
        command.execute(**{**options, "skip_checks": False, "stdout": out})
        assert "0 sessions created, 0 updated, 28 unchanged" in out.getvalue()
        with pytest.raises(SystemCheckError, match="a check that always fails"):
            call_command("check")
    finally:
        checks.registry.registry.registered_checks.discard(failing)
