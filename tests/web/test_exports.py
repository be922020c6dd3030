"""Every format in and out through the database: served exports validate, and round trips hold."""

from __future__ import annotations

import json
from io import StringIO
from urllib.parse import urlsplit

import jsonschema
import pytest
import xmlschema
from defusedxml.ElementTree import fromstring
from django.core.management import call_command
from django.test import Client

from confsched.interchange.c3voc import read as c3voc_json
from confsched.interchange.csv import read as csv_format
from confsched.interchange.frab import read as frab_xml
from confsched.interchange.ical import read as ical_reader
from confsched.interchange.ical import xcal_read as xcal
from confsched.programme.services import create_event, load_programme, snapshot
from tests.conftest import DEMO_SLUG

pytestmark = pytest.mark.django_db

BASE = f"/{DEMO_SLUG}/"

# What each format carries, compared after parse -> load -> export -> parse.
CARRIED = {
    "csv": (
        "key",
        "title",
        "kind",
        "starts_at",
        "ends_at",
        "room",
        "track",
        "level",
        "language",
        "abstract",
        "has_slides",
    ),
    "ics": ("key", "title", "kind", "starts_at", "ends_at", "room", "track", "abstract"),
    "xcal": ("key", "title", "kind", "starts_at", "ends_at", "room", "track", "abstract"),
    "rfc6321.xcal": ("key", "title", "kind", "starts_at", "ends_at", "room", "track", "abstract"),
    "xml": ("title", "starts_at", "ends_at", "room", "language"),
    "json": ("title", "starts_at", "ends_at", "room", "language"),
}


def _fields(sessions, names):  # noqa: ANN001, ANN202
    return sorted(
        tuple(getattr(s, n) for n in names) for s in sessions if s.starts_at and not s.needs_review
    )


