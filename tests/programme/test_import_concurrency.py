"""Two imports of one event at once, on PostgreSQL: one waits for the other, then applies to what
it left. Nothing mixes, both succeed, and each report tells what that import did.

Run with DATABASE_URL=postgres://...; on SQLite (whose test database is shared in memory across
threads, without its write lock's waiting) these are skipped.
"""

from __future__ import annotations

import threading
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, connections

from confsched.programme.models import Event, ScheduleVersion, Session

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"
    ),
]

SESSIONS = 300


def _csv(path: Path, prefix: str) -> str:
    rows = ["key,title,starts_at,ends_at,room"]
    for number in range(SESSIONS):
        hour, minute = divmod(number, 60)
        rows.append(
            f"{prefix}-{number},Talk {prefix} {number},2026-04-07T{8 + hour % 10:02}:{minute:02}"
            f":00+02:00,2026-04-07T{8 + hour % 10:02}:{minute:02}:00+02:00,Room {number % 7}"
        )
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def _both(*commands: list[str]) -> list[str]:
    """Run the import commands in threads started together; each output, in order."""
    start = threading.Barrier(len(commands))
    outputs: list[str] = [""] * len(commands)
    errors: list[BaseException] = []

    def run(index: int, args: list[str]) -> None:
        try:
            start.wait()
            out = StringIO()
            call_command("import", *args, stdout=out)
            outputs[index] = out.getvalue()
        except BaseException as exc:  # noqa: BLE001 - reported below, with its traceback
            errors.append(exc)
        finally:
            connections.close_all()  # this thread's own connection

    threads = [
        threading.Thread(target=run, args=(index, args)) for index, args in enumerate(commands)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    return outputs


def _live_keys(slug: str) -> set[str]:
    return set(
        Session.objects.filter(event__slug=slug, is_cancelled=False).values_list("key", flat=True)
    )


def test_two_imports_of_one_event_apply_one_after_the_other(tmp_path: Path) -> None:
    base = ["--event", "race", "--timezone", "Europe/Paris"]
    call_command("import", *base, _csv(tmp_path / "first.csv", "x"), stdout=StringIO())
    a, b = _csv(tmp_path / "a.csv", "a"), _csv(tmp_path / "b.csv", "b")
    out_a, out_b = _both([*base, a], [*base, b])
    # The import that went second cancelled the one before it, whole; the first one cancelled
    # the initial file's sessions.
    firsts = [out for out in (out_a, out_b) if "300 cancelled" in out.splitlines()[0]]
    assert len(firsts) == 2
    winner = "a" if ScheduleVersion.objects.order_by("-number")[0].source.endswith("a.csv") else "b"
    assert _live_keys("race") == {f"{winner}-{number}" for number in range(SESSIONS)}
    assert Session.objects.filter(event__slug="race").count() == 3 * SESSIONS
    assert list(
        ScheduleVersion.objects.filter(event__slug="race")
        .order_by("number")
        .values_list("number", "summary")
    ) == [
        (1, "300 added"),
        (2, "300 added, 300 cancelled"),
        (3, "300 added, 300 cancelled"),
    ]


def test_two_imports_creating_one_new_event_create_it_once(tmp_path: Path) -> None:
    base = ["--event", "fresh", "--timezone", "Europe/Paris"]
    a, b = _csv(tmp_path / "a.csv", "a"), _csv(tmp_path / "b.csv", "b")
    outputs = _both([*base, a], [*base, b])
    created = [out for out in outputs if out.startswith("Created event fresh (Europe/Paris)")]
    assert len(created) == 1
    assert Event.objects.filter(slug="fresh").count() == 1
    live = _live_keys("fresh")
    assert live in ({f"a-{n}" for n in range(SESSIONS)}, {f"b-{n}" for n in range(SESSIONS)})


def test_a_release_and_an_import_of_one_event_do_not_interleave(tmp_path: Path) -> None:
    """Whichever goes first, the other applies to what it left: attendees then see what the
    draft holds, and no lock is ever waited for in the opposite order (no deadlock)."""
    from datetime import timedelta

    from confsched.core.errors import DraftError
    from confsched.programme.services import draft_for, release_draft, start_draft
    from confsched.programme.services.editing import move_session

    base = ["--event", "race", "--timezone", "Europe/Paris"]
    call_command("import", *base, _csv(tmp_path / "first.csv", "x"), stdout=StringIO())
    event = Event.objects.get(slug="race")
    draft = start_draft(event)
    row = Session.objects.get(event=draft, key="x-1")
    later = row.starts_at + timedelta(hours=1)
    move_session(draft, "x-1", room="Room 9", starts_at=later, ends_at=later)
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def release() -> None:
        try:
            start.wait()
            release_draft(Event.objects.get(slug="race"), name="Race")
        except DraftError:  # the import went first and the draft took it: maybe nothing left
            pass
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    def load() -> None:
        try:
            start.wait()
            call_command("import", *base, _csv(tmp_path / "a.csv", "a"), stdout=StringIO())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=release), threading.Thread(target=load)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert _live_keys("race") == {f"a-{number}" for number in range(SESSIONS)}
    shown = Session.objects.filter(event__slug="race").published()
    drafted = Session.objects.filter(event=draft_for(event)).published()
    assert sorted(shown.values_list("key", "starts_at", "is_cancelled")) == sorted(
        drafted.values_list("key", "starts_at", "is_cancelled")
    )


def test_two_writers_moving_one_event_s_version_at_once_make_one_chain_of_steps() -> None:
    """The outline journal (programme/services/journal.py): the second writer reads the version
    the first left, never the one both started from (a reader holding that would follow only
    the second's step and miss the first's sessions)."""
    import time

    from django.db import transaction

    from confsched.programme.models import OutlineStep
    from confsched.programme.services import create_event, move_version

    event = create_event(slug="steps", name="Steps", timezone="Europe/Paris")
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def write(touched: int) -> None:
        try:
            start.wait()
            with transaction.atomic():
                move_version(Event.objects.get(pk=event.pk), [touched])
                time.sleep(0.3)  # the lock held: the other writer waits for this commit
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(touched,)) for touched in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    first, second = OutlineStep.objects.filter(event=event).order_by("pk")
    assert (first.since, second.since) == (event.updated_at, first.until)
    assert second.until == Event.objects.get(pk=event.pk).updated_at
    assert sorted([*first.sessions, *second.sessions]) == [1, 2]
