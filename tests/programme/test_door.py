"""The database door: invisible characters, line breaks in one-line texts, and a file that names
the event's sessions under other keys."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from confsched.core.errors import InvalidProgrammeError
from confsched.interchange.programme import Speaker
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Session, SessionSpeaker
from confsched.programme.models import Speaker as SpeakerRow
from confsched.programme.services import (
    ImportOptions,
    create_event,
    import_files,
    load_programme,
    render_export,
)
from tests.conftest import demo_files

pytestmark = pytest.mark.django_db

TORCHJD = "lightning-talk-torchjd-jacobian-descent-in-pytorch"


def _with_zero_width_space(name: str) -> list[tuple[str, bytes]]:
    """The demo pages with U+200B before the speaker's name in their first block on page 001."""
    files = demo_files()
    source, data = files[1]
    text = data.decode("utf-8")
    files[1] = (source, text.replace(f"\n{name}\n", f"\n\u200b{name}\n", 1).encode())
    assert "\u200b" in files[1][1].decode()
    return files


def test_a_zero_width_space_before_a_speaker_name_is_one_person(tmp_path: Path) -> None:
    paths = []
    for name, data in _with_zero_width_space("Huamin Chen"):
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(str(path))
    out = io.StringIO()
    call_command("import", "--event", "zw", "--timezone", "Europe/Paris", *paths, stdout=out)
    assert "29 sessions created" in out.getvalue()
    assert list(SpeakerRow.objects.filter(name__contains="Huamin").values_list("name", "key")) == [
        ("Huamin Chen", "huamin-chen")
    ]
    links = SessionSpeaker.objects.filter(speaker__key="huamin-chen")
    assert links.count() == 1


def test_invisible_characters_leave_keys_and_names(demo_event, demo_programme) -> None:  # noqa: ANN001
    session = demo_programme.session(TORCHJD)
    edited = replace(
        demo_programme,
        sessions=[
            replace(s, key="\ufeff" + s.key, title="\u200b" + s.title + "\u2060")
            if s.key == TORCHJD
            else s
            for s in demo_programme.sessions
        ],
    )
    report = load_programme(demo_event, edited)
    assert (report.created, report.updated, report.cancelled) == ([], [], [])
    assert Session.objects.get(event=demo_event, key=TORCHJD).title == session.title


def test_a_title_with_line_breaks_is_stored_on_one_line(demo_event, demo_programme) -> None:  # noqa: ANN001
    edited = replace(
        demo_programme,
        sessions=[
            replace(s, title="TorchJD:\r\nJacobian Descent\nin PyTorch") if s.key == TORCHJD else s
            for s in demo_programme.sessions
        ],
        speakers=[replace(p, name=p.name + "\r\n") for p in demo_programme.speakers[:1]]
        + demo_programme.speakers[1:],
    )
    report = load_programme(demo_event, edited)
    assert Session.objects.get(event=demo_event, key=TORCHJD).title == (
        "TorchJD: Jacobian Descent in PyTorch"
    )
    assert "1 title held line breaks, joined into one line" in report.warnings
    assert "1 speaker name held line breaks, joined into one line" in report.warnings
    assert all("\n" not in name for name in SpeakerRow.objects.values_list("name", flat=True))


def test_abstracts_keep_their_lines(demo_event, demo_programme) -> None:  # noqa: ANN001
    edited = replace(
        demo_programme,
        sessions=[
            replace(s, abstract="\u200bFirst line.\n\nSecond line.") if s.key == TORCHJD else s
            for s in demo_programme.sessions
        ],
    )
    load_programme(demo_event, edited)
    abstract = Session.objects.get(event=demo_event, key=TORCHJD).abstract
    assert abstract == "First line.\n\nSecond line."


@pytest.fixture
def keyed_event():  # noqa: ANN201 - pytest fixture
    """An event whose sessions have source keys ("s0"...), as a frab or pretalx import gives."""
    event = create_event(slug="keyed", name="Keyed", timezone="Europe/Paris")
    load_programme(event, synthetic_programme(40))
    return event