@pytest.mark.parametrize(
    ("extension", "content_type"),
    [
        ("xml", "application/xml; charset=utf-8"),
        ("json", "application/json; charset=utf-8"),
        ("xcal", "application/xml; charset=utf-8"),
        ("rfc6321.xcal", "application/calendar+xml; charset=utf-8"),
        ("csv", "text/csv; charset=utf-8"),
        ("ics", "text/calendar; charset=utf-8"),
    ],
)
def test_exports_are_served_with_their_type_and_answer_304(
    client: Client, demo_event, extension: str, content_type: str
) -> None:
    response = client.get(f"{BASE}schedule.{extension}")
    assert (response.status_code, response["Content-Type"]) == (200, content_type)
    again = client.get(f"{BASE}schedule.{extension}", headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304


def test_an_unknown_export_is_404(client: Client, demo_event) -> None:
    assert client.get(f"{BASE}schedule.pdf").status_code == 404


@pytest.mark.parametrize(
    ("extension", "parse"),
    [
        ("csv", csv_format.parse),
        ("ics", ical_reader.parse),
        ("xcal", xcal.parse),
        ("rfc6321.xcal", xcal.parse),
        ("xml", frab_xml.parse),
        ("json", c3voc_json.parse),
    ],
)
def test_demo_round_trip_through_the_database(
    client: Client, demo_event, demo_programme, extension: str, parse
) -> None:  # noqa: ANN001
    body = client.get(f"{BASE}schedule.{extension}").content
    options = {"source": f"schedule.{extension}"}
    if extension in {"ics", "xcal", "rfc6321.xcal"}:
        options.update(uid_domain=demo_event.uid_domain, location="Paris, France")
    back = parse(body, **options)
    names = CARRIED[extension]
    assert _fields(back.sessions, names) == _fields(demo_programme.sessions, names)
    assert len([s for s in back.sessions if s.starts_at]) == 28


@pytest.mark.shared
def test_served_xml_validates_against_the_frab_schema(
    client: Client, demo_event, shared_dir
) -> None:  # noqa: ANN001
    schema = xmlschema.XMLSchema(str(shared_dir / "formats" / "schedule.xml.xsd"))
    schema.validate(client.get(f"{BASE}schedule.xml").content.decode())


@pytest.mark.shared
def test_served_json_validates_against_the_c3voc_schema(
    client: Client, demo_event, shared_dir
) -> None:  # noqa: ANN001
    schema = json.loads((shared_dir / "formats" / "schema.json").read_text())
    jsonschema.validate(client.get(f"{BASE}schedule.json").json(), schema)


SAMPLES = [
    ("frab-xml/giggity_debconf23.xml", "", 117),
    ("frab-xml/mttcrsp-fosdem_2007.xml", "Europe/Brussels", 215),
    ("frab-xml/eventfahrplan_schedule-38c3-20251206.xml", "", 1007),
    ("c3voc-json/pretalx-democon.json", "", 36),
    ("c3voc-json/frab-camp2019.json", "", 79),
    ("sessionize/orlando-codecamp-2020_All.json", "America/New_York", 99),
    ("sessionize/sessionize-demo_All.json", "UTC", 11),
    ("ics/sched-jococruise_FullSchedule2019.ics", "", 395),
    ("ics/giggity_linux_conf_au_2020.ics", "", 262),
]


@pytest.mark.shared
@pytest.mark.parametrize(("sample", "zone", "count"), SAMPLES)
def test_every_sample_imports_by_detection_and_again_changes_nothing(
    shared_dir, sample: str, zone: str, count: int
) -> None:  # noqa: ANN001
    path = str(shared_dir / "formats" / "samples" / sample)
    options = ["--event", "sample", "--timezone", zone or "UTC"]
    out = StringIO()
    call_command("import", *options, path, stdout=out)
    assert f"{count} sessions created, 0 updated, 0 unchanged, 0 cancelled" in out.getvalue()
    again = StringIO()
    call_command("import", *options, path, stdout=again)
    assert f"0 sessions created, 0 updated, {count} unchanged, 0 cancelled" in again.getvalue()
    assert "Nothing changed: no new schedule version." in again.getvalue()


@pytest.mark.shared
@pytest.mark.parametrize(
    ("sample", "extension", "parse"),
    [
        ("frab-xml/eventfahrplan_schedule-38c3-20251206.xml", "xml", frab_xml.parse),
        ("c3voc-json/pretalx-democon.json", "json", c3voc_json.parse),
    ],
)
def test_sample_round_trip_keeps_keys(
    client: Client, shared_dir, sample: str, extension: str, parse
) -> None:  # noqa: ANN001
    data = (shared_dir / "formats" / "samples" / sample).read_bytes()
    original = parse(data, source=sample)
    event = create_event(slug="rt", name="RT", timezone=original.timezone or "UTC")
    load_programme(event, original)
    back = parse(client.get(f"/rt/schedule.{extension}").content, source="back")
    names = ("key", "title", "starts_at", "ends_at", "room", "language")
    assert _fields(back.sessions, names) == _fields(original.sessions, names)


def test_export_command_writes_what_the_site_serves(demo_event, tmp_path) -> None:  # noqa: ANN001
    for extension in ("csv", "xml", "json", "xcal", "rfc6321.xcal", "ics"):
        target = tmp_path / f"out.{extension}"
        call_command(
            "export",
            "--event",
            DEMO_SLUG,
            "--format",
            extension,
            "--output",
            str(target),
            stderr=StringIO(),
        )
        served = Client().get(f"{BASE}schedule.{extension}").content
        if extension == "csv":  # no links in CSV: byte for byte the same
            assert target.read_bytes() == served
        else:  # the command has no site address for links; the sessions are the same
            parse = {
                "xml": frab_xml.parse,
                "json": c3voc_json.parse,
                "xcal": xcal.parse,
                "rfc6321.xcal": xcal.parse,
                "ics": ical_reader.parse,
            }[extension]
            names = CARRIED[extension]
            assert _fields(parse(target.read_bytes(), source="cli").sessions, names) == _fields(
                parse(served, source="web").sessions, names
            )


def _links(extension: str, body: bytes) -> tuple[list[str], list[str]]:
    """The event page(s) and the session URLs an export writes."""
    if extension == "xml":
        root = fromstring(body)
        return [root.findtext("conference/base_url")], [e.text for e in root.iter("url")]
    schedule = json.loads(body)["schedule"]
    events = [
        event
        for day in schedule["conference"]["days"]
        for room in day["rooms"].values()
        for event in room
    ]
    pages = [schedule["base_url"], schedule["conference"]["url"]]
    return pages, [event["url"] for event in events]


@pytest.mark.parametrize("extension", ["xml", "json"])
def test_served_exports_link_each_session_to_its_page(
    client: Client, demo_event, extension: str
) -> None:  # noqa: ANN001
    pages, urls = _links(extension, client.get(f"{BASE}schedule.{extension}").content)
    assert set(pages) == {f"http://testserver{BASE}"}
    assert len(urls) == 28
    assert [url for url in urls if not url.startswith(f"http://testserver{BASE}sessions/")] == []
    paths = [urlsplit(url).path for url in [*pages, *urls]]
    assert [(path, client.get(path).status_code) for path in paths] == [
        (path, 200) for path in paths
    ]


@pytest.mark.parametrize("extension", ["xml", "json"])
def test_export_command_links_each_session_to_its_page(
    client: Client, demo_event, tmp_path, extension: str
) -> None:  # noqa: ANN001
    target = tmp_path / f"schedule.{extension}"
    call_command(
        "export", "--event", DEMO_SLUG, "--format", extension, "--base-url",
        "https://confsched.example", "--output", str(target), stderr=StringIO(),
    )  # fmt: skip
    pages, urls = _links(extension, target.read_bytes())
    assert set(pages) == {f"https://confsched.example{BASE}"}
    assert len(urls) == 28
    assert [u for u in urls if not u.startswith(f"https://confsched.example{BASE}sessions/")] == []
    paths = [urlsplit(url).path for url in urls]
    assert [(path, client.get(path).status_code) for path in paths] == [
        (path, 200) for path in paths
    ]


def test_snapshot_carries_rooms_in_order(demo_event) -> None:
    assert snapshot(demo_event).rooms == [
        "Central Room",
        "Founders Cafe",
        "Junior Stage",
        "Master Stage",
    ]


def test_import_refuses_mixed_formats_and_two_single_file_programmes(tmp_path, demo_event) -> None:  # noqa: ANN001
    from django.core.management import CommandError

    ics = tmp_path / "a.ics"
    ics.write_bytes(Client().get(f"{BASE}schedule.ics").content)
    csv = tmp_path / "b.csv"
    csv.write_bytes(Client().get(f"{BASE}schedule.csv").content)
    with pytest.raises(CommandError) as caught:
        call_command("import", "--event", DEMO_SLUG, str(ics), str(csv), stdout=StringIO())
    assert (
        str(caught.value)
        == "b.csv: is csv but a.ics is ical; import one format at a time\nNothing was imported."
    )
    with pytest.raises(CommandError) as caught:
        call_command("import", "--event", DEMO_SLUG, str(ics), str(ics), stdout=StringIO())
    assert (
        str(caught.value)
        == "a.ics: ical holds a whole programme in one file: import one file at a time\nNothing was imported."
    )


@pytest.mark.parametrize("extension", ["ics", "xcal", "rfc6321.xcal", "xml", "json", "csv"])
def test_reimporting_our_own_export_changes_nothing(demo_event, tmp_path, extension: str) -> None:  # noqa: ANN001
    path = tmp_path / f"schedule.{extension}"
    path.write_bytes(Client().get(f"{BASE}schedule.{extension}").content)
    out = StringIO()
    call_command("import", "--event", DEMO_SLUG, str(path), stdout=out)
    lines = out.getvalue().splitlines()
    # The flagged session page is in no export; its absence says nothing, so nothing changes.
    assert lines[0] == (
        f"Imported 1 file(s) into {DEMO_SLUG}: 0 sessions created, 0 updated, 28 unchanged, "
        "0 cancelled, 0 flagged for review; speakers 0 created, 0 updated."
    )
    assert lines[1] == "Nothing changed: no new schedule version."
    assert not [line for line in lines if "warning" in line]


def test_served_calendars_fold_at_75_octets_and_escape_the_name(client: Client, demo_event) -> None:
    demo_event.name = "PyTorch Conférence, Europe; 2026 — 日本語"
    demo_event.save()
    body = client.get(f"{BASE}schedule.ics").content
    lines = body.split(b"\r\n")
    assert max(len(line) for line in lines) <= 75
    assert [line.decode("utf-8") for line in lines if b"CALNAME" in line] == [
        "X-WR-CALNAME:PyTorch Conférence\\, Europe\\; 2026 — 日本語"
    ]
