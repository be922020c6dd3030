"""The admin's import page: a dry-run preview with the command's report, a confirm that applies
exactly what was shown, and refusals that write nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from confsched.programme.models import Event, ScheduleVersion, Session
from confsched.programme.services import LoadReport, create_event, draft_for, import_files
from tests.conftest import demo_files

pytestmark = pytest.mark.django_db

SUMMARY = (
    "29 sessions created, 0 updated, 0 unchanged, 0 cancelled, 1 flagged for review; "
    "speakers 42 created, 0 updated."
)


@pytest.fixture(autouse=True)
def _data_dir(settings: object, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path  # type: ignore[attr-defined]
    return tmp_path


@pytest.fixture
def event() -> Event:
    return create_event(slug="demo", name="Demo", timezone="Europe/Paris")


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("admin", "a@example.org", "pw"))
    return client


def url(event: Event) -> str:
    return f"/admin/programme/event/{event.pk}/import/"


def uploads() -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(name, data) for name, data in demo_files()]


def preview(client: Client, event: Event) -> str:
    response = client.post(url(event), {"action": "preview", "files": uploads()})
    assert response.status_code == 200
    return response.context["token"]


def as_lines(report: LoadReport) -> dict[str, object]:
    version = report.version
    return {
        **{
            name: getattr(report, name)
            for name in (
                "created",
                "cancelled",
                "updated",
                "unchanged",
                "flagged",
                "speakers_created",
                "speakers_updated",
                "warnings",
                "notes",
            )
        },  # fmt: skip
        "version": (version.number, version.summary) if version else None,
    }


def test_a_dry_run_reports_what_the_real_run_does_and_writes_nothing(event: Event) -> None:
    dry = import_files(event, demo_files(), is_dry_run=True)
    assert (Session.objects.count(), ScheduleVersion.objects.count()) == (0, 0)
    assert Event.objects.get(pk=event.pk).import_digest == ""
    real = import_files(event, demo_files())
    assert as_lines(dry) == as_lines(real)
    assert as_lines(real)["version"] == (1, "29 added")


def test_a_dry_run_of_a_changed_programme_matches_the_real_run(event: Event) -> None:
    import_files(event, demo_files())
    files = demo_files()
    changed = [
        (files[0][0], files[0][1].replace(b"Forecasting Transformer", b"Forecasting Model")),
        *files[1:],
    ]
    # Sched pages key sessions by their title: a new title is a new session, the old one gone.
    dry = import_files(event, changed, is_dry_run=True)
    assert Session.objects.filter(is_cancelled=True).count() == 0
    real = import_files(event, changed)
    assert as_lines(dry) == as_lines(real)
    assert as_lines(real)["version"] == (2, "1 added, 1 cancelled")


def test_the_change_page_links_to_the_import_page(staff: Client, event: Event) -> None:
    page = staff.get(f"/admin/programme/event/{event.pk}/change/").content.decode()
    assert f'<a href="{url(event)}">Import a programme</a>' in page


def test_the_import_page_shows_the_form(staff: Client, event: Event) -> None:
    response = staff.get(url(event))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'enctype="multipart/form-data"' in page
    assert 'name="files"' in page and 'name="url"' in page and "Preview" in page


def test_the_preview_counts_the_version_in_the_persons_language(
    staff: Client, event: Event
) -> None:
    staff.cookies["confsched_language"] = "fr"
    page = staff.post(url(event), {"action": "preview", "files": uploads()}).content.decode()
    assert "Version 1 du programme : 29 sessions ajoutées." in page


def test_the_import_page_says_its_limit_in_words_not_the_settings_name(
    staff: Client, event: Event, settings: object
) -> None:
    page = staff.get(url(event)).content.decode()
    settings.CONFSCHED_MAX_IMPORT_BYTES = 2 * MB  # type: ignore[attr-defined]
    smaller = staff.get(url(event)).content.decode()
    said = "One or more files of one programme (Sched pages may be several), up to {} in all."
    assert said.format("50.0\xa0MB") in page
    assert said.format("2.0\xa0MB") in smaller
    assert "CONFSCHED_MAX_IMPORT_BYTES" not in page


def test_the_preview_shows_the_commands_report_and_writes_nothing(
    staff: Client, event: Event, _data_dir: Path
) -> None:
    response = staff.post(url(event), {"action": "preview", "files": uploads()})
    page = response.content.decode()
    assert response.status_code == 200
    assert SUMMARY in page
    assert "Schedule version 1: 29 added." in page
    assert page.count("<li>") >= 30
    assert 'value="confirm"' in page
    assert (Session.objects.count(), ScheduleVersion.objects.count()) == (0, 0)
    token = response.context["token"]
    assert sorted(p.name for p in (_data_dir / "imports" / token).iterdir()) == [
        "0", "1", "2", "3", "4",
    ]  # fmt: skip


def test_confirm_applies_what_the_preview_showed_and_cleans_up(
    staff: Client, event: Event, _data_dir: Path
) -> None:
    token = preview(staff, event)
    response = staff.post(url(event), {"action": "confirm", "token": token})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Imported: " in page and SUMMARY in page
    assert Session.objects.filter(event=event).count() == 29
    assert list(ScheduleVersion.objects.values_list("number", "summary")) == [(1, "29 added")]
    assert not (_data_dir / "imports" / token).exists()
    assert token not in staff.session.get("confsched_imports", {})
    again = staff.post(url(event), {"action": "confirm", "token": token})
    assert again.status_code == 409
    assert ScheduleVersion.objects.count() == 1


def test_confirm_is_refused_when_the_kept_files_changed(
    staff: Client, event: Event, _data_dir: Path
) -> None:
    token = preview(staff, event)
    (_data_dir / "imports" / token / "0").write_bytes(b"something else")
    response = staff.post(url(event), {"action": "confirm", "token": token})
    assert response.status_code == 409
    assert response.context["error"] == (
        "The previewed files changed or are gone since the preview: nothing was imported; "
        "upload them again."
    )
    assert Session.objects.count() == 0
    assert not (_data_dir / "imports" / token).exists()


def test_confirm_is_refused_when_the_event_changed_since_the_preview(
    staff: Client, event: Event
) -> None:
    token = preview(staff, event)
    Event.objects.filter(pk=event.pk).update(updated_at=timezone.now())
    response = staff.post(url(event), {"action": "confirm", "token": token})
    assert response.status_code == 409
    assert response.context["error"] == (
        "Demo changed since the preview (an edit or another import), so the import would not "
        "do what the preview showed: nothing was imported; preview again."
    )
    assert Session.objects.count() == 0


@pytest.mark.parametrize("token", ["", "x" * 22, "../../etc/passwd"])
def test_confirm_of_an_unknown_preview_is_refused(staff: Client, event: Event, token: str) -> None:
    response = staff.post(url(event), {"action": "confirm", "token": token})
    assert response.status_code == 409
    assert response.context["error"] == (
        "This preview is not known (expired, already confirmed, or from another session): "
        "upload the files again."
    )
    assert Session.objects.count() == 0


def test_a_preview_from_another_session_cannot_be_confirmed(staff: Client, event: Event) -> None:
    token = preview(staff, event)
    other = Client()
    other.force_login(User.objects.create_superuser("other", "o@example.org", "pw"))
    response = other.post(url(event), {"action": "confirm", "token": token})
    assert response.status_code == 409
    assert Session.objects.count() == 0


def test_cancel_forgets_the_preview(staff: Client, event: Event, _data_dir: Path) -> None:
    token = preview(staff, event)
    response = staff.post(url(event), {"action": "cancel", "token": token})
    assert response.status_code == 200
    assert not (_data_dir / "imports" / token).exists()
    assert staff.session["confsched_imports"] == {}


def test_a_bad_file_is_named_and_nothing_is_kept(
    staff: Client, event: Event, _data_dir: Path
) -> None:
    bad = SimpleUploadedFile("schedule.ics", b"BEGIN:VCALENDAR\r\nnonsense")
    response = staff.post(url(event), {"action": "preview", "files": [bad]})
    assert response.status_code == 400
    assert response.context["error"].startswith("schedule.ics")
    assert escape(response.context["error"]) in response.content.decode()
    assert not (_data_dir / "imports").exists()


def test_neither_files_nor_a_url_is_an_error(staff: Client, event: Event) -> None:
    response = staff.post(url(event), {"action": "preview"})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Upload files or give a URL (one of the two)."
    ]


def test_both_files_and_a_url_is_an_error(staff: Client, event: Event) -> None:
    response = staff.post(
        url(event), {"action": "preview", "files": uploads(), "url": "https://example.org/x"}
    )
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Upload files or give a URL (one of the two)."
    ]


MB = 1024 * 1024


def padded_uploads(size: int) -> list[SimpleUploadedFile]:
    """The demo's pages, the first grown to `size` bytes by an HTML comment the parser skips."""
    (first, *rest) = demo_files()
    name, data = first
    filler = size - len(data) - len(b"<!--  -->")
    return [
        SimpleUploadedFile(name, data + b"<!-- " + b"x" * filler + b" -->"),
        *(SimpleUploadedFile(n, d) for n, d in rest),
    ]