def _csv_without_keys(event) -> bytes:  # noqa: ANN001 - a model instance
    rows = list(csv.DictReader(io.StringIO(render_export(event, "csv").decode("utf-8-sig"))))
    out = io.StringIO()
    names = [name for name in rows[0] if name != "key"]
    writer = csv.DictWriter(out, fieldnames=names, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def _live(event) -> list[str]:  # noqa: ANN001
    return sorted(
        Session.objects.filter(event=event, is_cancelled=False).values_list("key", flat=True)
    )


def test_a_csv_saved_without_its_key_column_is_refused(keyed_event) -> None:  # noqa: ANN001
    before = _live(keyed_event)
    data = _csv_without_keys(keyed_event)
    with pytest.raises(InvalidProgrammeError) as refused:
        import_files(keyed_event, [("nokeys.csv", data)])
    message = str(refused.value)
    assert message.startswith(
        "40 sessions of this file are sessions the event has under other keys (e.g. 's0' is now"
    )
    assert "a CSV without its `key` column?" in message
    assert "nothing was imported" in message
    assert _live(keyed_event) == before
    assert Session.objects.filter(event=keyed_event).count() == 40


def test_a_partial_csv_without_keys_is_refused_too(keyed_event) -> None:  # noqa: ANN001
    data = _csv_without_keys(keyed_event)
    with pytest.raises(InvalidProgrammeError):
        import_files(keyed_event, [("nokeys.csv", data)], options=ImportOptions(is_partial=True))
    assert Session.objects.filter(event=keyed_event).count() == 40


def test_new_keys_are_applied_when_accepted(keyed_event) -> None:  # noqa: ANN001
    data = _csv_without_keys(keyed_event)
    report = import_files(
        keyed_event, [("nokeys.csv", data)], options=ImportOptions(accept_new_keys=True)
    )
    assert (len(report.created), len(report.cancelled)) == (40, 40)


def test_the_command_refuses_new_keys_and_says_how_to_accept_them(
    keyed_event, tmp_path: Path
) -> None:  # noqa: ANN001
    path = tmp_path / "nokeys.csv"
    path.write_bytes(_csv_without_keys(keyed_event))
    with pytest.raises(CommandError) as refused:
        call_command("import", "--event", "keyed", str(path), stdout=io.StringIO())
    assert "--accept-new-keys" in str(refused.value)
    assert str(refused.value).endswith("Nothing was imported.")
    out = io.StringIO()
    call_command("import", "--event", "keyed", "--accept-new-keys", str(path), stdout=out)
    assert "40 sessions created" in out.getvalue()


def test_one_talk_replaced_by_a_new_one_of_the_same_title_is_no_scheme_change(
    demo_event, demo_programme
) -> None:  # noqa: ANN001
    edited = replace(
        demo_programme,
        sessions=[replace(s, key="torchjd-again") if s.key == TORCHJD else s
                  for s in demo_programme.sessions],
    )  # fmt: skip
    report = load_programme(demo_event, edited)
    assert (report.created, report.cancelled) == (
        ["Lightning Talk: TorchJD: Jacobian Descent in PyTorch"],
        ["Lightning Talk: TorchJD: Jacobian Descent in PyTorch"],
    )


def test_a_session_naming_one_speaker_twice_keeps_one(demo_event, demo_programme) -> None:  # noqa: ANN001
    session = demo_programme.session(TORCHJD)
    doubled = replace(session, speakers=session.speakers + session.speakers[:1])
    edited = replace(
        demo_programme,
        sessions=[doubled if s.key == TORCHJD else s for s in demo_programme.sessions],
        speakers=[*demo_programme.speakers, Speaker(key=session.speakers[0].speaker_key, name="x")],
    )
    load_programme(demo_event, edited)
    row = Session.objects.get(event=demo_event, key=TORCHJD)
    assert row.speaker_links.count() == len(session.speakers)
