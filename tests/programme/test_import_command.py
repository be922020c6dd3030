"""confsched import: what it prints, and that a refused import writes nothing."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from confsched.interchange.formats import format_names
from confsched.programme.models import Event, Session, Speaker
from tests.conftest import DEMO_DIR, DEMO_SLUG

pytestmark = pytest.mark.django_db

DEMO_PATHS = [str(path) for path in sorted(DEMO_DIR.glob("*.txt"))]
TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def _import(*args: str) -> str:
    out = StringIO()
    call_command("import", *args, stdout=out)
    return out.getvalue()


def test_import_creates_the_event_and_prints_what_it_did() -> None:
    output = _import("--event", DEMO_SLUG, "--timezone", "Europe/Paris", *DEMO_PATHS)
    lines = output.splitlines()
    assert lines[0] == f"Created event {DEMO_SLUG} (Europe/Paris)"
    assert lines[1] == (
        f"Imported 5 file(s) into {DEMO_SLUG}: 29 sessions created, 0 updated, 0 unchanged, "
        "0 cancelled, 1 flagged for review; speakers 42 created, 0 updated."
    )
    assert "Schedule version 1: 29 added." in lines
    assert (
        lines[3]
        == "  created: Lightning Talk: Why Your Forecasting Transformer Isn’t Working (And How To Fix It in Python)"
    )
    assert sum(line.startswith("  created: ") for line in lines) == 29
    assert [line for line in lines if line.startswith("  flagged: ")] == [
        "  flagged: Untitled session page (004_8d12cb28771c542b.txt): 004_8d12cb28771c542b.txt "
        "shows a session page with no title and no time, and its text matches no session on the "
        "listing pages. Its whole text is kept as the abstract (it may include speaker bios): "
        "give it a title, time, room and speakers."
    ]
    assert (
        "  note: 003_e30430de5c212814.txt: session page matched 'Enabling State-of-the-art Asynchronous Execution in Torch.compile With CUDA Streams'"
        in lines
    )
    event = Event.objects.get(slug=DEMO_SLUG)
    assert (event.name, event.timezone) == ("PyTorch Conference Europe 2026", "Europe/Paris")


def test_importing_again_updates_nothing() -> None:
    _import("--event", DEMO_SLUG, "--timezone", "Europe/Paris", *DEMO_PATHS)
    output = _import("--event", DEMO_SLUG, *DEMO_PATHS)
    assert output.splitlines()[0] == (
        f"Imported 5 file(s) into {DEMO_SLUG}: 0 sessions created, 0 updated, 29 unchanged, "
        "0 cancelled, 1 flagged for review; speakers 0 created, 0 updated."
    )
    assert output.splitlines()[1] == "Nothing changed: no new schedule version."
    assert Session.objects.count() == 29


def _assert_nothing_written() -> None:
    assert (Event.objects.count(), Session.objects.count(), Speaker.objects.count()) == (0, 0, 0)


def test_a_broken_file_among_good_ones_writes_nothing(tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    text = (DEMO_DIR / "002_f0fe97cd188ad8b4.txt").read_text()
    broken.write_text(
        text.replace(
            "Tuesday April 7, 2026 14:45 - 15:10 CEST", "Tuesday April 7, 2026 14:45 - 15:10 QQQT"
        )
    )
    line = broken.read_text().splitlines().index("Tuesday April 7, 2026 14:45 - 15:10 QQQT") + 1
    with pytest.raises(CommandError) as caught:
        _import("--event", DEMO_SLUG, "--timezone", "Europe/Paris", *DEMO_PATHS[:2], str(broken))
    assert str(caught.value) == (
        f"broken.txt, line {line}: time zone 'QQQT' is not declared in the page header and is "
        "not one confsched knows; keep the header line 'This schedule is automatically "
        "displayed in …'\nNothing was imported."
    )
    _assert_nothing_written()


def test_a_file_in_no_known_format_is_refused_with_the_formats_we_read(tmp_path: Path) -> None:
    other = tmp_path / "notes.md"
    other.write_text("# Shopping list\n- bread\n")
    with pytest.raises(CommandError) as caught:
        _import("--event", DEMO_SLUG, "--timezone", "Europe/Paris", str(other))
    message = str(caught.value)
    assert message == (
        f"notes.md: not a programme confsched can read; it reads: {format_names()}\n"
        "Nothing was imported."
    )
    for name in ("ical", "xcal", "frab-xml", "c3voc-json", "sessionize-json", "csv", "sched-pages"):
        assert f" {name} (" in message
    _assert_nothing_written()


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as caught:
        _import("--event", DEMO_SLUG, "--timezone", "Europe/Paris", str(tmp_path / "nope.txt"))
    assert str(caught.value) == (
        f"{tmp_path / 'nope.txt'}: cannot read: No such file or directory\nNothing was imported."
    )
    _assert_nothing_written()


def test_a_new_event_takes_the_zone_its_pages_imply() -> None:
    # Sched writes CEST times (UTC+02:00) and the venue's city: Paris.
    output = _import("--event", "new-event", *DEMO_PATHS).splitlines()
    assert output[0] == "Created event new-event (Europe/Paris)"
    assert [line for line in output if "note: time zone" in line] == [
        "  note: time zone Europe/Paris: the location “Paris, France” and the times written "
        "at UTC+02:00 point to Europe/Paris"
    ]


def test_a_new_event_needs_a_time_zone_when_the_file_implies_none(tmp_path: Path) -> None:
    path = _csv(tmp_path, "Talk,2026-10-27T10:00Z,2026-10-27T11:00Z,B\n")
    with pytest.raises(CommandError) as caught:
        _import("--event", "new-event", path)
    assert str(caught.value) == (
        "event 'new-event' does not exist and its time zone is unknown: the file names no time "
        "zone and writes no local UTC offsets; give --timezone (an IANA name such as "
        "Europe/Paris) to create it"
    )
    _assert_nothing_written()


def test_an_unknown_time_zone_is_refused() -> None:
    with pytest.raises(CommandError) as caught:
        _import("--event", "new-event", "--timezone", "Europe/Pariss", *DEMO_PATHS)
    assert str(caught.value) == (
        "unknown time zone 'Europe/Pariss': give an IANA name such as Europe/Paris\n"
        "Nothing was imported."
    )
    _assert_nothing_written()


def _csv(tmp_path: Path, rows: str) -> str:
    path = tmp_path / "programme.csv"
    path.write_text("title,starts_at,ends_at,room\n" + rows, encoding="utf-8")
    return str(path)


def test_a_file_whose_times_carry_offsets_creates_the_event_in_the_zone_they_imply(
    tmp_path: Path,
) -> None:
    path = _csv(
        tmp_path,
        "Before the change,2026-10-24T10:00+02:00,2026-10-24T11:00+02:00,A\n"
        "After the change,2026-10-26T10:00+01:00,2026-10-26T11:00+01:00,A\n"
        "Only in Kathmandu,2026-10-27T10:00+05:45,2026-10-27T11:00+05:45,B\n",
    )
    with pytest.raises(CommandError) as refused:
        _import("--event", "guessed", path)
    assert str(refused.value) == (
        "event 'guessed' does not exist and its time zone is unknown: no time zone has the "
        "offsets UTC+01:00, UTC+02:00, UTC+05:45 at the times written; give --timezone (an "
        "IANA name such as Europe/Paris) to create it"
    )
    assert not Event.objects.filter(slug="guessed").exists()
    nepal = _csv(tmp_path, "Talk,2026-10-27T10:00+05:45,2026-10-27T11:00+05:45,B\n")
    output = _import("--event", "guessed", nepal)
    assert output.splitlines()[0] == "Created event guessed (Asia/Kathmandu)"
    assert (
        "  note: time zone Asia/Kathmandu: only Asia/Kathmandu has the offsets UTC+05:45 then"
        in (output.splitlines())
    )
    assert Event.objects.get(slug="guessed").timezone == "Asia/Kathmandu"


def test_skip_unchanged_keeps_edits_made_since_the_last_import_of_the_same_files() -> None:
    first = ["--event", DEMO_SLUG, "--timezone", "Europe/Paris", "--skip-unchanged"]
    _import(*first, *DEMO_PATHS)
    Session.objects.filter(event__slug=DEMO_SLUG, key=TORCHJD).update(title="Edited by hand")
    assert _import(*first, *DEMO_PATHS) == (
        f"{DEMO_SLUG} was last imported from these same files: nothing to do.\n"
    )
    assert Session.objects.get(event__slug=DEMO_SLUG, key=TORCHJD).title == "Edited by hand"


def test_skip_unchanged_imports_files_that_changed(tmp_path: Path) -> None:
    copies = []
    for path in DEMO_PATHS:
        copy = tmp_path / Path(path).name
        copy.write_bytes(Path(path).read_bytes())
        copies.append(str(copy))
    _import("--event", DEMO_SLUG, "--timezone", "Europe/Paris", "--skip-unchanged", *copies)
    Session.objects.filter(event__slug=DEMO_SLUG, key=TORCHJD).update(title="Edited by hand")
    listing = Path(copies[0])
    listing.write_text(listing.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    output = _import("--event", DEMO_SLUG, "--skip-unchanged", *copies)
    assert output.splitlines()[0].startswith(f"Imported 5 file(s) into {DEMO_SLUG}: 0 sessions")
    title = Session.objects.get(event__slug=DEMO_SLUG, key=TORCHJD).title
    assert title == "TorchJD: Jacobian Descent in PyTorch"


def test_the_demo_import_of_make_run_leaves_an_event_that_exists(tmp_path: Path) -> None:
    """`make run` imports with --if-new: after an organizer's import (here a CSV that moves a
    session) the demo files do not move it back."""
    run = ["--event", DEMO_SLUG, "--timezone", "Europe/Paris", "--if-new", *DEMO_PATHS]
    assert _import(*run).splitlines()[0] == f"Created event {DEMO_SLUG} (Europe/Paris)"
    session = Session.objects.get(event__slug=DEMO_SLUG, key=TORCHJD)
    moved = tmp_path / "moved.csv"
    moved.write_text(
        "key,title,starts_at,ends_at\n"
        f"{TORCHJD},{session.title},2026-04-08T16:00:00+02:00,2026-04-08T16:10:00+02:00\n",
        encoding="utf-8",
    )
    _import("--event", DEMO_SLUG, "--partial", str(moved))
    assert _import(*run) == f"{DEMO_SLUG} exists: left as its organizers have it (--if-new).\n"
    starts_at = Session.objects.get(event__slug=DEMO_SLUG, key=TORCHJD).starts_at
    assert starts_at.isoformat() == "2026-04-08T14:00:00+00:00"


def test_the_makefile_serves_the_demo_without_reimporting_it() -> None:
    makefile = (DEMO_DIR.parent.parent / "Makefile").read_text(encoding="utf-8")
    run = makefile[makefile.index("\nrun:") : makefile.index("confsched serve")]
    assert "--if-new" in run
    assert "--skip-unchanged" not in run