def test_staff_upload_a_programme_larger_than_the_sites_request_limit(
    staff: Client, event: Event
) -> None:
    response = staff.post(url(event), {"action": "preview", "files": padded_uploads(3 * MB)})
    assert response.status_code == 200
    assert SUMMARY in response.content.decode()
    assert Session.objects.count() == 0  # a preview


def test_a_staff_upload_over_the_import_limit_is_refused_unread(
    staff: Client, event: Event, settings: object
) -> None:
    settings.CONFSCHED_MAX_IMPORT_BYTES = 2 * MB  # type: ignore[attr-defined]
    response = staff.post(url(event), {"action": "preview", "files": padded_uploads(3 * MB)})
    assert (response.status_code, response.content.decode()) == (
        413,
        "Request body too large: this site accepts at most 2097152 bytes.\n",
    )
    assert Session.objects.count() == 0


def test_the_site_limit_holds_below_the_import_limit(
    staff: Client, event: Event, settings: object
) -> None:
    settings.CONFSCHED_MAX_IMPORT_BYTES = 10_000  # type: ignore[attr-defined]
    settings.CONFSCHED_MAX_REQUEST_BYTES = 20_000  # type: ignore[attr-defined]
    response = staff.post(url(event), {"action": "preview", "files": uploads()})
    assert (response.status_code, response.content.decode()) == (
        413,
        "Request body too large: this site accepts at most 20000 bytes.\n",
    )


