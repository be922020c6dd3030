"""One id and one slug per session in every export (issue 29, item 10).

EventFahrplan keys a session (favourites, alarms) on `event/@id`; c3voc's recording tools key
on `slug`; schedule2 carries guid and slug only. schedule.xml, schedule.json and schedule2 must
give each session the same guid, id and slug, on every held-in sample, and keep them when the
programme is published again or our own export is imported back.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
import xmlschema
from defusedxml.ElementTree import fromstring

from confsched.interchange.formats import WRITERS, parse_files
from confsched.interchange.identity import export_ids, export_slug
from confsched.interchange.programme import Programme
from tests.conftest import SHARED_DIR
from tests.interchange.schemas import schema_errors as errors_of
from tests.interchange.schemas import schema_validator

SAMPLES = SHARED_DIR / "formats" / "samples"
ZONES = {
    "mttcrsp-fosdem_2007.xml": "Europe/Brussels",
    "orlando-codecamp-2020_All.json": "America/New_York",
}
# The XSD's voc-slug-new (whole value) and schema.json's slug pattern.
XSD_SLUG = re.compile(r"[a-z0-9_]{4,}-[a-z0-9\-_]{4,}")
JSON_SLUG = re.compile(r"^[a-z0-9_-]+[a-z0-9]$")
# Sessions written per sample (scheduled, not cancelled): what the exports are checked over.
WRITTEN = {
    "frab-camp2019.json": 79,
    "pretalx-democon.json": 36,
    "eventfahrplan_schedule-38c3-20251206.xml": 1007,
    "giggity_debconf23.xml": 117,
    "mttcrsp-fosdem_2007.xml": 215,
    "giggity_linux_conf_au_2020.ics": 262,
    "sched-jococruise_FullSchedule2019.ics": 395,
    "orlando-codecamp-2020_All.json": 99,
    "sessionize-demo_All.json": 11,
}


def _samples() -> list[Path]:
    return sorted(SAMPLES.glob("*/*")) if SAMPLES.is_dir() else []


def identities(
    programme: Programme, *, slug: str, validate: bool = False
) -> dict[str, tuple[int, str]]:
    """guid -> (id, slug) the same in schedule.xml, schedule.json and schedule2, or a failure
    naming the first session whose exports disagree; `validate`: each export is also checked
    as c3voc's validator checks it (the XSD, schema.json, schema2.json)."""

    def render(extension: str) -> bytes:
        data = WRITERS[extension].render(programme, slug=slug, base_url="https://testserver/")
        if validate:
            _validate(extension, data)
        return data

    xml = {
        event.get("guid"): (int(event.get("id", "0")), event.findtext("slug"))
        for event in fromstring(render("xml")).iter("event")
    }
    days = json.loads(render("json"))["schedule"]["conference"]["days"]
    v1 = {
        event["guid"]: (event["id"], event["slug"])
        for day in days
        for events in day["rooms"].values()
        for event in events
    }
    v2 = {e["guid"]: e["slug"] for e in json.loads(render("schedule2"))["schedule"]["events"]}
    assert xml.keys() == v1.keys()
    assert {guid: v1[guid][1] for guid in v2 if guid in v1} == {
        guid: slug for guid, slug in v2.items() if guid in v1
    }
    assert xml == v1
    # The xCal of frab and pentabarf (Giggity's) names each session by the same slug; it also
    # lists the cancelled sessions, which the others leave out.
    namespace = "{http://pentabarf.org}"
    in_xcal = [
        element.text
        for element in fromstring(
            WRITERS["xcal"].render(programme, slug=slug, base_url="https://testserver/")
        ).iter()
        if element.tag in (f"{namespace}event-slug", "pentabarf:event-slug")
    ]
    assert len(set(in_xcal)) == len(in_xcal)
    assert {slug for _, slug in v1.values()} <= set(in_xcal)
    return v1


def _validate(extension: str, data: bytes) -> None:
    if extension == "xml":
        xmlschema.XMLSchema(str(SHARED_DIR / "formats" / "schedule.xml.xsd")).validate(
            data.decode()
        )  # its xs:unique on event slugs among the rest
        return
    name, fractions = {"json": ("schema.json", True), "schedule2": ("schema2.json", False)}[
        extension
    ]
    errors = errors_of(schema_validator(SHARED_DIR, name, fractions=fractions), data)
    # Only what names a session: FOSDEM 2007's relative link addresses ("../../slides/…"),
    # which schema.json refuses as no 'uri', are another matter.
    assert [e for e in errors if re.search(r"'(id|guid|slug)'\]", e)] == []


