"""confsched sync: conditional requests, 304 does nothing, 200 imports, one event's failure does
not stop the others. A loopback server stands in for the organizer's source."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from typing import ClassVar

import pytest
from django.core.management import CommandError, call_command

from confsched.programme.models import Event, ScheduleVersion, Session
from confsched.programme.services import create_event
from confsched.search.models import SessionEmbedding

pytestmark = pytest.mark.django_db

LAST_MODIFIED = "Tue, 07 Apr 2026 08:00:00 GMT"


def calendar(*titles: str) -> bytes:
    events = b"".join(
        b"BEGIN:VEVENT\r\nUID:s%d@test\r\nSUMMARY:%s\r\n"
        b"DTSTART:20260407T0%d0000Z\r\nDTEND:20260407T0%d3000Z\r\nEND:VEVENT\r\n"
        % (number, title.encode(), number + 7, number + 7)
        for number, title in enumerate(titles)
    )
    return (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//test//EN\r\n"
        + events
        + b"END:VCALENDAR\r\n"
    )


class Source(BaseHTTPRequestHandler):
    """/programme.ics answers 304 to a client holding the current ETag or date, else the body."""

    body: ClassVar[bytes] = calendar("Keynote")
    etag: ClassVar[str] = '"v1"'
    last_modified: ClassVar[str] = LAST_MODIFIED
    seen: ClassVar[list[tuple[str | None, str | None]]] = []

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        if self.path != "/programme.ics":
            self.send_response(404, "Not Found")
            self.end_headers()
            return
        etag, since = self.headers["If-None-Match"], self.headers["If-Modified-Since"]
        self.seen.append((etag, since))
        cls = type(self)
        validators = [("ETag", cls.etag), ("Last-Modified", cls.last_modified)]
        if (etag and etag == cls.etag) or (not etag and since and since == cls.last_modified):
            self.send_response(304)
            for name, value in validators:
                if value:
                    self.send_header(name, value)
            self.end_headers()
            return
        self.send_response(200)
        for name, value in validators:
            if value:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(cls.body)))
        self.end_headers()
        self.wfile.write(cls.body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Source)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def _source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Source, "body", calendar("Keynote"))
    monkeypatch.setattr(Source, "etag", '"v1"')
    monkeypatch.setattr(Source, "last_modified", LAST_MODIFIED)
    monkeypatch.setattr(Source, "seen", [])


def synced_event(slug: str, url: str) -> Event:
    event = create_event(slug=slug, name=slug, timezone="Europe/Paris")
    Event.objects.filter(pk=event.pk).update(sync_url=url)
    return event


def sync(*args: str, embed: bool = False) -> tuple[list[str], list[str]]:
    out, err = StringIO(), StringIO()
    options = (
        ("--allow-private-hosts",) if embed else ("--allow-private-hosts", "--skip-embeddings")
    )
    call_command("sync", *options, *args, stdout=out, stderr=err)
    return out.getvalue().splitlines(), err.getvalue().splitlines()


CREATED = (
    "t: 1 sessions created, 0 updated, 0 unchanged, 0 cancelled, 0 flagged for review; "
    "schedule version 1"
)


def test_the_first_sync_imports_and_records_the_validators(server: str) -> None:
    event = synced_event("t", f"{server}/programme.ics")
    assert sync() == ([CREATED], [])
    event.refresh_from_db()
    assert (event.sync_etag, event.sync_last_modified) == ('"v1"', LAST_MODIFIED)
    assert list(Session.objects.values_list("title", flat=True)) == ["Keynote"]
    assert Source.seen == [(None, None)]


def test_a_sync_queues_the_sessions_whose_text_changed_for_the_worker(server: str) -> None:
    from confsched.search.worker import QUEUED
    from tests.search.test_semantic import _queued, _require_model, _worker_batch

    event = synced_event("t", f"{server}/programme.ics")
    assert sync(embed=True) == ([CREATED, f"t: {QUEUED}"], [])
    assert _queued() == [("READY", {"args": [event.pk], "kwargs": {}})]
    assert sync(embed=True) == (["t: unchanged (the server answered 304 Not Modified)"], [])
    _require_model()
    _worker_batch()
    assert SessionEmbedding.objects.filter(session__title="Keynote").count() == 1
    # Nothing changed since: nothing to queue.
    Event.objects.filter(pk=event.pk).update(sync_etag="", sync_last_modified="")
    assert sync(embed=True)[0][1:] == []
    assert [status for status, _ in _queued()] == ["SUCCESSFUL"]


def test_a_sync_sends_the_validators_and_a_304_changes_nothing(server: str) -> None:
    event = synced_event("t", f"{server}/programme.ics")
    sync()
    updated_at = Event.objects.get(pk=event.pk).updated_at
    assert sync() == (["t: unchanged (the server answered 304 Not Modified)"], [])
    assert Source.seen == [(None, None), ('"v1"', LAST_MODIFIED)]
    assert ScheduleVersion.objects.count() == 1
    assert Event.objects.get(pk=event.pk).updated_at == updated_at


def test_a_changed_source_is_imported_with_its_new_validators(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = synced_event("t", f"{server}/programme.ics")
    sync()
    monkeypatch.setattr(Source, "body", calendar("Opening keynote", "Lunch"))
    monkeypatch.setattr(Source, "etag", '"v2"')
    monkeypatch.setattr(Source, "last_modified", "Wed, 08 Apr 2026 08:00:00 GMT")
    assert sync() == (
        [
            "t: 1 sessions created, 1 updated, 0 unchanged, 0 cancelled, 0 flagged for review; "
            "schedule version 2"
        ],
        [],
    )
    event.refresh_from_db()
    assert (event.sync_etag, event.sync_last_modified) == (
        '"v2"',
        "Wed, 08 Apr 2026 08:00:00 GMT",
    )
    assert sorted(Session.objects.values_list("title", flat=True)) == ["Lunch", "Opening keynote"]
    assert Source.seen == [(None, None), ('"v1"', LAST_MODIFIED)]


def test_a_server_without_validators_is_skipped_when_the_bytes_are_the_same(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Source, "etag", "")
    monkeypatch.setattr(Source, "last_modified", "")
    event = synced_event("t", f"{server}/programme.ics")
    sync()
    Session.objects.filter(event=event).update(title="Edited by the organizer")
    assert sync() == (["t: unchanged (the same content as last imported)"], [])
    assert Source.seen == [(None, None), (None, None)]
    assert list(Session.objects.values_list("title", flat=True)) == ["Edited by the organizer"]
    assert ScheduleVersion.objects.count() == 1


def test_one_events_failure_is_reported_and_the_others_still_sync(server: str) -> None:
    synced_event("a-broken", f"{server}/gone.ics")
    synced_event("t", f"{server}/programme.ics")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("sync", "--allow-private-hosts", "--skip-embeddings", stdout=out, stderr=err)
    assert str(caught.value) == "1 event(s) failed to sync: a-broken"
    assert err.getvalue().splitlines() == [
        f"a-broken: {server}/gone.ics: the server answered 404 Not Found",
        "Nothing was imported into a-broken.",
    ]
    assert out.getvalue().splitlines() == [CREATED]
    assert Event.objects.get(slug="a-broken").sync_etag == ""


def test_a_source_that_does_not_parse_is_reported_and_its_validators_not_kept(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Source, "body", b"not a programme")
    synced_event("t", f"{server}/programme.ics")
    with pytest.raises(CommandError) as caught:
        sync()
    assert str(caught.value) == "1 event(s) failed to sync: t"
    event = Event.objects.get(slug="t")
    assert (event.sync_etag, event.import_digest, Session.objects.count()) == ("", "", 0)


def test_a_private_host_is_refused_without_the_option(server: str) -> None:
    synced_event("t", f"{server}/programme.ics")
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("sync", stdout=StringIO(), stderr=err)
    assert (
        err.getvalue()
        .splitlines()[0]
        .startswith(f"t: {server}/programme.ics: refused: 127.0.0.1 is a loopback address; ")
    )
    assert Source.seen == []


def test_only_the_named_event_syncs(server: str) -> None:
    synced_event("other", f"{server}/gone.ics")
    synced_event("t", f"{server}/programme.ics")
    assert sync("--event", "t") == ([CREATED], [])


def test_an_unknown_event_or_one_without_a_url_is_an_error() -> None:
    create_event(slug="plain", name="plain", timezone="Europe/Paris")
    with pytest.raises(CommandError) as caught:
        sync("--event", "nope")
    assert str(caught.value) == "no event with the slug 'nope'"
    with pytest.raises(CommandError) as caught:
        sync("--event", "plain")
    assert str(caught.value) == "plain has no sync URL: set it in the admin"


def test_events_without_a_sync_url_are_left_alone() -> None:
    create_event(slug="plain", name="plain", timezone="Europe/Paris")
    assert sync() == ([], [])


def _workshop_csv(seats: str) -> bytes:
    return (
        "key,title,starts_at,ends_at,timezone,seats\n"
        f"ws,Workshop,2027-03-01 09:00,2027-03-01 11:00,Europe/Paris,{seats}\n"
    ).encode()


def test_a_sync_that_gives_fewer_seats_than_held_is_refused_unless_they_keep_them(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.contrib.auth.models import User

    from confsched.agenda.models import Reservation
    from confsched.agenda.reservations import force

    monkeypatch.setattr(Source, "body", _workshop_csv("3"))
    synced_event("t", f"{server}/programme.ics")
    sync()
    workshop = Session.objects.get(key="ws")
    for name in ("ada", "bob"):
        force(User.objects.create_user(name), workshop)
    monkeypatch.setattr(Source, "body", _workshop_csv("1"))
    monkeypatch.setattr(Source, "etag", '"v2"')
    with pytest.raises(CommandError, match="^1 event\\(s\\) failed to sync: t$"):
        sync()
    assert Session.objects.get(key="ws").seats == 3
    out, err = sync("--keep-reservations-over-seats")
    assert (out, err) == (
        ["t: 0 sessions created, 0 updated, 1 unchanged, 0 cancelled, 0 flagged for review"],
        [],
    )
    assert Session.objects.get(key="ws").seats == 1
    assert Reservation.objects.filter(status="confirmed").count() == 2