@pytest.mark.parametrize("who", ["anonymous", "attendee"])
def test_people_who_are_not_staff_cannot_send_large_bodies_to_the_import_page(
    event: Event, who: str
) -> None:
    client = Client()
    if who == "attendee":
        client.force_login(User.objects.create_user("attendee", "x@example.org", "pw"))
    response = client.post(url(event), {"action": "preview", "files": padded_uploads(2 * MB)})
    assert (response.status_code, response.content.decode()) == (
        413,
        "Request body too large: this site accepts at most 1048576 bytes.\n",
    )


def test_staff_cannot_send_large_bodies_elsewhere(staff: Client) -> None:
    response = staff.post("/accounts/signup/", {"bio": "x" * (2 * MB)})
    assert response.status_code == 413


def test_people_who_are_not_staff_are_sent_to_log_in(event: Event) -> None:
    client = Client()
    client.force_login(User.objects.create_user("attendee", "x@example.org", "pw"))
    response = client.get(url(event))
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert client.post(url(event), {"action": "preview", "files": uploads()}).status_code == 302
    assert Session.objects.count() == 0


def test_an_unknown_event_is_404(staff: Client) -> None:
    assert staff.get("/admin/programme/event/999/import/").status_code == 404


def test_the_page_needs_the_csrf_token(event: Event) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.create_superuser("admin", "a@example.org", "pw"))
    response = client.post(url(event), {"action": "preview", "files": uploads()})
    assert response.status_code == 403


class _Programme(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        body = (
            b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//test//EN\r\n"
            b"BEGIN:VEVENT\r\nUID:keynote@test\r\nSUMMARY:Keynote\r\n"
            b"DTSTART:20260407T080000Z\r\nDTEND:20260407T090000Z\r\nEND:VEVENT\r\n"
            b"END:VCALENDAR\r\n"
        )
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def source() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Programme)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/programme.ics"
    httpd.shutdown()
    httpd.server_close()


def test_a_url_is_fetched_once_for_the_preview_and_confirmed(
    staff: Client, event: Event, source: str, settings: object
) -> None:
    settings.CONFSCHED_IMPORT_PRIVATE_HOSTS = True  # type: ignore[attr-defined]
    response = staff.post(url(event), {"action": "preview", "url": source})
    assert response.status_code == 200
    assert (
        "1 sessions created, 0 updated, 0 unchanged, 0 cancelled, 0 flagged for review"
        in response.content.decode()
    )
    staff.post(url(event), {"action": "confirm", "token": response.context["token"]})
    assert list(Session.objects.values_list("title", flat=True)) == ["Keynote"]