@pytest.mark.parametrize("sample", _samples(), ids=lambda path: path.name)
def test_every_export_gives_a_session_one_id_and_one_slug(sample: Path) -> None:
    programme = parse_files(
        [(sample.name, sample.read_bytes())], default_timezone=ZONES.get(sample.name, "")
    )
    written = identities(programme, slug="sample", validate=True)
    assert len(written) == WRITTEN[sample.name]
    ids = [number for number, _ in written.values()]
    slugs = [slug for _, slug in written.values()]
    assert len(set(ids)) == len(ids) and len(set(slugs)) == len(slugs)
    assert [s for s in slugs if not (XSD_SLUG.fullmatch(s) and JSON_SLUG.search(s))] == []
    assert max(len(s) for s in slugs) <= 100


def test_a_source_number_is_the_id_of_every_export(shared_dir: Path) -> None:
    """FOSDEM 2007 (pentabarf) numbers its events and gives no guid: the number is the key, and
    schedule.json now carries it too (it wrote a hash of it, unlike schedule.xml)."""
    sample = shared_dir / "formats" / "samples" / "frab-xml" / "mttcrsp-fosdem_2007.xml"
    programme = parse_files(
        [(sample.name, sample.read_bytes())], default_timezone=ZONES[sample.name]
    )
    written = identities(programme, slug="fosdem-2007")
    numbered = sorted(written.values())
    assert numbered[0] == (1, "fosdem-2007-1-bacula")
    keys = sorted(int(s.key) for s in programme.sessions if s.starts_at)
    assert (len(keys), keys[:2]) == (215, [0, 1])
    # Every number is its own id but 0, which no 32-bit id may be: it gets a hash, as before.
    assert sorted(n for n, _ in numbered if n < 2**16) == keys[1:]


def test_ids_claim_their_numbers_first_and_do_not_move_when_others_go() -> None:
    ids = export_ids(["talk-b", "7", "talk-a"])
    assert ids["7"] == 7
    # A hashed key that lands on a number a numbered key holds is rehashed, whatever the order.
    clash = next(f"k{n}" for n in range(10**6) if export_ids([f"k{n}"])[f"k{n}"] < 2**16)
    number = export_ids([clash])[clash]
    both = export_ids([clash, str(number)])
    assert both[str(number)] == number and both[clash] != number
    assert export_ids(["talk-a", "talk-b"]) == {k: ids[k] for k in ("talk-a", "talk-b")}


def test_a_slug_fits_both_schemas_whatever_the_event_slug_or_title() -> None:
    assert export_slug("py-conf", number=5, title="") == "py_conf-5-talk"
    assert export_slug("ab", number=12, title="张伟") == "ab__-12-talk"
    assert export_slug("38c3", number=12345, title="Ein Vortrag über Ö") == (
        "38c3-12345-ein-vortrag-uber-o"
    )
    assert export_slug("pytorch-conference-europe-2026", number=9, title="A " * 80) == (
        "pytorch-conference-europe-2026-9" + "-a" * 33  # 98 characters: whole words
    )


@pytest.mark.django_db
def test_ids_and_slugs_hold_across_releases_and_our_own_file_read_back(shared_dir: Path) -> None:
    from confsched.programme.models import Session
    from confsched.programme.services import create_event, load_programme, snapshot

    sample = shared_dir / "formats" / "samples" / "frab-xml" / "mttcrsp-fosdem_2007.xml"
    event = create_event(slug="fosdem-2007", name="FOSDEM 2007", timezone="Europe/Brussels")
    programme = parse_files(
        [(sample.name, sample.read_bytes())], default_timezone="Europe/Brussels"
    )
    load_programme(event, programme)
    first = identities(snapshot(event), slug=event.public_slug)
    assert len(first) == 215

    # Our own schedule.json read back: the same sessions, the same ids and slugs.
    own = WRITERS["json"].render(snapshot(event), slug=event.public_slug, base_url="https://x.org/")
    load_programme(event, parse_files([("schedule.json", own)]))
    assert identities(snapshot(event), slug=event.public_slug) == first

    # A release that cancels one session moves no other session's id or slug.
    gone = Session.objects.filter(event=event).order_by("key").first()
    assert gone is not None
    load_programme(
        event, replace(programme, sessions=[s for s in programme.sessions if s.key != gone.key])
    )
    after = identities(snapshot(event), slug=event.public_slug)
    assert len(after) == 214
    assert after == {guid: pair for guid, pair in first.items() if guid in after}
