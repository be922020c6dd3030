"""Exports after a change render the pieces of the sessions that changed, and join the same
bytes as a whole render (interchange/pieces.py, stencils.kept_pieces).

Each test warms every export, changes the programme one way (through the door in, as an
import or the admin does), then asks for every export again: each must equal, byte for byte,
what rendering the event whole gives, and exactly the pieces of the changed sessions must
have been rendered again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from confsched.interchange import programme as pm
from confsched.interchange.pieces import Build, Context
from confsched.interchange.synthetic import synthetic_programme
from confsched.programme.models import Event, Session
from confsched.programme.services import create_event, load_programme, render_export
from confsched.programme.services.export import forget_snapshots
from confsched.web.schedule import exports
from confsched.web.site.stencils import forget_local_stencils

pytestmark = pytest.mark.django_db

SITE = "http://testserver/"
# Extension of the writer -> the address it is served at.
EXPORTS = {
    "xml": "schedule.xml",
    "json": "schedule.json",
    "schedule2": "schedule2.json",
    "xcal": "schedule.xcal",
    "rfc6321.xcal": "schedule.rfc6321.xcal",
    "csv": "schedule.csv",
}
ALL = set(EXPORTS)
# The formats that write cancelled sessions (as cancelled); the others leave them out.
WITH_CANCELLED = {"schedule2", "xcal", "rfc6321.xcal"}


def _programme() -> pm.Programme:
    # 12 sessions over two days in three rooms; speaker p0 speaks in s0, s5 and s10.
    return synthetic_programme(12, rooms=3, days=2, people=10, abstract_sentences=2)


@pytest.fixture
def event() -> Event:
    row = create_event(slug="pieces", name="Pieces", timezone="Europe/Brussels")
    load_programme(row, _programme())
    return row


def _whole(event: Event) -> dict[str, bytes]:
    """Every export rendered whole, from a fresh read and no kept piece."""
    forget_snapshots()
    event.refresh_from_db()
    return {extension: render_export(event, extension, base_url=SITE) for extension in EXPORTS}


def _touch(event: Event) -> None:
    """What the admin does after saving a row of the event: its version moves."""
    Event.objects.filter(pk=event.pk).update(updated_at=timezone.now())


def _exports_after(
    event: Event, change: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, bytes], dict[str, list[str]], dict[str, list[str]]]:
    """Every export served before and after `change`: the bodies after it, and per writer the
    sessions rendered on the first round (all) and after the change."""
    client = Client()
    rounds: list[dict[str, list[str]]] = []
    bodies: dict[str, bytes] = {}
    real = exports.kept_pieces
    for step in ("warm", "after"):
        if step == "after":
            change()
        built: dict[str, list[str]] = {}
        for extension, address in EXPORTS.items():

            def counting(
                kind: str, wanted: list[tuple[pm.Session, Context]], build: Build,
                extension: str = extension, built: dict[str, list[str]] = built,
            ) -> list[bytes]:  # fmt: skip
                def counted(session: pm.Session, context: Context) -> bytes:
                    built.setdefault(extension, []).append(session.key)
                    return build(session, context)

                return real(kind, wanted, counted)

            monkeypatch.setattr(exports, "kept_pieces", counting)
            response = client.get(f"/{event.slug}/{address}")
            assert response.status_code == 200, response.content[:200]
            bodies[extension] = response.content
        rounds.append(built)
    return bodies, rounds[0], rounds[1]


def _expect(keys: set[str], extensions: set[str] = ALL) -> dict[str, list[str]]:
    return {extension: sorted(keys) for extension in sorted(extensions) if keys}


def _sorted(built: dict[str, list[str]]) -> dict[str, list[str]]:
    return {extension: sorted(keys) for extension, keys in sorted(built.items())}


def _load(event: Event, change: Callable[[pm.Programme], pm.Programme]) -> Callable[[], None]:
    def load() -> None:
        load_programme(event, change(_programme()))

    return load


def _with_session(key: str, **values: object) -> Callable[[pm.Programme], pm.Programme]:
    def change(programme: pm.Programme) -> pm.Programme:
        sessions = [replace(s, **values) if s.key == key else s for s in programme.sessions]
        return replace(programme, sessions=sessions)

    return change


def test_the_first_render_renders_every_written_session(event: Event, monkeypatch) -> None:  # noqa: ANN001
    _, warm, _ = _exports_after(event, lambda: None, monkeypatch)
    every = sorted(f"s{i}" for i in range(12))
    assert _sorted(warm) == {extension: every for extension in sorted(ALL)}


def test_a_renamed_session_renders_its_pieces_alone(event: Event, monkeypatch) -> None:  # noqa: ANN001
    change = _load(event, _with_session("s3", title='Renamed, with <markup> & "quotes"'))
    bodies, _, after = _exports_after(event, change, monkeypatch)
    assert _sorted(after) == _expect({"s3"})
    assert bodies == _whole(event)
    assert b"Renamed, with &lt;markup&gt; &amp;" in bodies["xml"]


def test_a_session_moved_to_another_room_and_day_renders_its_pieces_alone(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    programme = _programme()
    moved = programme.session("s4")
    assert moved.starts_at is not None and moved.ends_at is not None
    change = _load(
        event,
        _with_session(
            "s4", room="Room 2", starts_at=moved.starts_at + timedelta(days=1),
            ends_at=moved.ends_at + timedelta(days=1),
        ),
    )  # fmt: skip
    bodies, _, after = _exports_after(event, change, monkeypatch)
    assert _sorted(after) == _expect({"s4"})
    assert bodies == _whole(event)


def test_a_cancelled_session_is_rendered_again_only_where_it_is_written(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    def without_s6(programme: pm.Programme) -> pm.Programme:
        # A complete import that no longer holds s6 marks it cancelled.
        return replace(programme, sessions=[s for s in programme.sessions if s.key != "s6"])

    bodies, _, after = _exports_after(event, _load(event, without_s6), monkeypatch)
    assert Session.objects.get(event=event, key="s6").is_cancelled is True
    assert _sorted(after) == _expect({"s6"}, WITH_CANCELLED)
    assert bodies == _whole(event)
    assert b"s6" not in bodies["csv"].split(b"\r\n", 1)[1]


def test_a_renamed_speaker_renders_the_pieces_of_their_sessions(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    def renamed(programme: pm.Programme) -> pm.Programme:
        speakers = [
            replace(s, name="Ada Lovelace") if s.key == "p0" else s for s in programme.speakers
        ]
        return replace(programme, speakers=speakers)

    bodies, _, after = _exports_after(event, _load(event, renamed), monkeypatch)
    assert _sorted(after) == _expect({"s0", "s5", "s10"})
    assert bodies == _whole(event)
    assert bodies["csv"].count(b"Ada Lovelace") == 3


def test_a_deleted_session_renders_no_piece(event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    def delete() -> None:
        Session.objects.filter(event=event, key="s7").delete()
        _touch(event)

    bodies, _, after = _exports_after(event, delete, monkeypatch)
    assert _sorted(after) == {}
    assert bodies == _whole(event)
    assert all(b"/sessions/s7/" not in bodies[extension] for extension in ("xml", "json"))


def test_an_added_session_renders_its_pieces_alone(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    def added(programme: pm.Programme) -> pm.Programme:
        last = programme.session("s11")
        return replace(
            programme, sessions=[*programme.sessions, replace(last, key="s12", title="New")]
        )

    bodies, _, after = _exports_after(event, _load(event, added), monkeypatch)
    assert _sorted(after) == _expect({"s12"})
    assert bodies == _whole(event)


def test_pieces_kept_by_another_process_are_joined_after_a_restart(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server start (this process's copies dropped) finds the pieces in the shared cache
    when there is one; with the in-process cache of tests, it renders them all again."""

    def restart() -> None:
        load_programme(event, _with_session("s1", title="After a restart")(_programme()))
        forget_local_stencils()

    bodies, _, after = _exports_after(event, restart, monkeypatch)
    assert bodies == _whole(event)
    every = sorted(f"s{i}" for i in range(12))
    assert _sorted(after) == {extension: every for extension in sorted(ALL)}