def test_a_private_url_is_refused_by_default(staff: Client, event: Event, source: str) -> None:
    response = staff.post(url(event), {"action": "preview", "url": source})
    assert response.status_code == 400
    assert response.context["error"].startswith(
        f"{source}: refused: 127.0.0.1 is a loopback address; "
    )


def test_an_import_into_the_draft_leaves_attendees_programme_alone(
    staff: Client, event: Event
) -> None:
    response = staff.post(url(event), {"action": "preview", "files": uploads(), "to_draft": "on"})
    assert response.status_code == 200
    assert Event.with_drafts.count() == 1  # the preview started no draft
    confirmed = staff.post(url(event), {"action": "confirm", "token": response.context["token"]})
    assert confirmed.status_code == 200
    draft = draft_for(event)
    assert Session.objects.filter(event=draft).count() == 29
    assert Session.objects.filter(event=event).count() == 0
    assert ScheduleVersion.objects.filter(event=event).count() == 0


@pytest.mark.parametrize(
    ("language", "form_words", "preview_words"),
    [
        (
            "fr",
            ["Rien n’est écrit avant votre confirmation", "Ou une URL", ">Aperçu</button>"],
            [
                "Ce que ferait cet import",
                "Sessions : 29 créées, 0 mises à jour",
                "Confirmer l’import",
            ],
        ),
        (
            "de",
            [
                "Nichts wird geschrieben, bevor Sie bestätigen",
                "Oder eine URL",
                ">Vorschau</button>",
            ],
            [
                "Was dieser Import tun würde",
                "Sessions: 29 angelegt, 0 aktualisiert",
                "Import bestätigen",
            ],
        ),
    ],
)
def test_the_import_page_speaks_the_organizer_s_language(
    staff: Client, event: Event, language: str, form_words: list[str], preview_words: list[str]
) -> None:
    page = staff.get(url(event), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert [word in page for word in form_words] == [True] * len(form_words)
    answer = staff.post(
        url(event), {"action": "preview", "files": uploads()}, HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert [word in answer for word in preview_words] == [True] * len(preview_words)


def test_the_event_page_s_own_words_are_in_german(staff: Client, event: Event) -> None:
    page = staff.get(
        f"/admin/programme/event/{event.pk}/change/", HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Ein Programm importieren" in page
    assert "IANA-Name, z. B. Europe/Paris" in page
    assert "Gehminuten zwischen zwei Räumen" in page
    # The fields' labels and the models' names, not only their help.
    assert '<label class="required" for="id_walking_minutes">Gehminuten:</label>' in page
    assert '<label class="required" for="id_timezone">Zeitzone:</label>' in page
    assert ">Programm</a>" in page


def _workshop_csv(seats: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(
        "seats.csv",
        (
            "key,title,starts_at,ends_at,timezone,seats\n"
            f"ws,Workshop,2027-03-01 09:00,2027-03-01 11:00,Europe/Paris,{seats}\n"
        ).encode(),
    )


def test_fewer_seats_than_held_are_refused_unless_the_box_keeps_them(
    staff: Client, event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime

    from confsched.agenda.models import Reservation, SeatsChange
    from confsched.agenda.reservations import reserve

    monkeypatch.setattr("confsched.core.clock.now", lambda: datetime(2027, 2, 1, tzinfo=UTC))
    import_files(event, [("a.csv", _workshop_csv("2").read())])
    for name in ("ada", "bob"):
        reserve(User.objects.create_user(name), Session.objects.get(key="ws"))
    refused = staff.post(url(event), {"action": "preview", "files": [_workshop_csv("1")]})
    assert refused.status_code == 400
    assert (
        escape(
            "1 session(s) would have fewer seats than people hold: “Workshop” (ws): 1 seat(s), 2 "
            "already held."
        )
        in refused.content.decode()
    )
    shown = staff.post(
        url(event), {"action": "preview", "files": [_workshop_csv("1")], "over_seats": "on"}
    )
    assert shown.status_code == 200
    staff.post(url(event), {"action": "confirm", "token": shown.context["token"]})
    assert Session.objects.get(key="ws").seats == 1
    assert Reservation.objects.filter(status="confirmed").count() == 2
    assert list(SeatsChange.objects.values_list("before", "after", "confirmed", "by")) == [
        (2, 1, 2, "admin")
    ]
