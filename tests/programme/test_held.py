"""What speakers set themselves (issue 31): written through services/held.py, held against later
imports (conflicts named, `prefer_source` and release giving the file back its say), recorded as
versions the change log words, refused whole when a value is wrong, and carried by exports."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
import xmlschema
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from confsched.core.errors import InvalidProgrammeError
from confsched.interchange import programme as pm
from confsched.interchange.formats import FRAB_FIELDS
from confsched.programme.changes import source_label
from confsched.programme.models import Change, Event, ScheduleVersion, Session, SessionLink, Speaker
from confsched.programme.services import (
    ImportOptions,
    create_event,
    import_files,
    load_programme,
    release_held,
    render_export,
    set_session_links,
    set_speaker_fields,
)
from tests.interchange.schemas import schema_errors, schema_validator

pytestmark = pytest.mark.django_db

START = datetime(2026, 4, 7, 9, 0, tzinfo=UTC)
ADA = "ada-lovelace"
ORGANIZER_VIDEO = pm.SessionLink(url="https://youtu.be/notes", title="Recording", kind="video")
ORGANIZER_REPO = pm.SessionLink(url="https://github.com/ada/notes", title="", kind="link")
SPEAKER_SLIDES = ("https://ada.example.org/notes.pdf", "My slides", "slides")


def _programme(
    *,
    bio: str = "Wrote the first program.",
    company: str = "Analytical Engine Co",
    links: tuple[pm.SessionLink, ...] = (),
    carries=None,
) -> pm.Programme:  # noqa: ANN001
    return pm.Programme(
        name="Held", timezone="Europe/London",
        speakers=[pm.Speaker(key=ADA, name="Ada Lovelace", company=company, bio=bio)],
        sessions=[
            pm.Session(
                key="notes", title="Notes on the engine", kind="Talk", starts_at=START,
                ends_at=START + timedelta(hours=1), room="Hall",
                speakers=(pm.SessionSpeaker(ADA),), links=links,
            )
        ],
        carries=carries,
    )  # fmt: skip


@pytest.fixture
def event() -> Event:
    event = create_event(slug="held", name="Held", timezone="Europe/London")
    load_programme(event, _programme(links=(ORGANIZER_VIDEO,)))
    return Event.objects.get(pk=event.pk)


def _ada() -> Speaker:
    return Speaker.objects.select_related("event").get(event__slug="held", key=ADA)


def _words(version: ScheduleVersion) -> list[tuple[str, str]]:
    return list(Change.objects.filter(version=version).values_list("kind", "description"))


def _links() -> list[tuple[int, str, str, str, str]]:
    return list(
        SessionLink.objects.filter(session__key="notes")
        .order_by("position", "pk")
        .values_list("position", "kind", "title", "url", "held_by")
    )


def test_set_fields_holds_them_and_records_a_version_in_words(event: Event) -> None:
    before = Event.objects.get(pk=event.pk).updated_at
    version = set_speaker_fields(
        _ada(), {"bio": "  Poet of science.\n", "homepage": "https://ada.example.org/",
                 "company": "Analytical Engine Co"}, by="ada",
    )  # fmt: skip
    assert version is not None
    assert (version.number, version.source, version.by) == (2, "speaker edit by ada", "ada")
    assert _words(version) == [("details", "Ada Lovelace's profile changed: bio, homepage")]
    assert version.summary == "1 details changed"
    assert source_label(version.source) == "edited by a speaker"
    ada = _ada()
    assert (ada.bio, ada.homepage) == ("Poet of science.", "https://ada.example.org/")
    # Only what changed is held; the company was the file's already.
    assert sorted(ada.held) == ["bio", "homepage"]
    assert ada.held["bio"]["by"] == "ada"
    assert Event.objects.get(pk=event.pk).updated_at > before
    # The same values again: nothing changed, no version.
    assert set_speaker_fields(_ada(), {"bio": "Poet of science."}, by="ada") is None
    assert ScheduleVersion.objects.filter(event=event).count() == 2


def test_a_new_name_is_a_change_of_speakers_and_tells_calendars(event: Event) -> None:
    sequence = Session.objects.get(key="notes").sequence
    version = set_speaker_fields(
        _ada(), {"name": "Ada\nKing", "links": [("https://mastodon.social/@ada", "", "link")]},
        by="ada",
    )  # fmt: skip
    assert version is not None
    assert _words(version) == [
        ("speakers", "speakers now Ada King (were Ada Lovelace)"),
        ("details", "Ada King's profile changed: links"),
    ]
    assert _ada().links == [{"url": "https://mastodon.social/@ada", "title": "", "kind": "link"}]
    assert Session.objects.get(key="notes").sequence == sequence + 1


def test_an_import_keeps_held_fields_names_each_conflict_and_updates_the_rest(event: Event) -> None:
    set_speaker_fields(_ada(), {"bio": "Poet of science.", "homepage": "https://ada.example.org/"},
                       by="ada")  # fmt: skip
    report = load_programme(event, _programme(bio="The file's own words.", company="Babbage & Co"))
    ada = _ada()
    assert (ada.bio, ada.company) == ("Poet of science.", "Babbage & Co")
    # The file gives no homepage: a conflict too, the speaker's kept.
    assert ada.homepage == "https://ada.example.org/"
    assert report.conflicts == [
        "speaker 'ada-lovelace' bio: kept the speaker's “Poet of science.”; "
        "the file has “The file's own words.”",
        "speaker 'ada-lovelace' homepage: kept the speaker's “https://ada.example.org/”; "
        "the file has “”",
    ]
    assert report.speakers_updated == 1
    assert sorted(ada.held) == ["bio", "homepage"]
    # A file that agrees with the speaker: no conflict on that field.
    again = load_programme(event, _programme(bio="Poet of science.", company="Babbage & Co"))
    assert [line.split(":")[0] for line in again.conflicts] == ["speaker 'ada-lovelace' homepage"]


def test_a_long_value_is_shortened_in_the_conflict_line(event: Event) -> None:
    set_speaker_fields(_ada(), {"bio": "Mine."}, by="ada")
    report = load_programme(event, _programme(bio="x" * 100))
    assert report.conflicts == [
        f"speaker 'ada-lovelace' bio: kept the speaker's “Mine.”; the file has “{'x' * 60}…”"
    ]


def test_prefer_source_lets_the_file_win_and_releases(event: Event) -> None:
    set_speaker_fields(_ada(), {"bio": "Poet of science."}, by="ada")
    report = load_programme(event, _programme(bio="The file's own words."), prefer_source=True)
    assert report.conflicts == []
    assert report.released == [
        "speaker 'ada-lovelace' bio: the file's value replaces the speaker's"
    ]
    ada = _ada()
    assert (ada.bio, ada.held) == ("The file's own words.", {})
    # Held no more: the next import writes the file's value without a word.
    report = load_programme(event, _programme(bio="Newer words."))
    assert (report.conflicts, _ada().bio) == ([], "Newer words.")


def test_import_files_and_the_command_take_prefer_source(event: Event, tmp_path) -> None:  # noqa: ANN001
    set_speaker_fields(_ada(), {"bio": "Mine."}, by="ada")
    theirs = render_export(event, "json").replace(b'"Mine."', b'"Theirs."')
    report = import_files(event, [("schedule.json", theirs)])
    assert report.conflicts == [
        "speaker 'ada-lovelace' bio: kept the speaker's “Mine.”; the file has “Theirs.”"
    ]
    assert _ada().bio == "Mine."
    report = import_files(
        event, [("schedule.json", theirs)], options=ImportOptions(prefer_source=True)
    )
    assert report.released == [
        "speaker 'ada-lovelace' bio: the file's value replaces the speaker's"
    ]
    assert (_ada().bio, _ada().held) == ("Theirs.", {})
    set_speaker_fields(_ada(), {"bio": "Mine again."}, by="ada")
    path = tmp_path / "schedule.json"
    path.write_bytes(theirs)
    out = StringIO()
    call_command("import", str(path), event="held", stdout=out, skip_embeddings=True)
    assert (
        "  held: speaker 'ada-lovelace' bio: kept the speaker's “Mine again.”; " in out.getvalue()
    )
    out = StringIO()
    call_command(
        "import", str(path), event="held", prefer_source=True, stdout=out, skip_embeddings=True
    )
    assert (
        "  released: speaker 'ada-lovelace' bio: the file's value replaces the speaker's"
        in out.getvalue().splitlines()
    )
    assert (_ada().bio, _ada().held) == ("Theirs.", {})


def test_release_held_gives_the_field_back_to_the_next_import(event: Event) -> None:
    set_speaker_fields(_ada(), {"bio": "Poet.", "company": "Mine Ltd"}, by="ada")
    release_held(_ada(), ["bio"])
    assert sorted(_ada().held) == ["company"]
    report = load_programme(event, _programme(bio="File bio."))
    ada = _ada()
    assert (ada.bio, ada.company) == ("File bio.", "Mine Ltd")
    assert [line.split(":")[0] for line in report.conflicts] == ["speaker 'ada-lovelace' company"]
    with pytest.raises(InvalidProgrammeError, match="email: not a field a speaker sets"):
        release_held(_ada(), ["email"])


def test_speaker_links_survive_reimports_while_the_organizers_follow_the_file(
    event: Event,
) -> None:
    session = Session.objects.get(key="notes")
    assert session.has_slides is False
    version = set_session_links(session, [SPEAKER_SLIDES], by="ada")
    assert version is not None
    assert _words(version) == [("details", "slides attached; links changed")]
    assert version.source == "speaker edit by ada"
    assert _links() == [
        (0, "video", "Recording", "https://youtu.be/notes", ""),
        (1000, "slides", "My slides", "https://ada.example.org/notes.pdf", "ada"),
    ]
    # The organizer's file changes its links: theirs follow, the speaker's stay.
    report = load_programme(event, _programme(links=(ORGANIZER_REPO,)))
    assert report.updated == [("Talk: Notes on the engine", ["links"])]
    assert _links() == [
        (0, "link", "", "https://github.com/ada/notes", ""),
        (1000, "slides", "My slides", "https://ada.example.org/notes.pdf", "ada"),
    ]
    assert Session.objects.get(key="notes").has_slides is True
    # A file without links at all (and one from a format without them) leaves the speaker's.
    load_programme(event, _programme())
    load_programme(event, _programme(), is_complete=False)
    assert _links() == [(1000, "slides", "My slides", "https://ada.example.org/notes.pdf", "ada")]
    assert Session.objects.get(key="notes").has_slides is True
    # A file that names the speaker's link too (our own export read back) adds no twin.
    held = pm.SessionLink(url=SPEAKER_SLIDES[0], title="Slides", kind="slides")
    report = load_programme(event, _programme(links=(held,), carries=FRAB_FIELDS))
    assert (report.updated, report.unchanged) == ([], 1)
    assert len(_links()) == 1
    # The speaker takes theirs away: the slides go with it.
    version = set_session_links(Session.objects.get(key="notes"), [], by="ada")
    assert version is not None
    assert _words(version) == [("details", "slides removed; links changed")]
    assert _links() == []
    assert set_session_links(Session.objects.get(key="notes"), [], by="ada") is None


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"bio": "fine", "homepage": "javascript:alert(1)"},
         "homepage: “javascript:alert(1)” is not an http or https address; nothing was changed"),
        ({"avatar_url": "ftp://ada.example.org/me.png"},
         "avatar_url: “ftp://ada.example.org/me.png” is not an http or https address"),
        ({"name": " \n "}, "name: a speaker needs a name; nothing was changed"),
        ({"company": "x" * 201}, "company: longer than 200 characters; nothing was changed"),
        ({"email": "ada@example.org"}, "email: not a field a speaker sets; nothing was changed"),
        ({"bio": 7}, "bio: must be text; nothing was changed"),
        ({"links": [("https://a.example/", "", "podcast")]},
         "links: “podcast” is not a kind of link; nothing was changed"),
        ({"links": "https://a.example/"}, "links: a list of links is needed; nothing was changed"),
        ({"links": [("data:text/html,hi", "", "link")]},
         "links: “data:text/html,hi” is not an http or https address"),
    ],
)  # fmt: skip
def test_bad_values_are_refused_with_nothing_written(event: Event, values, message) -> None:  # noqa: ANN001
    row = Speaker.objects.filter(event=event).values().get()
    with pytest.raises(InvalidProgrammeError) as caught:
        set_speaker_fields(_ada(), values, by="ada")
    assert str(caught.value).startswith(message)
    assert Speaker.objects.filter(event=event).values().get() == row
    assert ScheduleVersion.objects.filter(event=event).count() == 1


def test_bad_session_links_are_refused_with_nothing_written(event: Event) -> None:
    set_session_links(Session.objects.get(key="notes"), [SPEAKER_SLIDES], by="ada")
    stored = _links()
    with pytest.raises(InvalidProgrammeError, match="links: a link needs an address"):
        set_session_links(
            Session.objects.get(key="notes"), [("https://b.example/", "", "link"), ("", "", "link")],
            by="ada",
        )  # fmt: skip
    assert _links() == stored
    assert ScheduleVersion.objects.filter(event=event).count() == 2


def test_exports_carry_the_speakers_pages_and_slides(
    event: Event, shared_dir, client: Client
) -> None:  # noqa: ANN001
    plain = {name: render_export(event, name) for name in ("json", "xml", "ics", "schedule2")}
    set_speaker_fields(
        _ada(), {"homepage": "https://ada.example.org/",
                 "links": [("https://mastodon.social/@ada", "Mastodon", "link")]}, by="ada",
    )  # fmt: skip
    set_session_links(Session.objects.get(key="notes"), [SPEAKER_SLIDES], by="ada")
    data = render_export(event, "json")
    assert schema_errors(schema_validator(shared_dir, "schema.json"), data) == []
    person = json.loads(data)["schedule"]["conference"]["days"][0]["rooms"]["Hall"][0]["persons"][0]
    assert person["url"] == "https://ada.example.org/"
    assert person["links"] == [
        {"type": "web", "title": "Mastodon", "url": "https://mastodon.social/@ada"}
    ]
    event_links = json.loads(data)["schedule"]["conference"]["days"][0]["rooms"]["Hall"][0]["links"]
    assert event_links == [
        {"type": "media", "title": "Recording", "url": "https://youtu.be/notes"},
        {"type": "slides", "title": "My slides", "url": "https://ada.example.org/notes.pdf"},
    ]
    xml = render_export(event, "xml").decode()
    xmlschema.XMLSchema(str(shared_dir / "formats" / "schedule.xml.xsd")).validate(xml)
    assert '<link href="https://ada.example.org/notes.pdf" type="slides">My slides</link>' in xml
    assert "mastodon" not in xml  # frab's <person> has no place for a person's pages
    ics = render_export(event, "ics").decode()
    assert "ATTACH:https://ada.example.org/notes.pdf" in ics.replace("\r\n ", "")
    assert (
        schema_errors(
            schema_validator(shared_dir, "schema2.json"), render_export(event, "schedule2")
        )
        == []
    )
    speaker = client.get(f"/api/v1/events/held/speakers/{ADA}").json()
    assert (speaker["homepage"], speaker["links"]) == (
        "https://ada.example.org/",
        [{"kind": "link", "title": "Mastodon", "url": "https://mastodon.social/@ada"}],
    )
    page = client.get(Session.objects.get(key="notes").get_absolute_url()).content.decode()
    performer = '"url": "https://ada.example.org/",\n   "sameAs": [\n    "https://mastodon.social/@ada"\n   ]'
    assert performer in page
    # Without pages the exports were as before.
    assert b'"url": "https://ada.example.org/"' not in plain["json"]
    assert b"homepage" not in plain["json"] + plain["xml"]


def test_a_draft_copies_the_speakers_pages(event: Event) -> None:
    from confsched.programme.services import start_draft

    set_speaker_fields(_ada(), {"homepage": "https://ada.example.org/"}, by="ada")
    draft = start_draft(Event.objects.get(pk=event.pk))
    assert Speaker.objects.get(event=draft, key=ADA).homepage == "https://ada.example.org/"


@pytest.mark.django_db(transaction=True)
def test_the_migration_leaves_existing_rows_unheld() -> None:
    executor = MigrationExecutor(connection)
    before = [("programme", "0021_teams_and_search_move_out")]
    executor.migrate(before)
    try:
        old = MigrationExecutor(connection).loader.project_state(before).apps
        event = old.get_model("programme", "Event").objects.create(
            slug="old", name="Old", timezone="UTC"
        )
        speaker = old.get_model("programme", "Speaker").objects.create(
            event=event, key="k", name="Kim", bio="Bio."
        )
        session = old.get_model("programme", "Session").objects.create(
            event=event, key="s", title="S"
        )
        old.get_model("programme", "SessionLink").objects.create(
            session=session, url="https://a.example/", kind="link"
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    row = Speaker.objects.get(pk=speaker.pk)
    assert (row.homepage, row.links, row.held, row.bio) == ("", [], {}, "Bio.")
    assert list(SessionLink.objects.filter(session__key="s").values_list("held_by", flat=True)) == [
        ""
    ]


def test_sync_keeps_held_fields_unless_told_to_prefer_the_source(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from confsched.programme.services import sync, sync_event

    set_speaker_fields(_ada(), {"bio": "Mine."}, by="ada")
    body = render_export(event, "json").replace(b'"Mine."', b'"Theirs."')
    answer = SimpleNamespace(is_not_modified=False, body=body, headers={})
    monkeypatch.setattr(sync, "fetch_url", lambda *args, **kwargs: answer)
    Event.objects.filter(pk=event.pk).update(sync_url="https://example.org/schedule.json")
    line = sync_event(Event.objects.get(pk=event.pk), allow_private=False)
    assert line.endswith(
        "; 1 field(s) speakers hold kept: speaker 'ada-lovelace' bio: kept the speaker's "
        "“Mine.”; the file has “Theirs.”"
    )
    assert _ada().bio == "Mine."
    Event.objects.filter(pk=event.pk).update(import_digest="")
    line = sync_event(Event.objects.get(pk=event.pk), allow_private=False, prefer_source=True)
    assert line.endswith("; 1 field(s) speakers held replaced by the source's")
    assert (_ada().bio, _ada().held) == ("Theirs.", {})