def test_a_server_start_finds_the_pieces_in_the_shared_cache(
    event: Event,
    monkeypatch: pytest.MonkeyPatch,
    settings,
    tmp_path,  # noqa: ANN001
) -> None:
    # A cache shared between processes (Redis in production; here one on disk).
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path),
        }
    }

    def restart() -> None:
        load_programme(event, _with_session("s1", title="After a restart")(_programme()))
        forget_local_stencils()

    bodies, _, after = _exports_after(event, restart, monkeypatch)
    assert bodies == _whole(event)
    assert _sorted(after) == _expect({"s1"})


def test_the_first_export_after_a_change_reads_the_changed_session_whole(
    event: Event,
    django_assert_num_queries,  # noqa: ANN001
) -> None:
    client = Client()
    client.get(f"/{event.slug}/schedule.xml")
    # As the admin saves a row (an import's own snapshot would have read the session already).
    session = Session.objects.get(event=event, key="s2")
    session.title = "Read again"
    session.save()
    _touch(event)
    # The event; the sessions with their times as text, their speakers and links; the
    # renamed session whole; the speakers; the rooms.
    with django_assert_num_queries(7):
        assert b"Read again" in client.get(f"/{event.slug}/schedule.xml").content
    # The next export of that version finds every session built.
    with django_assert_num_queries(6):
        assert b"Read again" in client.get(f"/{event.slug}/schedule.csv").content
